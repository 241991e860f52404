/**
 * Streaming sample-rate conversion of 16-bit mono PCM, from an engine's rate (espeak-ng: 22050 Hz)
 * to a stream format's rate: a polyphase windowed-sinc (Kaiser) low-pass filter that removes what
 * the target rate cannot carry, for rates in a rational ratio L/M. Each output sample is one dot
 * product of `taps` input samples with one of L precomputed filter phases, so the work is
 * `taps` multiply-adds per output sample and nothing is recomputed per chunk or per stream.
 *
 * Written here rather than taken from a library because it is the hot loop of every stream: the
 * C libraries available from npm are compiled to plain JavaScript or to WebAssembly behind a copy
 * per call, and measured side by side (60 s of audio in engine-sized chunks, one thread) they took
 * 112 ms (libsamplerate SINC_FASTEST) and 86 ms (Speex, quality 5) to go from 22050 to 8000 Hz,
 * where this filter takes 30 ms with 80 dB of stopband attenuation. In the engine workers it
 * then cost as much CPU as espeak-ng itself, so its loop is now WebAssembly SIMD
 * (`resampler-kernel.ts`), in 32-bit floats, about 5 times cheaper again.
 *
 * The filter keeps the last `taps` input samples between chunks, so chunks join without clicks and
 * give exactly the samples one-shot conversion gives.
 */

import { FilterKernel, KERNEL_TAPS_MULTIPLE } from './resampler-kernel.ts';

/** The rates a resampler accepts, in whole Hz. */
const MAX_RATE = 192_000;
const MAX_RATIO = 256;
/** More phases than this would make a filter table of megabytes: such ratios are refused. */
const MAX_PHASES = 4096;
/**
 * Filter half-length in input samples per unit of decimation. With the Kaiser window below, 12
 * gives a transition band of about 0.3 of the output's Nyquist frequency: at 8 kHz, 3 kHz passes
 * within 0.2 dB and 4.6 kHz and above are at least 80 dB down.
 */
const HALF_TAPS_PER_ZERO_CROSSING = 12;
/** Kaiser window shape: about 80 dB of stopband attenuation. */
const KAISER_BETA = 8;
/** Cut-off as a fraction of the lower Nyquist frequency: the transition band ends near it. */
const CUTOFF = 0.91;
const EMPTY = new Int16Array(0);

/** A streaming converter from `inputRate` to `outputRate`, for one stream at a time. */
export interface Resampler {
  readonly inputRate: number;
  readonly outputRate: number;
  /**
   * Converts the next chunk of the stream. Returns the output samples that are ready: the
   * filter holds back about half its length until it sees what follows them. The result is the
   * caller's to keep or transfer; when the rates are equal it is `samples` itself.
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

/** The polyphase filter of one pair of rates: built once, shared by every stream of that pair. */
interface PolyphaseFilter {
  /** Interpolation factor: output samples come from L phases between two input samples. */
  readonly up: number;
  /** Decimation factor: each output sample advances M phases. */
  readonly down: number;
  readonly taps: number;
  /** `taps` and the zero coefficients that pad each phase to the kernel's multiple. */
  readonly stride: number;
  /**
   * L phases of `stride` coefficients; phase p weighs input samples for the position p / L.
   * In 32-bit floats, as the kernel multiplies them.
   */
  readonly phases: Float32Array;
}

/** A filter as a resampler uses it: its phases live in the backend's kernel, at `table`. */
interface KernelFilter extends Omit<PolyphaseFilter, 'phases'> {
  readonly table: number;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** The modified Bessel function of the first kind, order 0, for the Kaiser window. */
function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 64; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
    if (term < 1e-15 * sum) break;
  }
  return sum;
}

/**
 * The Kaiser-windowed sinc low-pass of a rate pair, split into its L phases, each normalised to
 * unit gain at 0 Hz so that silence stays silence and a DC offset passes unchanged.
 */
