/**
 * A voice's calibrated level: its fixed gain (`Voice.gainDb`, measured by `npm run bench:loudness`)
 * and a true-peak limiter, applied to the engine's samples once, before resampling and encoding.
 * The gain is the same for every clause of a voice, so a short clause is never made louder than a
 * long one; the limiter lowers the gain only around the few peaks the gain would push past the
 * ceiling, and leaves every other sample as the gain made it. Decisions: `../loudness/README.md`.
 */

/** No output format's true peak (between samples, ITU-R BS.1770) passes this, in dBTP. */
export const TRUE_PEAK_CEILING_DBTP = -1;
/**
 * What the limiter holds the engine-rate signal's true peak to: 1 dB under the ceiling, room for
 * what resampling to 8 kHz, G.711's quantisation and the limiter's own estimate add (measured
 * over the calibration sentences of every voice: `../loudness/README.md`).
 */
export const LIMIT_DBTP = TRUE_PEAK_CEILING_DBTP - 1;
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

/** One clause's gain and limiter, streaming: chunks in as the engine makes them, then `flush()`. */
export interface LevelStage {
  /** The chunk's samples at the calibrated level; fewer than given at first, while the look-ahead fills. */
  process(samples: Int16Array): Int16Array;
  /** The samples the look-ahead held back, the clause's last. The stage is then ready for a new clause. */
  flush(): Int16Array;
}

const dbToGain = (db: number): number => 10 ** (db / 20);

/**
 * The level stage of a voice at `sampleRate` with a fixed gain of `gainDb`: the gain, then a
 * look-ahead limiter on the true peak (estimated by 4x interpolation, as a BS.1770 meter does),
 * whose gain falls smoothly before a peak to what holds it at `LIMIT_DBTP` and comes back with a
 * 40 ms release. The output lags the input by the look-ahead (under 2 ms), which `flush()` gives
 * back at the end, so a clause keeps its length. One clause at a time; `flush()` ends it.
 */
export function createLevelStage(gainDb: number, sampleRate: number): LevelStage {
  return new Limiter(dbToGain(gainDb), sampleRate);
}

/**
 * It runs on every sample an engine makes, so it is written to cost little beside the engine: no
 * array made per chunk but the output, integer tests of loudness, one pass over a quiet chunk, and
 * a rounding cheaper than `Math.round` that gives the same samples. Its output is the same, sample
 * for sample, as the plain implementation's that the tests keep beside it.
 */
