import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeMulaw } from '../../../src/speech/audio/g711.ts';
import { littleEndianBytesToInt16 } from '../../../src/speech/audio/pcm.ts';
import type { EngineInput } from '../../../src/speech/engines/engine.ts';
import {
  type FliteVoice,
  type FliteVoiceName,
  fliteArguments,
  fliteEngine,
} from '../../../src/speech/engines/flite/flite.ts';
import { FLITE_VOICES } from '../../../src/speech/engines/flite/wasi-runner.ts';
import { EnginePool } from '../../../src/speech/pool/engine-pool.ts';
import type { OutputSpec } from '../../../src/speech/pool/protocol.ts';
import { medianPitch, voicedShare } from '../../helpers/audio-analysis.ts';
import { collect } from '../../helpers/streams.ts';

// The Flite engine through the real worker pool, as the pipeline uses it: every voice, every
// kind of output, determinism, cancellation, and text that looks like markup or options.

const voice = (name: FliteVoiceName, more: Partial<FliteVoice> = {}): FliteVoice => ({
  engine: 'flite',
  voice: name,
  stretch: 1,
  ...more,
});
const text = (words: string): EngineInput => ({ kind: 'text', text: words });
const SENTENCE = 'Good morning, thank you for calling the clinic. How can I help you today?';
const WORDS = SENTENCE.split(' ').length;
const native16k: OutputSpec = { sampleRate: 16_000, encoding: 'pcm_s16le' };
const mulaw: OutputSpec = { sampleRate: 8000, encoding: 'mulaw' };
const pcm24k: OutputSpec = { sampleRate: 24_000, encoding: 'pcm_s16le' };

