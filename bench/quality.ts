import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { streamFormats } from '../src/speech/audio/formats.ts';
import { encodeWav } from '../src/speech/audio/wav.ts';
import type { EspeakVariant } from '../src/speech/engines/espeak-ng.ts';
import { EnginePool } from '../src/speech/pool.ts';
import { plainSpeech, synthesize } from '../src/speech/synthesize.ts';
import { frontEndFor } from '../src/speech/text/front-end.ts';
import { brighter, deeper, type Voice, voicesOf } from '../src/speech/voices.ts';
import { wordErrors } from './word-errors.ts';

// `npm run bench:quality`: how intelligible each English voice is. Every sentence of
// quality-sentences.json is spoken by each voice, transcribed by pocketsphinx (Debian's en-us
// model) and scored by word error rate against the sentence as Ijwi's English normalisation
// spells it out. Debian's own `flite` voices and the English voices as they were on espeak-ng
// speak the same words, as references. Not part of `npm test`: it needs Debian packages (see
// README.md) and a few minutes.

const run = promisify(execFile);
const { values } = parseArgs({
  options: {
    sentences: { type: 'string' },
    only: { type: 'string' },
    out: { type: 'string', default: 'bench/results/quality.json' },
  },
});
const SAMPLE_RATE = 16_000;
const all: string[] = JSON.parse(readFileSync(new URL('quality-sentences.json', import.meta.url), 'utf8'));
const sentences = values.sentences === undefined ? all : all.slice(0, Number(values.sentences));
const english = frontEndFor('en');

