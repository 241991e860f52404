import type { FastifySchema } from 'fastify';
import { type ZodType, z } from 'zod';
import { FREE_MAX_SECONDS } from '../../accounts/billing.ts';
import { MAX_SELECTED_DICTIONARIES } from '../../accounts/dictionaries.ts';
import {
  defaultStreamFormat,
  FRAME_MS,
  streamFormatNames,
  streamFormats,
} from '../../speech/audio/formats.ts';
import { MAX_SECONDS_PER_CHARACTER } from '../../speech/audio-bound.ts';
import { MAX_BREAK_MS, MAX_BREAKS_MS_PER_REQUEST } from '../../speech/input/document.ts';
import { textTypes } from '../../speech/input/input-text.ts';
import { builtInVoices, languages } from '../../speech/voices/voices.ts';
import { apiKeySecurity, tags } from '../openapi.ts';
import {
  type CloningField,
  DEFAULT_LANGUAGE,
  outputFormatNames,
  SPEAKABLE,
  speakerIdRange,
} from '../tts-request.ts';
import {
  BUSY_OR_STARTING,
  errorResponse,
  insufficientTokensResponse,
  invalidApiKeyResponse,
} from './errors.ts';
import {
  binaryResponse,
  type DocumentedResponse,
  header,
  jsonResponse,
  rateLimitHeaders,
} from './responses.ts';

// Schema first, with one exception: these body schemas document the request, and
// parseTtsRequest / parseStreamTtsRequest (tts-request.ts) validate it. The parsers must run
// after authentication and the rate limit, which Fastify's validation precedes; they answer
// the contract's codes with their own messages, which zod issues do not map onto field by
// field (a language of the wrong type is `unsupported_language`, a missing input
// `input_required`...); and they count characters as code points after trimming where zod's
// `max` counts UTF-16 units. So both are built from the same constants (limits from the app,
// languages and speaker ranges from the voice catalogue, format names from the format table,
// the cloning fields and default language from tts-request.ts), and the OpenAPI test checks
// that what the document calls valid passes the parsers and what it calls invalid does not.

const languageCodes = languages.map((l) => l.code);
const speakerIds = builtInVoices.map((v) => v.speakerId);
const defaultSpeakerId = languages.find((l) => l.code === DEFAULT_LANGUAGE)?.defaultSpeakerId ?? 0;

/** The limits and prices the TTS documentation states, from the app's configuration. */
export interface TtsDocOptions {
  /** Characters of `input` allowed on this endpoint. */
  readonly maxChars: number;
  readonly requestsPerMinute: number;
  readonly charsPerToken: number;
  readonly bodyLimitBytes: number;
}

/**
 * What the parsers accept as `input`, as one JSON Schema pattern: a letter or digit somewhere
 * (SPEAKABLE), and no control character other than tab, line feed and carriage return, nor a
 * lone surrogate (readInputText).
 */
const INPUT_PATTERN = new RegExp(
  `^(?=[\\s\\S]*${SPEAKABLE.source})[^\\0-\\x08\\x0B\\x0C\\x0E-\\x1F\\x7F-\\x9F\\uD800-\\uDFFF]*$`,
  'u',
);

/** SSML a telephony client sends: a number read digit by digit, a pause, a company name by `sub`. */
export const SSML_EXAMPLE =
  '<speak>Call us on <say-as interpret-as="telephone">+250 788 123 456</say-as>.' +
  '<break time="500ms"/>Welcome to <sub alias="Ijwi Health Clinic">IHC</sub>.</speak>';

function inputField(maxChars: number): ZodType {
  return z
    .string()
    .min(1)
    .max(maxChars)
    .regex(INPUT_PATTERN)
    .meta({
      description:
        `The text to speak: at most ${maxChars} characters, counted as Unicode code points after ` +
        'surrounding whitespace is trimmed, with at least one letter or digit. Plain text is read as ' +
        'a person reads a rendered reply aloud: Markdown (CommonMark, GitHub tables, task lists, ' +
        'strikethrough) is never spoken as symbols, links say their text, code blocks and emoji are ' +
        'not said, keypad codes such as `*182*7#` are read key by key; billing counts the characters ' +
        'spoken. It is never obeyed as engine commands. Control characters other than tab, ' +
        'line feed and carriage return get 400 `invalid_input` with their `position`. With ' +
        '`text_type: "ssml"`, an SSML `<speak>` document (see `text_type`).',
      examples: ['Muraho! Murakaza neza.', SSML_EXAMPLE],
    });
}

