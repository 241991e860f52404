/**
 * The compressed output formats, as one table: what OpenAI's `response_format` and the file
 * endpoint's `output_format` name, their media types and file extensions. All are made from
 * 24 kHz mono speech, the rate of OpenAI's `pcm` and one Opus takes as it is.
 */

export const compressedFormatNames = ['mp3', 'opus', 'flac'] as const;

export type CompressedFormatName = (typeof compressedFormatNames)[number];

export interface CompressedFormat {
  readonly name: CompressedFormatName;
  readonly contentType: string;
  /** Of a generated file, `audio_<id>.<extension>`: the format's name. */
  readonly extension: CompressedFormatName;
  readonly sampleRate: number;
}

/** The rate every compressed format is encoded from. */
export const COMPRESSED_SAMPLE_RATE = 24_000;

export const compressedFormats: Readonly<Record<CompressedFormatName, CompressedFormat>> = Object.freeze({
  mp3: { name: 'mp3', contentType: 'audio/mpeg', extension: 'mp3', sampleRate: COMPRESSED_SAMPLE_RATE },
  // RFC 7845: Ogg Opus is audio/ogg; the codecs parameter lets a player know before it reads.
  opus: {
    name: 'opus',
    contentType: 'audio/ogg; codecs=opus',
    extension: 'opus',
    sampleRate: COMPRESSED_SAMPLE_RATE,
  },
  flac: { name: 'flac', contentType: 'audio/flac', extension: 'flac', sampleRate: COMPRESSED_SAMPLE_RATE },
});

/** True when `value` names a compressed format (exact, as clients send it). */
export function isCompressedFormatName(value: unknown): value is CompressedFormatName {
  return typeof value === 'string' && (compressedFormatNames as readonly string[]).includes(value);
}

/**
 * One stream's encoder: 16-bit mono PCM at the format's rate in, the format's bytes out, as they
 * are ready (whole MP3 frames, Ogg pages, FLAC frames; possibly none yet). `end` returns the rest
 * and releases the encoder; `drop` releases it without finishing (a stream cut short).
 */
export interface FormatEncoder {
  encode(samples: Int16Array): Uint8Array;
  end(): Uint8Array;
  drop(): void;
}
