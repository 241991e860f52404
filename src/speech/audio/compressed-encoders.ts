import { joinBytes } from './bytes.ts';
import {
  COMPRESSED_SAMPLE_RATE,
  type CompressedFormatName,
  type FormatEncoder,
} from './compressed-formats.ts';
import type { OpusRate } from './opus-encoder.ts';
import { type Resampler, ResamplerBackend } from './resampler.ts';

/**
 * Makes a stream's encoder of a compressed format for PCM at `inputRate`; `serial` is an Ogg
 * stream's serial number (random when absent), so that the same PCM can be encoded to the same bytes.
 */
export type MakeFormatEncoder = (
  format: CompressedFormatName,
  inputRate: number,
  serial?: number,
) => Promise<FormatEncoder>;

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

/** Loads one format's library (LAME, libopus, libFLAC: tens of ms, a few MB to 20 MB each). */
const libraries: Readonly<
  Record<CompressedFormatName, () => Promise<(rate: number, serial?: number) => Promise<FormatEncoder>>>
> = {
  mp3: async () => (await import('./mp3-encoder.ts')).mp3Encoders(),
  opus: async () => {
    const opus = (await import('./opus-encoder.ts')).opusEncoders();
    return async (rate, serial) => opus(rate as OpusRate, serial);
  },
  flac: async () => {
    const flac = await (await import('./flac-encoder.ts')).flacEncoders();
    return async (rate) => flac(rate);
  },
};

/**
 * The maker of compressed formats' encoders, once per thread (the encoding threads, or a bench
 * measuring them). Each format's library is loaded when a stream first asks for it, so a service
 * whose clients never ask for MP3, Opus or FLAC holds none of them. PCM at a rate the codec does
 * not take (22,050 Hz for Opus) is first resampled to 24 kHz.
 */
export async function loadFormatEncoders(): Promise<MakeFormatEncoder> {
  const resamplers = await ResamplerBackend.load();
  const loaded = new Map<CompressedFormatName, ReturnType<(typeof libraries)[CompressedFormatName]>>();
  const at = (format: CompressedFormatName, rate: number, serial?: number): Promise<FormatEncoder> => {
    let library = loaded.get(format);
    if (!library) {
      library = libraries[format]();
      loaded.set(format, library);
    }
    return library.then((make) => make(rate, serial));
  };
  return async (format, inputRate, serial) => {
    if (NATIVE_RATES[format](inputRate)) return at(format, inputRate, serial);
    const encoder = await at(format, COMPRESSED_SAMPLE_RATE, serial);
    return resampled(encoder, resamplers.resampler(inputRate, COMPRESSED_SAMPLE_RATE));
  };
}
