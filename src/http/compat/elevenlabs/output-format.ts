import { compressedFormats } from '../../../speech/audio/compressed-formats.ts';
import { type StreamFormat, streamFormats } from '../../../speech/audio/formats.ts';
import type { AudioTarget } from '../../../speech/synthesize.ts';

/** The audio an ElevenLabs `output_format` names, as Ijwi's pipeline makes it. */
export interface ElevenLabsAudio {
  /** The `output_format` as the client sent it. */
  readonly name: string;
  readonly target: AudioTarget;
  readonly contentType: string;
  /** The rate of the samples the client receives (of the PCM before encoding, for MP3 and Opus). */
  readonly sampleRate: number;
}

const raw = (name: string, format: StreamFormat): ElevenLabsAudio => ({
  name,
  target: { kind: 'stream', format },
  // ElevenLabs labels bare little-endian PCM audio/pcm, and G.711 by its codec; clients read the
  // rate from the name they asked for, never from the type.
  contentType: format.encoding === 'pcm_s16le' ? 'audio/pcm' : format.contentType,
  sampleRate: format.sampleRate,
});

// MP3 and Ogg Opus carry their own rate and bitrate in every frame or page, so every ElevenLabs MP3
// (and Opus) name is served by the one MP3 (and Opus) encoding Ijwi makes: a decoder reads what it
// gets. Bare PCM carries nothing, so only a rate Ijwi makes exactly is offered: pcm_22050 and
// pcm_44100 wait for stream formats at those rates.
const compressed = (name: string, format: 'mp3' | 'opus'): ElevenLabsAudio => ({
  name,
  target: { kind: 'compressed', format: compressedFormats[format] },
  contentType: compressedFormats[format].contentType,
  sampleRate: compressedFormats[format].sampleRate,
});

const supported: ReadonlyMap<string, ElevenLabsAudio> = new Map(
  [
    raw('pcm_8000', streamFormats.pcm16_8k),
    raw('pcm_16000', streamFormats.pcm16_16k),
    raw('pcm_22050', streamFormats.pcm16_22k),
    raw('pcm_24000', streamFormats.pcm16_24k),
    raw('pcm_44100', streamFormats.pcm16_44k),
    raw('ulaw_8000', streamFormats.mulaw_8k),
    raw('alaw_8000', streamFormats.alaw_8k),
    ...['22050_32', '24000_48', '44100_32', '44100_64', '44100_96', '44100_128', '44100_192'].map((rate) =>
      compressed(`mp3_${rate}`, 'mp3'),
    ),
    ...['32', '64', '96', '128', '192'].map((kbps) => compressed(`opus_48000_${kbps}`, 'opus')),
  ].map((audio) => [audio.name, audio]),
);

/** Every `output_format` this surface takes, in the order the refusal lists them. */
export const supportedOutputFormats: readonly string[] = [...supported.keys()];

/** ElevenLabs' own default when a request names none. */
export const DEFAULT_OUTPUT_FORMAT = 'mp3_44100_128';

export type OutputFormatResult =
  | { readonly ok: true; readonly audio: ElevenLabsAudio }
  | { readonly ok: false; readonly code: 'unsupported_format'; readonly message: string };

/**
 * The audio for a request's `output_format` query parameter: ElevenLabs' default when it is
 * absent; a refusal naming every supported format when it names one Ijwi does not make.
 */
export function parseOutputFormat(value: string | undefined): OutputFormatResult {
  const name = value ?? DEFAULT_OUTPUT_FORMAT;
  const audio = supported.get(name);
  if (audio) return { ok: true, audio };
  return {
    ok: false,
    code: 'unsupported_format',
    message: `output_format ${JSON.stringify(name).slice(0, 60)} is not supported; use one of ${supportedOutputFormats.join(', ')}`,
  };
}