class Limiter implements LevelStage {
  readonly #gain: number;
  readonly #limit = dbToGain(LIMIT_DBTP) * 32768;
  /**
   * The largest sample magnitude that the gain leaves under the quiet level: a sample after the
   * gain is `sample * gain`, whose size never falls as the sample's grows, so "quiet" is one
   * comparison of the engine's integer sample, exactly as it is of the gained one.
   */
  readonly #quietest: number;
  /** The look-ahead, in samples: the gain reaches what a peak needs over this many samples. */
  readonly #window: number;
  readonly #release: number;
  /** The output lags the input by the interpolator's reach ahead and the look-ahead. */
  readonly #delay: number;
  /** How many of the last input samples the next chunk's peaks and output still read. */
  readonly #kept: number;
  /**
   * The last `kept` input samples as the engine gave them, then the chunk's; reused from chunk to
   * chunk. The gain is applied where a sample is read: `sample * gain` is the same double wherever
   * it is computed.
   */
  #input: Int16Array;
  /**
   * The gain each of the last `window - 1` samples' peaks needs, then the chunk's; the envelope
   * at each of the last `window` samples, then the chunk's. Reused: the window's part stays first.
   */
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
    this.#quietest = quietestSample(gain, this.#limit * QUIET_SHARE);
    this.#window = Math.max(1, Math.round(sampleRate * LOOK_AHEAD_SECONDS));
    this.#release = Math.exp(-1 / (sampleRate * RELEASE_SECONDS));
    this.#delay = REACH + this.#window - 1;
    this.#kept = Math.max(this.#delay, 2 * REACH);
    this.#input = new Int16Array(this.#kept);
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
    this.#input.fill(0, 0, this.#kept);
    this.#received = 0;
    this.#restWindow();
    this.#envelopeSum = this.#window;
    this.#lastEnvelope = 1;
    this.#holdUntil = -1;
  }

  /** No peak in the look-ahead window, and the envelope at 1 throughout it. */
  #restWindow(): void {
    this.#needs.fill(1, 0, this.#window - 1);
    this.#envelopes.fill(1, 0, this.#window);
    this.#hold = 1;
  }

  /**
   * For chunk of `count` samples: the input samples `R - kept .. R + count - 1` (R received
   * before it) in one array; the needs of the peaks after samples `R - REACH .. R + count - REACH
   * - 1`, which are known now; then the output samples `R - delay .. R + count - delay - 1`, each
   * at the envelope averaged over the window that ends at the peak `delay - REACH` samples after it.
   */
  process(samples: Int16Array): Int16Array {
    const count = samples.length;
    const before = this.#kept;
    const input = this.#inputFor(count);
    input.set(samples, before);
    const first = this.#received - this.#delay;
    const out = new Int16Array(Math.max(0, Math.min(count, first + count)));
    const skip = count - out.length;
    // The output sample R - delay + n sits at input[before - delay + n].
    const from = before - this.#delay + skip;
    const atRest = this.#lastEnvelope === 1 && this.#envelopeSum === this.#window;
    // The peaks after samples R - REACH .. R + count - REACH - 1 read input[peaksFrom ..
    // peaksFrom + count] there; when none of those is loud, none has a peak to measure.
    const peaksFrom = before - REACH;
    const checked = count > 0 ? count + 1 : 0;
    // At rest, the gain alone goes out unless the chunk has a peak to hold: made at once, in the
    // same pass as the test for loud samples, and kept when no peak reaches the limit (a quiet
    // chunk, most of the audio of most voices, costs that one pass).
    const scaled = atRest && this.#scaleQuiet(input, from, out, peaksFrom, checked);
    const loud = !scaled && (atRest || loudest(input, peaksFrom, peaksFrom + checked - 1) > this.#quietest);
    const peaks = loud && this.#measurePeaks(input, peaksFrom, count);
    if (atRest && !peaks) {
      this.#restWindow();
    } else {
      if (!peaks) this.#needsFor(count).fill(1, this.#window - 1, this.#window - 1 + count);
      this.#holdPeaks(input, from, out, skip);
    }
    this.#received += count;
    input.copyWithin(0, count, count + before);
    return out;
  }

  /**
   * `out` as the gain alone makes it from input[from ..], in the same pass as the test that none
   * of the `checked` samples from input[checkFrom] is loud, which is what it gives.
   */
  #scaleQuiet(input: Int16Array, from: number, out: Int16Array, checkFrom: number, checked: number): boolean {
    const gain = this.#gain;
    let highest = 0;
    let lowest = 0;
    for (let n = 0; n < out.length; n++) {
      const sample = input[checkFrom + n] as number;
      if (sample > highest) highest = sample;
      if (sample < lowest) lowest = sample;
      out[n] = roundHalfUp((input[from + n] as number) * gain);
    }
    const rest = loudest(input, checkFrom + out.length, checkFrom + checked - 1);
    return Math.max(highest, -lowest, rest) <= this.#quietest;
  }

  /** The input array, long enough for the kept samples and a chunk of `count`. */
  #inputFor(count: number): Int16Array {
    if (this.#input.length < this.#kept + count) {
      const grown = new Int16Array(this.#kept + count);
      grown.set(this.#input.subarray(0, this.#kept));
      this.#input = grown;
    }
    return this.#input;
  }

  /**
   * Writes the gain each peak after input[from .. from + count - 1] needs to stay at the limit (1
   * for most) after the window's needs; true when one needs less than 1. Two quiet samples make no
   * peak between them that reaches the limit, so only the peaks beside a loud sample are measured.
   */
  #measurePeaks(input: Int16Array, from: number, count: number): boolean {
    const quietest = this.#quietest;
    const offset = this.#window - 1;
    const needs = this.#needsFor(count);
    needs.fill(1, offset, offset + count);
    let any = false;
    // The peak after sample n is measured when sample n or n + 1 is loud, once.
    let measured = -1;
    for (let n = 0; n <= count; n++) {
      const sample = input[from + n] as number;
      if (!isLoud(sample, quietest)) continue;
      for (let peak = Math.max(n - 1, measured + 1); peak <= Math.min(n, count - 1); peak++)
        any = this.#measurePeak(input, from + peak, needs, offset + peak) || any;
      measured = n;
    }
    return any;
  }

  /** Writes the need of the peak after input[k] at needs[at] when it is under 1; true then. */
  #measurePeak(input: Int16Array, k: number, needs: Float64Array, at: number): boolean {
    const peak = peakAfter(input, k, this.#gain);
    if (peak <= this.#limit) return false;
    needs[at] = this.#limit / peak;
    return true;
  }

  /** The needs array, long enough for the window's needs and a chunk of `count`. */
  #needsFor(count: number): Float64Array {
    const window = this.#window;
    if (this.#needs.length < window - 1 + count) {
      const grown = new Float64Array(window - 1 + count);
      grown.set(this.#needs.subarray(0, window - 1));
      this.#needs = grown;
    }
    return this.#needs;
  }

  /** The envelopes array, long enough for the window's envelopes and a chunk of `count`. */
  #envelopesFor(count: number): Float64Array {
    const window = this.#window;
    if (this.#envelopes.length < window + count) {
      const grown = new Float64Array(window + count);
      grown.set(this.#envelopes.subarray(0, window));
      this.#envelopes = grown;
    }
    return this.#envelopes;
  }

  /**
   * The envelope and the output of a chunk with peaks to hold, or a release still under way; the
   * output's first sample is input[from], and the chunk's first `skip` samples make none.
   */
  #holdPeaks(input: Int16Array, from: number, out: Int16Array, skip: number): void {
    const window = this.#window;
    const release = this.#release;
    const inputGain = this.#gain;
    const count = out.length + skip;
    // The needs and envelopes of the window before the chunk, then the chunk's.
    const need = this.#needsFor(count);
    const envelopes = this.#envelopesFor(count);
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
      let envelope = Math.min(hold, 1 - (1 - last) * release);
      if (envelope > RELEASED) envelope = 1;
      last = envelope;
      sum += envelope - (envelopes[n] as number);
      envelopes[window + n] = envelope;
      if (n < skip) continue;
      // Averaged over the window, the gain falls over the look-ahead before a peak and is at most
      // the peak's need while it passes (every envelope value averaged then is at most that).
      const gain = sum >= window ? 1 : sum / window;
      const value = roundHalfUp((input[from + n - skip] as number) * inputGain * gain);
      // Under the limit already; the bound only keeps a rounding error from wrapping around in 16 bits.
      out[n - skip] = value > 32767 ? 32767 : value < -32768 ? -32768 : value;
    }
    need.copyWithin(0, count, count + window - 1);
    envelopes.copyWithin(0, count, count + window);
    // A whole window at 1 is exactly a sum of `window`, whatever rounding the running sum gathered.
    let settled = true;
    for (let j = 0; j < window; j++) if (envelopes[j] !== 1) settled = false;
    this.#envelopeSum = settled ? window : sum;
    this.#lastEnvelope = last;
    this.#hold = hold;
    this.#holdUntil = holdUntil + this.#received - REACH - window + 1;
  }
}

