import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DEFAULT_OUTPUT_FORMAT,
  parseOutputFormat,
  supportedOutputFormats,
} from '../../../../src/http/compat/elevenlabs/output-format.ts';

describe('ElevenLabs output_format', () => {
  it('serves bare PCM and G.711 at exactly the rate and encoding the name says', () => {
    const expected = {
      pcm_8000: [8000, 'pcm_s16le', 'audio/pcm'],
      pcm_16000: [16000, 'pcm_s16le', 'audio/pcm'],
      pcm_24000: [24000, 'pcm_s16le', 'audio/pcm'],
      ulaw_8000: [8000, 'mulaw', 'audio/basic'],
      alaw_8000: [8000, 'alaw', 'audio/x-alaw-basic'],
    } as const;
    for (const [name, [rate, encoding, contentType]] of Object.entries(expected)) {
      const parsed = parseOutputFormat(name);
      assert.ok(parsed.ok, name);
      assert.equal(parsed.audio.target.kind, 'stream');
      if (parsed.audio.target.kind !== 'stream') continue;
      assert.equal(parsed.audio.target.format.sampleRate, rate, name);
      assert.equal(parsed.audio.target.format.encoding, encoding, name);
      assert.equal(parsed.audio.sampleRate, rate, name);
      assert.equal(parsed.audio.contentType, contentType, name);
    }
  });

  it("serves every MP3 and Opus name with Ijwi's MP3 and Ogg Opus, whose frames carry their own rate", () => {
    for (const name of ['mp3_22050_32', 'mp3_44100_64', 'mp3_44100_128', 'mp3_44100_192', 'opus_48000_64']) {
      const parsed = parseOutputFormat(name);
      assert.ok(parsed.ok, name);
      assert.equal(parsed.audio.target.kind, 'compressed');
      if (parsed.audio.target.kind !== 'compressed') continue;
      assert.equal(parsed.audio.target.format.name, name.startsWith('mp3') ? 'mp3' : 'opus');
      assert.equal(
        parsed.audio.contentType,
        name.startsWith('mp3') ? 'audio/mpeg' : 'audio/ogg; codecs=opus',
      );
    }
  });

  it("takes ElevenLabs' default, MP3 at 44.1 kHz and 128 kb/s, when none is named", () => {
    const parsed = parseOutputFormat(undefined);
    assert.ok(parsed.ok);
    assert.equal(parsed.audio.name, DEFAULT_OUTPUT_FORMAT);
    assert.equal(parsed.audio.name, 'mp3_44100_128');
  });

  it('refuses a format Ijwi does not make exactly, naming every one it does', () => {
    // Bare PCM carries no rate a player could read: a rate Ijwi has no stream format for is
    // refused, never served at another rate.
    for (const name of ['pcm_48000', 'wav', 'PCM_16000', '', 'pcm_16000 ', 'x'.repeat(10_000)]) {
      const parsed = parseOutputFormat(name);
      assert.equal(parsed.ok, false, name.slice(0, 20));
      if (parsed.ok) continue;
      assert.equal(parsed.code, 'unsupported_format');
      assert.ok(parsed.message.length < 800, 'the message does not echo a long value');
      for (const supported of supportedOutputFormats) assert.ok(parsed.message.includes(supported));
    }
  });
});
