import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// Clients of the stream endpoint over raw TCP, and the memory of the process that serves them: a
// client that sends its request, reads the head and then nothing more is what a listener who
// stops reading costs the service (api-v1.md, "A listener who stops reading").

/** A stream request's client, once the 200 head has come. */
export interface StreamClient {
  readonly socket: Socket;
  /** The body as read so far (nothing for a client that stopped reading). */
  readonly body: () => Buffer;
  /** A stalled client reads again, from where it stopped, to the end. */
  readonly resume: () => void;
  /** Resolves once the connection has closed. */
  readonly closed: Promise<void>;
}

/**
 * How the client reads the body after the head: `stalled` reads nothing more (the socket is
 * paused, the kernel takes what fits in its buffers); `whole` reads as it comes; `slow` reads
 * `bytes` then stops for `ms`, again and again, so that the service's socket fills and drains.
 */
export type Reading =
  | { readonly kind: 'stalled' }
  | { readonly kind: 'whole' }
  | { readonly kind: 'slow'; readonly bytes: number; readonly ms: number };

/**
 * POSTs `body` to `path` of `base` with `key` (as `Authorization: Bearer`, or in the header
 * `keyHeader` names, as a compatible API takes it) and resolves once the service answered 200
 * (rejects with its head otherwise), reading on as `reading` says. The body is chunked: `body()`
 * gives it as the bytes of its chunks, decoded.
 */
export function streamClient(
  base: string,
  path: string,
  key: string,
  body: unknown,
  reading: Reading,
  keyHeader = 'Authorization',
): Promise<StreamClient> {
  const url = new URL(base);
  const payload = Buffer.from(JSON.stringify(body));
  const socket = connect(Number(url.port), url.hostname);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  let head = Buffer.alloc(0);
  const parts: Buffer[] = [];
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    let sinceStop = 0;
    let headRead = false;
    socket.on('data', (chunk: Buffer) => {
      if (!headRead) {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        headRead = true;
        parts.push(head.subarray(end + 4));
        const status = head.subarray(0, end).toString('latin1');
        if (!/^HTTP\/1\.1 200 /.test(status)) {
          socket.destroy();
          reject(new Error(`${path} answered ${status.slice(0, 400)}`));
          return;
        }
        // Errors after this (the service resetting a stalled connection) are the service's business.
        socket.on('error', () => {});
        if (reading.kind === 'stalled') {
          socket.pause();
          socket.removeAllListeners('data');
        }
        const resume = () => {
          socket.on('data', (more: Buffer) => parts.push(more));
          socket.resume();
        };
        resolve({ socket, body: () => dechunk(Buffer.concat(parts)), resume, closed });
        return;
      }
      parts.push(chunk);
      if (reading.kind !== 'slow') return;
      sinceStop += chunk.byteLength;
      if (sinceStop < reading.bytes) return;
      sinceStop = 0;
      socket.pause();
      setTimeout(() => socket.resume(), reading.ms);
    });
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\n` +
        `${keyHeader}: ${keyHeader === 'Authorization' ? `Bearer ${key}` : key}\r\n` +
        `Content-Type: application/json\r\nConnection: close\r\nContent-Length: ${payload.byteLength}\r\n\r\n`,
    );
    socket.write(payload);
  });
}

/** The data of a chunked body (as much of it as is whole). */
function dechunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const line = bytes.indexOf('\r\n', at);
    if (line < 0) break;
    const size = Number.parseInt(bytes.subarray(at, line).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0 || line + 2 + size > bytes.byteLength) break;
    parts.push(bytes.subarray(line + 2, line + 2 + size));
    at = line + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** This process's memory, in MB: resident, V8's heap, and the bytes of its ArrayBuffers (audio). */
export interface MemorySample {
  readonly rssMb: number;
  readonly heapMb: number;
  readonly buffersMb: number;
}

let collect: (() => void) | undefined;

/** A full garbage collection, whether or not Node was started with --expose-gc. */
function fullGc(): void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}

/** The process's memory after garbage collection, once `settleMs` have passed. */
export async function memorySample(settleMs = 500): Promise<MemorySample> {
  await sleep(settleMs);
  fullGc();
  await sleep(20);
  fullGc();
  const usage = process.memoryUsage();
  const mb = (bytes: number) => bytes / 1024 / 1024;
  return { rssMb: mb(usage.rss), heapMb: mb(usage.heapUsed), buffersMb: mb(usage.arrayBuffers) };
}

/** The contract's bound on the audio a stalled stream, context or connection holds, in MB. */
export const STALLED_BOUND_MB = 0.5;
/** Resident memory a stalled stream may add: the connection's own objects and allocator noise. */
export const STALLED_RSS_BOUND_MB = 4;

/** A memory sample as a failing assertion shows it. */
export const showMemory = (sample: MemorySample): string =>
  `rss ${sample.rssMb.toFixed(1)} MB, heap ${sample.heapMb.toFixed(1)} MB, buffers ${sample.buffersMb.toFixed(1)} MB`;

/** A round of clients that stop reading, and the bounds on what each may cost the process. */
export interface StallRound {
  readonly base: string;
  readonly path: string;
  readonly body: unknown;
  /** A key for each client (one key may make 30 requests a minute). */
  readonly key: () => string;
  /** The header the key goes in, as `streamClient` takes it. */
  readonly keyHeader?: string;
  readonly count: number;
  /** The bytes the service has written to its connections, and whether its pool is idle. */
  readonly written: () => number;
  readonly idle: () => boolean;
  /** The process's memory before the round. */
  readonly reference: MemorySample;
}

/**
 * `round.count` clients send their request and stop reading after the head; once nothing more
 * goes out to them (for a second: no byte written, the pool idle; a stream that never stops is
 * caught by the bound after 30 s), asserts the memory they take a client under the bounds above and
 * resolves the clients, still open, and that memory. On a failed assertion they are hung up.
 */
export async function stallClients(
  round: StallRound,
): Promise<{ clients: StreamClient[]; held: MemorySample }> {
  const clients: StreamClient[] = [];
  try {
    for (let i = 0; i < round.count; i++)
      clients.push(
        await streamClient(
          round.base,
          round.path,
          round.key(),
          round.body,
          { kind: 'stalled' },
          round.keyHeader,
        ),
      );
    let last = -1;
    const since = performance.now();
    for (let still = 0; still < 5 && performance.now() - since < 30_000; ) {
      await sleep(200);
      const now = round.written();
      still = now === last && round.idle() ? still + 1 : 0;
      last = now;
    }
    const held = await memorySample();
    const perClient = (field: keyof MemorySample) => (held[field] - round.reference[field]) / round.count;
    const seen = `${round.count} stalled: ${showMemory(round.reference)} -> ${showMemory(held)}`;
    assert.ok(perClient('buffersMb') < STALLED_BOUND_MB, seen);
    assert.ok(perClient('rssMb') < STALLED_RSS_BOUND_MB, seen);
    return { clients, held };
  } catch (error) {
    for (const client of clients) client.socket.destroy();
    throw error;
  }
}