const textTypeField = z
  .enum(textTypes)
  .default('text')
  .meta({
    description:
      '`text` (plain text) or `ssml`: `input` is then a `<speak>` document, parsed by Ijwi. Elements: ' +
      '`speak`, `p`, `s` (`xml:lang` must match `language`), `lang` (`xml:lang` `rw`, `en`, `fr` or a ' +
      "tag of one such as `en-US`: its words are said as that language's, by the same voice), " +
      '`break` (`time` such as `500ms` or ' +
      `\`1.5s\`, at most ${MAX_BREAK_MS / 1000} s each and ${MAX_BREAKS_MS_PER_REQUEST / 1000} s per request, ` +
      'or `strength` `none` to `x-strong`), `say-as` (`interpret-as` `characters`, `spell-out`, ' +
      '`digits`, `cardinal`, `number`, `ordinal`, `telephone`, `date` with `format` `dmy`, `mdy` or ' +
      '`ymd`, `time`, `currency`), `sub` (`alias`), `prosody` (`rate` `x-slow` to `x-fast` or 50%-200%) ' +
      'and `phoneme` (`alphabet="ipa"`, `ph`: only symbols the voice can say). Anything else, or ' +
      'malformed XML, gets 400 `invalid_ssml` with `element`, `line` and `column`. Billing counts the ' +
      'characters of the text spoken (`sub` counts its alias), markup excluded.',
    examples: ['text', 'ssml'],
  });

const languageField = z
  .enum(languageCodes)
  .default(DEFAULT_LANGUAGE)
  .meta({
    description: `The language: ${languages.map((l) => `\`${l.code}\` (${l.name})`).join(', ')}.`,
  });

/** The `dictionaries` field of every speech request, for the document. */
export const dictionariesField = z
  .array(
    z.object({
      id: z.string().regex(/^dict_[0-9A-Za-z]{1,40}$/),
      version: z.int().min(0).optional(),
    }),
  )
  .max(MAX_SELECTED_DICTIONARIES)
  .optional()
  .meta({
    description:
      `Pronunciation dictionaries of the account to speak with, in order (at most ${MAX_SELECTED_DICTIONARIES}): ` +
      'for a phrase several hold, the first wins. Each at its current version unless `version` names a kept ' +
      'one. Absent: the account’s default dictionary. A dictionary or version the account does not have is ' +
      'a 404 `not_found`, before any charge.',
  });

const speakerRanges = languages
  .map((l) => {
    const { min, max } = speakerIdRange(l.code);
    return `${min}-${max} for \`${l.code}\``;
  })
  .join(', ');

