import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLevelStage, LIMIT_DBTP } from '../../../src/speech/audio/level.ts';
import { integratedLoudness } from '../../../src/speech/audio/loudness-meter.ts';

const RATE = 22050;

/** A sine of `amplitude` (a share of full scale) at `hz`, `seconds` long, as 16-bit samples. */
function sine(hz: number, amplitude: number, seconds: number): Int16Array {
  return Int16Array.from({ length: Math.round(RATE * seconds) }, (_, i) =>
    Math.round(amplitude * 32767 * Math.sin((2 * Math.PI * hz * i) / RATE)),
  );
}

/** `samples` through a level stage in engine-sized chunks, then its flush: one clause. */
function level(samples: Int16Array, gainDb: number): Int16Array {
  const stage = createLevelStage(gainDb, RATE);
  const parts: Int16Array[] = [];
  for (let at = 0; at < samples.length; at += 2170)
    parts.push(stage.process(samples.subarray(at, at + 2170)));
  parts.push(stage.flush());
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const peakOf = (samples: Int16Array) => samples.reduce((m, s) => Math.max(m, Math.abs(s)), 0);
const db = (share: number) => 20 * Math.log10(share);

describe('level stage: fixed gain and true-peak limiter', () => {
  it('gives quiet audio the gain alone, sample for sample, and keeps its length', () => {
    const input = sine(440, 0.1, 1);
    const out = level(input, 6);
    assert.equal(out.length, input.length);
    const gain = 10 ** (6 / 20);
    for (let i = 0; i < input.length; i += 97)
      assert.ok(Math.abs((out[i] as number) - (input[i] as number) * gain) <= 1, `sample ${i}`);
  });

  it('holds a peak the gain would push past full scale under the limit, and leaves the rest', () => {
    // Quiet speech-like tone with one loud burst in the middle, lifted by 6 dB.
    const input = sine(300, 0.2, 2);
    const burst = sine(300, 0.9, 0.05);
    input.set(burst, RATE);
    const out = level(input, 6);
    assert.ok(db(peakOf(out) / 32768) <= LIMIT_DBTP + 0.05, `peak ${db(peakOf(out) / 32768)} dBFS`);
    // A second before the burst, and half a second after it, the gain alone.
    const gain = 10 ** (6 / 20);
    for (const i of [5000, 11_000, Math.round(1.6 * RATE)])
      assert.ok(Math.abs((out[i] as number) - (input[i] as number) * gain) <= 1, `sample ${i}`);
  });

  it('changes loudness by the gain, whatever the length of the clause', () => {
    const short = sine(1000, 0.1, 0.6);
    const long = sine(1000, 0.1, 6);
    const lift = (samples: Int16Array) =>
      integratedLoudness(level(samples, 4), RATE) - integratedLoudness(samples, RATE);
    assert.ok(Math.abs(lift(short) - 4) < 0.1, `short: ${lift(short)} LU`);
    assert.ok(Math.abs(lift(long) - 4) < 0.1, `long: ${lift(long)} LU`);
  });

  it('starts each clause afresh after a flush: the same clause gives the same samples', () => {
    const stage = createLevelStage(3, RATE);
    const clause = sine(200, 0.95, 0.3);
    const first = [stage.process(clause), stage.flush()];
    const second = [stage.process(clause), stage.flush()];
    assert.deepEqual(second, first);
  });
});

describe('loudness meter (ITU-R BS.1770)', () => {
  it('reads a 1 kHz sine at -20 dBFS as -23 LUFS, and silence as -Infinity', () => {
    // BS.1770's calibration: a 0 dBFS 1 kHz sine reads -3.01 LUFS.
    const reading = integratedLoudness(sine(1000, 0.1, 3), RATE);
    assert.ok(Math.abs(reading - -23.01) < 0.05, `${reading} LUFS`);
    assert.equal(integratedLoudness(new Int16Array(RATE * 2), RATE), Number.NEGATIVE_INFINITY);
  });
});
