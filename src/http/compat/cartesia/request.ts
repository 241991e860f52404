import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { compressedFormats } from '../../../speech/audio/compressed-formats.ts';
import { type StreamFormat, streamFormats } from '../../../speech/audio/formats.ts';
import { openEndedWavHeader } from '../../../speech/audio/wav.ts';
import type { AudioTarget } from '../../../speech/synthesize.ts';
import type { Voice } from '../../../speech/voices/voices.ts';
import { apiKeyFrom } from '../../api-key.ts';
import { ApiError, errorBody } from '../../errors.ts';
import { contextId } from '../../live/protocol.ts';
import { voiceOfPath } from '../voice-id.ts';

// Cartesia's generation request (`/tts/bytes`, `/tts/sse`, and each message of `/tts/websocket`):
// `transcript`, `voice` by id (an Ijwi voice name in lower case), `language` (the voice's, when
// sent), `output_format` (raw or WAV samples at a rate Ijwi makes, or MP3), `add_timestamps`,
// `context_id` and `continue` on the socket. The key: `Authorization: Bearer` (the SDK),
// `X-API-Key`, or, for a socket, `api_key` in the query. `Cartesia-Version` is accepted.

/** Where the Cartesia-compatible surface lives: a client's base URL is `{base_url}/cartesia`. */
export const CARTESIA_PREFIX = '/cartesia/';

const RATES = [8000, 16000, 22050, 24000, 44100] as const;

const outputFormat = z.object({
  container: z.enum(['raw', 'wav', 'mp3']),
  encoding: z.enum(['pcm_s16le', 'pcm_f32le', 'pcm_mulaw', 'pcm_alaw']).optional(),
  sample_rate: z.number(),
  bit_rate: z.number().optional(),
});

export const generationSchema = z.looseObject({
  model_id: z.string().max(100).optional(),
  transcript: z.string({ error: 'transcript must be a string' }),
  voice: z.union([
    z.string(),
    z.looseObject({ mode: z.literal('id').optional(), id: z.string({ error: 'voice.id must be a string' }) }),
  ]),
  language: z.string().max(35).nullish(),
  output_format: outputFormat,
  add_timestamps: z.boolean().nullish(),
  context_id: contextId.nullish(),
  continue: z.boolean().nullish(),
});

export type Generation = z.infer<typeof generationSchema>;

/** What a generation asks for: its voice, the pipeline's target, and how its bytes are shaped. */
export interface CartesiaAudio {
  readonly voice: Voice;
  readonly target: AudioTarget;
  /** The stream format the pipeline makes, for raw and WAV; absent for MP3. */
  readonly format?: StreamFormat;
  readonly contentType: string;
  /** Bytes before the audio: an open-ended WAV header, else none. */
  readonly header: Uint8Array;
  /** `pcm_f32le`: each 16-bit sample is sent as a 32-bit float. */
  readonly float: boolean;
}

const refused = (param: string, message: string) =>
  new ApiError(param.startsWith('voice') ? 'invalid_speaker' : 'unsupported_format', message, { param });

/** A generation's audio, or the 400 (404 for an unknown voice) naming the field at fault. */
export function cartesiaAudio(generation: Generation): CartesiaAudio {
  const id = typeof generation.voice === 'string' ? generation.voice : generation.voice.id;
  const voice = voiceOfPath(id, 'voice.id');
  const language = generation.language?.toLowerCase().split(/[-_]/)[0];
  if (language !== undefined && language !== voice.language)
    throw new ApiError(
      'unsupported_language',
      `the voice ${id} speaks ${voice.language}; language must be ${voice.language}`,
      {
        param: 'language',
      },
    );
  const { container, encoding, sample_rate: rate } = generation.output_format;
  if (container === 'mp3') {
    return {
      voice,
      target: { kind: 'compressed', format: compressedFormats.mp3 },
      contentType: 'audio/mpeg',
      header: new Uint8Array(0),
      float: false,
    };
  }
  const sampleEncoding = encoding ?? 'pcm_s16le';
  const candidates: readonly StreamFormat[] =
    sampleEncoding === 'pcm_mulaw'
      ? [streamFormats.mulaw_8k]
      : sampleEncoding === 'pcm_alaw'
        ? [streamFormats.alaw_8k]
        : [
            streamFormats.pcm16_8k,
            streamFormats.pcm16_16k,
            streamFormats.pcm16_22k,
            streamFormats.pcm16_24k,
            streamFormats.pcm16_44k,
          ];
  const format = candidates.find((f) => f.sampleRate === rate);
  if (!format) {
    const rates = sampleEncoding === 'pcm_mulaw' || sampleEncoding === 'pcm_alaw' ? [8000] : RATES;
    throw refused(
      'output_format.sample_rate',
      `sample_rate for ${sampleEncoding} must be one of ${rates.join(', ')}`,
    );
  }
  const float = sampleEncoding === 'pcm_f32le';
  if (container === 'wav' && float)
    throw refused('output_format.encoding', 'a WAV container takes pcm_s16le, pcm_mulaw or pcm_alaw');
  return {
    voice,
    target: { kind: 'stream', format },
    format,
    contentType: container === 'wav' ? 'audio/wav' : 'application/octet-stream',
    header: container === 'wav' ? openEndedWavHeader(format.sampleRate, format.encoding) : new Uint8Array(0),
    float,
  };
}

/** 16-bit little-endian samples as 32-bit little-endian floats (`pcm_f32le`). */
export function asFloat32(bytes: Uint8Array): Uint8Array {
  const samples = Math.floor(bytes.byteLength / 2);
  const input = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Uint8Array(samples * 4);
  const output = new DataView(out.buffer);
  for (let i = 0; i < samples; i++) output.setFloat32(i * 4, input.getInt16(i * 2, true) / 32768, true);
  return out;
}

/** The key: `X-API-Key`, else Ijwi's own headers (the SDK's `Authorization: Bearer`). */
export function cartesiaKey(request: FastifyRequest): string {
  const header = request.headers['x-api-key'];
  const key = (Array.isArray(header) ? header.join(', ') : header)?.trim();
  if (key) return key;
  const query = (request.query ?? {}) as { api_key?: unknown };
  if (typeof query.api_key === 'string' && request.headers.authorization === undefined) return query.api_key;
  return apiKeyFrom(request.headers);
}

/** Cartesia's error body: `title` and `error_code` (Ijwi's code), `message`, `status_code`, the request id. */
export function cartesiaError(error: ApiError, requestId: string): Readonly<Record<string, unknown>> {
  const { error: fields } = errorBody(error, requestId);
  return { ...fields, title: fields.code, error_code: fields.code, status_code: error.status };
}