const speakerIdField = z
  .int()
  .min(Math.min(...speakerIds))
  .max(Math.max(...speakerIds))
  .default(defaultSpeakerId)
  .meta({
    description:
      `The voice within the language: ${speakerRanges}; when absent, the language's default ` +
      `(${languages.map((l) => `${l.defaultSpeakerId} for \`${l.code}\``).join(', ')}). Names and ` +
      'groups are listed by voices.php. A string of digits ("2") is accepted too, as the original ' +
      'service accepted it.',
  });

/**
 * Each language's speaker range, as JSON Schema conditions: the flat `speaker_id` above gives
 * the widest range, these narrow it. A request without `language` is in the default language.
 */
const speakerRules = languages.map((l) => {
  const { min, max } = speakerIdRange(l.code);
  return {
    if: {
      properties: { language: { const: l.code } },
      ...(l.code === DEFAULT_LANGUAGE ? {} : { required: ['language'] }),
    },
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword; this object is never awaited.
    then: { properties: { speaker_id: { minimum: min, maximum: max } } },
  };
});

const retiredField = z.never().optional().meta({
  deprecated: true,
  description: 'Voice cloning is retired: a request carrying this field, with any value, gets 410.',
});

// `satisfies` keeps these in step with CLONING_FIELDS: a field missing or extra fails to compile.
const cloningFields = {
  speaker_wav: retiredField,
  reference_audio: retiredField,
  voice_sample: retiredField,
} satisfies Record<CloningField, ZodType>;

const formatField = z
  .enum(streamFormatNames)
  .default(defaultStreamFormat.name)
  .meta({
    description: `The audio format: ${Object.values(streamFormats)
      .map((f) => `\`${f.name}\` (${f.contentType}, ${f.sampleRate} Hz, ${f.encoding})`)
      .join(', ')}. PCM is signed little-endian.`,
  });

const outputFormatField = z
  .enum(outputFormatNames)
  .default('wav')
  .meta({
    description:
      '`wav`: mono 16-bit PCM at the voice’s native rate; `mp3` (64 kbit/s CBR), `opus` (Ogg Opus, 32 kbit/s) ' +
      'and `flac`: 24 kHz mono. The extension of `output_url` and the file’s Content-Type follow.',
  });

const bodyMeta = {
  description: 'Unknown fields are ignored.',
  allOf: speakerRules,
};

/** The `tts.php` body, for the document. */
export function ttsBodySchema(maxChars: number): ZodType {
  return z
    .object({
      input: inputField(maxChars),
      language: languageField,
      speaker_id: speakerIdField,
      text_type: textTypeField,
      output_format: outputFormatField,
      dictionaries: dictionariesField,
      ...cloningFields,
    })
    .meta(bodyMeta);
}

/** The `tts-stream.php` body, for the document: the `tts.php` fields and `format`. */
export function streamTtsBodySchema(maxChars: number): ZodType {
  return z
    .object({
      input: inputField(maxChars),
      language: languageField,
      speaker_id: speakerIdField,
      text_type: textTypeField,
      format: formatField,
      dictionaries: dictionariesField,
      ...cloningFields,
    })
    .meta(bodyMeta);
}

const billingSchema = z
  .object({
    kinyarwanda_free: z.boolean().meta({
      description: 'True only for Kinyarwanda in the signed-in studio, which is free; false through the API.',
    }),
    api_usage: z.boolean().meta({ description: 'True for a request through the API.' }),
    tokens_charged: z.int().meta({ description: 'Tokens this request cost: 0 when a free generation paid.' }),
    token_balance: z.int().meta({ description: 'The balance after this request, in tokens.' }),
    free_uses_remaining: z.int().meta({ description: 'Free generations the account has left.' }),
  })
  .meta({ description: 'How the request was billed.' });

/** The `tts.php` 200 body (fixed fields). The route serialises its answer with it. */
export const ttsFileResponseSchema = z.object({
  output_url: z.string().meta({
    format: 'uri',
    description:
      'Absolute URL of the file, `…/generated/audio_<id>.<wav|mp3|opus|flac>` as `output_format` asked.',
  }),
  seconds: z.number().meta({ description: 'Duration of the audio, in seconds, to two decimals.' }),
  language: z.enum(languageCodes),
  speaker_id: z.int(),
  billing: billingSchema,
});

/** What the `tts.php` handler sends on success. */
export type TtsFileResponse = z.input<typeof ttsFileResponseSchema>;

function billingHeaders(): Readonly<Record<string, ZodType>> {
  return {
    'X-Voice-Tokens-Charged': header('Tokens this request cost: 0 when a free generation paid.', z.int()),
    'X-Voice-Token-Balance': header('The balance after this request, in tokens.', z.int()),
    'X-Voice-Free-Uses-Remaining': header('Free generations the account has left.', z.int()),
    'X-Voice-Kinyarwanda-Free': header('As `billing.kinyarwanda_free` of tts.php.', z.boolean()),
  };
}

function streamOkResponse(requestsPerMinute: number): DocumentedResponse {
  const formats = Object.values(streamFormats);
  const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];
  return binaryResponse(
    `Raw audio without a header, sent with chunked transfer as it is produced, in whole ${FRAME_MS} ms ` +
      'frames. The headers go out when the first audio is ready. If synthesis fails after audio has ' +
      'started, the connection is aborted (the chunked body never ends cleanly), so an incomplete ' +
      'stream can be told from a complete one.',
    unique(formats.map((f) => f.contentType)),
    {
      'X-Voice-Ttfa-Ms': header(
        'Server time from the request’s arrival to the first audio byte being ready, in whole milliseconds.',
        z.int().nonnegative(),
      ),
      'X-Voice-Sample-Rate': header(
        'Samples per second of the audio.',
        z.literal(unique(formats.map((f) => f.sampleRate))),
      ),
      'X-Voice-Encoding': header(
        'How to read the bytes: `pcm_s16le` (signed 16-bit little-endian), `mulaw` or `alaw` (G.711).',
        z.enum(unique(formats.map((f) => f.encoding))),
      ),
      ...billingHeaders(),
      ...rateLimitHeaders(requestsPerMinute),
    },
  );
}

function errorResponses(options: TtsDocOptions, stream: boolean): Record<number, DocumentedResponse> {
  const fields = stream
    ? '`input`, `language`, `speaker_id` or `format`'
    : '`input`, `language`, `speaker_id` or `output_format`';
  return {
    400: errorResponse(
      400,
      `Malformed JSON, or a missing, wrong-typed or out-of-range ${fields}; \`param\` names the field. ` +
        'Also two different keys in Authorization and X-Voice-Api-Key, an input with nothing to ' +
        'speak (no letters or numbers), `invalid_input` for a control character (with its ' +
        '`position`) and `invalid_ssml` for an SSML document Ijwi cannot read (with `element`, ' +
        '`line` and `column`).',
    ),
    401: invalidApiKeyResponse(),
    402: insufficientTokensResponse(),
    410: errorResponse(
      410,
      'The body carries a field of the retired voice cloning; `param` names it. Choose a voice with ' +
        '`language` and `speaker_id`.',
    ),
    413: errorResponse(413, `The body is larger than ${options.bodyLimitBytes} bytes.`),
    415: errorResponse(415, 'The body is not JSON: send it with `Content-Type: application/json`.'),
    429: errorResponse(
      429,
      `More than ${options.requestsPerMinute} requests in a rolling minute on this key, file and stream ` +
        'requests together. Refused requests do not count.',
      {
        'Retry-After': header('Seconds until a request will be accepted.', z.int().nonnegative()),
        ...rateLimitHeaders(options.requestsPerMinute),
      },
    ),
    500: errorResponse(500, 'A bug on our side; the message is generic, the request id helps us find it.'),
    503: errorResponse(503, BUSY_OR_STARTING, {
      'Retry-After': header('Seconds to wait before retrying.', z.int().nonnegative()),
    }),
  };
}

