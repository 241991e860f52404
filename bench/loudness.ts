import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { calibrate, LOUDNESS_TARGET_LUFS, voiceLoudness } from '../src/speech/loudness/calibration.ts';
import { EnginePool } from '../src/speech/pool/engine-pool.ts';
import { builtInVoices, type Voice } from '../src/speech/voices/voices.ts';
import { levelCosts, printLevelCosts } from './level-cost.ts';

// `npm run bench:loudness`: each built-in voice's integrated loudness (BS.1770, the service's own
// meter) as its engine makes it, the gain that brings it to the target (the value for its
// `gainDb` in src/speech/voices/voices.ts), and its loudness at the catalogue's gain, on the calibration
// sentences and on the bench's other turns of its language. Then what the level stage costs beside
// each voice's engine (`./level-cost.ts`). Writes bench/results/loudness.json. With `-- --cost`,
// the cost alone (a few seconds a voice), printed and not written.

interface Turns {
  readonly rw: readonly string[];
  readonly en: readonly string[];
  readonly fr: readonly string[];
}

const turns = JSON.parse(await readFile(new URL('./turns.json', import.meta.url), 'utf8')) as Turns;
/** The turns the calibration does not use (it takes the first fifteen). */
const heldOut = (voice: Voice) => turns[voice.language].slice(15);
const round = (value: number) => Math.round(value * 10) / 10;

const { values } = parseArgs({ options: { cost: { type: 'boolean', default: false } } });
/** The turns the level stage's cost is measured on: ten a voice, about half a minute of audio. */
const costTurns = (voice: Voice) => turns[voice.language].slice(0, 10);
if (values.cost) {
  printLevelCosts(await levelCosts(builtInVoices, costTurns));
  process.exit(0);
}

const pool = await EnginePool.start({ size: 2, warmUp: { samples: [], outputs: [] } });
const results = [];
try {
  for (const voice of builtInVoices) {
    const calibration = await calibrate(pool, voice);
    if (!calibration) throw new Error(`${voice.name} made no audio to measure`);
    const gainDb = voice.gainDb ?? 0;
    results.push({
      voice: `${voice.language} ${voice.speakerId} ${voice.name}`,
      engineLufs: round(calibration.measuredLufs),
      calibratedGainDb: calibration.gainDb,
      catalogueGainDb: gainDb,
      lufs: round(await voiceLoudness(pool, voice, gainDb)),
      heldOutLufs: round(await voiceLoudness(pool, voice, gainDb, heldOut(voice))),
    });
  }
} finally {
  await pool.close();
}

const spread = (values: readonly number[]) => round(Math.max(...values) - Math.min(...values));
console.log(
  `loudness per voice, target ${LOUDNESS_TARGET_LUFS} LUFS (BS.1770 integrated, over each sentence set)`,
);
console.table(
  results.map((r) => ({
    voice: r.voice,
    'engine LUFS': r.engineLufs,
    'gain to target dB': r.calibratedGainDb,
    'catalogue gain dB': r.catalogueGainDb,
    'LUFS at it': r.lufs,
    'held-out LUFS': r.heldOutLufs,
  })),
);
const summary = {
  engineSpreadLu: spread(results.map((r) => r.engineLufs)),
  spreadLu: spread(results.map((r) => r.lufs)),
  heldOutSpreadLu: spread(results.map((r) => r.heldOutLufs)),
};
console.log(
  `spread: ${summary.engineSpreadLu} LU as the engines make them, ${summary.spreadLu} LU calibrated ` +
    `(${summary.heldOutSpreadLu} LU on the held-out turns)`,
);
const costs = await levelCosts(builtInVoices, costTurns);
printLevelCosts(costs);
await mkdir(new URL('./results/', import.meta.url), { recursive: true });
await writeFile(
  new URL('./results/loudness.json', import.meta.url),
  `${JSON.stringify({ targetLufs: LOUDNESS_TARGET_LUFS, results, ...summary, costs }, null, 2)}\n`,
);
const stale = results.filter((r) => Math.abs(r.calibratedGainDb - r.catalogueGainDb) > 0.3);
if (stale.length > 0) {
  console.error(
    `catalogue gains to update: ${stale.map((r) => `${r.voice} ${r.calibratedGainDb} dB`).join(', ')}`,
  );
  process.exitCode = 1;
}