/** The words pocketsphinx is expected to hear: lower case, letters and apostrophes only. */
const wordsOf = (text: string): string[] =>
  text
    .toLowerCase()
    .replace(/[^a-z' ]+/g, ' ')
    .split(' ')
    .filter((word) => word !== '' && word !== "'");

/** The English voices as they were on espeak-ng (their settings when they moved to Flite). */
function oldEspeakVoice(
  speakerId: number,
  name: string,
  language: string,
  rate: number,
  variant: EspeakVariant,
): Voice {
  return {
    language: 'en',
    speakerId,
    name: `${name} (old, espeak-ng ${language})`,
    gender: variant.gender,
    group: language === 'en-us' ? 'us-english' : 'african-english',
    sampleRate: 22_050,
    engineVoice: { engine: 'espeak-ng', language, rate, variant },
  };
}
const oldEspeakVoices = [
  oldEspeakVoice(0, 'Grace', 'en-us', 165, { id: 'q-en-0', gender: 'female', pitch: [160, 240] }),
  oldEspeakVoice(1, 'James', 'en-us', 165, {
    id: 'q-en-1',
    gender: 'male',
    pitch: [85, 130],
    formants: deeper,
  }),
  oldEspeakVoice(2, 'Olivia', 'en-us', 178, {
    id: 'q-en-2',
    gender: 'female',
    pitch: [195, 290],
    formants: brighter,
  }),
  oldEspeakVoice(3, 'Amani', 'en-029', 150, { id: 'q-en-3', gender: 'female', pitch: [175, 255] }),
  oldEspeakVoice(4, 'Baraka', 'en-029', 148, {
    id: 'q-en-4',
    gender: 'male',
    pitch: [95, 145],
    formants: deeper,
    voicing: 110,
  }),
];
/** Debian's `flite` voices at 16 kHz (the rate pocketsphinx's model listens at). */
const debianFliteVoices = ['slt', 'rms', 'awb', 'kal16'];

interface Speaker {
  readonly label: string;
  readonly engine: string;
  /** Writes the WAV of `text` (16 kHz mono) to `path`. */
  readonly speak: (text: string, path: string) => Promise<void>;
}

function ijwiSpeaker(pool: EnginePool, voice: Voice, label: string): Speaker {
  return {
    label,
    engine: voice.engineVoice.engine,
    async speak(text, path) {
      const parts: Uint8Array[] = [];
      const target = { kind: 'stream', format: streamFormats.pcm16_16k } as const;
      for await (const event of synthesize(pool, { ...plainSpeech(text, 'en'), voice, target }))
        if (event.type === 'audio') parts.push(event.bytes);
      const bytes = Buffer.concat(parts);
      const samples = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2);
      await writeFile(path, encodeWav(samples, SAMPLE_RATE));
    },
  };
}

function debianSpeaker(voice: string): Speaker {
  return {
    label: `Debian flite ${voice}`,
    engine: 'flite (Debian, native)',
    async speak(text, path) {
      await run('flite', ['-voice', voice, '-t', english.normalize(text), '-o', path]);
    },
  };
}

async function transcribe(path: string): Promise<string> {
  const { stdout } = await run('pocketsphinx_continuous', ['-infile', path, '-logfn', '/dev/null'], {
    maxBuffer: 1 << 20,
  });
  return stdout.trim();
}

interface Scored {
  readonly voice: string;
  readonly engine: string;
  readonly words: number;
  readonly errors: number;
  readonly wer: number;
  readonly worst: { readonly sentence: string; readonly heard: string };
}

async function score(speaker: Speaker, dir: string): Promise<Scored> {
  let words = 0;
  let errors = 0;
  let worst = { sentence: '', heard: '', rate: -1 };
  for (const [i, sentence] of sentences.entries()) {
    const path = join(dir, `${i}.wav`);
    await speaker.speak(sentence, path);
    const heard = await transcribe(path);
    const expected = wordsOf(english.normalize(sentence));
    const wrong = wordErrors(expected, wordsOf(heard));
    words += expected.length;
    errors += wrong;
    if (wrong / expected.length > worst.rate) worst = { sentence, heard, rate: wrong / expected.length };
  }
  const wer = Math.round((1000 * errors) / words) / 10;
  return { voice: speaker.label, engine: speaker.engine, words, errors, wer, worst };
}

/** How many words of the sentences `voice` says otherwise than Grace, a US voice, does. */
async function accentedWords(pool: EnginePool, voice: Voice): Promise<{ words: number; differ: number }> {
  const us = voicesOf('en')[0] as Voice;
  let words = 0;
  let differ = 0;
  for (const sentence of sentences) {
    const text = english.normalize(sentence);
    const ours = (await pool.phonemes(text, voice.engineVoice)).split(' ');
    const theirs = (await pool.phonemes(text, us.engineVoice)).split(' ');
    if (ours.length !== theirs.length)
      throw new Error(`${voice.name} and ${us.name} split "${text}" differently`);
    words += ours.length;
    differ += ours.filter((word, i) => word !== theirs[i]).length;
  }
  return { words, differ };
}

await run('pocketsphinx_continuous', ['-h']).catch((error: Error & { code?: string }) => {
  if (error.code === 'ENOENT') {
    console.error('pocketsphinx_continuous is missing: see bench/README.md, "Intelligibility"');
    process.exit(2);
  }
});
const pool = await EnginePool.start({ size: 2, warmUp: { samples: [], outputs: [] } });
const work = await mkdtemp(join(tmpdir(), 'ijwi-quality-'));
const speakers: Speaker[] = [
  ...voicesOf('en').map((voice) =>
    ijwiSpeaker(pool, voice, `${voice.name} (${voice.speakerId}, ${voice.group})`),
  ),
  ...oldEspeakVoices.map((voice) => ijwiSpeaker(pool, voice, voice.name)),
  ...debianFliteVoices.map(debianSpeaker),
].filter((speaker) => values.only === undefined || new RegExp(values.only, 'i').test(speaker.label));
try {
  // Two voices at a time, one per core, each in its own folder.
  const results: Scored[] = [];
  const queue = [...speakers.entries()];
  await Promise.all(
    [0, 1].map(async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [i, speaker] = next;
        const dir = join(work, String(i));
        await mkdir(dir);
        const scored = await score(speaker, dir);
        results[i] = scored;
        console.error(`${scored.voice}: ${scored.wer} %`);
      }
    }),
  );
  console.log(
    `\n${sentences.length} sentences, ${results[0]?.words} words; word error rate (lower is better)\n`,
  );
  console.log('| voice | engine | WER |');
  console.log('|---|---|---|');
  for (const r of results) console.log(`| ${r.voice} | ${r.engine} | ${r.wer} % |`);
  const accents = [];
  for (const voice of voicesOf('en').filter((v) => v.group === 'african-english')) {
    const { words, differ } = await accentedWords(pool, voice);
    accents.push({ voice: voice.name, words, differ });
    console.log(
      `\n${voice.name}: ${differ} of ${words} words (${Math.round((100 * differ) / words)} %) said otherwise than by the US voices`,
    );
  }
  const report = { sentences: sentences.length, results, accents };
  await writeFile(values.out, `${JSON.stringify(report, null, 2)}\n`);
} finally {
  await pool.close();
  await rm(work, { recursive: true, force: true });
}