function audioBoundNote(): string {
  return languages.map((l) => `${MAX_SECONDS_PER_CHARACTER[l.code]} for \`${l.code}\``).join(', ');
}

function billingNote(options: TtsDocOptions): string {
  return (
    `Costs 1 token per started ${options.charsPerToken} characters of \`input\` (of the spoken text ` +
    'for SSML; at least 1), or one of ' +
    `the account's free generations while it has some and the audio is under ${FREE_MAX_SECONDS} s. ` +
    'A request that fails is not charged. Counts against the per-key limit of ' +
    `${options.requestsPerMinute} requests per rolling minute, shared by both TTS endpoints.`
  );
}

/** The `tts.php` route schema. */
export function ttsFileRouteSchema(options: TtsDocOptions): FastifySchema {
  return {
    operationId: 'createSpeechFile',
    summary: 'Synthesise speech to a WAV file',
    description:
      'Synthesises `input` in the chosen voice and answers with the URL of a WAV file, kept for a ' +
      `limited time (24 hours by default). ${billingNote(options)}`,
    tags: [tags.speech],
    security: apiKeySecurity,
    body: ttsBodySchema(options.maxChars),
    response: {
      200: jsonResponse(
        'The file is ready.',
        ttsFileResponseSchema,
        rateLimitHeaders(options.requestsPerMinute),
      ),
      ...errorResponses(options, false),
    },
  };
}

