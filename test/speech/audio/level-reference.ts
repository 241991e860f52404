/**
 * The level stage as it was first written (`src/speech/audio/level.ts` before it was made cheap),
 * kept as the specification that the fast one must match sample for sample: one Float64Array of
 * history and chunk per chunk, the interpolation's quiet test per sample, `Math.round` per sample.
 * Tests only; the service runs `level.ts`.
 */

import type { LevelStage } from '../../../src/speech/audio/level.ts';

/** No output format's true peak (between samples, ITU-R BS.1770) passes this, in dBTP. */
const TRUE_PEAK_CEILING_DBTP = -1;
/**
 * What the limiter holds the engine-rate signal's true peak to: 1 dB under the ceiling, room for
 * what resampling to 8 kHz, G.711's quantisation and the limiter's own estimate add (measured
 * over the calibration sentences of every voice: `../loudness/README.md`).
 */
const LIMIT_DBTP = TRUE_PEAK_CEILING_DBTP - 1;
/**
 * How far ahead the limiter looks, which is how long its gain takes to fall before a peak: 1.5 ms,
 * too short to hear as delay, long enough that the fall is not a click.
 */
const LOOK_AHEAD_SECONDS = 0.0015;
/** How quickly the gain returns to 1 after a peak: a time constant of 40 ms, a broadcast limiter's. */
const RELEASE_SECONDS = 0.04;
/** The interpolator that estimates the peaks between samples reads this many samples on each side. */
const REACH = 8;
/**
 * Positions estimated between two samples: 4x oversampling, as BS.1770's true-peak meter does. It
 * reads a sine near the top of the band up to about 0.6 dB low, which the dB under the ceiling covers.
 */
const OVERSAMPLING = 4;
/**
 * Below this share of the limit (-6 dB), two neighbouring samples make no peak between them that
 * reaches it in speech, and the interpolation is skipped: 97-98 % of the samples of the voices at
 * -18 LUFS are there.
 */
const QUIET_SHARE = 0.5;
/** An envelope this close to 1 is 1, so the limiter comes back to rest and its cheap path. */
const RELEASED = 1 - 1e-6;

/**
 * The interpolator's taps: for each position p / OVERSAMPLING between sample k and k+1, the
 * weights of samples k-REACH+1..k+REACH (a Hann-windowed sinc, normalised to unit gain at 0 Hz).
 */
const INTERPOLATOR: Float64Array = (() => {
  const taps = new Float64Array((OVERSAMPLING - 1) * 2 * REACH);
  for (let p = 1; p < OVERSAMPLING; p++) {
    const row = (p - 1) * 2 * REACH;
    let sum = 0;
    for (let j = 0; j < 2 * REACH; j++) {
      const t = p / OVERSAMPLING - (j - REACH + 1);
      const hann = 0.5 + 0.5 * Math.cos((Math.PI * t) / (REACH + 0.5));
      const value = (Math.sin(Math.PI * t) / (Math.PI * t)) * hann;
      taps[row + j] = value;
      sum += value;
    }
    for (let j = 0; j < 2 * REACH; j++) taps[row + j] = (taps[row + j] as number) / sum;
  }
  return taps;
})();

const dbToGain = (db: number): number => 10 ** (db / 20);

/**
 * The level stage of a voice at `sampleRate` with a fixed gain of `gainDb`: the gain, then a
 * look-ahead limiter on the true peak (estimated by 4x interpolation, as a BS.1770 meter does),
 * whose gain falls smoothly before a peak to what holds it at `LIMIT_DBTP` and comes back with a
 * 40 ms release. The output lags the input by the look-ahead (under 2 ms), which `flush()` gives
 * back at the end, so a clause keeps its length. One clause at a time; `flush()` ends it.
 */
export function createReferenceLevelStage(gainDb: number, sampleRate: number): LevelStage {
  return new Limiter(dbToGain(gainDb), sampleRate);
}

class Limiter implements LevelStage {
  readonly #gain: number;
  readonly #limit = dbToGain(LIMIT_DBTP) * 32768;
  readonly #quiet = this.#limit * QUIET_SHARE;
  /** The look-ahead, in samples: the gain reaches what a peak needs over this many samples. */
  readonly #window: number;
  readonly #release: number;
  /** The output lags the input by the interpolator's reach ahead and the look-ahead. */
  readonly #delay: number;
  /** The last input samples (after the gain) that the next chunk's peaks and output still read. */
  #history: Float64Array;
  /** The gain each of the last `window - 1` samples' peaks needs, and the envelope at each of the last `window`. */
  #needs: Float64Array;
  #envelopes: Float64Array;
  #received = 0;
  #envelopeSum = 0;
  #lastEnvelope = 1;
  /** The least need in the look-ahead window, and the sample after which that need leaves it. */
  #hold = 1;
  #holdUntil = -1;

  constructor(gain: number, sampleRate: number) {
    this.#gain = gain;
    this.#window = Math.max(1, Math.round(sampleRate * LOOK_AHEAD_SECONDS));
    this.#release = Math.exp(-1 / (sampleRate * RELEASE_SECONDS));
    this.#delay = REACH + this.#window - 1;
    this.#history = new Float64Array(Math.max(this.#delay, 2 * REACH));
    this.#needs = new Float64Array(this.#window - 1);
    this.#envelopes = new Float64Array(this.#window);
    this.#reset();
  }

