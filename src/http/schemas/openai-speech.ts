import type { FastifySchema } from 'fastify';
import { z } from 'zod';
import { compressedFormats } from '../../speech/audio/compressed-formats.ts';
import { builtInVoices } from '../../speech/voices/voices.ts';
import { type FieldCodes, withRefusals } from '../body-refusal.ts';
import {
  MAX_SPEED,
  MIN_SPEED,
  MODEL_NAME,
  OPENAI_PCM,
  OPENAI_VOICE_ALIASES,
  type OpenAiSpeechRequest,
  openAiFormats,
  streamFormatsOfOpenAi,
  UNSUPPORTED_FORMATS,
  voiceNamed,
} from '../openai-speech.ts';
import { apiKeySecurity, tags } from '../openapi.ts';
import { atSpeed } from '../tts-request.ts';
import {
  BUSY_OR_STARTING,
  errorResponse,
  insufficientTokensResponse,
  invalidApiKeyResponse,
} from './errors.ts';
import { binaryResponse, header, rateLimitHeaders } from './responses.ts';
import {
  asSent,
  dictionariesField,
  inputGiven,
  isRecord,
  readingRule,
  refusedAt,
  requestOf,
  textField,
} from './speech-body.ts';
import type { TtsDocOptions } from './tts.ts';

// The body of `POST /v1/audio/speech`, which validates the request (after the key and the rate
// limit, as the other speech routes) and documents it. Its text is read as the stream endpoint
// reads `input`, in the voice the name gives, then spoken at `speed`.

const voiceNames = builtInVoices.map((voice) => voice.name.toLowerCase());
const aliases = Object.entries(OPENAI_VOICE_ALIASES)
  .map(([alias, name]) => `\`${alias}\` (${name})`)
  .join(', ');

const modelMessage =
  '"model" must be a name of 1 to 100 letters, digits and . _ : / - (any model name is accepted)';
const voiceMessage = `voice must be one of ${voiceNames.join(', ')}, or an OpenAI voice name`;
const speedMessage = `speed must be a number from ${MIN_SPEED} to ${MAX_SPEED}`;
const oneOf = (field: string, names: readonly string[]) => `${field} must be one of ${names.join(', ')}`;

/** The fields in the order they are checked, with the code of each's refusal. */
const openAiFieldCodes = {
  model: 'invalid_request',
  voice: 'invalid_speaker',
  speed: 'invalid_request',
  response_format: 'unsupported_format',
  stream_format: 'invalid_request',
  input: 'invalid_request',
  dictionaries: 'invalid_request',
} as const satisfies FieldCodes;

