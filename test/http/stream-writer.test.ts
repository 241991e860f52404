import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  FIRST_WRITE_BYTES,
  MAX_WRITE_BYTES,
  type StreamBody,
  sendLaterAudio,
  splitFirstWrite,
} from '../../src/http/stream-writer.ts';
import type { SynthesisEvent } from '../../src/speech/synthesize.ts';

/** A response that records its writes and can refuse more until it drains. */
class RecordingResponse extends EventEmitter {
  readonly writes: Uint8Array[] = [];
  ended: Uint8Array | undefined | null = null;
  /** Whether a write fills the socket (Node then says so by returning false). */
  full = false;
  /** The client is gone: as Node does, a write fails and returns false, and no drain will come. */
  destroyed = false;

  write(bytes: Uint8Array, done?: (error?: Error | null) => void): boolean {
    if (this.destroyed) {
      queueMicrotask(() => done?.(new Error('write after the socket was destroyed')));
      return false;
    }
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

  audio(fill: number, seconds: number, length = 4): void {
    this.#give({ done: false, value: { type: 'audio', bytes: new Uint8Array(length).fill(fill), seconds } });
  }

  end(seconds: number): void {
    this.#give({ done: false, value: { type: 'end', seconds } as SynthesisEvent });
    this.#give({ done: true, value: undefined });
  }
}

const bare: StreamBody = { first: (audio) => audio, next: (audio) => audio, last: () => undefined };
const concat = (parts: readonly Uint8Array[]) => Uint8Array.from(parts.flatMap((part) => [...part]));

/** A writer on a recording response, after a first audio `firstSeconds` long. */
function writer(firstSeconds: number) {
  const raw = new RecordingResponse();
  const feed = new EventFeed();
  const delivered = { seconds: firstSeconds };
  const done = sendLaterAudio(raw.asResponse, feed, bare, async () => {}, delivered);
  return { raw, feed, delivered, done };
}

describe('a stream’s later audio', () => {
  it('goes in one write when it comes in one turn, every byte in order, and the body ends', async () => {
    const { raw, feed, delivered, done } = writer(0.2);
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

  it('takes no more audio from synthesis while the socket drains', async () => {
    const { raw, feed, done } = writer(0.2);
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

  it('writes audio that all comes at once (a cached stream) as it reaches a write, and waits for the socket', async () => {
    const { raw, feed, done } = writer(0.2);
    const part = 3200;
    const parts = Math.ceil((4 * MAX_WRITE_BYTES) / part);
    // The whole stream is there at once, as the clause cache delivers it: one turn, were it not bounded.
    for (let i = 0; i < parts; i++) feed.audio(i % 250, 0.1, part);
    raw.full = true;
    await sleep(20);
    assert.equal(raw.writes.length, 1, 'one write, then the socket is full');
    const first = raw.writes[0]?.byteLength ?? 0;
    assert.ok(first >= MAX_WRITE_BYTES && first < MAX_WRITE_BYTES + part, `a first write of ${first} bytes`);
    const asked = feed.asked;
    await sleep(20);
    assert.equal(feed.asked, asked, 'nothing more taken from synthesis before the drain');
    raw.full = false;
    raw.emit('drain');
    feed.end(parts * 0.1);
    await done;
    for (const write of raw.writes) assert.ok(write.byteLength < MAX_WRITE_BYTES + part);
    const expected = Array.from({ length: parts }, (_, i) => new Uint8Array(part).fill(i % 250));
    assert.deepEqual(concat(raw.writes), concat(expected), 'every byte, in order');
  });

  it('comes to its end when the client left before a write, waiting for no drain that will never come', async () => {
    const { raw, feed, delivered, done } = writer(0.2);
    raw.destroyed = true;
    raw.emit('close');
    feed.audio(1, 0.3);
    await sleep(20);
    feed.end(0.5);
    const ended = await Promise.race([done.then(() => 'ended'), sleep(500).then(() => 'still waiting')]);
    assert.equal(ended, 'ended');
    assert.equal(delivered.seconds, 0.2, 'the failed write is not counted as heard');
  });

  it('writes what the first write left of the first audio before any later audio, counting its seconds once written', async () => {
    const first = new Uint8Array(FIRST_WRITE_BYTES * 3).map((_, i) => i % 251);
    const split = splitFirstWrite(first, 0.9);
    assert.equal(split.first.byteLength, FIRST_WRITE_BYTES);
    assert.ok(split.leading !== undefined);
    assert.ok(Math.abs(split.leading.seconds - 0.6) < 1e-9, 'the rest stands for its share of the seconds');
    assert.deepEqual(splitFirstWrite(first.subarray(0, FIRST_WRITE_BYTES), 0.3), {
      first: first.subarray(0, FIRST_WRITE_BYTES),
    });

    const raw = new RecordingResponse();
    const feed = new EventFeed();
    const delivered = { seconds: 0.9 };
    raw.destroyed = true;
    const gone = sendLaterAudio(
      raw.asResponse,
      feed,
      bare,
      async () => {},
      delivered,
      undefined,
      split.leading,
    );
    feed.end(0.9);
    await gone;
    assert.ok(Math.abs(delivered.seconds - 0.3) < 1e-9, 'a client gone had only the first write');

    const kept = new RecordingResponse();
    const heard = { seconds: 0.9 };
    const done = sendLaterAudio(kept.asResponse, feed, bare, async () => {}, heard, undefined, split.leading);
    feed.audio(7, 0.1);
    feed.end(1);
    await done;
    assert.deepEqual(concat([split.first, ...kept.writes]), concat([first, new Uint8Array(4).fill(7)]));
    assert.ok(Math.abs(heard.seconds - 1) < 1e-9);
  });

  it('ends the body with its last bytes, after the audio and once `finish` has run', async () => {
    const raw = new RecordingResponse();
    const feed = new EventFeed();
    const order: string[] = [];
    const last = new Uint8Array([9, 9]);
    const done = sendLaterAudio(
      raw.asResponse,
      feed,
      { ...bare, last: () => last },
      async () => {
        order.push(`finish after ${raw.writes.length} writes`);
      },
      { seconds: 0 },
    );
    feed.audio(1, 0.5);
    feed.end(0.5);
    await done;
    assert.deepEqual(order, ['finish after 1 writes']);
    assert.deepEqual(raw.ended, last);
  });
});
