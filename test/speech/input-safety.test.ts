import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { audioBoundSeconds, MAX_SECONDS_PER_CHARACTER } from '../../src/speech/audio-bound.ts';
import { plainDocument } from '../../src/speech/input/document.ts';
import { readInputText } from '../../src/speech/input/input-text.ts';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import { AudioBoundExceeded, plainSpeech, synthesize } from '../../src/speech/synthesize.ts';
import { builtInVoices, type Voice } from '../../src/speech/voices/voices.ts';
import { codePointCount } from '../../src/unicode.ts';
import { hostileTexts, worstCaseShapes } from '../helpers/hostile-text.ts';
import { startTestPool } from '../helpers/tts-fixture.ts';

// The spec's "Input text" rules at the pipeline: text is data whatever it holds, no request
// changes another's audio, and no input makes more audio than its documented bound.

/** A fixed request per voice, spoken before and after everything else on the same worker. */
const REFERENCE = {
  rw: 'Muraho neza, murakaza neza.',
  en: 'Hello, thank you for calling.',
  fr: 'Bonjour, merci de votre appel.',
} as const;

/** The same texts every run, so CI is repeatable; FUZZ_SEED=<n> tries others (any failure names its seed). */
const seed = Number(process.env.FUZZ_SEED ?? 20261123);

async function speak(pool: EnginePool, text: string, voice: Voice, maxSeconds?: number) {
  const parts: Uint8Array[] = [];
  let seconds = 0;
  const speech = plainSpeech(text, voice.language);
  for await (const event of synthesize(pool, {
    ...speech,
    ...(maxSeconds === undefined ? {} : { maxSeconds }),
    voice,
    target: { kind: 'native' },
  })) {
    if (event.type === 'audio') parts.push(event.bytes);
    else if (event.type === 'end') seconds = event.seconds;
  }
  return { audio: Buffer.concat(parts), seconds };
}