function designFilter(inputRate: number, outputRate: number): PolyphaseFilter {
  const divisor = gcd(inputRate, outputRate);
  const up = outputRate / divisor;
  const down = inputRate / divisor;
  const decimation = Math.max(1, inputRate / outputRate);
  const half = Math.ceil(HALF_TAPS_PER_ZERO_CROSSING * decimation);
  const taps = 2 * half;
  const stride = Math.ceil(taps / KERNEL_TAPS_MULTIPLE) * KERNEL_TAPS_MULTIPLE;
  // Cut-off in cycles per input sample.
  const cutoff = (CUTOFF * Math.min(inputRate, outputRate)) / 2 / inputRate;
  const phases = new Float32Array(up * stride);
  const values = new Float64Array(taps);
  const windowScale = besselI0(KAISER_BETA);
  for (let phase = 0; phase < up; phase++) {
    const fraction = phase / up;
    let sum = 0;
    for (let k = 0; k < taps; k++) {
      // Distance in input samples from the output position to input sample k of the window.
      const t = k - half + 1 - fraction;
      const sinc = t === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * t) / (Math.PI * t);
      const edge = t / half;
      const window = besselI0(KAISER_BETA * Math.sqrt(Math.max(0, 1 - edge * edge))) / windowScale;
      values[k] = sinc * window;
      sum += sinc * window;
    }
    for (let k = 0; k < taps; k++) phases[phase * stride + k] = (values[k] ?? 0) / sum;
  }
  return { up, down, taps, stride, phases };
}

/**
 * Filters for every rate pair a thread uses, built on first use (under a millisecond each) and
 * kept, and a JIT warm-up: until V8 has optimised the filter loop the first chunk of the first
 * stream takes several milliseconds instead of a fraction of one, which would add to the first
 * request's time to first audio. Create one per thread and take resamplers from it.
 */
export class ResamplerBackend {
  readonly #filters = new Map<string, KernelFilter>();
  readonly #kernel = new FilterKernel();

  private constructor() {}

  /** A backend whose filter code is already optimised (half a second of audio, a few ms). */
  static async load(): Promise<ResamplerBackend> {
    const backend = new ResamplerBackend();
    backend.#warmUp();
    return backend;
  }

