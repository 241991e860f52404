import { compressedFormats, isCompressedFormatName } from '../speech/audio/compressed-formats.ts';
import { streamFormats } from '../speech/audio/formats.ts';
import { openEndedWavHeader } from '../speech/audio/wav.ts';
import type { AudioTarget } from '../speech/synthesize.ts';
import { allVoices, type Voice } from '../speech/voices/voices.ts';
import type { StreamBody } from './stream-writer.ts';
import type { TtsRequest } from './tts-request.ts';

// `POST /v1/audio/speech`: OpenAI's speech request, read (schemas/openai-speech.ts) into the
// request the stream endpoint speaks (the same document, voice and audio bound), so that
// everything after validation (keys, billing, rate limit, the pipeline) is the stream endpoint's own.

/** OpenAI's own voice names, each an alias of an English voice of a like register. */
export const OPENAI_VOICE_ALIASES: Readonly<Record<string, string>> = {
  alloy: 'grace',
  ash: 'james',
  ballad: 'baraka',
  coral: 'olivia',
  echo: 'james',
  fable: 'baraka',
  nova: 'olivia',
  onyx: 'james',
  sage: 'amani',
  shimmer: 'grace',
  verse: 'baraka',
};

export const OPENAI_MAX_CHARACTERS = 4096;
/** The model names accepted (echoed in a header): letters, digits and . _ : / - only. */
export const MODEL_NAME = /^[A-Za-z0-9._:/-]{1,100}$/;
export const MIN_SPEED = 0.25;
export const MAX_SPEED = 4;
/** `response_format`s, the default (OpenAI's) first. */
export const openAiFormats = ['mp3', 'opus', 'flac', 'wav', 'pcm'] as const;
export type OpenAiFormat = (typeof openAiFormats)[number];
/**
 * OpenAI's other format, refused naming the supported ones: the AAC encoders on npm are FFmpeg's
 * inside a media framework's pipeline, with a thread per stream and no streaming interface.
 */
export const UNSUPPORTED_FORMATS = ['aac'];
export const streamFormatsOfOpenAi = ['audio', 'sse'] as const;
export type OpenAiStreamFormat = (typeof streamFormatsOfOpenAi)[number];

/** `pcm` is OpenAI's: 24 kHz signed 16-bit little-endian. */
export const OPENAI_PCM = streamFormats.pcm16_24k;

/** An OpenAI speech body as its schema reads it (schemas/openai-speech.ts). */
export interface OpenAiSpeechRequest {
  readonly tts: TtsRequest;
  readonly model: string;
  readonly format: OpenAiFormat;
  readonly streamFormat: OpenAiStreamFormat;
}

/** The voice a name gives: an Ijwi voice's name in lower case, or an OpenAI alias. */
export function voiceNamed(name: string): Voice | undefined {
  const own = Object.hasOwn(OPENAI_VOICE_ALIASES, name) ? OPENAI_VOICE_ALIASES[name] : name;
  return allVoices().find((voice) => voice.name.toLowerCase() === own);
}

/** What a `response_format` makes: the pipeline's target, the media type and the sample rate. */
export interface OpenAiAudio {
  readonly target: AudioTarget;
  readonly contentType: string;
  readonly sampleRate: number;
}

/** The audio of a `response_format` in `voice`: WAV at the voice's rate, the others at 24 kHz. */
export function openAiAudio(format: OpenAiFormat, voice: Voice): OpenAiAudio {
  if (isCompressedFormatName(format)) {
    const compressed = compressedFormats[format];
    return {
      target: { kind: 'compressed', format: compressed },
      contentType: compressed.contentType,
      sampleRate: compressed.sampleRate,
    };
  }
  if (format === 'pcm') {
    return {
      target: { kind: 'stream', format: OPENAI_PCM },
      contentType: 'audio/pcm',
      sampleRate: OPENAI_PCM.sampleRate,
    };
  }
  return { target: { kind: 'native' }, contentType: 'audio/wav', sampleRate: voice.sampleRate };
}

/** The media type of a response body: the audio's, or server-sent events. */
export function openAiContentType(speech: OpenAiSpeechRequest, audio: OpenAiAudio): string {
  return speech.streamFormat === 'sse' ? 'text/event-stream' : audio.contentType;
}

const encoder = new TextEncoder();
const event = (data: Record<string, string>) => encoder.encode(`data: ${JSON.stringify(data)}\n\n`);

/**
 * The body of a speech response as it is produced: a WAV stream (a header of open length, then
 * the voice's samples), bare 24 kHz PCM, or the encoder's MP3 frames, Ogg pages or FLAC frames;
 * with `sse`, each part of that as a `speech.audio.delta` event in base64, then `speech.audio.done`.
 */
export function openAiBody(speech: OpenAiSpeechRequest, sampleRate: number): StreamBody {
  const header = speech.format === 'wav' ? openEndedWavHeader(sampleRate) : new Uint8Array(0);
  const first = (audio: Uint8Array) => Buffer.concat([header, audio]);
  if (speech.streamFormat === 'audio') return { first, next: (audio) => audio, last: () => undefined };
  const delta = (audio: Uint8Array) =>
    event({ type: 'speech.audio.delta', audio: Buffer.from(audio).toString('base64') });
  return {
    first: (audio) => delta(first(audio)),
    next: delta,
    last: () => event({ type: 'speech.audio.done' }),
  };
}

/** OpenAI's error `type` for a status, which its clients read. */
export function openAiErrorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 402) return 'insufficient_quota';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

/** Paths that answer as OpenAI's API does. */
export const OPENAI_PREFIX = '/v1/';
