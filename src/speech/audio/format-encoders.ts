import { joinBytes } from './bytes.ts';
import {
  COMPRESSED_SAMPLE_RATE,
  type CompressedFormatName,
  type FormatEncoder,
} from './compressed-formats.ts';
import { flacEncoders } from './flac-encoder.ts';
import { mp3Encoders } from './mp3-encoder.ts';
import { type OpusRate, opusEncoders } from './opus-encoder.ts';
import { type Resampler, ResamplerBackend } from './resampler.ts';

/** Makes a stream's encoder of a compressed format for PCM at `inputRate`. */
export type MakeFormatEncoder = (format: CompressedFormatName, inputRate: number) => Promise<FormatEncoder>;

/** The rates each codec encodes as they are (MPEG-1, -2 and 2.5 for MP3; Opus's five). */
const NATIVE_RATES: Readonly<Record<CompressedFormatName, (rate: number) => boolean>> = {
  mp3: (rate) => [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000].includes(rate),
  opus: (rate) => [8000, 12000, 16000, 24000, 48000].includes(rate),
  flac: (rate) => Number.isInteger(rate) && rate >= 1 && rate <= 655_350,
};

/** `encoder` fed through `resampler` first. */
function resampled(encoder: FormatEncoder, resampler: Resampler): FormatEncoder {
  return {
    encode: (samples) => encoder.encode(resampler.process(samples)),
    end() {
      const tail = encoder.encode(resampler.flush());
      return joinBytes([tail, encoder.end()]);
    },
    drop() {
      resampler.reset();
      encoder.drop();
    },
  };
}

/**
 * Loads every compressed format's library (LAME, libopus, libFLAC: tens of ms) and returns the
 * maker of their encoders. Once per thread: the encoding threads, or a bench measuring them.
 * PCM at a rate the codec does not take (22,050 Hz for Opus) is first resampled to 24 kHz.
 */
export async function loadFormatEncoders(): Promise<MakeFormatEncoder> {
  const [mp3, flac, resamplers] = await Promise.all([mp3Encoders(), flacEncoders(), ResamplerBackend.load()]);
  const opus = opusEncoders();
  const at = async (format: CompressedFormatName, rate: number): Promise<FormatEncoder> => {
    switch (format) {
      case 'mp3':
        return mp3(rate);
      case 'opus':
        return opus(rate as OpusRate);
      case 'flac':
        return flac(rate);
    }
  };
  return async (format, inputRate) => {
    if (NATIVE_RATES[format](inputRate)) return at(format, inputRate);
    const encoder = await at(format, COMPRESSED_SAMPLE_RATE);
    return resampled(encoder, resamplers.resampler(inputRate, COMPRESSED_SAMPLE_RATE));
  };
}
