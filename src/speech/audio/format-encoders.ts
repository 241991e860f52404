import type { CompressedFormatName, FormatEncoder } from './compressed-formats.ts';
import { flacEncoders } from './flac-encoder.ts';
import { mp3Encoders } from './mp3-encoder.ts';
import { type OpusRate, opusEncoders } from './opus-encoder.ts';

/** Makes a stream's encoder of a compressed format at a sample rate. */
export type MakeFormatEncoder = (format: CompressedFormatName, sampleRate: number) => Promise<FormatEncoder>;

/**
 * Loads every compressed format's library (LAME, libopus, libFLAC: tens of ms) and returns the
 * maker of their encoders. Once per thread: the encoding threads, or a bench measuring them.
 */
export async function loadFormatEncoders(): Promise<MakeFormatEncoder> {
  const [mp3, flac] = await Promise.all([mp3Encoders(), flacEncoders()]);
  const opus = opusEncoders();
  return async (format, sampleRate) => {
    switch (format) {
      case 'mp3':
        return mp3(sampleRate);
      case 'opus':
        return opus(sampleRate as OpusRate);
      case 'flac':
        return flac(sampleRate);
    }
  };
}