/** The `tts-stream.php` route schema. */
export function ttsStreamRouteSchema(options: TtsDocOptions): FastifySchema {
  return {
    operationId: 'streamSpeech',
    summary: 'Stream speech as raw audio, for live calls',
    description:
      'Synthesises `input` and streams the audio as it is produced. One or two sentences per request ' +
      'give the fastest first audio; allow up to 10-15 s for it. An error found before the first ' +
      'audio gets a JSON error; when the client disconnects, synthesis stops. Free use is decided ' +
      'before synthesis, from the most audio the input can produce (seconds per character: ' +
      `${audioBoundNote()}; twice that for SSML). ${billingNote(options)}`,
    tags: [tags.speech],
    security: apiKeySecurity,
    body: streamTtsBodySchema(options.maxChars),
    response: {
      200: streamOkResponse(options.requestsPerMinute),
      ...errorResponses(options, true),
    },
  };
}

/** The `tts-url.php` 200 body. The route serialises its answer with it. */
export const ttsUrlResponseSchema = z.object({
  play_url: z.string().meta({
    format: 'uri',
    description:
      'Absolute URL that any HTTP client can GET without a key until `expires_at`: ' +
      '`…/play/<id>.<expiry>.<key>.<signature>.<wav|mp3>`. It carries no text; altered in any part it is not found.',
  }),
  expires_at: z
    .string()
    .meta({ format: 'date-time', description: 'When the URL stops working (UTC, whole seconds).' }),
});

/** What the `tts-url.php` handler sends on success. */
export type TtsUrlResponse = z.input<typeof ttsUrlResponseSchema>;

/** The `tts-url.php` route schema. */
export function ttsUrlRouteSchema(
  options: TtsDocOptions & { readonly maxLifetimeSeconds: number; readonly defaultLifetimeSeconds: number },
): FastifySchema {
  return {
    operationId: 'createPlayUrl',
    summary: 'Make a signed URL that speaks when it is fetched, for IVR players',
    description:
      'Checks the request as tts.php does and answers with a URL, without speaking and without ' +
      'charging. The first GET of the URL speaks it and streams the audio as it is produced (so ' +
      '`<Play>` starts at once), and is charged then, as a stream is; later GETs and range ' +
      'requests serve the stored audio, with no new charge; a URL never fetched is never charged. ' +
      'Refused with 402 when the account could not pay for it now. ' +
      billingNote(options),
    tags: [tags.speech],
    security: apiKeySecurity,
    body: z
      .object({
        input: inputField(options.maxChars),
        language: languageField,
        speaker_id: speakerIdField,
        text_type: textTypeField,
        dictionaries: dictionariesField,
        format: z
          .enum(['wav', 'mp3'])
          .default('wav')
          .meta({
            description:
              '`wav`: mono 16-bit PCM at 8 kHz, what telephone lines play (and the only WAV Asterisk reads ' +
              'as `.wav`); `mp3`: 24 kHz mono, 64 kbit/s. The URL’s extension follows.',
          }),
        expires_in: z
          .int()
          .min(1)
          .max(options.maxLifetimeSeconds)
          .default(options.defaultLifetimeSeconds)
          .meta({ description: `Seconds the URL works, at most ${options.maxLifetimeSeconds}.` }),
        ...cloningFields,
      })
      .meta(bodyMeta),
    response: {
      200: jsonResponse('The URL.', ttsUrlResponseSchema, rateLimitHeaders(options.requestsPerMinute)),
      ...errorResponses(options, false),
      429: errorResponse(
        429,
        `More than ${options.requestsPerMinute} requests in a rolling minute on this key (\`rate_limited\`), ` +
          'or the account has as many unexpired URLs as it may (`too_many_play_urls`).',
        {
          'Retry-After': header('Seconds until a request will be accepted.', z.int().nonnegative()),
          ...rateLimitHeaders(options.requestsPerMinute),
        },
      ),
    },
  };
}
