import { rms } from './signals.ts';

/** Measurements that audio tests assert on: loudness, pitch, duration. Real signal analysis, no fixtures. */

/** Share of 20 ms windows louder than `threshold` RMS: speech has many, silence none. */
export function voicedShare(samples: Int16Array, sampleRate: number, threshold = 300): number {
  const window = Math.round(sampleRate / 50);
  let loud = 0;
  let total = 0;
  for (let at = 0; at + window <= samples.length; at += window) {
    total++;
    if (rms(samples.subarray(at, at + window)) > threshold) loud++;
  }
  return total === 0 ? 0 : loud / total;
}

/**
 * Median fundamental frequency over loud 40 ms windows, by normalised autocorrelation in the
 * 60-400 Hz range: enough to tell a low voice from a high one.
 */
export function medianPitch(samples: Int16Array, sampleRate: number): number {
  const window = Math.round(sampleRate * 0.04);
  const minLag = Math.floor(sampleRate / 400);
  const maxLag = Math.ceil(sampleRate / 60);
  const pitches: number[] = [];
  for (let at = 0; at + window + maxLag <= samples.length; at += window) {
    const frame = samples.subarray(at, at + window + maxLag);
    if (rms(frame.subarray(0, window)) < 800) continue;
    let bestLag = 0;
    let best = 0;
    for (let lag = minLag; lag <= maxLag; lag++) {
      let dot = 0;
      let energyA = 0;
      let energyB = 0;
      for (let i = 0; i < window; i++) {
        const a = frame[i] ?? 0;
        const b = frame[i + lag] ?? 0;
        dot += a * b;
        energyA += a * a;
        energyB += b * b;
      }
      const score = dot / Math.sqrt(energyA * energyB + 1);
      if (score > best) {
        best = score;
        bestLag = lag;
      }
    }
    if (best > 0.5 && bestLag > 0) pitches.push(sampleRate / bestLag);
  }
  pitches.sort((a, b) => a - b);
  return pitches[Math.floor(pitches.length / 2)] ?? 0;
}