/** The largest m with `m * gain < quiet`: the loudest sample the gain leaves quiet (-1 for none). */
function quietestSample(gain: number, quiet: number): number {
  let m = Math.min(32768, Math.floor(quiet / gain));
  while (m < 32768 && (m + 1) * gain < quiet) m++;
  while (m >= 0 && m * gain >= quiet) m--;
  return m;
}

/** Whether `sample` is louder than the loudest quiet one. */
function isLoud(sample: number, quietest: number): boolean {
  return sample > quietest || sample < -quietest;
}

/** The largest magnitude of input[from ..= to]. */
function loudest(input: Int16Array, from: number, to: number): number {
  let highest = 0;
  let lowest = 0;
  for (let k = from; k <= to; k++) {
    const sample = input[k] as number;
    if (sample > highest) highest = sample;
    if (sample < lowest) lowest = sample;
  }
  return Math.max(highest, -lowest);
}

/** The largest double under 0.5, the one value whose `value + 0.5` rounds up to 1. */
const JUST_UNDER_HALF = 0.49999999999999994;

/**
 * `Math.round(value)` as a 16-bit sample stores it, at a fraction of its cost in V8 (`Math.round`
 * was most of the stage's time), and with no branch that speech's signs make unpredictable. The
 * same for every |value| < 2^51: from 0.5 up, the value's last bit is worth at most 0.5, so
 * `value + 0.5` is exact, or, where it carries into the next power of two, rounded by less than
 * what would reach the next integer; from -0.5 to 0.5 it stays from 0 to under 1, except for the
 * one double that it rounds up to 1. Where `Math.round` gives -0, this gives 0: the
 * same sample.
 */
function roundHalfUp(value: number): number {
  return value === JUST_UNDER_HALF ? 0 : Math.floor(value + 0.5);
}

/**
 * The largest magnitude of the signal from input[k] to just before input[k + 1], after the gain:
 * the sample, and the interpolator's positions between the two.
 */
function peakAfter(input: Int16Array, k: number, gain: number): number {
  const here = (input[k] as number) * gain;
  let peak = here < 0 ? -here : here;
  const first = k - REACH + 1;
  for (let row = 0; row < INTERPOLATOR.length; row += 2 * REACH) {
    let value = 0;
    for (let j = 0; j < 2 * REACH; j++)
      value += (INTERPOLATOR[row + j] as number) * ((input[first + j] as number) * gain);
    if (value > peak) peak = value;
    else if (-value > peak) peak = -value;
  }
  return peak;
}
