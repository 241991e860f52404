import type { ServerResponse } from 'node:http';
import type { SynthesisEvent } from '../speech/synthesize.ts';

// How a stream's audio after its first write goes to the socket. Two rules, both for a burst of
// new calls on the same cores (a receptionist's lines all ringing at once):
//
// - Audio that comes in one turn of the event loop (the parts of a cached clause, a worker's
//   messages that queued up) goes in one write: every write is a system call, and on loopback the
//   kernel delivers it to the reader within that call.
// - While new calls wait (a request arrived just now, or a new call's first clause waits for its
//   first audio: `EnginePool.newCallsWaiting`), audio that a listener needs only later waits
//   too, as long as that listener keeps `IN_HAND_KEPT_SECONDS` of audio in hand (written and not
//   yet played, counted at real time from its first byte) and no more than `MOST_HELD_SECONDS`
//   waits: the request thread serves the new callers' first audio first. What waited goes in one
//   write once new calls no longer wait, or when the listener's audio in hand comes down to the
//   kept amount, whichever is first.

/** The audio a listener keeps in hand while its later audio waits for new calls. */
export const IN_HAND_KEPT_SECONDS = 1;
/** The most audio of one stream that waits, however long new calls wait. */
export const MOST_HELD_SECONDS = 2;
/** How often a stream whose audio waits looks again whether new calls still wait, in ms. */
const RECHECK_MS = 10;

/** How a stream's audio is written into its response body. */
export interface StreamBody {
  /** The first write: what precedes the audio (a WAV header, say) and the first audio. */
  first(audio: Uint8Array): Uint8Array;
  /** Each later part of the audio. */
  next(audio: Uint8Array): Uint8Array;
  /** What ends the body after the last audio (an SSE event, say), if anything. */
  last(): Uint8Array | undefined;
}

/** What decides whether a stream's later audio may wait. */
export interface LaterAudioPacing {
  /** Whether new calls wait now for the request thread or for their first audio. */
  readonly newCallsWaiting: () => boolean;
  /** When the listener's first audio was handed to the connection, on the `performance.now()` clock. */
  readonly firstAt: number;
  /** The clock; `performance.now()` unless a test gives another. */
  readonly now?: () => number;
}

/**
 * How long audio not yet written may wait, in ms: 0 to write it now. `inHandSeconds` is what
 * the listener has in hand now, `heldSeconds` what waits.
 */
export function laterAudioWaitMs(
  inHandSeconds: number,
  heldSeconds: number,
  newCallsWaiting: boolean,
): number {
  const spare = inHandSeconds - IN_HAND_KEPT_SECONDS;
  if (!newCallsWaiting || spare <= 0 || heldSeconds >= MOST_HELD_SECONDS) return 0;
  return Math.max(1, Math.min(spare * 1000, RECHECK_MS));
}

/**
 * Writes the rest of a stream's audio as it comes, by the rules above (a slow reader pauses
 * synthesis instead of filling memory: no event is taken while a write waits for the socket to
 * drain), then runs `finish` and ends the body with `body.last()`; resolves the audio's duration
 * in seconds. `delivered` counts, as it goes, the seconds of audio handed to the connection (a
 * write Node reports done), which is what a client that hangs up was given; it starts at the
 * first write's.
 */
export async function sendLaterAudio(
  raw: ServerResponse,
  events: AsyncIterator<SynthesisEvent>,
  body: StreamBody,
  finish: () => Promise<void>,
  delivered: { seconds: number },
  pacing: LaterAudioPacing,
): Promise<number> {
  const now = pacing.now ?? (() => performance.now());
  let seconds = 0;
  let written = delivered.seconds;
  let held: Uint8Array[] = [];
  let heldSeconds = 0;
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  let drained: Promise<void> | undefined;
  const untilDrained = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        raw.off('drain', done);
        raw.off('close', done);
        drained = undefined;
        resolve();
      };
      raw.once('drain', done);
      raw.once('close', done);
    });
  const write = () => {
    clearTimeout(timer);
    timer = undefined;
    if (immediate) clearImmediate(immediate);
    immediate = undefined;
    if (held.length === 0) return;
    const bytes = held.length === 1 ? (held[0] as Uint8Array) : Buffer.concat(held);
    const audioSeconds = heldSeconds;
    held = [];
    heldSeconds = 0;
    written += audioSeconds;
    const handed = raw.write(bytes, (error) => {
      if (!error) delivered.seconds += audioSeconds;
    });
    if (!handed) drained ??= untilDrained();
  };
  const decide = () => {
    clearTimeout(timer);
    timer = undefined;
    if (immediate) return;
    const inHand = written - (now() - pacing.firstAt) / 1000;
    const waitMs = laterAudioWaitMs(inHand, heldSeconds, pacing.newCallsWaiting());
    if (waitMs === 0) immediate ??= setImmediate(write);
    else timer = setTimeout(decide, waitMs);
  };
  try {
    for (;;) {
      const result = await events.next();
      if (result.done) break;
      const event = result.value;
      if (event.type === 'audio') {
        held.push(body.next(event.bytes));
        heldSeconds += event.seconds;
        decide();
        if (drained) await drained;
      } else if (event.type === 'end') {
        seconds = event.seconds;
      }
    }
    write();
    if (drained) await drained;
  } finally {
    clearTimeout(timer);
    if (immediate) clearImmediate(immediate);
  }
  await finish();
  raw.end(body.last());
  return seconds;
}
