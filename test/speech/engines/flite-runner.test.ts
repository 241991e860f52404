import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { before, describe, it } from 'node:test';
import { parseWav } from '../../../src/speech/audio/wav.ts';
import {
  type CompiledFlite,
  compileFlite,
  FLITE_VOICES,
  FliteRunner,
} from '../../../src/speech/engines/flite/wasi-runner.ts';
import { rewriteFlite } from '../../../src/speech/engines/flite/wasm-binary.ts';
import { voicedShare } from '../../helpers/audio-analysis.ts';

// The runner keeps one Flite instance and puts it back into its first state before each run:
// whatever ran before, a run must give the bytes a brand-new instance gives.

const say = (voice: string, words: string) => ['-voice', voice, '-t', words];

describe('Flite runner', () => {
  let module: CompiledFlite;
  before(async () => {
    module = await compileFlite();
  });

  it('gives a reused instance the bytes of a new one, after any earlier runs', () => {
    const reused = new FliteRunner(module);
    const runs = [
      say('slt', 'Good morning, thank you for calling.'),
      say('rms', 'Your appointment is at three thirty on Tuesday.'),
      say('kal', 'Goodbye.'),
      say('rms', `${'A long sentence that grows the heap. '.repeat(12)}`),
      say('kal', 'Good morning, thank you for calling.'),
      say('slt', 'Good morning, thank you for calling.'),
      // The accent's two runs: printing the lexicon's phones, then speaking with an addenda.
      ['-voice', 'kal', '-pr', 'SegmentStress', '-t', 'thank, you'],
      ['-voice', 'rms', '-p', 'pau hh ax0 l ow1 pau'],
      say('rms', 'Thank you.'),
    ];
    for (const args of runs) {
      const again = reused.run(args).wav;
      const fresh = new FliteRunner(module).run(args).wav;
      assert.ok(Buffer.from(again).equals(Buffer.from(fresh)), args.join(' '));
    }
  });

  it('is back in its first state as soon as a run ends, so the next run starts at once', () => {
    const runner = new FliteRunner(module);
    const first = runner.memorySnapshot();
    runner.stream(say('rms', 'A long sentence that grows the heap. '.repeat(12)), () => true);
    const after = runner.memorySnapshot();
    assert.ok(after.length > first.length, 'the run grew the memory');
    assert.ok(Buffer.from(after.subarray(0, first.length)).equals(Buffer.from(first)));
    assert.ok(after.subarray(first.length).every((byte) => byte === 0));
  });

  it('knows where the read-only data lies, and no run writes there', () => {
    const { readOnly } = module;
    assert.ok(readOnly, 'the binary names its .rodata segment');
    // Flite's voices are nearly all of the 7.6 MB of data: the runner need not copy them back.
    assert.ok(readOnly.end - readOnly.start > 7_000_000, `${readOnly.start}-${readOnly.end}`);
    const runner = new FliteRunner(module);
    const first = runner.memorySnapshot().subarray(readOnly.start, readOnly.end);
    for (const voice of FLITE_VOICES) {
      runner.run(say(voice, 'Good morning, thank you for calling. Goodbye.'));
    }
    runner.run(['-voice', 'kal', '-pr', 'SegmentStress', '-t', 'thank, you']);
    const after = runner.memorySnapshot().subarray(readOnly.start, readOnly.end);
    assert.ok(Buffer.from(after).equals(Buffer.from(first)));
  });

  it('leaves the read-only data out of the module, and an instance filled from the file speaks as the whole binary does', async () => {
    const { readOnly } = module;
    assert.ok(readOnly);
    const binary = new Uint8Array(await readFile(readOnly.file));
    const rewrite = { stackPointer: 'ijwi_stack_pointer', streamFd: -7 };
    const lean = rewriteFlite(binary, { ...rewrite, leaveOutReadOnlyData: true });
    const whole = rewriteFlite(binary, rewrite);
    // The data's bytes, and a few of the sizes written before them (shorter now).
    const leftOut = whole.length - lean.length - (readOnly.end - readOnly.start);
    assert.ok(leftOut >= 0 && leftOut < 16, `${leftOut}`);
    const wholeRunner = new FliteRunner({ module: await WebAssembly.compile(whole), readOnly: undefined });
    const leanRunner = new FliteRunner(module);
    assert.ok(Buffer.from(leanRunner.memorySnapshot()).equals(Buffer.from(wholeRunner.memorySnapshot())));
    const runs = FLITE_VOICES.flatMap((voice) => [
      say(voice, 'Your appointment is at three thirty on Tuesday, the 14th of March.'),
      say(voice, 'Dr. Nkurunziza, Kigali, +250 788 123 456; zxqv pfft Mwiseneza!'),
    ]);
    runs.push(['-voice', 'kal', '-pr', 'SegmentStress', '-t', 'thank, you, Nyiramana']);
    for (const args of runs) {
      const spoken = leanRunner.run(args);
      const expected = wholeRunner.run(args);
      assert.ok(Buffer.from(spoken.wav).equals(Buffer.from(expected.wav)), args.join(' '));
      assert.equal(spoken.printed, expected.printed);
    }
  });

  it('runs only as a voice whose data it holds, named first', () => {
    const runner = new FliteRunner(module);
    for (const args of [
      say('awb', 'Hello.'),
      say('kal16', 'Hello.'),
      ['-t', 'Hello.'],
      [...say('slt', 'Hello.'), '-voice', 'awb'],
    ]) {
      assert.throws(() => runner.run(args), /only as -voice slt, rms, kal/, args.join(' '));
    }
    assert.ok(runner.run(say('slt', '-voice')).wav.length > 44, 'text that looks like the option is text');
  });

  it('keeps a reused instance from growing run after run', () => {
    const runner = new FliteRunner(module);
    runner.run(say('rms', 'Warm up. '.repeat(30)));
    const settled = runner.memoryBytes;
    for (let i = 0; i < 40; i++) runner.run(say('rms', 'Warm up. '.repeat(30)));
    assert.equal(runner.memoryBytes, settled);
  });

  it('streams, while it synthesises, exactly the samples it would write, and stops when told', () => {
    const runner = new FliteRunner(module);
    for (const voice of FLITE_VOICES) {
      const args = say(voice, 'Good morning, thank you for calling the clinic.');
      const { samples: written, sampleRate } = parseWav(runner.run(args).wav);
      const parts: Int16Array[] = [];
      runner.stream(args, (samples, rate) => {
        assert.equal(rate, sampleRate);
        parts.push(samples.slice());
        return true;
      });
      // In many stretches, not one at the end: the listener hears the clause while it is made.
      assert.ok(parts.length > 20, `${voice}: ${parts.length} stretches`);
      const streamed = Int16Array.from(parts.flatMap((part) => [...part]));
      assert.deepEqual(streamed, written, voice);

      // Told to stop after three stretches, Flite makes no more, and the next run is whole again.
      let calls = 0;
      runner.stream(args, () => ++calls < 3);
      assert.equal(calls, 3, voice);
      let again = 0;
      runner.stream(args, (samples) => {
        again += samples.length;
        return true;
      });
      assert.equal(again, written.length, voice);
    }
  });

  it("speaks sentences alone and together as long as Flite's own code did: what it keeps per HMM state or segment stays with its state, segment and sentence", () => {
    // The clustergen voices keep a duration tree's answers for a segment's states, and a
    // frame's place in its state, phone and phrase for the state's frames (wasm/patches/24,
    // 25). Flite speaks each sentence of a text as an utterance of its own, one after another
    // in the run: kept into the next segment, state or sentence, they would give it other
    // durations. The lengths, in samples, are those of the build of patches 01-20 (the same
    // as the npm build's before it), within one 5 ms frame.
    const runner = new FliteRunner(module);
    const sentences = [
      'The consultation fee is five thousand Rwandan francs.',
      'Please arrive fifteen minutes before your appointment.',
      'Thank you.',
    ];
    const recorded: Readonly<Record<string, readonly number[]>> = {
      slt: [72_480, 50_720, 18_400, 132_160],
      rms: [78_960, 55_200, 16_960, 145_920],
    };
    const frame = 80;
    for (const [voice, lengths] of Object.entries(recorded)) {
      const spoken = (text: string) => {
        const parts: Int16Array[] = [];
        runner.stream(say(voice, text), (samples) => {
          parts.push(samples.slice());
          return true;
        });
        return Int16Array.from(parts.flatMap((part) => [...part]));
      };
      const runs = [...sentences, sentences.join(' ')].map(spoken);
      runs.forEach((samples, i) => {
        const label = `${voice}, ${i < sentences.length ? `sentence ${i + 1}` : 'together'}`;
        const expected = lengths[i] ?? 0;
        assert.ok(
          Math.abs(samples.length - expected) <= frame,
          `${label}: ${samples.length}, not ${expected}`,
        );
        // Speech, not silence: a third of its 20 ms windows or more are loud.
        assert.ok(voicedShare(samples, 16_000) > 0.3, `${label}: speech, not silence`);
      });
    }
  });

  it('vocodes the opening pause only from lead_in_seconds before its end: zeros before, the same audio after', () => {
    const runner = new FliteRunner(module);
    const level = (samples: Int16Array) => samples.findIndex((sample) => Math.abs(sample) >= 300);
    for (const voice of ['slt', 'rms'] as const) {
      const args = say(voice, 'Good morning, thank you for calling the clinic.');
      const { samples: whole, sampleRate } = parseWav(runner.run(args).wav);
      const lead = 0.08;
      const { samples: cut } = parseWav(
        runner.run(['-voice', voice, '--setf', `lead_in_seconds=${lead}`, ...args.slice(2)]).wav,
      );
      // Flite's opening pause is about 0.2 s; its first sound is where it was.
      const firstSound = level(whole);
      assert.ok(firstSound / sampleRate > 0.15, `${voice}: first sound at ${firstSound / sampleRate} s`);
      assert.equal(cut.length, whole.length, voice);
      assert.equal(level(cut), firstSound, voice);
      // Silence not vocoded: zeros up to the lead-in (which starts at most a frame earlier),
      // Flite's own quiet noise before that in the whole run.
      const zeros = cut.findIndex((sample) => sample !== 0);
      assert.ok(zeros > 0.05 * sampleRate, `${voice}: ${zeros} zeros`);
      assert.ok(
        whole.subarray(0, zeros).some((sample) => sample !== 0),
        voice,
      );
      assert.ok(
        firstSound - zeros >= 0.04 * sampleRate,
        `${voice}: ${firstSound - zeros} samples of lead-in`,
      );
      // From 40 ms before the first sound (what the engine keeps) on, the same audio: only the
      // filter's memory of the silence differs.
      const from = firstSound - 0.04 * sampleRate;
      const largest = cut
        .subarray(from)
        .reduce((most, sample, i) => Math.max(most, Math.abs(sample - (whole[from + i] ?? 0))), 0);
      assert.ok(largest <= 1, `${voice}: samples differ by up to ${largest}`);
    }
  });

  it('runs again after a run that failed', () => {
    const runner = new FliteRunner(module);
    assert.throws(
      () => runner.run(['-voice', 'kal', '-f', '/no/such/file.txt']),
      /flite failed.*no\/such\/file/,
    );
    const after = runner.run(say('slt', 'Hello.')).wav;
    assert.ok(Buffer.from(after).equals(Buffer.from(new FliteRunner(module).run(say('slt', 'Hello.')).wav)));
  });
});