describe('Flite engine', () => {
  let pool: EnginePool;
  const speak = (input: EngineInput, v: FliteVoice, output: OutputSpec, rate = 1) =>
    collect(pool.synthesize({ input, voice: v, output, rate }));

  before(async () => {
    pool = await EnginePool.start({ size: 2, warmUp: { samples: [], outputs: [] } });
  });
  after(() => pool.close());

  it('starts each clause at its first sound, not after the silence Flite puts before it', async () => {
    for (const name of ['slt', 'rms', 'kal'] as const) {
      const rate = name === 'kal' ? 8000 : 16_000;
      const samples = littleEndianBytesToInt16(
        await speak(text('Hello there.'), voice(name), { ...native16k, sampleRate: rate }),
      );
      const firstSound = samples.findIndex((sample) => Math.abs(sample) >= 300);
      assert.ok(
        firstSound >= 0 && firstSound / rate <= 0.05,
        `${name}: first sound at ${firstSound / rate} s`,
      );
    }
  });

  it('gives the first chunk once the clause sounds, then tenths of a second', async () => {
    const engine = await fliteEngine.load();
    for (const name of ['slt', 'rms'] as const) {
      const chunks: Int16Array[] = [];
      engine.synthesize(text(SENTENCE), voice(name), 1, {
        push: (samples) => chunks.push(samples),
        cancelled: () => false,
      });
      const [first, ...rest] = chunks;
      assert.ok(first, name);
      // The 40 ms lead-in and Flite's first stretch with a sound (20 ms at most), not a whole
      // tenth of a second, is what a waiting listener gets first.
      const firstSound = first.findIndex((sample) => Math.abs(sample) >= 300);
      assert.ok(Math.abs(firstSound / 16_000 - 0.04) < 0.002, `${name}: first sound at ${firstSound}`);
      assert.ok(first.length <= 0.06 * 16_000, `${name}: first chunk of ${first.length} samples`);
      assert.ok(
        rest.slice(0, -1).every((chunk) => chunk.length === 1600),
        name,
      );
      // The same audio as the pool's, chunked otherwise.
      const all = Int16Array.from(chunks.flatMap((chunk) => [...chunk]));
      assert.deepEqual(all, littleEndianBytesToInt16(await speak(text(SENTENCE), voice(name), native16k)));
    }
  });

  it('keeps only a short silence after a phrase whose sentence goes on', async () => {
    const quietEnd = (samples: Int16Array) =>
      (samples.length - 1 - samples.findLastIndex((sample) => Math.abs(sample) >= 300)) / 16_000;
    const phrase = 'Please hold for a moment';
    const speakAlone = async (input: EngineInput) =>
      littleEndianBytesToInt16(await speak(input, voice('slt'), native16k));
    const goesOn = await speakAlone({ ...text(phrase), goesOn: true });
    const ends = await speakAlone(text(phrase));
    assert.ok(quietEnd(ends) > 0.15, `a clause end keeps Flite's ${quietEnd(ends)} s`);
    assert.ok(Math.abs(quietEnd(goesOn) - 0.06) < 0.005, `${quietEnd(goesOn)} s after the last sound`);
    assert.deepEqual(goesOn, ends.subarray(0, goesOn.length), 'the same audio, up to the cut');
  });

  it('speaks every voice, non-silent and of a plausible length, in every kind of output', async () => {
    for (const name of FLITE_VOICES) {
      const rate = name === 'kal' ? 8000 : 16_000;
      const own = littleEndianBytesToInt16(
        await speak(text(SENTENCE), voice(name), { ...native16k, sampleRate: rate }),
      );
      const seconds = own.length / rate;
      // 13 words: 0.2 to 0.6 s a word.
      assert.ok(seconds > WORDS * 0.2 && seconds < WORDS * 0.6, `${name}: ${seconds} s`);
      assert.ok(voicedShare(own, rate) > 0.3, `${name} is speech, not silence`);
      const telephone = decodeMulaw(await speak(text(SENTENCE), voice(name), mulaw));
      assert.ok(Math.abs(telephone.length / 8000 - seconds) < 0.05, `${name} at 8 kHz`);
      const wide = littleEndianBytesToInt16(await speak(text(SENTENCE), voice(name), pcm24k));
      assert.ok(Math.abs(wide.length / 24_000 - seconds) < 0.05, `${name} at 24 kHz`);
    }
  });

  it('follows the pitch target and the rate', async () => {
    const pitchOf = async (v: FliteVoice) =>
      medianPitch(littleEndianBytesToInt16(await speak(text(SENTENCE), v, native16k)), 16_000);
    const low = await pitchOf(voice('slt', { pitchHz: 150 }));
    const high = await pitchOf(voice('slt', { pitchHz: 220 }));
    assert.ok(high > low * 1.25, `${low} Hz against ${high} Hz`);
    const own = (await speak(text(SENTENCE), voice('rms'), native16k)).byteLength;
    const fast = (await speak(text(SENTENCE), voice('rms'), native16k, 1.5)).byteLength;
    assert.ok(fast < own * 0.8, `rate 1.5: ${fast} of ${own} bytes`);
  });

  it('gives the same bytes alone and under concurrency, on either worker', async () => {
    const jobs = ['slt', 'rms', 'kal', 'rms', 'slt', 'kal'].map((name, i) => ({
      input: text(`Appointment ${i} is confirmed.`),
      voice: voice(name as FliteVoiceName),
    }));
    const solo: Buffer[] = [];
    for (const job of jobs) solo.push(await speak(job.input, job.voice, mulaw));
    const together = await Promise.all(jobs.map((job) => speak(job.input, job.voice, mulaw)));
    for (const [i, audio] of together.entries())
      assert.ok(audio.equals(solo[i] ?? Buffer.alloc(0)), `job ${i}`);
  });

  it('stops a cancelled job and frees its worker for the next one', async () => {
    const long = `${SENTENCE} `.repeat(8);
    const full = await speak(text(long), voice('rms'), native16k);
    const controller = new AbortController();
    let received = 0;
    await assert.rejects(async () => {
      for await (const bytes of pool.synthesize({
        input: text(long),
        voice: voice('rms'),
        output: native16k,
        signal: controller.signal,
      })) {
        received += bytes.byteLength;
        controller.abort(new Error('caller hung up'));
      }
    }, /caller hung up/);
    assert.ok(received < full.byteLength / 4, `cancelled after ${received} of ${full.byteLength} bytes`);
    const [a, b] = await Promise.all([
      speak(text('Next caller.'), voice('slt'), mulaw),
      speak(text('Next caller.'), voice('kal'), mulaw),
    ]);
    assert.ok(a.byteLength > 0 && b.byteLength > 0);
    assert.equal(pool.queued, 0);
  });

  it('gives its worker up to a call due sooner mid-clause, and resumes where it stopped', async () => {
    const long = `${SENTENCE} `.repeat(12);
    const alone = await speak(text(long), voice('slt'), mulaw);
    const now = performance.now();
    const running = [now, now + 1].map((deadline) =>
      collect(pool.synthesize({ input: text(long), voice: voice('slt'), output: mulaw, deadline })).then(
        (audio) => ({ name: 'long', audio }),
      ),
    );
    const urgent = collect(
      pool.synthesize({ input: text('Hello.'), voice: voice('rms'), output: mulaw, deadline: now - 1 }),
    ).then((audio) => ({ name: 'urgent', audio }));
    assert.equal((await Promise.race([urgent, ...running])).name, 'urgent');
    for (const { audio } of await Promise.all(running)) assert.ok(audio.equals(alone));
    assert.equal(pool.queued, 0);
  });

  it('changes only the words its accent says otherwise, leaving the rest to Flite in context', async () => {
    const accented = voice('slt', { accent: 'african-english' });
    // No word of this clause has a sound the accent changes: Flite speaks it as the US voice
    // does, its reduced "a" included (a word looked up alone is the letter's name, [eɪ]).
    const untouched = text('Please hold a while, I will check.');
    assert.deepEqual(
      await speak(untouched, accented, native16k),
      await speak(untouched, voice('slt'), native16k),
    );
    const thank = text('Thank you for calling.');
    assert.notDeepEqual(await speak(thank, accented, native16k), await speak(thank, voice('slt'), native16k));
    // With every rule left out (the intelligibility bench's ablation), nothing changes at all.
    const none = voice('slt', { accent: 'african-english', accentRules: [] });
    assert.deepEqual(await speak(thank, none, native16k), await speak(thank, voice('slt'), native16k));
  });

  it('reads markup and option-like text as text, and phones only from its phone set', async () => {
    const plain = (await speak(text('Hello there.'), voice('slt'), native16k)).byteLength / 32_000;
    for (const hostile of [
      '<break time="9s"/> Hello there.',
      '--setf duration_stretch=9',
      '-ssml',
      '-voice',
    ]) {
      const seconds = (await speak(text(hostile), voice('slt'), native16k)).byteLength / 32_000;
      assert.ok(seconds < plain + 4, `${JSON.stringify(hostile)}: ${seconds} s`);
    }
    assert.deepEqual(fliteArguments({ text: '-voice kal' }, voice('slt'), 1).args.slice(-2), [
      '-t',
      '-voice kal',
    ]);
    const hello = await speak(
      { kind: 'phonemes', phonemes: 'pau hh ax0 l ow1 pau' },
      voice('slt'),
      native16k,
    );
    assert.ok(hello.byteLength / 32_000 > 0.3, 'phones are spoken');
    for (const phones of ["[[h@l'oU]]", 'hh ax0 l ow1 -voice', 'pau hh ax9 pau']) {
      await assert.rejects(
        speak({ kind: 'phonemes', phonemes: phones }, voice('slt'), native16k),
        /no phone/,
      );
    }
  });
});
