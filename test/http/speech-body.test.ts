import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseBody } from '../../src/http/body-refusal.ts';
import { ApiError } from '../../src/http/errors.ts';
import { openAiSpeechBodySchema } from '../../src/http/schemas/openai-speech.ts';
import {
  parseStreamSettings,
  parseTtsRequest,
  streamTtsBodySchema,
  ttsBodySchema,
  ttsUrlBodySchema,
} from '../../src/http/schemas/speech-body.ts';

const parseStreamTtsRequest = (body: unknown, maxChars: number) =>
  parseBody(streamTtsBodySchema(maxChars), body);

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

describe('the body schemas refuse what the contract checks first', () => {
  // Zod reports every fault; the answer is the first the contract meets, in the order of its
  // checks: the body, cloning fields, input, language, speaker, text type, the text as read,
  // dictionaries, then the route's own fields.
  const stream = (body: unknown) => refusal(() => parseBody(streamTtsBodySchema(4000), body));
  const cases: [string, unknown, string, string | undefined, string][] = [
    [
      'a null body',
      null,
      'invalid_request',
      undefined,
      'the body must be a JSON object with an "input" field',
    ],
    [
      'a cloning field before a missing input',
      { voice_sample: null },
      'voice_cloning_retired',
      'voice_sample',
      'voice cloning is retired; choose a voice with language and speaker_id',
    ],
    [
      'a missing input before a bad language',
      { language: 'sw' },
      'input_required',
      'input',
      'give the text to speak in "input"',
    ],
    [
      'a null input as a missing one',
      { input: null },
      'input_required',
      'input',
      'give the text to speak in "input"',
    ],
    [
      'a fractional speaker with its language range, before a bad format',
      { input: 'x', language: 'en', speaker_id: 1.5, format: 'mp3' },
      'invalid_speaker',
      'speaker_id',
      'speaker_id for en must be an integer from 0-4',
    ],
    [
      'a bad text type before bad dictionaries',
      { input: 'x', text_type: null, dictionaries: 'dict_x' },
      'invalid_request',
      'text_type',
      'text_type must be one of text, ssml',
    ],
    [
      'SSML it cannot read before too many dictionaries',
      {
        input: '<speak>',
        text_type: 'ssml',
        dictionaries: [{ id: 'dict_a' }, { id: 'dict_b' }, { id: 'dict_c' }, { id: 'dict_d' }],
      },
      'invalid_ssml',
      'input',
      'the SSML is not well-formed XML: unclosed tag: speak',
    ],
    [
      'a text with nothing to say before a bad format',
      { input: '🙏!?', format: 'mp3' },
      'input_required',
      'input',
      'input has nothing to speak: no letters or numbers',
    ],
    [
      'too many dictionaries before a bad item',
      { input: 'x', dictionaries: [{ id: 'x' }, 1, 2, 3] },
      'invalid_request',
      'dictionaries',
      'dictionaries must be a list of at most 3 objects {"id", "version"}',
    ],
    [
      'an item that is not an object, for its id',
      { input: 'x', dictionaries: [{ id: 'dict_a' }, 5] },
      'invalid_request',
      'dictionaries[1].id',
      'dictionaries[1].id must be a dictionary id (dict_...)',
    ],
    [
      'a repeated id before a later bad item',
      { input: 'x', dictionaries: [{ id: 'dict_a' }, { id: 'dict_a' }, { id: 'bad' }] },
      'invalid_request',
      'dictionaries[1].id',
      'dictionaries[1].id names a dictionary twice',
    ],
    [
      'a bad version before the repeated id of the same item',
      { input: 'x', dictionaries: [{ id: 'dict_a' }, { id: 'dict_a', version: -1 }] },
      'invalid_request',
      'dictionaries[1].version',
      'dictionaries[1].version must be a whole number',
    ],
    [
      'an unknown format',
      { input: 'x', format: null },
      'unsupported_format',
      'format',
      'format must be one of pcm16_8k, pcm16_16k, pcm16_24k, mulaw_8k, alaw_8k, pcm16_22k, pcm16_44k',
    ],
  ];
  for (const [name, body, code, param, message] of cases) {
    it(`refuses ${name}`, () => {
      assert.deepEqual(stream(body), {
        code,
        status: code === 'voice_cloning_retired' ? 410 : 400,
        param,
        message,
      });
    });
  }

  it('gives an SSML refusal where it is', () => {
    const refused = refusal(() =>
      parseTtsRequest({ input: '<speak><foo/></speak>', text_type: 'ssml' }, 100),
    );
    assert.equal(refused.code, 'invalid_ssml');
    const details = (() => {
      try {
        parseTtsRequest({ input: 'a\u0000b' }, 100);
      } catch (error) {
        assert.ok(error instanceof ApiError);
        return error.options.details;
      }
    })();
    assert.deepEqual(details, { position: 1 });
  });

  it('reads null as absent where the original service did, and a null version as none', () => {
    const request = parseBody(ttsBodySchema(100), {
      input: 'x',
      language: null,
      speaker_id: null,
      output_format: null,
      dictionaries: [{ id: 'dict_a', version: null }],
    });
    assert.deepEqual(
      [request.voice.language, request.voice.speakerId, request.output.name, request.dictionaries],
      ['rw', 0, 'wav', [{ id: 'dict_a' }]],
    );
    const url = parseBody(ttsUrlBodySchema(100, { maxLifetimeSeconds: 600, defaultLifetimeSeconds: 300 }), {
      input: ' x ',
      format: null,
      expires_in: null,
    });
    assert.deepEqual([url.text, url.input, url.format, url.lifetimeSeconds], [' x ', 'x', 'wav', 300]);
  });

  it('refuses a fractional or out-of-range expires_in', () => {
    const schema = ttsUrlBodySchema(100, { maxLifetimeSeconds: 600, defaultLifetimeSeconds: 300 });
    for (const expires_in of [0, 601, 60.5, '60'])
      assert.deepEqual(
        refusal(() => parseBody(schema, { input: 'x', expires_in })),
        {
          code: 'invalid_request',
          status: 400,
          param: 'expires_in',
          message: 'expires_in must be a whole number of seconds from 1 to 600',
        },
      );
  });

  it("opens a live context with the stream endpoint's defaults, refusing in its own order", () => {
    const settings = parseStreamSettings({ speaker_id: '2' });
    assert.deepEqual(
      [settings.voice.speakerId, settings.format.name, settings.textType],
      [2, 'pcm16_8k', 'text'],
    );
    assert.equal(
      refusal(() => parseStreamSettings({ speaker_id: 9, format: 'mp3' })).code,
      'invalid_speaker',
    );
    assert.equal(
      refusal(() => parseStreamSettings({ format: 'mp3', text_type: 'html' })).code,
      'unsupported_format',
    );
  });

  it('reads an OpenAI body in its own order, ignoring instructions of any kind', () => {
    const schema = openAiSpeechBodySchema(4096);
    const read = parseBody(schema, {
      model: 'tts-1',
      input: 'Hello',
      voice: 'alloy',
      instructions: 5,
      speed: 2,
    });
    assert.deepEqual(
      [read.model, read.format, read.streamFormat, read.tts.voice.language],
      ['tts-1', 'mp3', 'audio', 'en'],
    );
    assert.deepEqual(
      refusal(() => parseBody(schema, { model: 'tts-1', voice: 'alloy', response_format: 'aac' })),
      {
        code: 'unsupported_format',
        status: 400,
        param: 'response_format',
        message: 'response_format must be one of mp3, opus, flac, wav, pcm (aac is not served)',
      },
    );
    assert.equal(refusal(() => parseBody(schema, { input: 'x', voice: 'nobody' })).param, 'model');
    assert.equal(refusal(() => parseBody(schema, { model: 'm', input: '', voice: 'nobody' })).param, 'voice');
  });
});
