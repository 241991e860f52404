import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { ClauseCache } from '../src/speech/cache/clause-cache.ts';
import {
  type MemorySample,
  memorySample,
  type StreamClient,
  streamClient,
} from '../test/helpers/stalled-readers.ts';
import { buildTtsTestApp, listenOnLoopback, recordJobs, startTestPool } from '../test/helpers/tts-fixture.ts';
import { loadTurns, longText } from './turns.ts';

// What a stream whose client stops reading costs the service (api-v1.md, "A listener who stops
// reading"): N raw TCP clients send a 4,000-character stream request and never read a byte; the
// service's memory (this process: the app and its pool run here) is sampled before, while they
// are stalled, and after they hang up:
//
//   node --import tsx bench/stalled-streams.ts --streams 30 --format pcm16_24k --cache 8
//
// The reference is the same process after two streams of the same request were read whole, so
// the path's first use (code, engine state, the clause cache's entries) is not counted as a
// stalled stream's cost. A stream the kernel's socket buffers take whole (4 MB on Linux by
// default, as much as 4,000 characters at 8 kHz) holds nothing in the process, stalled or not.

const { values } = parseArgs({
  options: {
    streams: { type: 'string', default: '30' },
    format: { type: 'string', default: 'pcm16_8k' },
    /** `openai`: POST /v1/audio/speech with `--format` as its response_format (pcm, wav, mp3...). */
    path: { type: 'string', default: 'stream' },
    /** Sentences as long as a clause may be (about 200 characters, no comma): the pipeline's worst case. */
    'long-clauses': { type: 'boolean', default: false },
    characters: { type: 'string', default: '4000' },
    workers: { type: 'string', default: '2' },
    /** MB of clause cache, as the service keeps by default (8); 0: none. */
    cache: { type: 'string', default: '0' },
    /** Times the stalled clients come and go, each measured against the same reference. */
    rounds: { type: 'string', default: '1' },
  },
});
const STREAMS = Number(values.streams);
const CHARACTERS = Number(values.characters);

const show = (s: MemorySample) =>
  `rss ${s.rssMb.toFixed(1)} MB, heap ${s.heapMb.toFixed(1)} MB, buffers ${s.buffersMb.toFixed(1)} MB`;
const per = (a: MemorySample, b: MemorySample, n: number) =>
  `rss ${((b.rssMb - a.rssMb) / n).toFixed(2)}, heap ${((b.heapMb - a.heapMb) / n).toFixed(2)}, ` +
  `buffers ${((b.buffersMb - a.buffersMb) / n).toFixed(2)} MB a stream`;
const mb = (bytes: number) => bytes / 1024 / 1024;

const pool = await startTestPool(Number(values.workers));
const cacheMb = Number(values.cache);
const fixture = await buildTtsTestApp({
  pool: () => pool,
  ...(cacheMb > 0 ? { clauseCache: new ClauseCache(cacheMb * 1024 * 1024) } : {}),
});
const base = await listenOnLoopback(fixture.app);
const jobs = recordJobs(pool);
/** The service's side of each connection, while it is open. */
const served = new Set<Socket>();
fixture.app.server.on('connection', (socket: Socket) => {
  served.add(socket);
  socket.once('close', () => served.delete(socket));
});
const written = () => {
  let kernel = 0;
  let waiting = 0;
  for (const socket of served) {
    kernel += socket.bytesWritten - socket.writableLength;
    waiting += socket.writableLength;
  }
  return `${mb(kernel).toFixed(1)} MB taken by the kernel, ${mb(waiting).toFixed(2)} MB waiting in the sockets`;
};
const { keys } = await fixture.newAccount({ keys: Math.ceil(STREAMS / 10) + 2, topUp: 1_000_000 });
let next = 0;
const key = () => keys[next++ % keys.length] as string;
const turns = await loadTurns();
const longClause =
  'The nurse at the front desk will take your name and your date of birth and then she will ask you to wait in the ' +
  'blue room on the left until the doctor who is on duty this morning is ready to see you. ';
const input = values['long-clauses']
  ? longClause.repeat(Math.ceil(CHARACTERS / longClause.length)).slice(0, CHARACTERS)
  : longText(turns, 'en', CHARACTERS);
const openAi = values.path === 'openai';
const body = openAi
  ? { model: 'tts-1', input, voice: 'alloy', response_format: values.format }
  : { input, language: 'en', format: values.format };
const PATH = openAi ? '/v1/audio/speech' : '/api/v1/tts-stream.php';

// Reference: the path used to the end, twice.
for (let i = 0; i < 2; i++) await (await streamClient(base, PATH, key(), body, { kind: 'whole' })).closed;
const clauses = jobs.length;
const before = await memorySample(3000);
console.log(`before:  ${show(before)}`);

for (let round = 0; round < Number(values.rounds); round++) {
  const jobsBefore = jobs.length;
  const stalled: StreamClient[] = [];
  for (let i = 0; i < STREAMS; i++)
    stalled.push(await streamClient(base, PATH, key(), body, { kind: 'stalled' }));
  // Let synthesis run as far ahead as it will: until the pool has had nothing to do, and nothing
  // more has gone out to the clients, for two seconds.
  const stalledAt = performance.now();
  let last = -1;
  for (let still = 0; still < 10 && performance.now() - stalledAt < 180_000; ) {
    await sleep(200);
    const now = [...served].reduce((sum, socket) => sum + socket.bytesWritten, 0);
    still = now === last && pool.running === 0 && pool.queued === 0 ? still + 1 : 0;
    last = now;
  }
  console.log(`synthesis stopped after ${((performance.now() - stalledAt) / 1000).toFixed(1)} s`);
  console.log(
    `  ${(jobs.length - jobsBefore) / STREAMS} clauses a stream asked of the pool (the reference reads, ${clauses}); ${written()}`,
  );
  const during = await memorySample(2000);
  console.log(`stalled: ${show(during)}  (pool: ${pool.running} running, ${pool.queued} queued)`);
  console.log(`  held:  ${per(before, during, STREAMS)}`);

  for (const client of stalled) client.socket.destroy();
  await Promise.all(stalled.map((client) => client.closed));
  const after = await memorySample(3000);
  console.log(`after:   ${show(after)}  (pool: ${pool.running} running, ${pool.queued} queued)`);
  console.log(`  kept:  ${per(before, after, STREAMS)}`);
}

await fixture.close();
await pool.close();
