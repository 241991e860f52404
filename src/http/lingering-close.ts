import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The most of a refused body read and thrown away after its answer. Bodies up to this size get
 * their error in every client; a client sending more is cut off once it has (it gets a reset, as
 * from nginx past its lingering limits).
 */
export const LINGER_MAX_BYTES = 32 * 1024 * 1024;
/** How long the rest of a refused body may take to arrive (nginx's `lingering_time`). */
const LINGER_MS = 30_000;
/**
 * How long the connection waits for more of the body before it is closed (nginx's
 * `lingering_timeout`, shorter): a client that declared a body and sends nothing more (curl, which
 * waits for the answer first) is not kept for 30 s.
 */
const LINGER_IDLE_MS = 2_000;

/**
 * Keeps reading, and throws away, the rest of a body the app has refused before reading it (413
 * `body_too_large`), as nginx's lingering close does. Closing a socket with unread input makes the
 * kernel reset the connection, and a client that writes its whole body before it reads the
 * answer (Node's fetch, Python's urllib) then sees a broken pipe instead of the error. The
 * connection is kept for the next request once the body is through (the framework would have
 * closed it), and dropped when the body passes `LINGER_MAX_BYTES` (or declares more), takes
 * longer than 30 s, or stops coming for 2 s. Call it before the error is sent.
 */
export function discardRefusedBody(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw;
  if (raw.complete || raw.destroyed) return;
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > LINGER_MAX_BYTES) return;
  const socket = raw.socket;
  // Read past its end, the body leaves the connection ready for the next request.
  reply.removeHeader('connection');
  let read = 0;
  const cutOff = () => socket.destroy();
  const timer = setTimeout(cutOff, LINGER_MS);
  timer.unref();
  const idle = setTimeout(cutOff, LINGER_IDLE_MS);
  idle.unref();
  const onData = (chunk: Buffer) => {
    read += chunk.byteLength;
    if (read > LINGER_MAX_BYTES) cutOff();
    idle.refresh();
  };
  const done = () => {
    clearTimeout(timer);
    clearTimeout(idle);
    raw.off('data', onData);
  };
  raw.on('data', onData);
  raw.once('end', done);
  raw.once('close', done);
  raw.resume();
}
