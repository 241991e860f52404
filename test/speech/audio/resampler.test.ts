import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { createResampler, ResamplerBackend } from '../../../src/speech/audio/resampler.ts';
import { recordedChecksum, recordedModuleBytes } from '../../../src/speech/runtime/recorded-wasm.ts';
import {
  inChunks,
  maxAbsDifference,
  randomSource,
  rms,
  speechLike,
  tone,
  toneAmplitude,
} from '../../helpers/signals.ts';

// Rates: espeak-ng speaks at 22050 Hz and sends chunks of about 2,170 samples; other engines
// (Piper, Kokoro) use 16000 and 24000 Hz; the stream formats of the API v1 contract are 8, 16
// and 24 kHz.
const ENGINE_RATE = 22050;
const ENGINE_CHUNK = 2170;

let backend: ResamplerBackend;
before(async () => {
  backend = await ResamplerBackend.load();
});

describe('resampler: lengths', () => {
  const pairs = [
    [22050, 8000],
    [22050, 16000],
    [22050, 24000],
    [16000, 8000],
    [24000, 8000],
    [24000, 16000],
    [16000, 24000],
  ] as const;
  for (const [from, to] of pairs) {
    it(`1 s at ${from} Hz streamed in engine-sized chunks gives 1 s at ${to} Hz`, () => {
      const resampler = backend.resampler(from, to);
      const out = inChunks(
        speechLike(from, 1),
        () => ENGINE_CHUNK,
        (c) => resampler.process(c),
        () => resampler.flush(),
      );
      assert.ok(Math.abs(out.length - to) <= 2, `${out.length} samples`);
    });
  }

  it('gives input length * ratio for lengths that do not divide evenly', () => {
    const resampler = backend.resampler(ENGINE_RATE, 8000);
    for (const length of [1, 7, 100, 2170, 12345]) {
      const out = inChunks(
        speechLike(ENGINE_RATE, length / ENGINE_RATE),
        () => 500,
        (c) => resampler.process(c),
        () => resampler.flush(),
      );
      assert.ok(Math.abs(out.length - (length * 8000) / ENGINE_RATE) <= 1, `${length} in, ${out.length} out`);
    }
  });

  it('gives nothing for nothing', () => {
    const resampler = backend.resampler(ENGINE_RATE, 8000);
    assert.equal(resampler.process(new Int16Array(0)).length, 0);
    assert.equal(resampler.flush().length, 0);
  });
});

describe('resampler: anti-aliasing', () => {
  // Nyquist-Shannon (Wikipedia "Aliasing"): at 8 kHz nothing above 4 kHz survives as itself;
  // without a low-pass filter a 5 kHz tone folds back to 3 kHz at nearly full level. The
  // measurement skips 50 ms at each end, where the tone starts and stops abruptly.
  const middle = (samples: Int16Array, rate: number) =>
    samples.subarray(rate / 20, samples.length - rate / 20);

  it('suppresses a 5 kHz tone by at least 40 dB going to 8 kHz, next to a 1 kHz tone it keeps', () => {
    // The 1 kHz tone shows the output is real audio, so a silent output cannot pass.
    const low = tone(1000, ENGINE_RATE, 1, 8000);
    const high = tone(5000, ENGINE_RATE, 1, 8000);
    const input = low.map((s, i) => s + (high[i] ?? 0));
    const resampler = backend.resampler(ENGINE_RATE, 8000);
    const out = middle(
      inChunks(
        input,
        () => ENGINE_CHUNK,
        (c) => resampler.process(c),
        () => resampler.flush(),
      ),
      8000,
    );
    const kept = toneAmplitude(out, 8000, 1000);
    assert.ok(Math.abs(20 * Math.log10(kept / 8000)) < 0.2, `1 kHz at ${kept.toFixed(0)} of 8000`);
    const aliasDb = 20 * Math.log10(toneAmplitude(out, 8000, 3000) / 8000 + 1e-12);
    assert.ok(aliasDb < -40, `5 kHz folded to 3 kHz at ${aliasDb.toFixed(1)} dB`);
    // Everything but the 1 kHz tone, against the 5 kHz tone's power.
    const restPower = Math.max(0, rms(out) ** 2 - kept ** 2 / 2);
    const restDb = 10 * Math.log10(restPower / (8000 ** 2 / 2) + 1e-12);
    assert.ok(restDb < -40, `5 kHz only ${restDb.toFixed(1)} dB down`);
  });

  it('passes a 1 kHz tone within 0.2 dB and with nothing else in it', () => {
    const input = tone(1000, ENGINE_RATE, 1, 16000);
    const resampler = backend.resampler(ENGINE_RATE, 8000);
    const out = middle(
      inChunks(
        input,
        () => ENGINE_CHUNK,
        (c) => resampler.process(c),
        () => resampler.flush(),
      ),
      8000,
    );
    const gainDb = 20 * Math.log10(toneAmplitude(out, 8000, 1000) / 16000);
    assert.ok(Math.abs(gainDb) < 0.2, `1 kHz changed by ${gainDb.toFixed(2)} dB`);
    // What is left after removing the tone's power is noise and distortion.
    const residualDb =
      10 * Math.log10(1 - (toneAmplitude(out, 8000, 1000) / Math.SQRT2 / rms(out)) ** 2 + 1e-12);
    assert.ok(residualDb < -40, `residual ${residualDb.toFixed(1)} dB`);
  });

  // Going up, the filter must remove the image that zero-stuffing creates: a 3 kHz tone at
  // 16 kHz would reappear at 16 - 3 = 13 kHz in the 24 kHz output.
  it('keeps a 3 kHz tone and leaves no image at 13 kHz going from 16 to 24 kHz', () => {
    const input = tone(3000, 16000, 0.5, 16000);
    const resampler = backend.resampler(16000, 24000);
    const out = middle(new Int16Array([...resampler.process(input), ...resampler.flush()]), 24000);
    const gainDb = 20 * Math.log10(toneAmplitude(out, 24000, 3000) / 16000);
    const imageDb = 20 * Math.log10(toneAmplitude(out, 24000, 13000) / 16000);
    assert.ok(Math.abs(gainDb) < 0.2, `3 kHz changed by ${gainDb.toFixed(2)} dB`);
    assert.ok(imageDb < -40, `image at ${imageDb.toFixed(1)} dB`);
  });
});

