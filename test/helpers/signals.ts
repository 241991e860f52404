/** Small test signals made on the spot, and the measurements the audio tests assert on. */

/** A deterministic pseudo-random source in [0, 1) (mulberry32), so random cases repeat exactly. */
export function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A sine tone of `amplitude` (of 32767) at `frequency` Hz. */
export function tone(frequency: number, sampleRate: number, seconds: number, amplitude = 16000): Int16Array {
  const out = new Int16Array(Math.round(sampleRate * seconds));
  for (let i = 0; i < out.length; i++)
    out[i] = Math.round(amplitude * Math.sin((2 * Math.PI * frequency * i) / sampleRate));
  return out;
}

/**
 * A vowel-like signal: a 120 Hz glottal pulse train's harmonics shaped by three formant peaks
 * (500, 1500, 2500 Hz, the neutral vowel of a 17.5 cm vocal tract) under a 4 Hz syllable
 * envelope, peaking near `peak` of full scale. Enough like speech for level-dependent codecs.
 */
export function speechLike(sampleRate: number, seconds: number, peak = 0.5): Int16Array {
  const f0 = 120;
  const formants = [500, 1500, 2500];
  const bandwidth = 120;
  const harmonics: { frequency: number; gain: number }[] = [];
  for (let frequency = f0; frequency < Math.min(3800, sampleRate / 2); frequency += f0) {
    let gain = 0;
    for (const formant of formants) gain += 1 / (1 + ((frequency - formant) / bandwidth) ** 2);
    harmonics.push({ frequency, gain: gain / Math.sqrt(frequency / f0) });
  }
  const raw = new Float64Array(Math.round(sampleRate * seconds));
  let max = 0;
  for (let i = 0; i < raw.length; i++) {
    const t = i / sampleRate;
    let v = 0;
    for (const { frequency, gain } of harmonics)
      v += gain * Math.sin(2 * Math.PI * frequency * t + frequency);
    v *= 0.55 - 0.45 * Math.cos(2 * Math.PI * 4 * t);
    raw[i] = v;
    max = Math.max(max, Math.abs(v));
  }
  const out = new Int16Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = Math.round(((raw[i] ?? 0) / max) * peak * 32767);
  return out;
}

/** Root mean square of a stretch of samples. */
export function rms(samples: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += (samples[i] ?? 0) ** 2;
  return samples.length === 0 ? 0 : Math.sqrt(sum / samples.length);
}

/** Amplitude of the `frequency` component (Goertzel's algorithm): a full-scale sine of amplitude A gives A. */
export function toneAmplitude(samples: ArrayLike<number>, sampleRate: number, frequency: number): number {
  const coefficient = 2 * Math.cos((2 * Math.PI * frequency) / sampleRate);
  let s1 = 0;
  let s2 = 0;
  for (let i = 0; i < samples.length; i++) {
    const s0 = (samples[i] ?? 0) + coefficient * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  const power = s1 * s1 + s2 * s2 - coefficient * s1 * s2;
  return (2 * Math.sqrt(Math.max(0, power))) / samples.length;
}

/** Signal-to-noise ratio in dB of `actual` against `reference`, over their common length. */
export function snrDb(reference: ArrayLike<number>, actual: ArrayLike<number>): number {
  const n = Math.min(reference.length, actual.length);
  let signal = 0;
  let noise = 0;
  for (let i = 0; i < n; i++) {
    const r = reference[i] ?? 0;
    signal += r * r;
    noise += (r - (actual[i] ?? 0)) ** 2;
  }
  return 10 * Math.log10(signal / Math.max(noise, 1e-9));
}

/** Largest absolute sample difference over the common length. */
export function maxAbsDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++)
    max = Math.max(max, Math.abs((a[i] ?? 0) - (b[i] ?? 0)));
  return max;
}

/** Concatenates arrays of one kind. */
export function concatInt16(parts: readonly Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Concatenates byte arrays. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/** Feeds `samples` in chunks of the sizes `nextSize` gives, then flushes; returns all output. */
export function inChunks(
  samples: Int16Array,
  nextSize: () => number,
  process: (chunk: Int16Array) => Int16Array,
  flush: () => Int16Array,
): Int16Array {
  const parts: Int16Array[] = [];
  for (let at = 0; at < samples.length; ) {
    const size = Math.max(1, nextSize());
    parts.push(process(samples.subarray(at, at + size)));
    at += size;
  }
  parts.push(flush());
  return concatInt16(parts);
}
