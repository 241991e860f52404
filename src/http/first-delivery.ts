import type { Socket } from 'node:net';

// Whether a transport's first audio reached its client: the verdict the charge rule rests on (a
// client gone before its first audio byte pays nothing; `calls/README.md`), the same on an HTTP
// stream and a live WebSocket.

/**
 * Writes the first audio with `write` and resolves whether it reached a client that was still
 * there. What "not delivered" can be known as: the write's callback reports an error (the peer
 * reset the connection), the transport closes or the client goes (`watchGone`) before that
 * callback (which Node calls once the bytes are in the kernel's send buffer), or, by the event
 * loop's next poll after it, a reset: read as an error (a client that closed with the audio
 * unread), or found behind a FIN by `probeReset` (a client whose socket was closed before the
 * audio reached it: its kernel answered the audio with a reset). A FIN with no reset behind it is
 * a client that read the audio and hung up, or one that half-closed and reads on: the charge
 * stands. On loopback or a local proxy the reset comes back within the write; across a network it
 * comes a round trip later, after the poll, and the charge stands (a hang-up that crossed the
 * audio in flight cannot be told from one that heard it).
 *
 * The verdict holds only for a first write that a client reading any of it reads whole (small:
 * `FIRST_WRITE_BYTES`), with nothing written after it until the verdict is in: a client that read
 * part and hung up would otherwise leave the rest unread and reset the connection. Call it only
 * on an open transport: on a closed or ended socket Node drops the write and never calls back.
 *
 * `watchGone(gone)` calls `gone` when the transport closes or the call is given up, and returns
 * what stops watching.
 */
export function firstAudioDelivered(
  socket: Socket | null,
  write: (done: (error?: Error | null) => void) => void,
  watchGone: (gone: () => void) => () => void,
): Promise<boolean> {
  return new Promise((resolve) => {
    let probing: Promise<boolean> | undefined;
    const gone = () => settle(false);
    // Runs before the transport's own handler, which ends the server's half and would hide the reset.
    const onFin = () => {
      probing = probeReset(socket);
    };
    let unwatch: (() => void) | undefined;
    const settle = (handed: boolean) => {
      unwatch?.();
      unwatch = undefined;
      socket?.off('error', gone);
      socket?.off('end', onFin);
      resolve(handed);
    };
    unwatch = watchGone(gone);
    write((error) => {
      if (error !== undefined && error !== null) return settle(false);
      // From here a close is no sign: a client that read the audio and hung up at once closes
      // too. A reset is (read as an error), and a FIN is asked whether a reset followed it.
      unwatch?.();
      unwatch = undefined;
      socket?.once('error', gone);
      socket?.prependOnceListener('end', onFin);
      pollSockets()
        .then(() => probing ?? true)
        .then((open) => settle(open && (socket?.errored === null || socket?.errored === undefined)));
    });
  });
}

/**
 * Whether a connection whose FIN was just read still takes writes: a write of no bytes reaches
 * the kernel, which refuses it when the peer answered the audio with a reset (a client whose
 * socket was closed when the audio came), and takes it when the peer only half-closed, or read
 * the audio and then closed (nothing was sent after that for it to reset).
 */
function probeReset(socket: Socket | null): Promise<boolean> {
  return new Promise((resolve) => {
    if (socket === null || !socket.writable) return resolve(false);
    socket.write(new Uint8Array(0), (error) => resolve(error === undefined || error === null));
  });
}

/** Resolves after the event loop's next poll of the sockets (two turns of its check phase). */
function pollSockets(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}
