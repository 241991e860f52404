import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  IN_HAND_KEPT_SECONDS,
  laterAudioWaitMs,
  MOST_HELD_SECONDS,
  type StreamBody,
  sendLaterAudio,
} from '../../src/http/stream-writer.ts';
import { EnginePool } from '../../src/speech/pool.ts';
import type { SynthesisEvent } from '../../src/speech/synthesize.ts';

/** A response that records its writes and can refuse more until it drains. */
class RecordingResponse extends EventEmitter {
  readonly writes: Uint8Array[] = [];
  ended: Uint8Array | undefined | null = null;
  /** Whether a write fills the socket (Node then says so by returning false). */
  full = false;

  write(bytes: Uint8Array, done?: (error?: Error | null) => void): boolean {
    this.writes.push(Uint8Array.from(bytes));
    queueMicrotask(() => done?.(null));
    return !this.full;
  }

  end(bytes?: Uint8Array): void {
    this.ended = bytes;
  }

  get asResponse(): ServerResponse {
    return this as unknown as ServerResponse;
  }
}

/** Events the test hands out one by one, each when it says so. */
class EventFeed implements AsyncIterator<SynthesisEvent> {
  readonly #queue: IteratorResult<SynthesisEvent>[] = [];
  readonly #waiting: ((result: IteratorResult<SynthesisEvent>) => void)[] = [];
  /** How many events the writer has asked for. */
  asked = 0;

  next(): Promise<IteratorResult<SynthesisEvent>> {
    this.asked++;
    const ready = this.#queue.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #give(result: IteratorResult<SynthesisEvent>): void {
    const waiting = this.#waiting.shift();
    if (waiting) waiting(result);
    else this.#queue.push(result);
  }

  audio(fill: number, seconds: number): void {
    this.#give({ done: false, value: { type: 'audio', bytes: new Uint8Array(4).fill(fill), seconds } });
  }

  end(seconds: number): void {
    this.#give({ done: false, value: { type: 'end', seconds } as SynthesisEvent });
    this.#give({ done: true, value: undefined });
  }
}

/** Resolves once `condition` holds (looked at every 2 ms, for at most 5 s). */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; !condition(); i++) {
    if (i > 2500) throw new Error('gave up waiting');
    await sleep(2);
  }
}

const bare: StreamBody = { first: (audio) => audio, next: (audio) => audio, last: () => undefined };
const concat = (parts: readonly Uint8Array[]) => Uint8Array.from(parts.flatMap((part) => [...part]));

/** A writer on a recording response, the listener's first audio `firstSeconds` long at time 0. */
function writer(options: { firstSeconds: number; newCallsWaiting: () => boolean; now?: () => number }) {
  const raw = new RecordingResponse();
  const feed = new EventFeed();
  const delivered = { seconds: options.firstSeconds };
  const done = sendLaterAudio(raw.asResponse, feed, bare, async () => {}, delivered, {
    newCallsWaiting: options.newCallsWaiting,
    firstAt: 0,
    now: options.now ?? (() => 0),
  });
  return { raw, feed, delivered, done };
}

describe('a stream’s later audio', () => {
  it('waits only while new calls wait, the listener keeps a second in hand and little waits', () => {
    assert.equal(laterAudioWaitMs(5, 0.5, false), 0, 'no new call waits');
    assert.equal(laterAudioWaitMs(IN_HAND_KEPT_SECONDS, 0.5, true), 0, 'the listener is down to its second');
    assert.equal(laterAudioWaitMs(5, MOST_HELD_SECONDS, true), 0, 'as much as may wait already waits');
    const wait = laterAudioWaitMs(IN_HAND_KEPT_SECONDS + 0.0035, 0.5, true);
    assert.ok(wait > 0 && wait <= 4, `looks again by the time the listener is down to its second: ${wait}`);
    assert.ok(laterAudioWaitMs(5, 0.5, true) > 0);
  });

  it('goes in one write when it comes in one turn, every byte in order, and the body ends', async () => {
    const { raw, feed, delivered, done } = writer({ firstSeconds: 0.2, newCallsWaiting: () => false });
    feed.audio(1, 0.3);
    feed.audio(2, 0.3);
    feed.audio(3, 0.3);
    await sleep(20);
    feed.audio(4, 0.3);
    feed.end(1.4);
    assert.equal(await done, 1.4);
    assert.equal(raw.writes.length, 2);
    assert.deepEqual(concat(raw.writes), concat([1, 2, 3, 4].map((fill) => new Uint8Array(4).fill(fill))));
    assert.equal(raw.ended, undefined);
    assert.ok(Math.abs(delivered.seconds - 1.4) < 1e-9, `seconds handed over: ${delivered.seconds}`);
  });

  it('waits while new calls wait, and goes in one write once they no longer do', async () => {
    let waiting = true;
    const { raw, feed, done } = writer({ firstSeconds: 5, newCallsWaiting: () => waiting });
    feed.audio(1, 0.5);
    await sleep(30);
    feed.audio(2, 0.5);
    await sleep(30);
    assert.equal(raw.writes.length, 0, 'nothing written while new calls wait');
    waiting = false;
    await until(() => raw.writes.length > 0);
    assert.equal(raw.writes.length, 1);
    assert.deepEqual(raw.writes[0], concat([new Uint8Array(4).fill(1), new Uint8Array(4).fill(2)]));
    feed.end(6);
    await done;
  });

  it('lets no more than the most that may wait wait', async () => {
    const { raw, feed, done } = writer({ firstSeconds: 30, newCallsWaiting: () => true });
    for (let part = 0; part < 6; part++) {
      feed.audio(part, 0.5);
      await sleep(5);
    }
    await sleep(30);
    assert.equal(raw.writes.length, 1, 'the first 2 s, as soon as they waited');
    assert.equal(raw.writes[0]?.length, 4 * (MOST_HELD_SECONDS / 0.5));
    feed.end(33);
    await done;
    assert.equal(raw.writes.length, 2, 'the rest at the end');
  });

  it('goes once the listener is down to the second it keeps, though new calls still wait', async () => {
    let clock = 0;
    const { raw, feed, done } = writer({ firstSeconds: 1.5, newCallsWaiting: () => true, now: () => clock });
    feed.audio(1, 0.2);
    await sleep(30);
    assert.equal(raw.writes.length, 0, '1.5 s in hand: it waits');
    clock = 600; // 0.9 s in hand
    await until(() => raw.writes.length > 0);
    assert.equal(raw.writes.length, 1);
    feed.end(1.7);
    await done;
  });

  it('takes no more audio from synthesis while the socket drains', async () => {
    const { raw, feed, done } = writer({ firstSeconds: 0.2, newCallsWaiting: () => false });
    raw.full = true;
    feed.audio(1, 0.3);
    await sleep(20);
    assert.equal(raw.writes.length, 1);
    const asked = feed.asked;
    feed.audio(2, 0.3);
    await sleep(20);
    assert.equal(feed.asked, asked, 'no event taken before the drain');
    raw.full = false;
    raw.emit('drain');
    feed.end(0.8);
    await done;
    assert.equal(raw.writes.length, 2);
  });
});

describe('EnginePool.newCallsWaiting', () => {
  it('says so while a request has just arrived, and no longer once arrivals stop', async () => {
    const pool = await EnginePool.start({ size: 1, warmUp: { samples: [], outputs: [] } });
    try {
      await sleep(20);
      assert.equal(pool.newCallsWaiting, false);
      pool.requestArrived();
      assert.equal(pool.newCallsWaiting, true);
      await sleep(30);
      assert.equal(pool.newCallsWaiting, false);
    } finally {
      await pool.close();
    }
  });
});