  #warmUp(): void {
    const rate = 22050;
    const chunk = new Int16Array(2170);
    for (const target of [8000, 16000, 24000]) {
      const resampler = this.resampler(rate, target);
      for (let at = 0; at < rate / 2; at += chunk.length) {
        for (let i = 0; i < chunk.length; i++) {
          chunk[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * (at + i)) / rate));
        }
        resampler.process(chunk);
      }
      resampler.flush();
    }
  }

  /**
   * A resampler from `inputRate` to `outputRate` (whole Hz, 1..192000, ratio within 1/256..256).
   * Equal rates give a pass-through. Cheap: each resampler holds only its own filter history, so
   * any number of them may be used at once, interleaved.
   */
  resampler(inputRate: number, outputRate: number): Resampler {
    checkRates(inputRate, outputRate);
    if (inputRate === outputRate) return new PassThrough(inputRate);
    const key = `${inputRate}>${outputRate}`;
    let filter = this.#filters.get(key);
    if (!filter) {
      const { phases, ...shape } = designFilter(inputRate, outputRate);
      filter = { ...shape, table: this.#kernel.addTable(phases) };
      this.#filters.set(key, filter);
    }
    return new PolyphaseResampler(this.#kernel, filter, inputRate, outputRate);
  }
}

/** A resampler for one-off use (tools, tests). Servers keep one `ResamplerBackend` per thread. */
export async function createResampler(inputRate: number, outputRate: number): Promise<Resampler> {
  return (await ResamplerBackend.load()).resampler(inputRate, outputRate);
}

function checkRates(inputRate: number, outputRate: number): void {
  for (const rate of [inputRate, outputRate]) {
    if (!Number.isInteger(rate) || rate < 1 || rate > MAX_RATE) {
      throw new RangeError(`a sample rate must be a whole number of Hz in 1..${MAX_RATE}, got ${rate}`);
    }
  }
  const ratio = outputRate / inputRate;
  if (ratio > MAX_RATIO || ratio < 1 / MAX_RATIO) {
    throw new RangeError(
      `cannot convert ${inputRate} Hz to ${outputRate} Hz: the ratio is limited to 1/256..256`,
    );
  }
  if (outputRate / gcd(inputRate, outputRate) > MAX_PHASES) {
    throw new RangeError(
      `cannot convert ${inputRate} Hz to ${outputRate} Hz: the rates have too small a common divisor`,
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

class PolyphaseResampler implements Resampler {
  readonly inputRate: number;
  readonly outputRate: number;
  readonly #kernel: FilterKernel;
  readonly #filter: KernelFilter;
  /**
   * The last `taps` input samples, then the chunk being converted. The stream is taken to start
   * with `taps` samples of silence, so its first sample is centred like every other.
   */
  #window: Float32Array;
  /** Input samples buffered in `#window` after the history, not yet fully used. */
  #buffered = 0;
  /** Where the next output sample lies, in 1/L input samples from the start of the history. */
  #position: number;
  #consumed = 0;
  #produced = 0;

  constructor(kernel: FilterKernel, filter: KernelFilter, inputRate: number, outputRate: number) {
    this.#kernel = kernel;
    this.#filter = filter;
    this.inputRate = inputRate;
    this.outputRate = outputRate;
    this.#window = new Float32Array(filter.taps * 2);
    this.#position = this.#startPosition();
  }

  process(samples: Int16Array): Int16Array {
    if (samples.length === 0) return EMPTY;
    this.#append(samples);
    this.#consumed += samples.length;
    return this.#drain(Number.POSITIVE_INFINITY);
  }

  flush(): Int16Array {
    if (this.#consumed === 0) return EMPTY;
    const total = Math.round((this.#consumed * this.outputRate) / this.inputRate);
    // The held-back samples need the input that would follow them: silence, as at the start.
    this.#append(new Int16Array(this.#filter.taps));
    const out = this.#drain(total - this.#produced);
    this.reset();
    return out;
  }

  reset(): void {
    this.#window.fill(0);
    this.#buffered = 0;
    this.#position = this.#startPosition();
    this.#consumed = 0;
    this.#produced = 0;
  }

  /**
   * The first output sample sits on input sample 0, at window index `taps`; its window starts
   * `half - 1` samples before it.
   */
  #startPosition(): number {
    return (this.#filter.taps / 2 + 1) * this.#filter.up;
  }

  #append(samples: Int16Array): void {
    const { taps } = this.#filter;
    const needed = taps + this.#buffered + samples.length;
    if (this.#window.length < needed) {
      const grown = new Float32Array(Math.max(needed, this.#window.length * 2));
      grown.set(this.#window.subarray(0, taps + this.#buffered));
      this.#window = grown;
    }
    this.#window.set(samples, taps + this.#buffered);
    this.#buffered += samples.length;
  }

  /** Computes every output sample whose window is complete, at most `limit` of them. */
  #drain(limit: number): Int16Array {
    const { up, down, taps, table } = this.#filter;
    const window = this.#window;
    const available = taps + this.#buffered;
    // Output at position p uses window samples floor(p / L) .. floor(p / L) + taps - 1.
    const ready = Math.max(0, Math.floor(((available - taps + 1) * up - 1 - this.#position) / down) + 1);
    const count = Math.min(ready, limit);
    // The kernel sees the window from the first output's first sample, positions from there.
    const from = Math.floor(this.#position / up);
    const out =
      count === 0
        ? EMPTY
        : this.#kernel.run(
            table,
            this.#filter,
            window.subarray(from, available),
            this.#position - from * up,
            count,
          );
    const position = this.#position + count * down;
    this.#produced += count;
    // Keep the last `taps` samples before the next output's window, and what follows them.
    const keepFrom = Math.min(Math.floor(position / up), available - taps);
    window.copyWithin(0, keepFrom, available);
    this.#buffered = available - keepFrom - taps;
    this.#position = position - keepFrom * up;
    return out;
  }
}