describe('resampler: streaming', () => {
  const speech = speechLike(ENGINE_RATE, 2, 0.8);
  const whole = (to: number) => {
    const resampler = backend.resampler(ENGINE_RATE, to);
    return new Int16Array([...resampler.process(speech), ...resampler.flush()]);
  };

  for (const to of [8000, 16000, 24000]) {
    it(`engine chunks and random chunks give the samples of one-shot conversion (${to} Hz)`, () => {
      const reference = whole(to);
      const resampler = backend.resampler(ENGINE_RATE, to);
      const engineSized = inChunks(
        speech,
        () => ENGINE_CHUNK,
        (c) => resampler.process(c),
        () => resampler.flush(),
      );
      const random = randomSource(to);
      const randomSized = inChunks(
        speech,
        () => 1 + Math.floor(random() * 3000),
        (c) => resampler.process(c),
        () => resampler.flush(),
      );
      assert.equal(engineSized.length, reference.length);
      assert.equal(randomSized.length, reference.length);
      // A click at a join would be a jump of hundreds or thousands; one unit allows rounding.
      assert.ok(maxAbsDifference(engineSized, reference) <= 1);
      assert.ok(maxAbsDifference(randomSized, reference) <= 1);
    });
  }

  // Independent reference: sampling theory. A signal with nothing above the target's Nyquist
  // frequency, converted, must be that same signal sampled at the target rate, at the same
  // instants (no delay) and within the filter's passband ripple.
  for (const to of [8000, 16000, 24000]) {
    it(`turns a band-limited signal into the same signal sampled at ${to} Hz`, () => {
      const partials = [
        [300, 5000],
        [700, 4000],
        [1100, 3000],
        [2300, 2000],
      ] as const;
      const signal = (rate: number, seconds: number) =>
        Int16Array.from({ length: Math.round(rate * seconds) }, (_, i) =>
          Math.round(partials.reduce((sum, [f, a]) => sum + a * Math.sin((2 * Math.PI * f * i) / rate), 0)),
        );
      const resampler = backend.resampler(ENGINE_RATE, to);
      const out = inChunks(
        signal(ENGINE_RATE, 1),
        () => ENGINE_CHUNK,
        (c) => resampler.process(c),
        () => resampler.flush(),
      );
      const expected = signal(to, 1);
      assert.equal(out.length, expected.length);
      // The first and last 50 ms see the signal start and stop abruptly.
      const edge = to / 20;
      const error = out.subarray(edge, -edge).map((s, i) => s - (expected[edge + i] ?? 0));
      const errorDb = 20 * Math.log10(rms(error) / rms(expected.subarray(edge, -edge)));
      assert.ok(errorDb < -40, `differs from the ideal by ${errorDb.toFixed(1)} dB`);
    });
  }

  it('clips a filter overshoot past full scale instead of wrapping around', () => {
    // A full-scale square wave overshoots by about 9% after band-limiting (Gibbs phenomenon).
    const square = Int16Array.from(tone(500, ENGINE_RATE, 0.2, 1000), (s) => (s >= 0 ? 32767 : -32768));
    const resampler = backend.resampler(ENGINE_RATE, 24000);
    const out = new Int16Array([...resampler.process(square), ...resampler.flush()]);
    assert.equal(Math.max(...out), 32767);
    assert.equal(Math.min(...out), -32768);
    for (let i = 0; i < out.length; i++) {
      // Away from the edges of the square, the output has the input's sign.
      const at = Math.round((i * ENGINE_RATE) / 24000);
      const around = square.subarray(Math.max(0, at - 4), at + 5);
      if (around.every((s) => s > 0)) assert.ok((out[i] ?? 0) > 0, `sample ${i} wrapped to ${out[i]}`);
      if (around.every((s) => s < 0)) assert.ok((out[i] ?? 0) < 0, `sample ${i} wrapped to ${out[i]}`);
    }
  });

  it('starts each stream afresh after flush() or reset()', () => {
    const resampler = backend.resampler(ENGINE_RATE, 8000);
    const first = new Int16Array([...resampler.process(speech), ...resampler.flush()]);
    resampler.process(tone(3000, ENGINE_RATE, 0.3)); // a cancelled stream, never flushed
    resampler.reset();
    const second = new Int16Array([...resampler.process(speech), ...resampler.flush()]);
    assert.deepEqual(second, first);
  });

  it('keeps each stream to itself when resamplers of one backend are used interleaved', () => {
    const to8k = backend.resampler(ENGINE_RATE, 8000);
    const to16k = backend.resampler(ENGINE_RATE, 16000);
    const out8k: Int16Array[] = [];
    const out16k: Int16Array[] = [];
    for (let at = 0; at < speech.length; at += ENGINE_CHUNK) {
      out8k.push(to8k.process(speech.subarray(at, at + ENGINE_CHUNK)));
      out16k.push(to16k.process(speech.subarray(at, at + ENGINE_CHUNK)));
    }
    out8k.push(to8k.flush());
    out16k.push(to16k.flush());
    assert.deepEqual(new Int16Array(out8k.flatMap((c) => [...c])), whole(8000));
    assert.deepEqual(new Int16Array(out16k.flatMap((c) => [...c])), whole(16000));
  });
});

