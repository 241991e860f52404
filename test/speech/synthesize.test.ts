import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type StreamFormat, streamFormats } from '../../src/speech/audio/formats.ts';
import { decodeAlaw, decodeMulaw } from '../../src/speech/audio/g711.ts';
import { littleEndianBytesToInt16 } from '../../src/speech/audio/pcm.ts';
import type { SpeechSegment } from '../../src/speech/input/document.ts';
import { EnginePool, type SynthesisJob } from '../../src/speech/pool/engine-pool.ts';
import { warmUpPlan } from '../../src/speech/pool/warm-up.ts';
import {
  type AudioTarget,
  plainSpeech,
  type SynthesisEvent,
  synthesize,
} from '../../src/speech/synthesize.ts';
import { builtInVoices, findVoice, type Voice, voicesOf } from '../../src/speech/voices/voices.ts';
import { medianPitch, voicedShare } from '../helpers/audio-analysis.ts';
import { rms } from '../helpers/signals.ts';

// One sentence per language, of the kind a receptionist says (about 40-60 characters).
const sentences = {
  rw: 'Muraho neza, murakaza neza kuri Ijwi. Nabafasha iki?',
  en: 'Good morning, thank you for calling. How can I help?',
  fr: 'Bonjour, merci de votre appel. Comment puis-je aider ?',
} as const;

interface Rendered {
  readonly audio: Buffer;
  readonly end: Extract<SynthesisEvent, { type: 'end' }>;
  readonly chunks: readonly Uint8Array[];
}

/** Records every job `synthesize` gives `pool`, passing each on, until `restore`. */
function recordJobs(pool: EnginePool): { given: SynthesisJob[]; restore: () => void } {
  const given: SynthesisJob[] = [];
  const synthesizeJob = pool.synthesize;
  pool.synthesize = (job) => {
    given.push(job);
    return synthesizeJob.call(pool, job);
  };
  const restore = () => {
    pool.synthesize = synthesizeJob;
  };
  return { given, restore };
}

function samplesOf(audio: Uint8Array, format?: StreamFormat): Int16Array {
  if (format?.encoding === 'mulaw') return decodeMulaw(audio);
  if (format?.encoding === 'alaw') return decodeAlaw(audio);
  return littleEndianBytesToInt16(audio);
}

