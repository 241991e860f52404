import { mkdir, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { MAX_SECONDS_PER_CHARACTER } from '../src/speech/audio-bound.ts';
import { readInputText } from '../src/speech/input/input-text.ts';
import { EnginePool } from '../src/speech/pool/engine-pool.ts';
import { synthesize } from '../src/speech/synthesize.ts';
import { builtInVoices, type Voice } from '../src/speech/voices/voices.ts';
import { codePointCount } from '../src/unicode.ts';
import { hostileTexts, worstCaseShapes } from '../test/helpers/hostile-text.ts';

// `npm run bench:bound`: the most audio seconds a character of input produces, per voice, over
// the worst shapes known and a seeded sample of hostile text, against the bound the service
// enforces (src/speech/audio-bound.ts). Fails when any input passes its language's bound.

const { values } = parseArgs({
  options: { seed: { type: 'string', default: '1' }, random: { type: 'string', default: '200' } },
});
const seed = Number(values.seed);
const randomCount = Number(values.random);

interface Worst {
  readonly voice: string;
  readonly secondsPerCharacter: number;
  readonly shape: string;
  readonly bound: number;
}

/** Seconds of audio of `text` in `voice`, with no cap. */
async function secondsOf(pool: EnginePool, text: string, voice: Voice): Promise<number | undefined> {
  const read = readInputText(text, 'text', voice);
  if (!read.ok) return undefined;
  let seconds = 0;
  const request = { document: read.document, voice, target: { kind: 'native' } as const };
  for await (const event of synthesize(pool, { ...request, maxSeconds: Number.POSITIVE_INFINITY }))
    if (event.type === 'end') seconds = event.seconds;
  return seconds;
}

const pool = await EnginePool.start({ size: 2, warmUp: { samples: [], outputs: [] } });
// Each shape repeated, and its first word alone: a lone word has no space to share its audio with.
const candidates = [
  ...Object.entries(worstCaseShapes),
  ...Object.entries(worstCaseShapes).map(
    ([shape, text]) => [`${shape}, alone`, text.split(' ')[0] ?? ''] as const,
  ),
  ...hostileTexts(seed, randomCount).map((text, i) => [`hostile #${i}`, text] as const),
];
const results: Worst[] = [];
try {
  for (const voice of builtInVoices) {
    let worst = { secondsPerCharacter: 0, shape: '' };
    const measured = await Promise.all(
      candidates.map(async ([shape, text]) => {
        const seconds = await secondsOf(pool, text, voice);
        const characters = codePointCount(text.trim());
        return { shape, perCharacter: seconds === undefined || characters === 0 ? 0 : seconds / characters };
      }),
    );
    for (const { shape, perCharacter } of measured)
      if (perCharacter > worst.secondsPerCharacter) worst = { secondsPerCharacter: perCharacter, shape };
    results.push({
      voice: `${voice.language} ${voice.speakerId} ${voice.name}`,
      secondsPerCharacter: Math.round(worst.secondsPerCharacter * 1000) / 1000,
      shape: worst.shape,
      bound: MAX_SECONDS_PER_CHARACTER[voice.language],
    });
  }
} finally {
  await pool.close();
}

console.log(`audio seconds per input character, worst of ${candidates.length} inputs (seed ${seed})`);
console.table(
  results.map((r) => ({
    voice: r.voice,
    'worst s/char': r.secondsPerCharacter,
    'worst input': r.shape,
    'bound s/char': r.bound,
    headroom: `${Math.round((1 - r.secondsPerCharacter / r.bound) * 100)}%`,
  })),
);
await mkdir(new URL('./results/', import.meta.url), { recursive: true });
await writeFile(
  new URL('./results/audio-bound.json', import.meta.url),
  `${JSON.stringify({ seed, inputs: candidates.length, results }, null, 2)}\n`,
);
const over = results.filter((r) => r.secondsPerCharacter > r.bound);
if (over.length > 0) {
  console.error(`over the bound: ${over.map((r) => r.voice).join(', ')}`);
  process.exitCode = 1;
}
