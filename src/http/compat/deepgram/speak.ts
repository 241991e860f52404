import type { FastifyRequest } from 'fastify';
import { compressedFormats } from '../../../speech/audio/compressed-formats.ts';
import { type StreamFormat, streamFormats } from '../../../speech/audio/formats.ts';
import { openEndedWavHeader } from '../../../speech/audio/wav.ts';
import type { AudioTarget } from '../../../speech/synthesize.ts';
import type { Voice } from '../../../speech/voices/voices.ts';
import { apiKeyFrom } from '../../api-key.ts';
import { ApiError, type ErrorBody, errorBody } from '../../errors.ts';
import { voiceOfPath } from '../voice-id.ts';

// Deepgram's `/v1/speak` query (`model`, `encoding`, `sample_rate`, `container`), its key header
// (`Authorization: Token <key>`) and its error body, shared by the HTTP request and the WebSocket.

/** Where the Deepgram-compatible surface lives: a client's base URL is `{base_url}/deepgram`. */
export const DEEPGRAM_PREFIX = '/deepgram/';

/** What a `/v1/speak` query asks for: the voice, the pipeline's target, how the body starts. */
export interface DeepgramAudio {
  readonly voice: Voice;
  readonly target: AudioTarget;
  readonly contentType: string;
  readonly sampleRate: number;
  /** Bytes before the audio: an open-ended WAV header for `container=wav`, else none. */
  readonly header: Uint8Array;
}

/** The raw encodings, by rate. */
const rawFormats: Readonly<Record<string, readonly StreamFormat[]>> = {
  linear16: [
    streamFormats.pcm16_24k,
    streamFormats.pcm16_8k,
    streamFormats.pcm16_16k,
    streamFormats.pcm16_22k,
    streamFormats.pcm16_44k,
  ],
  mulaw: [streamFormats.mulaw_8k],
  alaw: [streamFormats.alaw_8k],
};
const compressed = { mp3: 'none', opus: 'ogg', flac: 'none' } as const;
const ENCODINGS = [...Object.keys(rawFormats), ...Object.keys(compressed)];

type Query = Readonly<Record<string, unknown>>;

const refused = (param: string, message: string) =>
  new ApiError(param === 'model' ? 'invalid_speaker' : 'unsupported_format', message, { param });

/** One value of a query parameter (a repeated one is refused as not a value). */
function single(query: Query, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw refused(name, `${name} must be given once`);
  return value;
}

/**
 * The audio a query asks for. `model` is an Ijwi voice id (`keza` ... `aline`); `encoding`
 * `linear16` (at 24,000 Hz unless `sample_rate` says 8000, 16000, 22050 or 44100), `mulaw` or
 * `alaw` (8000 Hz), with `container` `wav` (their default, for HTTP) or `none`; or `mp3` (the
 * default), `opus` (in Ogg) or `flac`, at the rate their encoder makes. `rawOnly`: a WebSocket,
 * which sends bare samples.
 */
export function deepgramAudio(query: Query, rawOnly: boolean): DeepgramAudio {
  const model = single(query, 'model');
  if (model === undefined) throw refused('model', 'model must name a voice: keza ... aline');
  const voice = voiceOfPath(model, 'model');
  const encoding = single(query, 'encoding') ?? (rawOnly ? 'linear16' : 'mp3');
  const rate = single(query, 'sample_rate');
  const container = single(query, 'container');
  const raw = rawFormats[encoding];
  if (raw) {
    const format = rate === undefined ? raw[0] : raw.find((f) => String(f.sampleRate) === rate);
    if (!format) {
      const rates = raw.map((f) => f.sampleRate).join(', ');
      throw refused('sample_rate', `sample_rate for ${encoding} must be one of ${rates}`);
    }
    const wrapped = (container ?? (rawOnly ? 'none' : 'wav')) === 'wav';
    if (container !== undefined && container !== 'wav' && container !== 'none')
      throw refused('container', `container for ${encoding} must be wav or none`);
    if (wrapped && rawOnly)
      throw refused('container', 'a WebSocket sends bare samples: container must be none');
    return {
      voice,
      target: { kind: 'stream', format },
      contentType: wrapped ? 'audio/wav' : 'application/octet-stream',
      sampleRate: format.sampleRate,
      header: wrapped ? openEndedWavHeader(format.sampleRate, format.encoding) : new Uint8Array(0),
    };
  }
  if (rawOnly || !(encoding in compressed))
    throw refused(
      'encoding',
      `encoding must be one of ${(rawOnly ? Object.keys(rawFormats) : ENCODINGS).join(', ')}`,
    );
  const name = encoding as keyof typeof compressed;
  const format = compressedFormats[name];
  if (rate !== undefined && rate !== String(format.sampleRate))
    throw refused('sample_rate', `sample_rate for ${encoding} must be ${format.sampleRate}`);
  if (container !== undefined && container !== compressed[name])
    throw refused('container', `container for ${encoding} must be ${compressed[name]}`);
  return {
    voice,
    target: { kind: 'compressed', format },
    contentType: format.contentType,
    sampleRate: format.sampleRate,
    header: new Uint8Array(0),
  };
}

/** The key in `Authorization: Token <key>` (Deepgram's scheme), else in Ijwi's own headers. */
export function deepgramKey(request: FastifyRequest): string {
  const match = /^Token +(\S+) *$/i.exec(request.headers.authorization ?? '');
  if (match?.[1]) return match[1];
  return apiKeyFrom(request.headers);
}

/** Deepgram's error body: `err_code` (Ijwi's code), `err_msg`, `request_id`, and Ijwi's fields. */
export function deepgramError(error: ApiError, requestId: string): Readonly<Record<string, unknown>> {
  const { error: fields }: ErrorBody = errorBody(error, requestId);
  return { err_code: fields.code, err_msg: fields.message, ...fields };
}
