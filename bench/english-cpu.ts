import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type CpuPass, cpuPass, cpuPerAudioSecond, loadCheckoutSpeech } from './engine-cpu.ts';
import { median } from './results.ts';
import { interleave, loadTurns } from './turns.ts';

// English (Flite) CPU per second of audio of several checkouts, in this one process: each
// checkout's engines on the English turns of `turns.json` (`engine-cpu.ts`), a first pass not
// counted, then passes taking turns. Prints each checkout's median and the first one's ratio to
// each other, as the ratio of the medians and as the median of the rounds' ratios (a round's
// passes run back to back, so a load that comes and goes moves both alike). Run it with the
// service's V8 flags:
//   node --wasm-inlining --wasm-inlining-budget=1000 --import tsx bench/english-cpu.ts PASSES NAME=DIR...

const [passesArg, ...sideArgs] = process.argv.slice(2);
const passes = Number(passesArg);
if (!Number.isInteger(passes) || passes < 1 || sideArgs.length < 2) {
  throw new Error('usage: english-cpu.ts PASSES NAME=DIR NAME=DIR...');
}
const turns = await loadTurns();
const lines = interleave({ rw: [], en: turns.en, fr: [] });
const sides = [];
for (const arg of sideArgs) {
  const [name, dir] = arg.split('=');
  if (!name || !dir) throw new Error(`${arg}: not NAME=DIR`);
  const speech = await loadCheckoutSpeech(pathToFileURL(`${resolve(dir)}/`), lines);
  await cpuPass(speech);
  sides.push({ name, speech, passes: [] as CpuPass[] });
}
for (let round = 0; round < passes; round++) {
  for (let i = 0; i < sides.length; i++) {
    const side = sides[(i + round) % sides.length];
    side?.passes.push(await cpuPass(side.speech));
  }
}
const perSecond = (pass: CpuPass) => cpuPerAudioSecond([pass], ['en']);
const [first, ...others] = sides;
if (!first) throw new Error('no checkout');
for (const side of sides) {
  const each = side.passes.map((pass) => perSecond(pass).toFixed(2)).join(' ');
  console.log(
    `${side.name}: ${cpuPerAudioSecond(side.passes, ['en']).toFixed(3)} ms per audio second (${each})`,
  );
}
for (const other of others) {
  const ofMedians = cpuPerAudioSecond(first.passes, ['en']) / cpuPerAudioSecond(other.passes, ['en']);
  const rounds = first.passes.map((pass, i) => perSecond(pass) / perSecond(other.passes[i] as CpuPass));
  console.log(
    `${first.name}/${other.name}: ${ofMedians.toFixed(3)}x (ratio of medians), ${median(rounds).toFixed(3)}x (median of the rounds' ratios)`,
  );
}