describe('synthesize', () => {
  let pool: EnginePool;
  const render = async (
    text: string,
    voice: Voice,
    target: AudioTarget = { kind: 'native' },
  ): Promise<Rendered> => {
    const chunks: Uint8Array[] = [];
    let end: Rendered['end'] | undefined;
    for await (const event of synthesize(pool, { ...plainSpeech(text, voice.language), voice, target })) {
      if (event.type === 'audio') chunks.push(event.bytes);
      else if (event.type === 'end') end = event;
    }
    assert.ok(end, 'the pipeline ends with a summary');
    return { audio: Buffer.concat(chunks), end, chunks };
  };

  before(async () => {
    pool = await EnginePool.start({ size: 2, warmUp: warmUpPlan(builtInVoices) });
  });
  after(() => pool.close());

  it('has the voices of the contract: rw 0-2, en 0-4, fr 0-2, each named and grouped', () => {
    assert.deepEqual(
      builtInVoices.map((v) => `${v.language}${v.speakerId}`),
      ['rw0', 'rw1', 'rw2', 'en0', 'en1', 'en2', 'en3', 'en4', 'fr0', 'fr1', 'fr2'],
    );
    assert.deepEqual(
      voicesOf('en').map((v) => v.group),
      ['us-english', 'us-english', 'us-english', 'african-english', 'african-english'],
    );
    assert.equal(new Set(builtInVoices.map((v) => v.name)).size, builtInVoices.length);
    assert.equal(findVoice('rw', 3), undefined);
  });

  for (const voice of builtInVoices) {
    it(`${voice.language} speaker ${voice.speakerId} (${voice.name}) speaks a sentence of its language`, async () => {
      const text = sentences[voice.language];
      const { audio, end } = await render(text, voice);
      const samples = samplesOf(audio);
      const seconds = samples.length / voice.sampleRate;
      assert.equal(end.sampleRate, voice.sampleRate);
      assert.equal(
        audio.byteLength % ((voice.sampleRate / 50) * 2),
        0,
        'whole 20 ms frames at the voice rate',
      );
      assert.ok(Math.abs(end.seconds - seconds) < 1e-9, 'summary duration matches the audio');
      // About 10-20 characters per second is normal speech; allow a wide band around it.
      assert.ok(
        seconds > text.length / 30 && seconds < text.length / 6,
        `${seconds.toFixed(2)} s for ${text.length} characters`,
      );
      assert.ok(voicedShare(samples, voice.sampleRate) > 0.4, 'mostly speech, not silence');
      assert.ok(rms(samples) > 1000, 'audible');
    });
  }

  for (const language of ['rw', 'en', 'fr'] as const) {
    it(`gives every ${language} voice a measurably different pitch or pace`, async () => {
      const measured = [];
      for (const voice of voicesOf(language)) {
        const { audio } = await render(sentences[language], voice);
        const samples = samplesOf(audio);
        measured.push({
          voice,
          pitch: medianPitch(samples, voice.sampleRate),
          seconds: samples.length / voice.sampleRate,
        });
      }
      for (const [i, a] of measured.entries()) {
        for (const b of measured.slice(i + 1)) {
          const pitchRatio = Math.max(a.pitch, b.pitch) / Math.min(a.pitch, b.pitch);
          const paceRatio = Math.max(a.seconds, b.seconds) / Math.min(a.seconds, b.seconds);
          assert.ok(
            pitchRatio > 1.1 || paceRatio > 1.06,
            `${a.voice.name} (${a.pitch.toFixed(0)} Hz, ${a.seconds.toFixed(2)} s) vs ${b.voice.name} (${b.pitch.toFixed(0)} Hz, ${b.seconds.toFixed(2)} s)`,
          );
        }
      }
      const male = measured.filter((m) => m.voice.gender === 'male').map((m) => m.pitch);
      const female = measured.filter((m) => m.voice.gender === 'female').map((m) => m.pitch);
      assert.ok(Math.max(...male) < Math.min(...female), 'male voices are lower than female ones');
    });
  }

  it('reads English with an African accent in the African English voices', async () => {
    // The voices' features (Schmied 2004, Gut 2004): "th" said as a stop (the voiced one by
    // both, the voiceless one by Amani alone), and no vowel of a longer word reduced to schwa.
    const text = { kind: 'text', text: 'Thank you for calling about the appointment.' } as const;
    const us = (await pool.phonemes(text, (findVoice('en', 0) as Voice).engineVoice)).split(' ');
    assert.match(us.join(' '), /[θð]/);
    assert.match(`${us[4]} ${us[6]}`, /ə/);
    for (const speakerId of [3, 4]) {
      const african = (await pool.phonemes(text, (findVoice('en', speakerId) as Voice).engineVoice)).split(
        ' ',
      );
      assert.doesNotMatch(african.join(' '), /ð/);
      if (speakerId === 3) assert.doesNotMatch(african.join(' '), /θ/);
      else assert.match(african[0] ?? '', /^θ/, 'Baraka keeps the voiceless one: "thank"');
      assert.doesNotMatch(`${african[4]} ${african[6]}`, /[əɚ]/);
      assert.equal(african.length, us.length);
    }
  });

  for (const format of Object.values(streamFormats)) {
    it(`streams ${format.name}: whole 20 ms frames at ${format.sampleRate} Hz, as long as the WAV audio`, async () => {
      const voice = findVoice('en', 1) as Voice;
      // A first clause a stream would speak as its first phrase and the rest, and a file whole, would
      // differ by the join: the first sentence here is short.
      const text = 'Your appointment is confirmed. See you on Tuesday at ten thirty.';
      const native = await render(text, voice);
      const streamed = await render(text, voice, { kind: 'stream', format });
      for (const chunk of streamed.chunks) assert.equal(chunk.byteLength % format.bytesPerFrame, 0);
      assert.equal(streamed.end.sampleRate, format.sampleRate);
      assert.ok(
        Math.abs(streamed.end.seconds - native.end.seconds) < 0.03,
        `${streamed.end.seconds} vs ${native.end.seconds}`,
      );
      const samples = samplesOf(streamed.audio, format);
      assert.ok(voicedShare(samples, format.sampleRate) > 0.4);
    });
  }

  it('stops when the signal aborts and throws its reason', async () => {
    const controller = new AbortController();
    const voice = findVoice('fr', 0) as Voice;
    const text = 'Première phrase. Deuxième phrase, un peu plus longue. Troisième phrase. Quatrième phrase.';
    let chunks = 0;
    await assert.rejects(async () => {
      for await (const event of synthesize(pool, {
        ...plainSpeech(text, voice.language),
        voice,
        target: { kind: 'native' },
        signal: controller.signal,
      })) {
        if (event.type === 'audio') chunks++;
        controller.abort(new Error('client left'));
      }
    }, /client left/);
    assert.equal(chunks, 1);
    assert.equal(pool.queued, 0);
  });

  it('synthesises one clause ahead of a reader that stops pulling, and no further', async () => {
    const { given, restore } = recordJobs(pool);
    try {
      const events = synthesize(pool, {
        ...plainSpeech('One. Two. Three. Four. Five.', 'en'),
        voice: findVoice('en', 0) as Voice,
        target: { kind: 'stream', format: streamFormats.pcm16_8k },
      });
      assert.equal((await events.next()).value?.type, 'audio');
      // The reader holds the first audio and pulls no more: the pool finishes what it was given.
      while (pool.running > 0 || pool.queued > 0) await new Promise((resolve) => setTimeout(resolve, 2));
      assert.equal(given.length, 2, 'the first clause and one look-ahead clause, nothing more');
      let audio = 0;
      for await (const event of events) if (event.type === 'audio') audio++;
      assert.ok(audio > 0);
      assert.equal(given.length, 5, 'reading on speaks the rest');
    } finally {
      restore();
    }
  });

  it('gives every clause of a stream a deadline: its first now, later ones once the audio before has played', async () => {
    const { given, restore } = recordJobs(pool);
    try {
      const before = performance.now();
      await render('Good morning. Thank you for calling the clinic today.', findVoice('en', 0) as Voice, {
        kind: 'stream',
        format: streamFormats.mulaw_8k,
      });
      const [first, second] = given.map((job) => job.deadline ?? Number.NaN);
      assert.ok(first !== undefined && second !== undefined);
      assert.ok(first >= before && first <= performance.now(), 'the first clause is due at once');
      // "Good morning." lasts at least 13 x 0.05 s: the second clause is not due before then.
      assert.ok(
        second >= first + 13 * 50,
        `second clause due ${(second - first).toFixed(0)} ms after the first`,
      );
    } finally {
      restore();
    }
  });

  it("times each word: from the engine's word events for espeak-ng voices, estimated for the others", async () => {
    const timedWords = async (text: string, voice: Voice) => {
      const words: { text: string; startMs: number; endMs: number }[] = [];
      let seconds = 0;
      const speech = {
        ...plainSpeech(text, voice.language),
        voice,
        target: { kind: 'native' } as const,
        words: true,
      };
      for await (const event of synthesize(pool, speech)) {
        if (event.type === 'words') words.push(...event.words);
        if (event.type === 'end') seconds = event.seconds;
      }
      for (const [i, word] of words.entries()) {
        assert.ok(word.startMs <= word.endMs, `${word.text} ends after it starts`);
        if (i > 0) assert.ok(word.startMs >= (words[i - 1]?.startMs ?? 0), 'words in order');
        assert.ok(word.endMs <= seconds * 1000 + 1, 'within the audio');
      }
      return words;
    };
    const french = await timedWords(
      'Bonjour, votre rendez-vous est à 9 heures.',
      findVoice('fr', 0) as Voice,
    );
    assert.deepEqual(
      french.map((w) => w.text),
      ['Bonjour', 'votre', 'rendez-vous', 'est', 'à', 'neuf', 'heures'],
    );
    assert.ok((french.at(-1)?.startMs ?? 0) > 1000, 'the last word starts late in the sentence');
    const kinyarwanda = await timedWords('Muraho neza, murakaza neza.', findVoice('rw', 0) as Voice);
    assert.deepEqual(
      kinyarwanda.map((w) => w.text),
      ['Muraho', 'neza', 'murakaza', 'neza'],
    );
    const english = await timedWords('Good morning, thank you for calling.', findVoice('en', 0) as Voice);
    assert.deepEqual(
      english.map((w) => w.text),
      ['Good', 'morning', 'thank', 'you', 'for', 'calling'],
    );
  });

  it('gives no audio and zero seconds for text with nothing to say', async () => {
    const { audio, end } = await render(' ... ', findVoice('en', 0) as Voice);
    assert.equal(audio.byteLength, 0);
    assert.equal(end.seconds, 0);
  });

  describe('speech documents', () => {
    const speakDocument = async (segments: SpeechSegment[], voice: Voice, target: AudioTarget) => {
      const parts: Uint8Array[] = [];
      let end: Extract<SynthesisEvent, { type: 'end' }> | undefined;
      const document = { segments, spokenCharacters: 1 };
      for await (const event of synthesize(pool, { document, maxSeconds: 60, voice, target })) {
        if (event.type === 'audio') parts.push(event.bytes);
        else if (event.type === 'end') end = event;
      }
      assert.ok(end);
      return { audio: Buffer.concat(parts), end };
    };
    const format = streamFormats.mulaw_8k;
    const stream: AudioTarget = { kind: 'stream', format };

    it('makes a break exactly as long as written, in whole frames of silence', async () => {
      const voice = findVoice('en', 1) as Voice;
      const words = { kind: 'text', text: 'Please hold.', rate: 1 } as const;
      const alone = await speakDocument([words], voice, stream);
      const paused = await speakDocument([words, { kind: 'break', ms: 500 }, words], voice, stream);
      const pauseBytes = 0.5 * format.sampleRate;
      // Alone, the words end in a padded frame; before a pause, the pause completes that frame.
      const expected = 2 * alone.end.bytes + pauseBytes;
      assert.ok(paused.end.bytes <= expected && paused.end.bytes > expected - 2 * format.bytesPerFrame);
      assert.equal(paused.audio.byteLength % format.bytesPerFrame, 0);
      // The pause itself: the format's silence byte from the end of the first words.
      const pause = paused.audio.subarray(
        alone.end.bytes,
        alone.end.bytes + pauseBytes - format.bytesPerFrame,
      );
      assert.ok(pause.every((byte) => byte === format.silenceByte));
    });

    it("speaks a rate of 2 in about half the time of the voice's own, and 0.5 in about twice", async () => {
      const voice = findVoice('fr', 2) as Voice;
      const text = 'Votre rendez-vous est confirmé pour demain matin à la clinique.';
      const seconds = async (rate: number) =>
        (await speakDocument([{ kind: 'text', text, rate }], voice, stream)).end.seconds;
      const [own, fast, slow] = [await seconds(1), await seconds(2), await seconds(0.5)];
      assert.ok(fast < own * 0.7 && fast > own * 0.35, `fast ${fast} s vs ${own} s`);
      assert.ok(slow > own * 1.5 && slow < own * 2.6, `slow ${slow} s vs ${own} s`);
    });

    it('speaks IPA given as phonemes in every language, and words without normalising them again', async () => {
      for (const [language, ipa] of [
        ['en', 'həˈloʊ'],
        ['fr', 'bɔ̃ʒuʁ'],
        ['rw', 'muɾaho'],
      ] as const) {
        // English: an African English voice, whose words go through the accent's rules, not the IPA.
        const voice = findVoice(language, language === 'en' ? 3 : 0) as Voice;
        const { audio, end } = await speakDocument([{ kind: 'phonemes', ipa, rate: 1 }], voice, stream);
        assert.ok(end.seconds > 0.2 && end.seconds < 2, `${language}: ${end.seconds} s`);
        assert.ok(voicedShare(samplesOf(audio, format), format.sampleRate) > 0.2, language);
      }
      const voice = findVoice('en', 0) as Voice;
      const digits = await speakDocument([{ kind: 'words', text: '1984', rate: 1 }], voice, stream);
      const read = await speakDocument([{ kind: 'text', text: '1984', rate: 1 }], voice, stream);
      assert.ok(!digits.audio.equals(read.audio), 'a words segment is not normalised again');
      // ... but it is held to the characters the voices read: espeak-ng would name ሀ for 2 s.
      const foreign = await speakDocument([{ kind: 'words', text: 'ሀ စ ሀ', rate: 1 }], voice, stream);
      assert.equal(foreign.end.bytes, 0);
    });
  });
  describe('a long first clause in an English (Flite) voice', () => {
    const stream: AudioTarget = { kind: 'stream', format: streamFormats.pcm16_16k };
    const long = 'Please hold for a moment while I check the schedule.';
    /** The texts of the jobs the pool is given, and the audio, for `text` as `options` ask. */
    const spoken = async (
      text: string,
      voice: Voice,
      options: { file?: boolean; dueAt?: number } = {},
    ): Promise<{ jobs: string[]; samples: Int16Array }> => {
      const { given, restore } = recordJobs(pool);
      try {
        const chunks: Uint8Array[] = [];
        const request = { ...plainSpeech(text, voice.language), voice, target: stream, ...options };
        for await (const event of synthesize(pool, request))
          if (event.type === 'audio') chunks.push(event.bytes);
        const jobs = given.map((job) => (job.input.kind === 'text' ? job.input.text : job.input.kind));
        return { jobs, samples: samplesOf(Buffer.concat(chunks)) };
      } finally {
        restore();
      }
    };
    /** The longest run of quiet samples between the first and last sound, in seconds. */
    const longestGap = (samples: Int16Array): number => {
      let last = -1;
      let longest = 0;
      samples.forEach((sample, i) => {
        if (Math.abs(sample) < 300) return;
        if (last >= 0) longest = Math.max(longest, i - last - 1);
        last = i;
      });
      return longest / 16_000;
    };
    const grace = findVoice('en', 0) as Voice;

    it('is spoken as its first phrase, then the rest, for a listener waiting now', async () => {
      const { jobs } = await spoken(long, grace);
      assert.deepEqual(jobs, ['Please hold for a moment', 'while I check the schedule.']);
    });

    it('stays whole when short, when cut at its first comma already, in a file, or due later', async () => {
      assert.deepEqual((await spoken('How can I help you today?', grace)).jobs, [
        'How can I help you today?',
      ]);
      assert.deepEqual((await spoken('Good morning, thank you for calling.', grace)).jobs, [
        'Good morning,',
        'thank you for calling.',
      ]);
      assert.deepEqual((await spoken(long, grace, { file: true })).jobs, [long]);
      assert.deepEqual((await spoken(long, grace, { dueAt: performance.now() + 5000 })).jobs, [long]);
      // No phrase start within its first six words: no cut inside a noun phrase.
      const fee = 'The consultation fee is five thousand Rwandan francs.';
      assert.deepEqual((await spoken(fee, grace)).jobs, [fee]);
    });

    it('stays whole in the other languages', async () => {
      const french = 'Patientez un instant pendant que je consulte le planning.';
      assert.equal((await spoken(french, findVoice('fr', 0) as Voice)).jobs.length, 1);
      const kinyarwanda = 'Mwihangane gato mu gihe ndimo kureba gahunda yawe uyu munsi.';
      assert.equal((await spoken(kinyarwanda, findVoice('rw', 0) as Voice)).jobs.length, 1);
    });

    it('plays on without the pause of a clause end at the join', async () => {
      const whole = await spoken(long, grace, { file: true });
      const cut = await spoken(long, grace);
      const seconds = (samples: Int16Array) => samples.length / 16_000;
      // The join is a short phrase break (Flite lengthens the phrase's last syllable a little).
      assert.ok(
        Math.abs(seconds(cut.samples) - seconds(whole.samples)) < 0.3,
        `${seconds(cut.samples).toFixed(2)} s cut against ${seconds(whole.samples).toFixed(2)} s whole`,
      );
      // A clause end would leave 0.2 s of Flite's silence and the next clause's lead-in.
      assert.ok(
        longestGap(cut.samples) < 0.15,
        `a ${longestGap(cut.samples).toFixed(3)} s silence at the join`,
      );
    });
  });
});
