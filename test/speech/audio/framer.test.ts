import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { streamFormats } from '../../../src/speech/audio/formats.ts';
import { Framer } from '../../../src/speech/audio/framer.ts';
import { concatBytes, randomSource } from '../../helpers/signals.ts';

// Frame sizes and silence bytes come from the format table (20 ms frames, as the API v1
// contract decides: 160 bytes of mu-law, 320 of pcm16_8k).
describe('Framer', () => {
  for (const format of Object.values(streamFormats)) {
    it(`${format.name}: emits only whole ${format.bytesPerFrame}-byte frames, bytes out = bytes in + padding`, () => {
      const random = randomSource(format.bytesPerFrame);
      const framer = new Framer(format.bytesPerFrame, format.silenceByte);
      for (let stream = 0; stream < 20; stream++) {
        const input: Uint8Array[] = [];
        const output: Uint8Array[] = [];
        const chunks = 1 + Math.floor(random() * 12);
        for (let c = 0; c < chunks; c++) {
          // Sizes from empty to several frames, mostly not a multiple of the frame size.
          const chunk = Uint8Array.from({ length: Math.floor(random() * 3.5 * format.bytesPerFrame) }, () =>
            Math.floor(random() * 256),
          );
          input.push(chunk);
          const frames = framer.push(chunk.slice());
          assert.equal(frames.byteLength % format.bytesPerFrame, 0);
          output.push(frames);
        }
        const tail = framer.flush();
        assert.ok(tail.byteLength === 0 || tail.byteLength === format.bytesPerFrame);
        output.push(tail);
        const sent = concatBytes(input);
        const received = concatBytes(output);
        const padding =
          (format.bytesPerFrame - (sent.byteLength % format.bytesPerFrame)) % format.bytesPerFrame;
        assert.equal(received.byteLength, sent.byteLength + padding);
        assert.deepEqual(received.subarray(0, sent.byteLength), sent);
        assert.ok(received.subarray(sent.byteLength).every((b) => b === format.silenceByte));
        assert.equal(framer.pendingBytes, 0);
      }
    });
  }

  it('holds a partial frame back until the rest arrives', () => {
    const framer = new Framer(4, 0xff);
    assert.equal(framer.push(new Uint8Array([1, 2, 3])).byteLength, 0);
    assert.equal(framer.pendingBytes, 3);
    assert.deepEqual([...framer.push(new Uint8Array([4, 5]))], [1, 2, 3, 4]);
    assert.deepEqual([...framer.flush()], [5, 0xff, 0xff, 0xff]);
    assert.equal(framer.flush().byteLength, 0);
  });

  it('returns a view, not a copy, when the chunk starts on a frame boundary', () => {
    const framer = new Framer(4, 0);
    const chunk = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const frames = framer.push(chunk);
    assert.equal(frames.buffer, chunk.buffer);
    assert.deepEqual([...frames], [1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('keeps its own copy of the remainder, so the caller may reuse or transfer its buffer', () => {
    const framer = new Framer(4, 0);
    const chunk = new Uint8Array([1, 2, 3, 4, 5, 6]);
    framer.push(chunk);
    chunk.fill(99);
    assert.deepEqual([...framer.push(new Uint8Array([7, 8]))], [5, 6, 7, 8]);
  });

  it('rejects impossible frame sizes and silence values', () => {
    assert.throws(() => new Framer(0, 0), RangeError);
    assert.throws(() => new Framer(2.5, 0), RangeError);
    assert.throws(() => new Framer(160, 256), RangeError);
    assert.throws(() => new Framer(160, -1), RangeError);
  });
});
