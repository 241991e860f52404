import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLevelStage, LIMIT_DBTP } from '../../../src/speech/audio/level.ts';
import { integratedLoudness } from '../../../src/speech/audio/loudness-meter.ts';
import { calibrationSentences } from '../../../src/speech/loudness/calibration.ts';
import { builtInVoices } from '../../../src/speech/voices/voices.ts';
import { engineClauses } from '../../helpers/engine-audio.ts';
import { createReferenceLevelStage } from './level-reference.ts';

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

/** What a stage gives for each chunk, then for its flush, clause after clause, one stage throughout. */
function outputs(
  create: typeof createLevelStage,
  gainDb: number,
  rate: number,
  clauses: readonly (readonly Int16Array[])[],
): Int16Array[] {
  const stage = create(gainDb, rate);
  return clauses.flatMap((chunks) => [...chunks.map((chunk) => stage.process(chunk)), stage.flush()]);
}

/**
 * Asserts that the level stage gives exactly the samples, chunk for chunk, that the reference
 * implementation (the stage as first written) gives for the same input.
 */
function assertAsReference(
  gainDb: number,
  rate: number,
  clauses: readonly (readonly Int16Array[])[],
  label: string,
): void {
  const expected = outputs(createReferenceLevelStage, gainDb, rate, clauses);
  const actual = outputs(createLevelStage, gainDb, rate, clauses);
  assert.equal(actual.length, expected.length, label);
  for (const [i, want] of expected.entries()) {
    const got = actual[i] as Int16Array;
    assert.equal(got.length, want.length, `${label}: output ${i}'s length`);
    const at = want.findIndex((sample, j) => got[j] !== sample);
    assert.equal(at, -1, `${label}: output ${i}, sample ${at}: ${got[at]} instead of ${want[at]}`);
  }
}

/** `samples` cut into chunks of the given sizes, in turn. */
function cut(samples: Int16Array, sizes: readonly number[]): Int16Array[] {
  const chunks: Int16Array[] = [];
  for (let at = 0, i = 0; at < samples.length; i++) {
    const size = sizes[i % sizes.length] as number;
    chunks.push(samples.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

/** Every 16-bit sample value, from -32768 up, and back down. */
const everySample = Int16Array.from({ length: 131_072 }, (_, i) => (i < 65_536 ? i : 131_071 - i) - 32_768);

describe('level stage: the same samples as the reference implementation', () => {
  it("gives every voice's engine audio the same samples, at its gain and 6 dB over it", async () => {
    for (const voice of builtInVoices) {
      const clauses = await engineClauses(voice, calibrationSentences[voice.language].slice(0, 4));
      const gainDb = voice.gainDb ?? 0;
      assert.ok(clauses.length >= 4, `${voice.name} spoke`);
      assertAsReference(gainDb, voice.sampleRate, clauses, `${voice.name} at ${gainDb} dB`);
      assertAsReference(gainDb + 6, voice.sampleRate, clauses, `${voice.name} at ${gainDb + 6} dB`);
      // The same audio in other chunks: single samples, empty ones and odd sizes.
      const whole = clauses.map((chunks) => Int16Array.from(chunks.flatMap((chunk) => [...chunk])));
      const recut = whole.map((clause) => cut(clause, [1, 0, 3, 17, 1, 500, 2, 4096]));
      assertAsReference(gainDb + 3, voice.sampleRate, recut, `${voice.name} in odd chunks`);
    }
  });

  it('gives the same samples on full-scale sines, clicks, square waves and silence', () => {
    const rates = [8000, 16_000, 22_050, 24_000, 48_000];
    const click = new Int16Array(4000);
    click.set([32_767, -32_768, 32_767], 1000);
    click[2500] = -32_768;
    const square = Int16Array.from({ length: 6000 }, (_, i) => (i % 2 === 0 ? 32_767 : -32_768));
    const signals: Record<string, Int16Array> = {
      'full-scale sine': sine(11_000, 1, 0.3),
      'sine near the top of the band': sine(7000, 0.9, 0.3),
      'quiet sine': sine(440, 0.05, 0.3),
      clicks: click,
      'square wave at half the rate': square,
      silence: new Int16Array(5000),
    };
    for (const rate of rates)
      for (const [name, samples] of Object.entries(signals))
        for (const gainDb of [-30, -6, 0, 3.2, 20])
          for (const sizes of [[2170], [1], [0, 7, 1, 333]])
            assertAsReference(
              gainDb,
              rate,
              [cut(samples, sizes)],
              `${name}, ${rate} Hz, ${gainDb} dB, chunks ${sizes}`,
            );
  });

  it('rounds every sample value as the reference does, halves and negative halves included', () => {
    // Gains that put sample * gain exactly on .5 (odd samples), and the one that puts sample 1
    // just under 0.5, where adding 0.5 rounds up in floating point.
    const gains = [0.5, 1.5, 2.5, 0.75, 0.49999999999999994, 0.1234567, 1.0001];
    for (const gain of gains) {
      const gainDb = 20 * Math.log10(gain);
      assert.equal(10 ** (gainDb / 20), gain, `${gain} as dB and back`);
      assertAsReference(gainDb, RATE, [cut(everySample, [2170])], `every sample at a gain of ${gain}`);
    }
  });

  it('starts each clause as the reference does after a flush, peaks held or not', () => {
    const loud = sine(3000, 0.99, 0.2);
    const quiet = sine(200, 0.01, 0.2);
    const clauses = [cut(loud, [2170]), cut(quiet, [2170]), [], cut(loud, [1]), cut(quiet, [64])];
    assertAsReference(6, RATE, clauses, 'clauses in turn');
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
