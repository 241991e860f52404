import type { FastifySchema } from 'fastify';
import { z } from 'zod';
import { compressedFormats } from '../../speech/audio/compressed-formats.ts';
import { builtInVoices } from '../../speech/voices/voices.ts';
import {
  MAX_SPEED,
  MIN_SPEED,
  OPENAI_PCM,
  OPENAI_VOICE_ALIASES,
  openAiFormats,
  streamFormatsOfOpenAi,
} from '../openai-speech.ts';
import { apiKeySecurity, tags } from '../openapi.ts';
import {
  BUSY_OR_STARTING,
  errorResponse,
  insufficientTokensResponse,
  invalidApiKeyResponse,
} from './errors.ts';
import { binaryResponse, header, rateLimitHeaders } from './responses.ts';
import { dictionariesField, type TtsDocOptions } from './tts.ts';

// The document of `POST /v1/audio/speech`. As for the other TTS routes, the body is validated by
// its parser (openai-speech.ts) after authentication and the rate limit; this schema, built from
// the parser's own constants, documents it.

const voiceNames = builtInVoices.map((voice) => voice.name.toLowerCase());
const aliases = Object.entries(OPENAI_VOICE_ALIASES)
  .map(([alias, name]) => `\`${alias}\` (${name})`)
  .join(', ');

function bodySchema(maxChars: number) {
  return z
    .looseObject({
      model: z.string().meta({
        description:
          'Any model name (`tts-1`, `gpt-4o-mini-tts`, `ijwi`...): accepted and echoed in `X-Voice-Model`.',
        examples: ['tts-1'],
      }),
      input: z
        .string()
        .max(maxChars)
        .meta({ description: `The text to speak, at most ${maxChars} characters.` }),
      voice: z.string().meta({
        description: `An Ijwi voice name in lower case (${voiceNames.join(', ')}), which sets the language, or one of OpenAI's names, each an English voice: ${aliases}.`,
        examples: ['grace'],
      }),
      response_format: z
        .enum(openAiFormats)
        .default('mp3')
        .meta({
          description: `\`mp3\` (64 kbit/s CBR), \`opus\` (Ogg Opus, 32 kbit/s) and \`flac\`: ${OPENAI_PCM.sampleRate} Hz mono; \`wav\`: the voice's own rate, 16-bit mono; \`pcm\`: ${OPENAI_PCM.sampleRate} Hz signed 16-bit little-endian, no header. Each streams as it is produced (MP3 frames, Ogg pages, FLAC frames). \`aac\` is not served (400).`,
        }),
      speed: z.number().min(MIN_SPEED).max(MAX_SPEED).default(1).meta({ description: 'Speaking rate.' }),
      instructions: z.string().optional().meta({ description: 'Accepted and ignored.' }),
      dictionaries: dictionariesField,
      stream_format: z
        .enum(streamFormatsOfOpenAi)
        .default('audio')
        .meta({
          description:
            '`audio`: the body streams the audio as it is produced; `sse`: server-sent events, ' +
            '`speech.audio.delta` with base64 `audio`, then `speech.audio.done`.',
        }),
    })
    .meta({ description: "OpenAI's speech request." });
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
    body: bodySchema(options.maxChars),
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
