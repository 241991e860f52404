import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { streamFormats } from '../src/speech/audio/formats.ts';
import { encodeWav } from '../src/speech/audio/wav.ts';
import type { EspeakVariant } from '../src/speech/engines/espeak-ng.ts';
import { EnginePool } from '../src/speech/pool/engine-pool.ts';
import { plainSpeech, synthesize } from '../src/speech/synthesize.ts';
import { frontEndFor } from '../src/speech/text/front-end.ts';
import { brighter, deeper, type Voice, voicesOf } from '../src/speech/voices/voices.ts';
import { ablations, type BenchVoice, baseSpeakerOf, featureNames } from './accent-ablation.ts';
import { wordErrors } from './word-errors.ts';

// `npm run bench:quality`: how intelligible each English voice is. Every sentence of
// quality-sentences.json is spoken by each voice, transcribed by pocketsphinx (Debian's en-us
// model) and scored by word error rate against the sentence as Ijwi's English normalisation
// spells it out. Debian's own `flite` voices and the English voices as they were on espeak-ng
// speak the same words, as references. Not part of `npm test`: it needs Debian packages (see
// README.md) and a few minutes. `--voices 3,4` speaks only those English voices (by speaker_id);
// `--ablation` adds each African English voice with each accent rule or voice setting switched
// (accent-ablation.ts), and the US voice of the same speaker, to compare with. `--file FILE`
// speaks the sentences of FILE (a JSON list) instead, such as quality-held-out-sentences.json:
// 42 other receptionist sentences, a check that what the voices were chosen by holds beyond
// the bench's own words.

const run = promisify(execFile);
const { values } = parseArgs({
  options: {
    sentences: { type: 'string' },
    file: { type: 'string' },
    only: { type: 'string' },
    voices: { type: 'string' },
    ablation: { type: 'boolean', default: false },
    cache: { type: 'string' },
    out: { type: 'string' },
  },
});
/** A run of some voices only, or with the ablation, keeps the whole run's file as it is. */
const partial =
  values.voices !== undefined || values.ablation || values.only !== undefined || values.file !== undefined;
const out = values.out ?? (partial ? 'bench/results/quality-partial.json' : 'bench/results/quality.json');
const SAMPLE_RATE = 16_000;
const all: string[] = JSON.parse(
  readFileSync(values.file ?? new URL('quality-sentences.json', import.meta.url), 'utf8'),
);
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

/**
 * Transcripts by the SHA-256 of the WAV: speech is deterministic, and so is the recogniser, so a
 * sentence that a voice of the ablation says as another voice does is transcribed once (most
 * rules touch a few sentences only). `--cache FILE` keeps them between runs.
 */
const transcripts = new Map<string, Promise<string>>(
  values.cache !== undefined && existsSync(values.cache)
    ? Object.entries(JSON.parse(readFileSync(values.cache, 'utf8')) as Record<string, string>).map(
        ([hash, text]) => [hash, Promise.resolve(text)],
      )
    : [],
);

async function transcribe(path: string): Promise<string> {
  const hash = createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
  let transcript = transcripts.get(hash);
  if (transcript === undefined) {
    transcript = run('pocketsphinx_continuous', ['-infile', path, '-logfn', '/dev/null'], {
      maxBuffer: 1 << 20,
    }).then(({ stdout }) => stdout.trim());
    transcripts.set(hash, transcript);
    const cache = values.cache;
    if (cache !== undefined) saving = saving.then(() => transcript).then(() => saveTranscripts(cache));
  }
  return transcript;
}

/** The cache file's writes, one after another. */
let saving: Promise<unknown> = Promise.resolve();

/** Writes every transcript so far to `file`, so that a run cut short keeps what it heard. */
async function saveTranscripts(file: string): Promise<void> {
  const entries = await Promise.all([...transcripts].map(async ([hash, text]) => [hash, await text]));
  await writeFile(file, JSON.stringify(Object.fromEntries(entries)));
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
    const input = { kind: 'text', text } as const;
    const ours = (await pool.phonemes(input, voice.engineVoice)).split(' ');
    const theirs = (await pool.phonemes(input, us.engineVoice)).split(' ');
    if (ours.length !== theirs.length)
      throw new Error(`${voice.name} and ${us.name} split "${text}" differently`);
    words += ours.length;
    differ += ours.filter((word, i) => word !== theirs[i]).length;
  }
  return { words, differ };
}

const percent = (part: number, whole: number): number => Math.round((100 * part) / whole);

/**
 * The ablation's table: for each feature switched, each accented voice's word error rate,
 * its ratio to the same speaker's US voice in this run, and the words it still says otherwise
 * than the US voice.
 */
