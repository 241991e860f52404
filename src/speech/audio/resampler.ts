/**
 * Streaming sample-rate conversion of 16-bit mono PCM, from an engine's rate (espeak-ng: 22050 Hz)
 * to a stream format's rate, with libsamplerate's SINC_FASTEST converter: a windowed-sinc
 * low-pass that removes what the target rate cannot carry (LINEAR does no anti-aliasing: a
 * 5 kHz tone taken to 8 kHz comes back at 3 kHz almost as loud). The filter keeps its state
 * between chunks, so chunks join without clicks and give the samples one-shot conversion gives.
 *
 * Cost, measured on a shared 2-core machine (Node 20; figures vary by +-50%): importing the
 * library parses 2 MB of JavaScript (45-60 ms, once per thread). Loading a module, which is
 * what the library's `create()` does every time it is called, takes 5-15 ms (25 ms for the
 * first) and allocates a new 26 MB ArrayBuffer: the C code was compiled to plain JavaScript
 * (wasm2js) working on that memory; untouched pages cost no RSS. A fresh filter state on a
 * loaded module takes about 0.02 ms. Converting one 2,170-sample engine chunk (98 ms of audio)
 * takes 0.3-0.45 ms to 8 kHz and 0.45-0.6 ms to 24 kHz (about 160-330x real time), which is
 * of the order of espeak-ng's own synthesis time. So a module is loaded and warmed once per
 * thread (`ResamplerBackend.load()`), each stream gets a fresh filter state from it, and
 * `create()` is never called per request.
 */

import libsamplerate from '@alexanderolsen/libsamplerate-js';

// The package is CommonJS: Node exposes its exports only on the default import.
const { ConverterType, create } = libsamplerate;

type LoadedSrc = Awaited<ReturnType<typeof create>>;
type SrcModule = LoadedSrc['module'];

const CONVERTER = ConverterType.SRC_SINC_FASTEST;
/** The library's transfer buffers hold 1,008,000 floats each way; calls stay well inside that. */
const TRANSFER_FLOATS = 1_000_000;
const MAX_INPUT_BLOCK = 65_536;
/** The library accepts rates in 1..192000 Hz. */
const MAX_RATE = 192_000;
const MAX_RATIO = 256;
const EMPTY = new Int16Array(0);

/** A streaming converter from `inputRate` to `outputRate`, for one stream at a time. */
export interface Resampler {
  readonly inputRate: number;
  readonly outputRate: number;
  /**
   * Converts the next chunk of the stream. Returns the output samples that are ready: the
   * filter holds back a few (about half its length) until it sees what follows them. The
   * result is the caller's to keep or transfer; when the rates are equal it is `samples` itself.
   */
  process(samples: Int16Array): Int16Array;
  /**
   * Ends the stream: returns the samples the filter held back, so that the whole output is
   * round(input length * outputRate / inputRate) samples, and makes the resampler ready for
   * a new stream.
   */
  flush(): Int16Array;
  /** Drops the stream in progress (a cancelled request) and starts afresh. */
  reset(): void;
}

/** The loaded module, and which resampler's filter state it holds now. */
interface Converter {
  readonly module: SrcModule;
  readonly source: Float32Array;
  readonly target: Float32Array;
  owner: SincResampler | undefined;
}

/**
 * One loaded libsamplerate module: the expensive part, to be loaded once per thread. The module
 * holds one filter state at a time, so the resamplers made from it take turns: one stream at a
 * time, as in an engine worker that runs one job at a time. A resampler whose state another one
 * took over mid-stream throws on its next use rather than produce corrupt audio.
 */
export class ResamplerBackend {
  readonly #converter: Converter;

  private constructor(converter: Converter) {
    this.#converter = converter;
  }

  /**
   * Loads a module (5-25 ms and 26 MB of address space; see the measurements at the top of
   * this file) and warms it up: until V8 has optimised the filter code, the first chunk of the
   * first stream takes 10-17 ms instead of under 1 ms. Half a second of audio (about 40-50 ms
   * here) is enough, and it serves every pair of rates, since they run the same code.
   */
  static async load(): Promise<ResamplerBackend> {
    // The rates given here are replaced when a resampler first claims the module.
    const src = await create(1, 22050, 8000, { converterType: CONVERTER });
    const backend = new ResamplerBackend({
      module: src.module,
      source: src.sourceArray,
      target: src.targetArray,
      owner: undefined,
    });
    backend.#warmUp();
    return backend;
  }

  #warmUp(): void {
    const rate = 22050;
    const resampler = this.resampler(rate, 8000);
    const chunk = new Int16Array(2170);
    for (let at = 0; at < rate / 2; at += chunk.length) {
      for (let i = 0; i < chunk.length; i++) {
        chunk[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * (at + i)) / rate));
      }
      resampler.process(chunk);
    }
    resampler.flush();
  }

  /**
   * A resampler from `inputRate` to `outputRate` (whole Hz, 1..192000). Equal rates give a
   * pass-through that does not touch the module. Cheap: no filter state exists until it is used.
   */
  resampler(inputRate: number, outputRate: number): Resampler {
    checkRates(inputRate, outputRate);
    if (inputRate === outputRate) return new PassThrough(inputRate);
    return new SincResampler(this.#converter, inputRate, outputRate);
  }
}