  flush(): Int16Array {
    const out = this.process(new Int16Array(this.#delay));
    this.#reset();
    return out;
  }

  #reset(): void {
    this.#history.fill(0);
    this.#needs.fill(1);
    this.#envelopes.fill(1);
    this.#received = 0;
    this.#envelopeSum = this.#window;
    this.#lastEnvelope = 1;
    this.#hold = 1;
    this.#holdUntil = -1;
  }

  /**
   * For chunk of `count` samples: the input samples `R - history.length .. R + count - 1` (R
   * received before it) in one array; the needs of the peaks after samples `R - REACH ..
   * R + count - REACH - 1`, which are known now; then the output samples `R - delay .. R + count
   * - delay - 1`, each at the envelope averaged over the window that ends at the peak `delay - REACH`
   * samples after it.
   */
  process(samples: Int16Array): Int16Array {
    const count = samples.length;
    const history = this.#history;
    const before = history.length;
    const x = new Float64Array(before + count);
    x.set(history);
    for (let n = 0; n < count; n++) x[before + n] = (samples[n] as number) * this.#gain;
    // The peak after sample R - REACH + n sits at x[before - REACH + n].
    const needs = this.#needsOf(x, before - REACH, count);
    const first = this.#received - this.#delay;
    const out = new Int16Array(Math.max(0, Math.min(count, first + count)));
    const skip = count - out.length;
    // The output sample R - delay + n sits at x[before - delay + n].
    const at = before - this.#delay;
    if (needs === undefined && this.#lastEnvelope === 1 && this.#envelopeSum === this.#window) {
      // At rest, and no peak of the chunk near the limit: the gain alone (most chunks of speech).
      for (let n = skip; n < count; n++) out[n - skip] = Math.round(x[at + n] as number);
      this.#needs.fill(1);
      this.#envelopes.fill(1);
      this.#hold = 1;
    } else {
      this.#holdPeaks(x, at, needs, out, skip);
    }
    this.#received += count;
    this.#history = x.slice(x.length - before);
    return out;
  }

  /** The gain each peak after x[from .. from + count - 1] needs to stay at the limit; undefined when none needs less than 1. */
  #needsOf(x: Float64Array, from: number, count: number): Float64Array | undefined {
    const quiet = this.#quiet;
    const limit = this.#limit;
    let needs: Float64Array | undefined;
    for (let n = 0; n < count; n++) {
      const k = from + n;
      const here = x[k] as number;
      const next = x[k + 1] as number;
      if (here < quiet && -here < quiet && next < quiet && -next < quiet) continue;
      const peak = peakAfter(x, k);
      if (peak <= limit) continue;
      needs ??= new Float64Array(count).fill(1);
      needs[n] = limit / peak;
    }
    return needs;
  }

  /** The envelope and the output of a chunk with peaks to hold, or a release still under way. */
  #holdPeaks(
    x: Float64Array,
    at: number,
    needs: Float64Array | undefined,
    out: Int16Array,
    skip: number,
  ): void {
    const window = this.#window;
    const count = out.length + skip;
    // The needs and envelopes of the window before the chunk, then the chunk's.
    const need = new Float64Array(window - 1 + count);
    need.set(this.#needs);
    if (needs) need.set(needs, window - 1);
    else need.fill(1, window - 1);
    const envelopes = new Float64Array(window + count);
    envelopes.set(this.#envelopes);
    let sum = this.#envelopeSum;
    let last = this.#lastEnvelope;
    // Indices below are of `need`, whose entry q is the peak `window - 1 - q` samples before the chunk's first.
    let hold = this.#hold;
    let holdUntil = this.#holdUntil - this.#received + REACH + window - 1;
    for (let n = 0; n < count; n++) {
      const q = window - 1 + n;
      const here = need[q] as number;
      // The least need of the last `window` peaks: a peak lowers the gain for `window` samples from
      // its own, so that the average below has fully reached its need while it passes.
      if (here <= hold) {
        hold = here;
        holdUntil = q + window - 1;
      } else if (q > holdUntil) {
        hold = 1;
        for (let j = q - window + 1; j <= q; j++) {
          const earlier = need[j] as number;
          if (earlier <= hold) {
            hold = earlier;
            holdUntil = j + window - 1;
          }
        }
      }
      let envelope = Math.min(hold, 1 - (1 - last) * this.#release);
      if (envelope > RELEASED) envelope = 1;
      last = envelope;
      sum += envelope - (envelopes[n] as number);
      envelopes[window + n] = envelope;
      if (n < skip) continue;
      // Averaged over the window, the gain falls over the look-ahead before a peak and is at most
      // the peak's need while it passes (every envelope value averaged then is at most that).
      const gain = sum >= window ? 1 : sum / window;
      const value = Math.round((x[at + n] as number) * gain);
      // Under the limit already; the bound only keeps a rounding error from wrapping around in 16 bits.
      out[n - skip] = value > 32767 ? 32767 : value < -32768 ? -32768 : value;
    }
    this.#needs = need.slice(need.length - (window - 1));
    this.#envelopes = envelopes.slice(envelopes.length - window);
    // A whole window at 1 is exactly a sum of `window`, whatever rounding the running sum gathered.
    this.#envelopeSum = this.#envelopes.every((e) => e === 1) ? window : sum;
    this.#lastEnvelope = last;
    this.#hold = hold;
    this.#holdUntil = holdUntil + this.#received - REACH - window + 1;
  }
}

/**
 * The largest magnitude of the signal from x[k] to just before x[k + 1]: the sample, and the
 * interpolator's positions between the two.
 */
function peakAfter(x: Float64Array, k: number): number {
  const here = x[k] as number;
  let peak = here < 0 ? -here : here;
  const first = k - REACH + 1;
  for (let row = 0; row < INTERPOLATOR.length; row += 2 * REACH) {
    let value = 0;
    for (let j = 0; j < 2 * REACH; j++) value += (INTERPOLATOR[row + j] as number) * (x[first + j] as number);
    if (value > peak) peak = value;
    else if (-value > peak) peak = -value;
  }
  return peak;
}
