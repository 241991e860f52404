import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeAlaw, decodeMulaw, encodeAlaw, encodeMulaw } from '../../../src/speech/audio/g711.ts';
import { snrDb, speechLike } from '../../helpers/signals.ts';

const every16BitValue = (() => {
  const all = new Int16Array(65536);
  for (let i = 0; i < all.length; i++) all[i] = i - 32768;
  return all;
})();

describe('G.711 mu-law', () => {
  // Code points from ITU-T G.711 (1988) as summarised in Wikipedia's "G.711": mu-law stores
  // sign, 3-bit segment and 4-bit step with all bits inverted, so zero is 0xFF, the largest
  // positive value 0x80 and the largest negative 0x00.
  it('encodes zero and the extremes to the standard codes', () => {
    assert.deepEqual([...encodeMulaw(new Int16Array([0, 32767, -32768]))], [0xff, 0x80, 0x00]);
    assert.deepEqual([...decodeMulaw(new Uint8Array([0xff, 0x80, 0x00]))], [0, 32124, -32124]);
  });

  it('returns unsigned bytes (the per-sample API of the library would give -1 for 0xFF)', () => {
    const bytes = encodeMulaw(new Int16Array([0, 0, 0]));
    assert.ok(bytes instanceof Uint8Array);
    assert.deepEqual([...bytes], [255, 255, 255]);
  });

  // G.711 segments have 16 equal steps and each segment doubles the step; the decoder returns
  // the middle of a step, so the error is at most half a step: (|x| + 132) / 32 for mu-law,
  // whose segments start at multiples of the 132 bias.
  it('decodes every 16-bit value to within half a quantisation step', () => {
    const decoded = decodeMulaw(encodeMulaw(every16BitValue));
    for (let i = 0; i < every16BitValue.length; i++) {
      const x = every16BitValue[i] ?? 0;
      const error = Math.abs((decoded[i] ?? 0) - x);
      if (error > (Math.abs(x) + 132) / 32) assert.fail(`${x} decoded as ${decoded[i]}`);
    }
  });

  // G.711's signal-to-quantisation-noise ratio is about 38 dB over a wide range of levels
  // (Wikipedia "G.711"); 30 dB leaves margin for a quiet, speech-like signal.
  it('keeps speech-like audio above 30 dB SNR at loud and quiet levels', () => {
    for (const peak of [0.7, 0.1]) {
      const speech = speechLike(8000, 1, peak);
      const snr = snrDb(speech, decodeMulaw(encodeMulaw(speech)));
      assert.ok(snr > 30, `peak ${peak}: SNR ${snr.toFixed(1)} dB`);
    }
  });
});

describe('G.711 A-law', () => {
  // A-law inverts the even bits (XOR 0x55) of sign, segment and step (Wikipedia "G.711"):
  // +0 is 0xD5, the largest positive value 0xAA and the largest negative 0x2A.
  it('encodes zero and the extremes to the standard codes', () => {
    assert.deepEqual([...encodeAlaw(new Int16Array([0, 32767, -32768]))], [0xd5, 0xaa, 0x2a]);
    assert.deepEqual([...decodeAlaw(new Uint8Array([0xd5, 0xaa, 0x2a]))], [8, 32256, -32256]);
  });

  // A-law's two lowest segments share a step of 16 (of 32768); above them each segment doubles
  // it, so half a step is at most max(8, |x| / 32).
  it('decodes every 16-bit value to within half a quantisation step', () => {
    const decoded = decodeAlaw(encodeAlaw(every16BitValue));
    for (let i = 0; i < every16BitValue.length; i++) {
      const x = every16BitValue[i] ?? 0;
      const error = Math.abs((decoded[i] ?? 0) - x);
      if (error > Math.max(8, Math.abs(x) / 32)) assert.fail(`${x} decoded as ${decoded[i]}`);
    }
  });

  it('keeps speech-like audio above 30 dB SNR at loud and quiet levels', () => {
    for (const peak of [0.7, 0.1]) {
      const speech = speechLike(8000, 1, peak);
      const snr = snrDb(speech, decodeAlaw(encodeAlaw(speech)));
      assert.ok(snr > 30, `peak ${peak}: SNR ${snr.toFixed(1)} dB`);
    }
  });
});