describe('input safety', () => {
  // One worker, so every request runs on the engine instance the one before it used.
  let pool: EnginePool;
  const reference = new Map<Voice, Buffer>();
  const assertReferencesUnchanged = async (after: string) => {
    for (const voice of builtInVoices) {
      const { audio } = await speak(pool, REFERENCE[voice.language], voice);
      assert.ok(
        audio.equals(reference.get(voice) ?? Buffer.alloc(0)),
        `${voice.language} ${voice.speakerId} changed after ${JSON.stringify(after)} (FUZZ_SEED=${seed})`,
      );
    }
  };

  before(async () => {
    pool = await startTestPool(1);
    for (const voice of builtInVoices)
      reference.set(voice, (await speak(pool, REFERENCE[voice.language], voice)).audio);
  });
  after(() => pool.close());

  it('speaks fuzzed text in every voice without a crash, within the bound, changing no later request', async () => {
    for (const [i, text] of hostileTexts(seed, 120).entries()) {
      const voice = builtInVoices[i % builtInVoices.length] as Voice;
      const read = readInputText(text, 'text', voice);
      if (!read.ok) {
        // Only control characters and lone surrogates are refused, at the position given.
        assert.equal(read.code, 'invalid_input');
        const code = [...text][read.position]?.codePointAt(0) ?? -1;
        const control = (code < 0x20 && ![0x09, 0x0a, 0x0d].includes(code)) || (code >= 0x7f && code <= 0x9f);
        const loneSurrogate = code >= 0xd800 && code <= 0xdfff;
        assert.ok(
          control || loneSurrogate,
          `U+${code.toString(16)} at ${read.position} of ${JSON.stringify(text)}`,
        );
        continue;
      }
      const bound = audioBoundSeconds(voice.language, codePointCount(text.trim()), 'text');
      // The bound enforced is the documented one: a text over it would throw AudioBoundExceeded.
      const { seconds } = await speak(pool, text, voice);
      assert.ok(
        seconds <= bound,
        `${seconds} s > ${bound} s for ${JSON.stringify(text)} (FUZZ_SEED=${seed})`,
      );
      await assertReferencesUnchanged(text);
    }
  });

  it('keeps the worst inputs known under the documented seconds per character, in every voice', async () => {
    for (const voice of builtInVoices) {
      for (const [shape, text] of Object.entries(worstCaseShapes)) {
        // Three of the shape, and its first word alone.
        for (const sample of [text.split(' ').slice(0, 3).join(' '), text.split(' ')[0] ?? '']) {
          const { seconds } = await speak(pool, sample, voice);
          const perCharacter = seconds / codePointCount(sample);
          assert.ok(
            perCharacter <= MAX_SECONDS_PER_CHARACTER[voice.language],
            `${voice.language} ${voice.speakerId}, ${shape}: ${perCharacter.toFixed(3)} s per character`,
          );
        }
      }
    }
  });

  it('reads engine markup in English and French as text: no pause, voice or rate is obeyed', async () => {
    for (const voice of builtInVoices.filter((v) => v.language !== 'rw')) {
      const plain = await speak(pool, 'Hello there.', voice);
      const paused = await speak(pool, '<break time="3600s"/> Hello there.', voice);
      // Read aloud, the markup adds a few words, never the hour it asks for.
      assert.ok(paused.seconds < plain.seconds + 5, `${voice.name}: ${paused.seconds} s`);
      const slowed = await speak(pool, '<prosody rate="x-slow">Hello there.</prosody>', voice);
      assert.ok(slowed.seconds < plain.seconds + 6, `${voice.name}: ${slowed.seconds} s`);
    }
    await assertReferencesUnchanged('markup');
  });

  it('never lets phoneme notation in text reach the engine as phonemes', async () => {
    for (const [language, notation] of [
      ['fr', "[[bOZu'r]]"],
      ['en', 'pau hh ax0 l ow1 pau'],
    ] as const) {
      const voice = builtInVoices.find((v) => v.language === language) as Voice;
      const asText = await speak(pool, notation, voice);
      const asPhonemes = pool.synthesize({
        input: { kind: 'phonemes', phonemes: notation },
        voice: voice.engineVoice,
        output: { sampleRate: voice.sampleRate, encoding: 'pcm_s16le' },
      });
      const parts: Uint8Array[] = [];
      for await (const bytes of asPhonemes) parts.push(bytes);
      assert.ok(parts.length > 0, `${language}: the notation is valid phoneme input`);
      assert.ok(!asText.audio.equals(Buffer.concat(parts)), `${language}: text is not spoken as phonemes`);
    }
  });

  it('refuses phoneme input outside the notation Ijwi writes, before the engine reads it', async () => {
    const voice = builtInVoices.find((v) => v.language === 'rw') as Voice;
    for (const phonemes of ['[[a]]<break time="9s"/>', '[[_^_EN hello]]', '[[a]] &amp;', '[[a]]\u0001']) {
      const job = pool.synthesize({
        input: { kind: 'phonemes', phonemes },
        voice: voice.engineVoice,
        output: { sampleRate: voice.sampleRate, encoding: 'pcm_s16le' },
      });
      await assert.rejects(async () => {
        for await (const _ of job) {
          // nothing may be spoken
        }
      }, /phoneme input/);
    }
    await assertReferencesUnchanged('refused phonemes');
  });

  it('keeps hostile SSML within the SSML bound: slowed numbers, spelled foreign letters, full breaks', async () => {
    const shapes = ['numbers, 12 digits', 'numbers, 7 digits', 'lone letters with names', 'digit string'];
    const documents = [
      ...shapes.map((shape) => {
        const words = (worstCaseShapes[shape] ?? '').split(' ').slice(0, 3).join(' ');
        return `<speak><prosody rate="x-slow">${words}</prosody></speak>`;
      }),
      `<speak><prosody rate="50%"><say-as interpret-as="cardinal">777777777777</say-as></prosody></speak>`,
      // Letters the voices cannot read, spelled: skipped, never read out by their names.
      `<speak><say-as interpret-as="characters">${'ሀစ'.repeat(250)}W</say-as></speak>`,
      '<speak>a<break time="5s"/>b<break time="5s"/></speak>',
    ];
    // The slowest voice of each language.
    for (const voice of builtInVoices.filter((v) =>
      ['rw 2', 'en 4', 'fr 2'].includes(`${v.language} ${v.speakerId}`),
    )) {
      for (const document of documents) {
        const read = readInputText(document, 'ssml', voice);
        assert.ok(read.ok, document);
        const maxSeconds = audioBoundSeconds(voice.language, codePointCount(document), 'ssml');
        let seconds = 0;
        for await (const event of synthesize(pool, {
          document: read.document,
          maxSeconds,
          voice,
          target: { kind: 'native' },
        }))
          if (event.type === 'end') seconds = event.seconds;
        assert.ok(
          seconds <= maxSeconds,
          `${voice.name}: ${seconds} s > ${maxSeconds} s for ${document.slice(0, 60)}`,
        );
      }
    }
    await assertReferencesUnchanged('hostile SSML');
  });

  it('stops a request at its audio bound, before any audio beyond it is yielded', async () => {
    const voice = builtInVoices.find((v) => v.language === 'fr') as Voice;
    const text = 'Une phrase assez longue pour durer plusieurs secondes. '.repeat(4);
    let yielded = 0;
    await assert.rejects(async () => {
      for await (const event of synthesize(pool, {
        document: plainDocument(text),
        // Longer than a worker's largest message (2 s), so that audio before the bound comes out.
        maxSeconds: 3,
        voice,
        target: { kind: 'native' },
      })) {
        if (event.type === 'audio') yielded += event.bytes.byteLength;
      }
    }, AudioBoundExceeded);
    assert.ok(
      yielded > 0 && yielded <= voice.sampleRate * 2 * 3,
      `${yielded} bytes yielded under a 3 s bound`,
    );
  });
});