describe('resampler: same rate', () => {
  it('passes samples through untouched and without a copy', async () => {
    const resampler = await createResampler(ENGINE_RATE, ENGINE_RATE);
    const samples = speechLike(ENGINE_RATE, 0.1);
    assert.equal(resampler.process(samples), samples);
    assert.equal(resampler.flush().length, 0);
  });
});

describe('resampler: rates', () => {
  it('rejects rates and ratios it cannot take', () => {
    for (const bad of [0, -8000, 22050.5, Number.NaN, 192001]) {
      assert.throws(() => backend.resampler(bad, 8000), RangeError);
      assert.throws(() => backend.resampler(ENGINE_RATE, bad), RangeError);
    }
    // Ratios are limited to 1/256..256, and rates with too small a common divisor are refused.
    assert.throws(() => backend.resampler(192000, 500), RangeError);
    assert.throws(() => backend.resampler(100, 25700), RangeError);
    assert.doesNotThrow(() => backend.resampler(192000, 750));
    assert.throws(() => backend.resampler(ENGINE_RATE, 44101), /common divisor/);
  });
});

describe('resampler: the kernel module', () => {
  const moduleUrl = new URL('../../../src/speech/audio/resampler-kernel/kernel.wasm', import.meta.url);

  it('is the module its build recorded, and another is refused', () => {
    const bytes = readFileSync(moduleUrl);
    assert.equal(createHash('sha256').update(bytes).digest('hex'), recordedChecksum(moduleUrl));
    assert.ok(Buffer.from(recordedModuleBytes(moduleUrl)).equals(bytes));
    const dir = mkdtempSync(join(tmpdir(), 'ijwi-kernel-'));
    try {
      const changed = pathToFileURL(join(dir, 'kernel.wasm'));
      const other = Buffer.from(bytes);
      other[other.length - 1] = (other.at(-1) ?? 0) ^ 1;
      writeFileSync(changed, other);
      copyFileSync(new URL(`${moduleUrl.href}.sha256`), new URL(`${changed.href}.sha256`));
      assert.throws(() => recordedModuleBytes(changed), /kernel\.wasm is not the recorded build/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const toolchain = ['/usr/bin/clang', '/usr/bin/wasm-ld'].every((p) => existsSync(p));
  it('is built again, the same bytes, from kernel.c', {
    skip: toolchain ? false : 'needs clang and lld (.ci/run installs them)',
  }, async () => {
    const script = fileURLToPath(new URL('build.sh', moduleUrl));
    const { stdout } = await promisify(execFile)('bash', [script, '--check']);
    assert.match(stdout, /the same bytes as recorded/);
  });
});
