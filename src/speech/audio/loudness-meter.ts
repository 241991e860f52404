/**
 * Integrated loudness of mono audio as ITU-R BS.1770-4 and EBU R128 define it (LUFS): K-weighting
 * (a high shelf and a high pass, designed for the signal's own rate as libebur128 designs them),
 * the mean square over 400 ms blocks that overlap by 75 %, an absolute gate at -70 LUFS and a
 * relative gate 10 LU under the ungated loudness. Calibration measures voices with it where
 * ffmpeg may not be installed (an operator installing a voice pack); the tests check it against
 * ffmpeg's `ebur128` filter.
 */

const BLOCK_SECONDS = 0.4;
const BLOCKS_PER_WINDOW = 4;
const ABSOLUTE_GATE_LUFS = -70;
const RELATIVE_GATE_LU = -10;

/** Biquad coefficients, a0 normalised to 1. */
interface Biquad {
  readonly b: readonly [number, number, number];
  readonly a: readonly [number, number];
}

/** BS.1770's two K-weighting stages for `sampleRate` (its tables give them at 48 kHz only). */
function kWeighting(sampleRate: number): readonly [Biquad, Biquad] {
  // The high shelf: +4 dB above about 1.7 kHz, the head's effect on what the ear hears.
  let f0 = 1681.974450955533;
  const gainDb = 3.999843853973347;
  let q = 0.7071752369554196;
  let k = Math.tan((Math.PI * f0) / sampleRate);
  const vh = 10 ** (gainDb / 20);
  const vb = vh ** 0.4996667741545416;
  let a0 = 1 + k / q + k * k;
  const shelf: Biquad = {
    b: [(vh + (vb * k) / q + k * k) / a0, (2 * (k * k - vh)) / a0, (vh - (vb * k) / q + k * k) / a0],
    a: [(2 * (k * k - 1)) / a0, (1 - k / q + k * k) / a0],
  };
  // The high pass at 38 Hz (the "RLB" curve).
  f0 = 38.13547087602444;
  q = 0.5003270373238773;
  k = Math.tan((Math.PI * f0) / sampleRate);
  a0 = 1 + k / q + k * k;
  const highPass: Biquad = { b: [1, -2, 1], a: [(2 * (k * k - 1)) / a0, (1 - k / q + k * k) / a0] };
  return [shelf, highPass];
}

/** The K-weighted signal, in full-scale units (16-bit samples over 32768). */
function weighted(samples: Int16Array, sampleRate: number): Float64Array {
  const out = new Float64Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = (samples[i] as number) / 32768;
  for (const { b, a } of kWeighting(sampleRate)) {
    let x1 = 0;
    let x2 = 0;
    let y1 = 0;
    let y2 = 0;
    for (let i = 0; i < out.length; i++) {
      const x = out[i] as number;
      const y = b[0] * x + b[1] * x1 + b[2] * x2 - a[0] * y1 - a[1] * y2;
      x2 = x1;
      x1 = x;
      y2 = y1;
      y1 = y;
      out[i] = y;
    }
  }
  return out;
}

const loudnessOf = (meanSquare: number): number => -0.691 + 10 * Math.log10(meanSquare);

/**
 * The integrated loudness of `samples` (mono, 16-bit, at `sampleRate`) in LUFS; -Infinity when
 * nothing passes the absolute gate (silence, or audio shorter than one 400 ms block).
 */
export function integratedLoudness(samples: Int16Array, sampleRate: number): number {
  const signal = weighted(samples, sampleRate);
  const hop = Math.round((sampleRate * BLOCK_SECONDS) / BLOCKS_PER_WINDOW);
  const block = hop * BLOCKS_PER_WINDOW;
  // Mean squares of each hop, then of each block of four hops.
  const hops: number[] = [];
  for (let start = 0; start + hop <= signal.length; start += hop) {
    let sum = 0;
    for (let i = start; i < start + hop; i++) sum += (signal[i] as number) ** 2;
    hops.push(sum);
  }
  const blocks: number[] = [];
  for (let i = 0; i + BLOCKS_PER_WINDOW <= hops.length; i++) {
    let sum = 0;
    for (let j = i; j < i + BLOCKS_PER_WINDOW; j++) sum += hops[j] as number;
    blocks.push(sum / block);
  }
  const gated = (threshold: number) => blocks.filter((power) => loudnessOf(power) > threshold);
  const loud = gated(ABSOLUTE_GATE_LUFS);
  if (loud.length === 0) return Number.NEGATIVE_INFINITY;
  const ungated = loudnessOf(loud.reduce((a, b) => a + b, 0) / loud.length);
  const kept = loud.filter((power) => loudnessOf(power) > ungated + RELATIVE_GATE_LU);
  return loudnessOf(kept.reduce((a, b) => a + b, 0) / kept.length);
}