/** The `/v1/audio/speech` body. Unknown fields are accepted and ignored. */
export function openAiSpeechBodySchema(maxChars: number) {
  const fields = z
    .looseObject(
      {
        model: z
          .string({ error: modelMessage })
          // Echoed in a header: letters, digits and . _ : / - only.
          .refine((model) => MODEL_NAME.test(model), { error: modelMessage })
          .meta({
            description:
              'Any model name (`tts-1`, `gpt-4o-mini-tts`, `ijwi`...): accepted and echoed in `X-Voice-Model`.',
            examples: ['tts-1'],
          }),
        input: textField(maxChars).meta({
          maxLength: maxChars,
          description: `The text to speak, at most ${maxChars} characters.`,
        }),
        voice: z
          .string({ error: voiceMessage })
          .refine((name) => voiceNamed(name) !== undefined, { error: voiceMessage })
          .meta({
            description: `An Ijwi voice name in lower case (${voiceNames.join(', ')}), which sets the language, or one of OpenAI's names, each an English voice: ${aliases}.`,
            examples: ['grace'],
          }),
        response_format: z
          .enum(openAiFormats, {
            error: (issue) =>
              oneOf('response_format', openAiFormats) +
              (UNSUPPORTED_FORMATS.includes(String(issue.input))
                ? ` (${String(issue.input)} is not served)`
                : ''),
          })
          .default('mp3')
          .meta({
            description: `\`mp3\` (64 kbit/s CBR), \`opus\` (Ogg Opus, 32 kbit/s) and \`flac\`: ${OPENAI_PCM.sampleRate} Hz mono; \`wav\`: the voice's own rate, 16-bit mono; \`pcm\`: ${OPENAI_PCM.sampleRate} Hz signed 16-bit little-endian, no header. Each streams as it is produced (MP3 frames, Ogg pages, FLAC frames). \`aac\` is not served (400).`,
          }),
        speed: z
          .number({ error: speedMessage })
          .min(MIN_SPEED, { error: speedMessage })
          .max(MAX_SPEED, { error: speedMessage })
          .default(1)
          .meta({ description: 'Speaking rate.' }),
        // Any value: it is ignored.
        instructions: z.unknown().optional().meta({ description: 'Accepted and ignored.', type: 'string' }),
        dictionaries: dictionariesField,
        stream_format: z
          .enum(streamFormatsOfOpenAi, { error: oneOf('stream_format', streamFormatsOfOpenAi) })
          .default('audio')
          .meta({
            description:
              '`audio`: the body streams the audio as it is produced; `sse`: server-sent events, ' +
              '`speech.audio.delta` with base64 `audio`, then `speech.audio.done`.',
          }),
      },
      { error: 'the body must be a JSON object with "model", "input" and "voice"' },
    )
    .meta({ description: "OpenAI's speech request." })
    .superRefine(...inputGiven)
    .superRefine(
      (body, ctx) => {
        const voice = voiceNamed(body.voice);
        if (voice) readingRule(body, body.input, 'text', voice, ctx);
      },
      { when: (payload) => isRecord(payload.value) && !refusedAt(payload, ['input', 'voice']) },
    );
  const body = z
    .preprocess(asSent(['input', 'speed', 'response_format', 'stream_format', 'dictionaries']), fields)
    .transform(
      (read): OpenAiSpeechRequest => ({
        tts: atSpeed(requestOf(read, read.input, read.dictionaries), read.speed),
        model: read.model,
        format: read.response_format,
        streamFormat: read.stream_format,
      }),
    );
  return withRefusals(body, openAiFieldCodes);
}

/** The `/v1/audio/speech` route schema. */
export function openAiSpeechRouteSchema(options: TtsDocOptions): FastifySchema {
  return {
    operationId: 'openAiSpeech',
    summary: "Speech as OpenAI's API makes it, for clients built for it",
    description:
      "OpenAI's `POST /v1/audio/speech`: point an OpenAI client's base URL at `{this server}/v1`. " +
      'Keys (`Authorization: Bearer`), billing, the free trial and the rate limit are those of the ' +
      "stream endpoint. Error bodies are the API's, with OpenAI's `type` in the error object.",
    tags: [tags.speech],
    security: apiKeySecurity,
    body: openAiSpeechBodySchema(options.maxChars),
    response: {
      200: binaryResponse(
        'The audio, streamed as it is produced.',
        [
          ...Object.values(compressedFormats).map((f) => f.contentType),
          'audio/wav',
          'audio/pcm',
          'text/event-stream',
        ],
        {
          'X-Voice-Model': header('The `model` of the request.'),
          'X-Voice-Sample-Rate': header('Samples per second of the audio.', z.int().positive()),
          ...rateLimitHeaders(options.requestsPerMinute),
        },
      ),
      400: errorResponse(
        400,
        'Malformed JSON, or a missing or wrong `model`, `input`, `voice`, `response_format`, `speed` or ' +
          '`stream_format`; `param` names the field.',
      ),
      401: invalidApiKeyResponse(),
      402: insufficientTokensResponse(),
      413: errorResponse(413, `The body is larger than ${options.bodyLimitBytes} bytes.`),
      415: errorResponse(415, 'The body is not JSON: send it with `Content-Type: application/json`.'),
      429: errorResponse(
        429,
        `More than ${options.requestsPerMinute} requests in a rolling minute on this key.`,
        {
          'Retry-After': header('Seconds until a request will be accepted.', z.int().nonnegative()),
          ...rateLimitHeaders(options.requestsPerMinute),
        },
      ),
      500: errorResponse(500, 'A bug on our side; the request id helps us find it.'),
      503: errorResponse(503, BUSY_OR_STARTING, {
        'Retry-After': header('Seconds to wait before retrying.', z.int().nonnegative()),
      }),
    },
  };
}