function printAblation(
  results: readonly Scored[],
  accents: readonly { voice: string; words: number; differ: number }[],
): void {
  const werOf = (voice: Voice) => results.find((r) => r.voice === labelOf({ voice, of: voice }))?.wer;
  const accented = ijwiVoices.filter(
    ({ voice, switched }) => switched === undefined && voice.group === 'african-english',
  );
  const head = accented.flatMap(({ voice }) => {
    const base = baseSpeakerOf(voice, voicesOf('en'));
    return [`${voice.name} WER`, `x ${base?.name ?? '?'}`, `${voice.name} said otherwise`];
  });
  console.log(`\n| switched (on or off) | ${head.join(' | ')} |`);
  console.log(`|---|${head.map(() => '---').join('|')}|`);
  const rows = [undefined, ...Object.keys(featureNames)] as (keyof typeof featureNames | undefined)[];
  for (const feature of rows) {
    const cells = accented.flatMap(({ voice }) => {
      const bench = ijwiVoices.find((b) => b.of === voice && b.switched?.feature === feature);
      if (bench === undefined) return ['', '', ''];
      const wer = results.find((r) => r.voice === labelOf(bench))?.wer;
      const base = baseSpeakerOf(voice, voicesOf('en'));
      const baseWer = base === undefined ? undefined : werOf(base);
      const accent = accents.find((a) => a.voice === bench.voice.name);
      const how = bench.switched === undefined ? '' : `${bench.switched.on ? 'on' : 'off'}: `;
      return [
        wer === undefined ? '' : `${how}${wer} %`,
        wer === undefined || baseWer === undefined ? '' : `${(wer / baseWer).toFixed(2)}`,
        accent === undefined ? '' : `${accent.differ} (${percent(accent.differ, accent.words)} %)`,
      ];
    });
    if (cells.every((cell) => cell === '')) continue;
    console.log(`| ${feature === undefined ? 'nothing' : featureNames[feature]} | ${cells.join(' | ')} |`);
  }
}

await run('pocketsphinx_continuous', ['-h']).catch((error: Error & { code?: string }) => {
  if (error.code === 'ENOENT') {
    console.error('pocketsphinx_continuous is missing: see bench/README.md, "Intelligibility"');
    process.exit(2);
  }
});
const pool = await EnginePool.start({ size: 2, warmUp: { samples: [], outputs: [] } });
const work = await mkdtemp(join(tmpdir(), 'ijwi-quality-'));
/** The catalogue's English voices this run speaks, and the voices built from them. */
function benchVoices(): BenchVoice[] {
  const english = voicesOf('en');
  const ids = values.voices?.split(',').map(Number);
  const chosen = english.filter((voice) => ids === undefined || ids.includes(voice.speakerId));
  if (!values.ablation) return chosen.map((voice) => ({ voice, of: voice }));
  const bases = chosen.flatMap((voice) => {
    const base = voice.engineVoice.engine === 'flite' ? baseSpeakerOf(voice, english) : undefined;
    return base === undefined || base === voice ? [] : [base];
  });
  const catalogue = english.filter((voice) => chosen.includes(voice) || bases.includes(voice));
  return [
    ...catalogue.map((voice) => ({ voice, of: voice })),
    ...chosen.flatMap((voice) => ablations(voice)),
  ];
}
const ijwiVoices = benchVoices();
const labelOf = ({ voice, switched }: BenchVoice) =>
  switched === undefined ? `${voice.name} (${voice.speakerId}, ${voice.group})` : voice.name;
const speakers: Speaker[] = [
  ...ijwiVoices.map((bench) => ijwiSpeaker(pool, bench.voice, labelOf(bench))),
  ...(values.voices === undefined && !values.ablation
    ? [
        ...oldEspeakVoices.map((voice) => ijwiSpeaker(pool, voice, voice.name)),
        ...debianFliteVoices.map(debianSpeaker),
      ]
    : []),
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
  for (const bench of ijwiVoices.filter(({ of }) => of.group === 'african-english')) {
    const { words, differ } = await accentedWords(pool, bench.voice);
    accents.push({ voice: bench.voice.name, words, differ });
    if (bench.switched === undefined)
      console.log(
        `\n${bench.voice.name}: ${differ} of ${words} words (${percent(differ, words)} %) said otherwise than by the US voices`,
      );
  }
  if (values.ablation) printAblation(results, accents);
  const report = { sentences: sentences.length, results, accents };
  await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
  await saving;
} finally {
  await pool.close();
  await rm(work, { recursive: true, force: true });
}
