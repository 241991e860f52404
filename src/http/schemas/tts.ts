import type { FastifySchema } from 'fastify';
import { type ZodType, z } from 'zod';
import { FREE_MAX_SECONDS } from '../../accounts/billing.ts';
import { FRAME_MS, streamFormats } from '../../speech/audio/formats.ts';
import { MAX_SECONDS_PER_CHARACTER } from '../../speech/audio-bound.ts';
import { languages } from '../../speech/voices/voices.ts';
import { apiKeySecurity, tags } from '../openapi.ts';
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
import {
  type PlayUrlLifetimes,
  streamTtsBodySchema,
  ttsBodySchema,
  ttsUrlBodySchema,
} from './speech-body.ts';

const languageCodes = languages.map((l) => l.code);

/** The limits and prices the TTS documentation states, from the app's configuration. */
export interface TtsDocOptions {
  /** Characters of `input` allowed on this endpoint. */
  readonly maxChars: number;
  readonly requestsPerMinute: number;
  readonly charsPerToken: number;
  readonly bodyLimitBytes: number;
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
export function ttsUrlRouteSchema(options: TtsDocOptions & PlayUrlLifetimes): FastifySchema {
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
    body: ttsUrlBodySchema(options.maxChars, options),
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
