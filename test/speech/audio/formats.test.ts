import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  defaultStreamFormat,
  isStreamFormatName,
  parseStreamFormat,
  streamFormatNames,
  streamFormats,
} from '../../../src/speech/audio/formats.ts';
import { encodeAlaw, encodeMulaw } from '../../../src/speech/audio/g711.ts';

describe('stream formats', () => {
  // Names, content types, rates and encodings: the Ijwi speech API v1 contract (formats table,
  // "PCM is signed little-endian", X-Voice-Encoding values, alaw_8k as audio/x-alaw-basic).
  // Frame sizes: 20 ms frames as the contract decides (160 bytes of mu-law, 320 of pcm16_8k),
  // which is RFC 3551's default packet time, 20 ms, for PCMU and PCMA.
  const expected = [
    ['pcm16_8k', 'audio/l16', 8000, 'pcm_s16le', 2, 320],
    ['pcm16_16k', 'audio/l16', 16000, 'pcm_s16le', 2, 640],
    ['pcm16_24k', 'audio/l16', 24000, 'pcm_s16le', 2, 960],
    ['mulaw_8k', 'audio/basic', 8000, 'mulaw', 1, 160],
    ['alaw_8k', 'audio/x-alaw-basic', 8000, 'alaw', 1, 160],
    // Added for the voice-agent frameworks' rates (22.05 and 44.1 kHz), as alaw_8k was added.
    ['pcm16_22k', 'audio/l16', 22050, 'pcm_s16le', 2, 882],
    ['pcm16_44k', 'audio/l16', 44100, 'pcm_s16le', 2, 1764],
  ] as const;

  for (const [name, contentType, sampleRate, encoding, bytesPerSample, bytesPerFrame] of expected) {
    it(`${name}: ${contentType}, ${sampleRate} Hz, ${encoding}, ${bytesPerFrame}-byte frames`, () => {
      const format = streamFormats[name];
      assert.equal(format.name, name);
      assert.equal(format.contentType, contentType);
      assert.equal(format.sampleRate, sampleRate);
      assert.equal(format.encoding, encoding);
      assert.equal(format.bytesPerSample, bytesPerSample);
      assert.equal(format.bytesPerFrame, bytesPerFrame);
    });
  }

  it('lists exactly the formats of the contract, default first', () => {
    assert.deepEqual(
      [...streamFormatNames],
      expected.map(([name]) => name),
    );
    assert.deepEqual(Object.keys(streamFormats).sort(), [...streamFormatNames].sort());
    assert.equal(defaultStreamFormat, streamFormats.pcm16_8k);
  });

  // Silence: linear PCM zero is all-zero bytes; for G.711 the byte is whatever the codec
  // gives for a zero sample (ITU-T G.711: mu-law 0xFF, A-law 0xD5 after its even-bit inversion).
  it('pads with the byte each encoding gives for a zero sample', () => {
    assert.equal(streamFormats.pcm16_8k.silenceByte, 0);
    assert.equal(streamFormats.pcm16_16k.silenceByte, 0);
    assert.equal(streamFormats.pcm16_24k.silenceByte, 0);
    assert.equal(streamFormats.mulaw_8k.silenceByte, encodeMulaw(new Int16Array([0]))[0]);
    assert.equal(streamFormats.mulaw_8k.silenceByte, 0xff);
    assert.equal(streamFormats.alaw_8k.silenceByte, encodeAlaw(new Int16Array([0]))[0]);
    assert.equal(streamFormats.alaw_8k.silenceByte, 0xd5);
  });

  it('cannot be changed at run time', () => {
    assert.throws(() => {
      (streamFormats.pcm16_8k as { sampleRate: number }).sampleRate = 16000;
    }, TypeError);
  });

  // Requests name formats exactly as the contract spells them; anything else is a 400.
  it('accepts only the exact names', () => {
    for (const name of streamFormatNames) {
      assert.equal(isStreamFormatName(name), true);
      assert.equal(parseStreamFormat(name), streamFormats[name]);
    }
    for (const bad of [
      'PCM16_8K',
      'pcm16',
      'mulaw',
      'ulaw_8k',
      'pcm16_8k ',
      '',
      'toString',
      'constructor',
      8000,
      null,
    ]) {
      assert.equal(isStreamFormatName(bad), false, String(bad));
      assert.equal(parseStreamFormat(bad), undefined, String(bad));
    }
  });

  it('gives the default when the request names no format', () => {
    assert.equal(parseStreamFormat(undefined), streamFormats.pcm16_8k);
  });
});
