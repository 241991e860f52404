import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadCheckoutSpeech } from './engine-cpu.ts';
import { loadTurns, type Turn } from './turns.ts';

// Whether two checkouts' English (Flite) voices make the same samples: every English turn of
// `turns.json` in each of the five English voices, clause by clause, in this one process.
// Prints how many clauses differ in length, how many samples differ and by how much at most,
// and the difference's level against the first checkout's samples (dB; the worst clause's and
// the median clause's), for a patch that claims the same bits or a small change:
//   node --import tsx bench/english-samples.ts DIR DIR

const ENGLISH_VOICES = 5;
const [firstDir, secondDir] = process.argv.slice(2);
if (!firstDir || !secondDir) throw new Error('usage: english-samples.ts DIR DIR');

const turns = await loadTurns();
const lines: Turn[] = [];
for (let speakerId = 0; speakerId < ENGLISH_VOICES; speakerId++) {
  for (const text of turns.en) lines.push({ language: 'en', text, speakerId });
}

/** Each clause's samples, in the order of `lines`. */
async function clausesOf(dir: string): Promise<Int16Array[]> {
  const speech = await loadCheckoutSpeech(pathToFileURL(`${resolve(dir)}/`), lines);
  const clauses: Int16Array[] = [];
  for (const { engine, voice, inputs } of speech.lines) {
    for (const input of inputs) {
      const chunks: Int16Array[] = [];
      await engine.synthesize(input, voice.engineVoice, 1, {
        push: (chunk: Int16Array) => chunks.push(chunk.slice()),
        cancelled: () => false,
      });
      const clause = new Int16Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
      let at = 0;
      for (const chunk of chunks) {
        clause.set(chunk, at);
        at += chunk.length;
      }
      clauses.push(clause);
    }
  }
  return clauses;
}

const first = await clausesOf(firstDir);
const second = await clausesOf(secondDir);
if (first.length !== second.length) throw new Error(`${first.length} clauses against ${second.length}`);
let lengthsDiffer = 0;
let samples = 0;
let differ = 0;
let largest = 0;
let signal = 0;
let noise = 0;
const levels: number[] = [];
first.forEach((a, clause) => {
  const b = second[clause] as Int16Array;
  if (a.length !== b.length) lengthsDiffer++;
  let clauseSignal = 0;
  let clauseNoise = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as number;
    const d = x - (b[i] as number);
    clauseSignal += x * x;
    clauseNoise += d * d;
    if (d !== 0) differ++;
    largest = Math.max(largest, Math.abs(d));
  }
  samples += a.length;
  signal += clauseSignal;
  noise += clauseNoise;
  if (clauseNoise > 0) levels.push(10 * Math.log10(clauseSignal / clauseNoise));
});
levels.sort((x, y) => x - y);
const db = (value: number | undefined) => (value === undefined ? 'the same' : `${value.toFixed(1)} dB`);
console.log(
  `${first.length} clauses, ${samples} samples: ${lengthsDiffer} clauses of another length; ` +
    `${differ} samples differ (${((100 * differ) / samples).toFixed(2)} %), by ${largest} at most; ` +
    `signal to difference ${noise === 0 ? 'the same' : db(10 * Math.log10(signal / noise))}, ` +
    `worst clause ${db(levels[0])}, median clause ${db(levels[levels.length >> 1])}`,
);