describe('Flite binary rewrite', () => {
  // A module with only a global section: `count, (i32, mutability, i32.const n, end)...`.
  const withGlobals = (...mutabilities: number[]) =>
    Uint8Array.from([
      0x00,
      0x61,
      0x73,
      0x6d,
      0x01,
      0x00,
      0x00,
      0x00,
      0x06,
      1 + mutabilities.length * 5,
      mutabilities.length,
      ...mutabilities.flatMap((mutability) => [0x7f, mutability, 0x41, 0x00, 0x0b]),
    ]);

  it('refuses a module whose state it could not reset', () => {
    assert.throws(() => rewriteFlite(withGlobals(1, 1), { stackPointer: 'sp' }), /found 2/);
    assert.throws(() => rewriteFlite(withGlobals(0), { stackPointer: 'sp' }), /found 0/);
  });

  it('refuses to redirect the audio stream of a binary without the callback or the import it needs', () => {
    const redirect = (binary: Uint8Array, streamFd: number) =>
      rewriteFlite(binary, { stackPointer: 'sp', streamFd });
    assert.throws(() => redirect(withGlobals(0, 1), -7), /no section/);
    const typeAndImport = [0x01, 0x01, 0x00, 0x02, 0x01, 0x00];
    assert.throws(
      () => redirect(Uint8Array.from([...withGlobals(0, 1), ...typeAndImport]), -7),
      /imports no wasi_snapshot_preview1.fd_write/,
    );
    assert.throws(() => redirect(withGlobals(0, 1), 3), /must be negative/);
  });

  it('exports the one mutable global', async () => {
    const exportSection = [0x07, 0x01, 0x00];
    const binary = Uint8Array.from([...withGlobals(0, 1), ...exportSection]);
    const rewritten = rewriteFlite(binary, { stackPointer: 'sp' });
    const instance = new WebAssembly.Instance(await WebAssembly.compile(rewritten));
    assert.ok(instance.exports.sp instanceof WebAssembly.Global);
    (instance.exports.sp as WebAssembly.Global).value = 7;
    assert.equal((instance.exports.sp as WebAssembly.Global).value, 7);
  });
});
