import { rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { LanguageCode } from '../src/speech/text/verbalizer.ts';
import { type FreshCall, freshBurst } from './fresh-burst-run.ts';
import { startPeer } from './peer-process.ts';
import { NO_CLAUSE_CACHE, prepareData, startServer } from './server.ts';
import { percentiles } from './stats.ts';
import { benchLanguages, interleave, loadTurns } from './turns.ts';

// `npm run bench:fresh -- --languages rw,fr [--size 64] [--rounds 3]`: the fresh-burst scenario
// of `npm run bench` (new connections, one key per call, mulaw_8k) with the turns of some
// languages only, each burst followed by the same texts to the naive peer: how the first byte
// compares with the peer's whole file when every call is in those languages (which engine the
// time goes to). Needs Debian's espeak-ng for the peer.

const SETTLE_MS = 1500;
const { values } = parseArgs({
  options: {
    languages: { type: 'string', default: benchLanguages.join(',') },
    size: { type: 'string', default: '64' },
    rounds: { type: 'string', default: '3' },
  },
});
const languages = (values.languages ?? '').split(',') as LanguageCode[];
const unknown = languages.find((language) => !benchLanguages.includes(language));
if (unknown !== undefined) throw new Error(`no bench turns in ${JSON.stringify(unknown)}`);
const size = Number(values.size);
const rounds = Number(values.rounds);
if (!Number.isInteger(size) || size < 1 || !Number.isInteger(rounds) || rounds < 1) {
  throw new Error('--size and --rounds take positive whole numbers');
}

const progress = (line: string) => process.stderr.write(`${line}\n`);
const turns = interleave(await loadTurns()).filter((turn) => languages.includes(turn.language));
const WARM_UP_CALLS = 16;
const KEYS_PER_ACCOUNT = 25;
const data = await prepareData(
  Math.ceil((WARM_UP_CALLS + size * rounds) / KEYS_PER_ACCOUNT),
  KEYS_PER_ACCOUNT,
);
const server = await startServer(data.dataDir, { env: NO_CLAUSE_CACHE });
const peer = await startPeer(progress);
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
let nextKey = 0;
const burst = (base: string, calls: typeof turns, target: 'ijwi' | 'peer'): Promise<FreshCall[]> =>
  freshBurst({
    type: 'fresh-burst',
    base,
    turns: calls,
    target,
    ...(target === 'ijwi' ? { keys: calls.map(() => data.keys[nextKey++] as string) } : {}),
  });
let errors = 0;
const firstBytes = (calls: readonly FreshCall[]) => {
  errors += calls.filter((c) => c.error !== undefined).length;
  return calls.filter((c) => c.error === undefined).map((c) => c.firstByteMs);
};

const ijwi: number[] = [];
const naive: number[] = [];
try {
  // Warmed as the bench's service is: a small burst first.
  await burst(server.base, turns.slice(0, WARM_UP_CALLS), 'ijwi');
  for (let round = 0; round < rounds; round++) {
    const calls = Array.from(
      { length: size },
      (_, i) => turns[(round * size + i) % turns.length] as (typeof turns)[0],
    );
    await settle();
    ijwi.push(...firstBytes(await burst(server.base, calls, 'ijwi')));
    if (peer) {
      await settle();
      naive.push(...firstBytes(await burst(peer.base, calls, 'peer')));
    }
  }
} finally {
  await server.stop();
  peer?.stop();
  await rm(data.dataDir, { recursive: true, force: true });
}
const ours = percentiles(ijwi).p95;
const theirs = naive.length > 0 ? percentiles(naive).p95 : Number.NaN;
console.log(
  `${languages.join(',')}: ${rounds} bursts of ${size}: first byte p95 ${ours.toFixed(0)} ms (${ijwi.length} calls), ` +
    `peer's whole file p95 ${theirs.toFixed(0)} ms (${naive.length}), ${(ours / theirs).toFixed(2)}x; ` +
    `${errors} call(s) failed`,
);
