import type { ServerResponse } from 'node:http';
import type { SynthesisEvent, WordTiming } from '../speech/synthesize.ts';

// How a stream's audio after its first write goes to the socket: audio that comes in one turn of
// the event loop (the parts of a cached clause, a worker's messages that queued up while the
// request thread was busy) goes in one write. Every write is a system call, and on loopback or to
// a local proxy the kernel delivers it to the reader within that call: in a burst of new calls on
// the same cores (a receptionist's lines all ringing at once) the writes are, after the garbage
// collector, the request thread's largest cost. A write carries up to `MAX_WRITE_BYTES`, though:
// audio that comes faster than that in one turn (a cached clause's parts, all there at once; with
// the cache on, a whole stream) is written as it reaches it, and no more is taken from synthesis
// until the socket drains, so that a client that stops reading is not given the rest of its stream
// in the process's memory (api-v1.md, "A listener who stops reading"). Only what the socket has not
// taken is bounded here: synthesis keeps its own pace (a clause ahead) for every reader.

/**
 * Bytes of body gathered into one write before it goes out. What a stream whose client stops
 * reading holds in its response is then at most the socket's high-water mark, one write and the
 * one event that went over it (a pool part of a tenth of a second, or a pause).
 */
export const MAX_WRITE_BYTES = 32 * 1024;

/**
 * Bytes of body, at most, in a stream's first write (after the head). Whether a client was given
 * its first audio is read from that write (`stream-reply.ts`): a reset seen right after it means
 * the audio was never read. That holds only if a client that read any of it read all of it, so
 * the first write is no larger than one read of any client (and the kernel takes it at once): a
 * first audio made whole (a neural voice's clause, 2.6 s of 24 kHz PCM is 125 KB) is otherwise
 * read in part by a caller who then hangs up with the rest unread, resetting the connection, and
 * the caller who heard a second of it was refunded. The rest of it is the first later write.
 */
export const FIRST_WRITE_BYTES = 2048;

/** Audio made before the later writes began, written first by `sendLaterAudio`. */
export interface LeadingAudio {
  readonly bytes: Uint8Array;
  /** Its share of the audio's seconds. */
  readonly seconds: number;
}

/**
 * The first write of a body whose first part (`body.first`'s bytes, standing for `seconds` of
 * audio) is `bytes`: at most `FIRST_WRITE_BYTES`, and what is left for the later writes. The split
 * is of bytes only: the body a client reads is the same.
 */
export function splitFirstWrite(
  bytes: Uint8Array,
  seconds: number,
): { readonly first: Uint8Array; readonly leading?: LeadingAudio } {
  if (bytes.byteLength <= FIRST_WRITE_BYTES) return { first: bytes };
  const rest = bytes.subarray(FIRST_WRITE_BYTES);
  return {
    first: bytes.subarray(0, FIRST_WRITE_BYTES),
    leading: { bytes: rest, seconds: (seconds * rest.byteLength) / bytes.byteLength },
  };
}

/** How a stream's audio is written into its response body. */
export interface StreamBody {
  /** The first write: what precedes the audio (a WAV header, say) and the first audio. */
  first(audio: Uint8Array): Uint8Array;
  /** Each later part of the audio. */
  next(audio: Uint8Array): Uint8Array;
  /** What ends the body after the last audio (an SSE event, say), if anything. */
  last(): Uint8Array | undefined;
  /** What a clause's word timings add to the body, if anything (the call must ask for words). */
  words?(words: readonly WordTiming[]): Uint8Array | undefined;
}

/**
 * Writes the rest of a stream's audio as it comes (`leading` first: what the first write left of
 * the first audio), what comes in one turn in one write of up to `MAX_WRITE_BYTES` (a slow reader
 * pauses synthesis instead of filling memory: no event is taken while a write waits for the socket
 * to drain), then runs `finish` and ends the body with `body.last()`; resolves the audio's
 * duration in seconds. `delivered` counts, as it goes, the seconds of audio handed to the
 * connection (a write Node reports done), which is what a client that hangs up was given; it
 * starts at the first audio's, `leading`'s share included until its write is done. A client that
 * takes nothing for `stallMs` while a write waits is disconnected.
 */
export async function sendLaterAudio(
  raw: ServerResponse,
  events: AsyncIterator<SynthesisEvent>,
  body: StreamBody,
  finish: () => Promise<void>,
  delivered: { seconds: number },
  stallMs = Number.POSITIVE_INFINITY,
  leading?: LeadingAudio,
): Promise<number> {
  let seconds = 0;
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  let heldSeconds = 0;
  let immediate: NodeJS.Immediate | undefined;
  let drained: Promise<void> | undefined;
  const untilDrained = () =>
    new Promise<void>((resolve) => {
      // A client that takes nothing for `stallMs` (a line that dropped without a FIN, a client
      // that stopped) is disconnected: its call, its voice and its memory are given back.
      const stalled = Number.isFinite(stallMs)
        ? setTimeout(() => raw.destroy(new Error('the client stopped reading')), stallMs)
        : undefined;
      const done = () => {
        clearTimeout(stalled);
        raw.off('drain', done);
        raw.off('close', done);
        drained = undefined;
        resolve();
      };
      raw.once('drain', done);
      raw.once('close', done);
    });
  const write = () => {
    if (immediate) clearImmediate(immediate);
    immediate = undefined;
    if (held.length === 0) return;
    const bytes = held.length === 1 ? (held[0] as Uint8Array) : Buffer.concat(held);
    const audioSeconds = heldSeconds;
    held = [];
    heldBytes = 0;
    heldSeconds = 0;
    const handed = raw.write(bytes, (error) => {
      if (!error) delivered.seconds += audioSeconds;
    });
    // A socket already destroyed (the client gone before this write) refuses it and will emit
    // neither 'drain' nor 'close' again: waiting would hold the call open for good.
    if (!handed && !raw.destroyed) drained ??= untilDrained();
  };
  try {
    if (leading !== undefined) {
      delivered.seconds -= leading.seconds;
      held.push(leading.bytes);
      heldBytes += leading.bytes.byteLength;
      heldSeconds += leading.seconds;
      write();
      if (drained) await drained;
    }
    for (;;) {
      const result = await events.next();
      if (result.done) break;
      const event = result.value;
      if (event.type === 'audio') {
        const bytes = body.next(event.bytes);
        held.push(bytes);
        heldBytes += bytes.byteLength;
        heldSeconds += event.seconds;
        if (heldBytes >= MAX_WRITE_BYTES) write();
        else immediate ??= setImmediate(write);
        if (drained) await drained;
      } else if (event.type === 'words') {
        const timed = body.words?.(event.words);
        if (timed !== undefined) {
          held.push(timed);
          immediate ??= setImmediate(write);
        }
      } else if (event.type === 'end') {
        seconds = event.seconds;
      }
    }
    write();
    if (drained) await drained;
  } finally {
    if (immediate) clearImmediate(immediate);
  }
  await finish();
  raw.end(body.last());
  return seconds;
}