/**
 * A resampler with a module of its own, for one-off use (tools, tests). Servers should load a
 * `ResamplerBackend` once per thread instead. Equal rates load nothing.
 */
export async function createResampler(inputRate: number, outputRate: number): Promise<Resampler> {
  checkRates(inputRate, outputRate);
  if (inputRate === outputRate) return new PassThrough(inputRate);
  return (await ResamplerBackend.load()).resampler(inputRate, outputRate);
}

function checkRates(inputRate: number, outputRate: number): void {
  for (const rate of [inputRate, outputRate]) {
    if (!Number.isInteger(rate) || rate < 1 || rate > MAX_RATE) {
      throw new RangeError(`a sample rate must be a whole number of Hz in 1..${MAX_RATE}, got ${rate}`);
    }
  }
  // libsamplerate refuses other ratios, and its error code would be read as a sample count.
  const ratio = outputRate / inputRate;
  if (ratio > MAX_RATIO || ratio < 1 / MAX_RATIO) {
    throw new RangeError(
      `cannot convert ${inputRate} Hz to ${outputRate} Hz: the ratio is limited to 1/256..256`,
    );
  }
}

class PassThrough implements Resampler {
  readonly inputRate: number;
  readonly outputRate: number;

  constructor(rate: number) {
    this.inputRate = rate;
    this.outputRate = rate;
  }

  process(samples: Int16Array): Int16Array {
    return samples;
  }

  flush(): Int16Array {
    return EMPTY;
  }

  reset(): void {}
}

class SincResampler implements Resampler {
  readonly inputRate: number;
  readonly outputRate: number;
  readonly #converter: Converter;
  readonly #ratio: number;
  readonly #maxBlock: number;
  /** Input samples taken since the stream began, and output samples given. */
  #consumed = 0;
  #produced = 0;

  constructor(converter: Converter, inputRate: number, outputRate: number) {
    this.#converter = converter;
    this.inputRate = inputRate;
    this.outputRate = outputRate;
    this.#ratio = outputRate / inputRate;
    this.#maxBlock = Math.max(1, Math.min(MAX_INPUT_BLOCK, Math.floor(TRANSFER_FLOATS / this.#ratio) - 64));
  }

  process(samples: Int16Array): Int16Array {
    if (samples.length === 0) return EMPTY;
    const converter = this.#claim();
    const parts: Int16Array[] = [];
    for (let at = 0; at < samples.length; at += this.#maxBlock) {
      const block = samples.subarray(at, at + this.#maxBlock);
      const { source } = converter;
      for (let i = 0; i < block.length; i++) source[i] = (block[i] ?? 0) / 32768;
      parts.push(this.#run(converter, block.length));
    }
    this.#consumed += samples.length;
    return concat(parts);
  }

  flush(): Int16Array {
    if (this.#consumed === 0) return EMPTY;
    const converter = this.#claim();
    const total = Math.round(this.#consumed * this.#ratio);
    // The glue of this library never sets libsamplerate's end-of-input flag, so the tail is
    // pushed out with silence, which is what that flag does inside libsamplerate.
    const padding = Math.ceil(128 * Math.max(1, 1 / this.#ratio));
    const parts: Int16Array[] = [];
    let missing = total - this.#produced;
    for (let round = 0; missing > 0 && round < 8; round++) {
      converter.source.fill(0, 0, padding);
      const out = this.#run(converter, padding);
      const keep = out.subarray(0, Math.min(out.length, missing));
      parts.push(keep);
      missing -= keep.length;
    }
    this.reset();
    return concat(parts);
  }

  reset(): void {
    this.#consumed = 0;
    this.#produced = 0;
    // Giving the module up means the next stream starts from a fresh filter state.
    if (this.#converter.owner === this) this.#converter.owner = undefined;
  }

  /** Makes the module hold this resampler's filter state, starting a fresh one if needed. */
  #claim(): Converter {
    const converter = this.#converter;
    if (converter.owner === this) return converter;
    if (this.#consumed > 0) {
      throw new Error(
        'resampler state lost: another resampler used the same backend in the middle of this stream',
      );
    }
    converter.module.destroy();
    const error: unknown = converter.module.init(1, CONVERTER, this.inputRate, this.outputRate);
    if (typeof error === 'number' && error !== 0) {
      throw new Error(`libsamplerate init failed with error ${error}`);
    }
    converter.owner = this;
    return converter;
  }

  /** Converts the `length` input samples already in the source buffer. */
  #run(converter: Converter, length: number): Int16Array {
    const frames = converter.module.full(length, 1, CONVERTER, this.inputRate, this.outputRate);
    const out = new Int16Array(frames);
    const { target } = converter;
    for (let i = 0; i < frames; i++) {
      const v = Math.round((target[i] ?? 0) * 32768);
      // Int16Array stores modulo 2^16: a filter overshoot past full scale must clip, not wrap.
      out[i] = Math.min(32767, Math.max(-32768, v));
    }
    this.#produced += frames;
    return out;
  }
}

function concat(parts: readonly Int16Array[]): Int16Array {
  if (parts.length === 1) return parts[0] ?? EMPTY;
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Int16Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
