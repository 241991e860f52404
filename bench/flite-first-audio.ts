import { mkdir, writeFile } from 'node:fs/promises';
import type { EngineInput, SpeechEngine } from '../src/speech/engines/engine.ts';
import { type FliteVoice, fliteEngine } from '../src/speech/engines/flite/flite.ts';
import { compileFlite, FliteRunner } from '../src/speech/engines/flite/wasi-runner.ts';
import { FIRST_PHRASE_MAX_WORDS } from '../src/speech/synthesize.ts';
import { defaultClauseOptions, splitClauses, splitFirstPhrase } from '../src/speech/text/clauses.ts';
import { frontEndFor } from '../src/speech/text/front-end.ts';
import { voicesOf } from '../src/speech/voices/voices.ts';
import { fixed, percentile, printTable, ratio } from './stats.ts';
import turns from './turns.json' with { type: 'json' };

// Where an English (Flite) clause's first audio waits, in process (no pool, no HTTP), and what
// speaking a long first clause as its first phrase saves. Times drift with the machine's load:
// compare the columns of one run, not runs.
//   node --import tsx bench/flite-first-audio.ts [reps]

const reps = Number(process.argv[2] ?? 9);
const english = frontEndFor('en');
const startsPhrase = english.startsPhrase;
if (!startsPhrase) throw new Error('English has no phrase starts');
const firstPhrase = { maxWords: FIRST_PHRASE_MAX_WORDS, startsPhrase };
const engine = await fliteEngine.load();
const runner = new FliteRunner(await compileFlite());
const ms = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e6;
const median = (values: readonly number[]) => percentile(values, 50);

/** The engine's first chunk to its sink (what the pool sends first) and its whole run, in ms. */
function engineRun(speaking: SpeechEngine, input: EngineInput, voice: FliteVoice) {
  const start = process.hrtime.bigint();
  let first = Number.NaN;
  speaking.synthesize(input, voice, 1, {
    push: () => {
      if (Number.isNaN(first)) first = ms(start);
    },
    cancelled: () => false,
  });
  return { first, whole: ms(start) };
}

/**
 * Flite's own stages for `slt` at its pace: the run at a hundredth of the duration (the text's
 * analysis, with next to no parameters or audio to make), and the first samples its vocoder
 * streams (analysis and the whole clause's parameter generation, then 20 ms of audio).
 */
function stages(text: string) {
  const run = (stretch: string) => ['-voice', 'slt', '--setf', `duration_stretch=${stretch}`, '-t', text];
  let start = process.hrtime.bigint();
  runner.stream(run('0.01'), () => true);
  const analysis = ms(start);
  start = process.hrtime.bigint();
  let vocoder = Number.NaN;
  runner.stream(run('1'), () => {
    vocoder = ms(start);
    return false;
  });
  return { analysis, vocoder };
}

const grace = voicesOf('en')[0]?.engineVoice as FliteVoice;
for (let i = 0; i < 3; i++) engineRun(engine, { kind: 'text', text: 'Warming up.' }, grace);

const clauses = turns.en.map((turn) => {
  const normalized = english.normalize(turn);
  const [whole = ''] = splitClauses(normalized);
  const { chunks, phraseCut } = splitFirstPhrase(normalized, { ...defaultClauseOptions, firstPhrase });
  return { whole, phrase: phraseCut ? chunks[0] : undefined };
});

// Where the first audio's time goes, in Grace's voice.
const where = clauses.map(({ whole }) => {
  const runs = Array.from({ length: reps }, () => ({
    ...stages(whole),
    ...engineRun(engine, { kind: 'text', text: whole }, grace),
  }));
  const m = (key: keyof (typeof runs)[number]) => median(runs.map((run) => run[key]));
  return {
    clause: whole,
    words: whole.split(' ').length,
    analysisMs: m('analysis'),
    firstSamplesMs: m('vocoder'),
    firstAudioMs: m('first'),
    wholeMs: m('whole'),
  };
});
console.log(`\nWhere a first clause's first audio waits (Grace, median of ${reps}, ms)\n`);
printTable(
  ['words', 'analysis', 'params+20ms', 'first audio', 'whole run', 'first/whole', 'clause'],
  where.map((row) => [
    String(row.words),
    fixed(row.analysisMs),
    fixed(row.firstSamplesMs),
    fixed(row.firstAudioMs),
    fixed(row.wholeMs),
    ratio(row.firstAudioMs, row.wholeMs),
    row.clause.slice(0, 40),
  ]),
);

// The first phrase against the whole first clause, side by side, in every English voice.
const cut = clauses.filter((c): c is { whole: string; phrase: string } => c.phrase !== undefined);
const voices = voicesOf('en').map((voice) => {
  let whole = 0;
  let phrase = 0;
  for (const clause of cut) {
    const runs = Array.from({ length: reps }, () => [
      engineRun(engine, { kind: 'text', text: clause.whole }, voice.engineVoice as FliteVoice).first,
      engineRun(engine, { kind: 'text', text: clause.phrase, goesOn: true }, voice.engineVoice as FliteVoice)
        .first,
    ]);
    whole += median(runs.map(([w]) => w ?? Number.NaN));
    phrase += median(runs.map(([, p]) => p ?? Number.NaN));
  }
  return { voice: voice.name, wholeMs: whole / cut.length, phraseMs: phrase / cut.length };
});
console.log(`\nFirst audio of the ${cut.length} of ${clauses.length} turns cut, mean of medians (ms)\n`);
printTable(
  ['voice', 'whole clause', 'first phrase', 'phrase/whole'],
  voices.map((v) => [v.voice, fixed(v.wholeMs), fixed(v.phraseMs), ratio(v.phraseMs, v.wholeMs)]),
);

await mkdir('bench/results', { recursive: true });
await writeFile(
  'bench/results/flite-first-audio.json',
  `${JSON.stringify({ reps, where, cut: cut.map((c) => c.phrase), voices }, null, 2)}\n`,
);
