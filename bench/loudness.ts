import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createLevelStage } from '../src/speech/audio/level.ts';
import { littleEndianBytesToInt16 } from '../src/speech/audio/pcm.ts';
import { ResamplerBackend } from '../src/speech/audio/resampler.ts';
import { calibrate, LOUDNESS_TARGET_LUFS, voiceLoudness } from '../src/speech/loudness/calibration.ts';
import { EnginePool } from '../src/speech/pool.ts';
import { plainSpeech, synthesize } from '../src/speech/synthesize.ts';
import { builtInVoices, type Voice } from '../src/speech/voices.ts';

// `npm run bench:loudness`: each built-in voice's integrated loudness (BS.1770, the service's own
// meter) as its engine makes it, the gain that brings it to the target (the value for its
// `gainDb` in src/speech/voices.ts), and its loudness at the catalogue's gain, on the calibration
// sentences and on the bench's other turns of its language. Then what the level stage costs beside
// the resampler on the same audio. Writes bench/results/loudness.json.

interface Turns {
  readonly rw: readonly string[];
  readonly en: readonly string[];
  readonly fr: readonly string[];
}

const turns = JSON.parse(await readFile(new URL('./turns.json', import.meta.url), 'utf8')) as Turns;
/** The turns the calibration does not use (it takes the first fifteen). */
const heldOut = (voice: Voice) => turns[voice.language].slice(15);
const round = (value: number) => Math.round(value * 10) / 10;

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

/** The level stage's and the 8 kHz resampler's time per second of audio, on one voice's engine samples. */
async function stageCosts(voice: Voice): Promise<{ levelMs: number; resamplerMs: number }> {
  const costPool = await EnginePool.start({ size: 1, warmUp: { samples: [], outputs: [] } });
  const parts: Uint8Array[] = [];
  try {
    for (const text of turns[voice.language]) {
      const request = { ...plainSpeech(text, voice.language), voice, target: { kind: 'native' } as const };
      for await (const event of synthesize(costPool, request))
        if (event.type === 'audio') parts.push(event.bytes);
    }
  } finally {
    await costPool.close();
  }
  const samples = littleEndianBytesToInt16(Buffer.concat(parts));
  const seconds = samples.length / voice.sampleRate;
  const backend = await ResamplerBackend.load();
  const timed = (run: () => void) => {
    let best = Number.POSITIVE_INFINITY;
    for (let round = 0; round < 5; round++) {
      const start = performance.now();
      run();
      best = Math.min(best, performance.now() - start);
    }
    return best / seconds;
  };
  // In engine-sized chunks, as the worker gives them.
  const chunks = Array.from({ length: Math.ceil(samples.length / 2170) }, (_, i) =>
    samples.subarray(i * 2170, (i + 1) * 2170),
  );
  return {
    levelMs: timed(() => {
      const level = createLevelStage(voice.gainDb ?? 0, voice.sampleRate);
      for (const chunk of chunks) level.process(chunk);
      level.flush();
    }),
    resamplerMs: timed(() => {
      const resampler = backend.resampler(voice.sampleRate, 8000);
      for (const chunk of chunks) resampler.process(chunk);
      resampler.flush();
    }),
  };
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
const costs = [];
for (const name of ['Keza', 'Julien', 'James']) {
  const voice = builtInVoices.find((v) => v.name === name);
  if (voice) costs.push({ voice: name, ...(await stageCosts(voice)) });
}
console.log('ms of CPU per second of audio, best of 5, engine-sized chunks');
console.table(
  costs.map((c) => ({
    voice: c.voice,
    'level stage': Math.round(c.levelMs * 100) / 100,
    'resampler to 8 kHz': Math.round(c.resamplerMs * 100) / 100,
  })),
);
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
