import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../src/http/errors.ts';
import { parseStreamTtsRequest, parseTtsRequest } from '../../src/http/tts-request.ts';

function refusal(parse: () => unknown): {
  code: string;
  status: number;
  param: string | undefined;
  message: string;
} {
  try {
    parse();
  } catch (error) {
    assert.ok(error instanceof ApiError);
    return { code: error.code, status: error.status, param: error.options.param, message: error.message };
  }
  assert.fail('expected a refusal');
}

describe('parseTtsRequest', () => {
  it('defaults to Kinyarwanda speaker 0 and trims the input', () => {
    const request = parseTtsRequest({ input: '  Muraho  ' }, 10_000);
    assert.equal(request.input, 'Muraho');
    assert.equal(request.characters, 6);
    assert.equal(request.voice.language, 'rw');
    assert.equal(request.voice.speakerId, 0);
  });

  it('counts characters as code points, so an emoji is one', () => {
    assert.equal(parseTtsRequest({ input: 'Murakoze 🙏' }, 100).characters, 10);
    assert.equal(refusal(() => parseTtsRequest({ input: '🙏'.repeat(11) }, 10)).code, 'input_too_long');
  });

  it('accepts every voice of the contract, and speaker_id sent as a string of digits', () => {
    for (const [language, max] of [
      ['rw', 2],
      ['en', 4],
      ['fr', 2],
    ] as const) {
      for (let id = 0; id <= max; id++)
        assert.equal(parseTtsRequest({ input: 'x', language, speaker_id: id }, 10).voice.speakerId, id);
    }
    assert.equal(parseTtsRequest({ input: 'x', language: 'en', speaker_id: '4' }, 10).voice.speakerId, 4);
  });

  it('ignores unknown fields', () => {
    assert.equal(parseTtsRequest({ input: 'x', temperature: 0.7 }, 10).input, 'x');
  });

  const cases: [string, unknown, string, string | undefined][] = [
    ['missing input', {}, 'input_required', 'input'],
    ['null input', { input: null }, 'input_required', 'input'],
    ['blank input', { input: '   ' }, 'input_required', 'input'],
    ['numeric input', { input: 42 }, 'invalid_request', 'input'],
    ['unknown language', { input: 'x', language: 'sw' }, 'unsupported_language', 'language'],
    ['language of the wrong type', { input: 'x', language: 1 }, 'unsupported_language', 'language'],
    [
      'speaker out of range for rw',
      { input: 'x', language: 'rw', speaker_id: 3 },
      'invalid_speaker',
      'speaker_id',
    ],
    [
      'speaker out of range for en',
      { input: 'x', language: 'en', speaker_id: 5 },
      'invalid_speaker',
      'speaker_id',
    ],
    ['negative speaker', { input: 'x', speaker_id: -1 }, 'invalid_speaker', 'speaker_id'],
    ['fractional speaker', { input: 'x', speaker_id: 1.5 }, 'invalid_speaker', 'speaker_id'],
    ['speaker of the wrong type', { input: 'x', speaker_id: true }, 'invalid_speaker', 'speaker_id'],
    ['cloning: speaker_wav', { input: 'x', speaker_wav: 'a.wav' }, 'voice_cloning_retired', 'speaker_wav'],
    [
      'cloning: reference_audio',
      { input: 'x', reference_audio: '...' },
      'voice_cloning_retired',
      'reference_audio',
    ],
    ['cloning: voice_sample', { input: 'x', voice_sample: null }, 'voice_cloning_retired', 'voice_sample'],
    ['an array body', ['x'], 'invalid_request', undefined],
    ['a string body', 'x', 'invalid_request', undefined],
  ];
  for (const [name, body, code, param] of cases) {
    it(`refuses ${name} with ${code}`, () => {
      const refused = refusal(() => parseTtsRequest(body, 10_000));
      assert.equal(refused.code, code);
      assert.equal(refused.param, param);
    });
  }

  it('says how long the input is and what the limit is', () => {
    const refused = refusal(() => parseTtsRequest({ input: 'a'.repeat(10_001) }, 10_000));
    assert.equal(refused.status, 400);
    assert.equal(refused.message, 'input has 10001 characters; the limit is 10000');
  });
});

describe('parseStreamTtsRequest', () => {
  it('defaults to pcm16_8k and accepts every stream format', () => {
    assert.equal(parseStreamTtsRequest({ input: 'x' }, 4000).format.name, 'pcm16_8k');
    for (const format of ['pcm16_8k', 'pcm16_16k', 'pcm16_24k', 'mulaw_8k', 'alaw_8k']) {
      assert.equal(parseStreamTtsRequest({ input: 'x', format }, 4000).format.name, format);
    }
  });

  it('refuses an unknown format, listing the formats', () => {
    const refused = refusal(() => parseStreamTtsRequest({ input: 'x', format: 'mp3' }, 4000));
    assert.equal(refused.code, 'unsupported_format');
    assert.match(refused.message, /pcm16_8k, pcm16_16k, pcm16_24k, mulaw_8k, alaw_8k/);
  });
});
