import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { streamFormats } from '../../../src/speech/audio/formats.ts';
import { decodeAlaw, decodeMulaw } from '../../../src/speech/audio/g711.ts';
import { int16ToLittleEndianBytes, littleEndianBytesToInt16 } from '../../../src/speech/audio/pcm.ts';
import {
  createStreamEncoderCache,
  type StreamEncoderCache,
} from '../../../src/speech/audio/stream-encoder.ts';
import { concatBytes, snrDb, speechLike, tone, toneAmplitude } from '../../helpers/signals.ts';

// espeak-ng's rate and chunk size; formats from the API v1 contract.
const ENGINE_RATE = 22050;
const ENGINE_CHUNK = 2170;

let cache: StreamEncoderCache;
before(async () => {
  cache = await createStreamEncoderCache();
});

function encodeAll(
  samples: Int16Array,
  format: (typeof streamFormats)[keyof typeof streamFormats],
): Uint8Array {
  const encoder = cache.get(ENGINE_RATE, format);
  const parts: Uint8Array[] = [];
  for (let at = 0; at < samples.length; at += ENGINE_CHUNK) {
    parts.push(encoder.encode(samples.subarray(at, at + ENGINE_CHUNK)).slice());
  }
  parts.push(encoder.flush().slice());
  return concatBytes(parts);
}

describe('stream encoder', () => {
  const speech = speechLike(ENGINE_RATE, 1, 0.7);

  for (const format of Object.values(streamFormats)) {
    it(`${format.name}: 1 s of engine audio is 1 s of ${format.sampleRate} Hz ${format.encoding}`, () => {
      const bytes = encodeAll(speech, format);
      const expected = format.sampleRate * format.bytesPerSample;
      assert.ok(
        Math.abs(bytes.byteLength - expected) <= 2 * format.bytesPerSample,
        `${bytes.byteLength} bytes`,
      );
    });
  }

  it('writes little-endian 16-bit PCM that carries the tone through', () => {
    const bytes = encodeAll(tone(1000, ENGINE_RATE, 0.5, 12000), streamFormats.pcm16_16k);
    const samples = littleEndianBytesToInt16(bytes);
    const amplitude = toneAmplitude(samples.subarray(800, samples.length - 800), 16000, 1000);
    assert.ok(Math.abs(amplitude - 12000) < 120, `1 kHz amplitude ${amplitude.toFixed(0)}`);
  });

  // G.711 adds about 38 dB SNR worth of noise (Wikipedia "G.711") to the same resampled audio.
  it('mu-law and A-law decode close to the 16-bit PCM of the same rate', () => {
    const pcm = littleEndianBytesToInt16(encodeAll(speech, streamFormats.pcm16_8k));
    const mulaw = decodeMulaw(encodeAll(speech, streamFormats.mulaw_8k));
    const alaw = decodeAlaw(encodeAll(speech, streamFormats.alaw_8k));
    assert.equal(mulaw.length, pcm.length);
    assert.equal(alaw.length, pcm.length);
    assert.ok(snrDb(pcm, mulaw) > 30);
    assert.ok(snrDb(pcm, alaw) > 30);
  });

  it('at the engine’s own rate, 16-bit PCM is the engine samples as they are', () => {
    const encoder = cache.get(ENGINE_RATE, { sampleRate: ENGINE_RATE, encoding: 'pcm_s16le' });
    const chunk = speech.subarray(0, ENGINE_CHUNK);
    assert.deepEqual(encoder.encode(chunk), int16ToLittleEndianBytes(chunk.slice()));
    assert.equal(encoder.flush().byteLength, 0);
  });

  it('gives the same bytes job after job, also after a cancelled job', () => {
    const first = encodeAll(speech, streamFormats.mulaw_8k);
    const cancelled = cache.get(ENGINE_RATE, streamFormats.mulaw_8k);
    cancelled.encode(tone(2000, ENGINE_RATE, 0.2)); // never flushed
    const other = cache.get(ENGINE_RATE, streamFormats.pcm16_24k);
    other.encode(speech.subarray(0, ENGINE_CHUNK)); // a job for another format, cancelled too
    assert.deepEqual(encodeAll(speech, streamFormats.mulaw_8k), first);
  });

  it('hands out one encoder per rate and encoding, reused', () => {
    const a = cache.get(ENGINE_RATE, streamFormats.alaw_8k);
    const b = cache.get(ENGINE_RATE, { sampleRate: 8000, encoding: 'alaw' });
    assert.equal(a, b);
    assert.notEqual(a, cache.get(ENGINE_RATE, streamFormats.mulaw_8k));
    assert.notEqual(a, cache.get(16000, streamFormats.alaw_8k));
  });
});
