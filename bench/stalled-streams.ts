import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { ClauseCache } from '../src/speech/clause-cache.ts';
import { buildTtsTestApp, listenOnLoopback, recordJobs, startTestPool } from '../test/helpers/tts-fixture.ts';
import { loadTurns, longText } from './turns.ts';

// What a stream whose client stops reading costs the service (api-v1.md, "A listener who stops
// reading"): N raw TCP clients send a 4,000-character stream request and never read a byte; the
// service's memory (this process: the app and its pool run here) is sampled before, while they
// are stalled, and after they hang up. Run with --expose-gc:
//
//   node --expose-gc --import tsx bench/stalled-streams.ts --streams 30 --format pcm16_8k
//
// A reference run first: the same number of clients that read every byte, one after another, so
// the paths' first use (code, engine state, pools of buffers) is not counted as a stalled
// stream's cost.

const { values } = parseArgs({
  options: {
    streams: { type: 'string', default: '30' },
    format: { type: 'string', default: 'pcm16_8k' },
    characters: { type: 'string', default: '4000' },
    workers: { type: 'string', default: '2' },
    /** MB of clause cache, as the service keeps by default (8); 0: none. */
    cache: { type: 'string', default: '0' },
  },
});
const STREAMS = Number(values.streams);
const CHARACTERS = Number(values.characters);

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

interface Sample {
  rss: number;
  heap: number;
  /** ArrayBuffers and Buffers: where audio lives. */
  buffers: number;
}
const mb = (bytes: number) => bytes / 1024 / 1024;
async function sample(settleMs = 1500): Promise<Sample> {
  await sleep(settleMs);
  gc?.();
  await sleep(50);
  gc?.();
  const m = process.memoryUsage();
  return { rss: mb(m.rss), heap: mb(m.heapUsed), buffers: mb(m.arrayBuffers) };
}
const show = (s: Sample) =>
  `rss ${s.rss.toFixed(1)} MB, heap ${s.heap.toFixed(1)} MB, buffers ${s.buffers.toFixed(1)} MB`;
const per = (a: Sample, b: Sample, n: number) =>
  `rss ${((b.rss - a.rss) / n).toFixed(2)}, heap ${((b.heap - a.heap) / n).toFixed(2)}, buffers ${((b.buffers - a.buffers) / n).toFixed(2)} MB a stream`;

const pool = await startTestPool(Number(values.workers));
const cacheMb = Number(values.cache);
const fixture = await buildTtsTestApp({
  pool: () => pool,
  ...(cacheMb > 0 ? { clauseCache: new ClauseCache(cacheMb * 1024 * 1024) } : {}),
});
const base = await listenOnLoopback(fixture.app);
const jobs = recordJobs(pool);
/** The service's side of each connection: what it wrote, and what waits in it for the kernel. */
const served: Socket[] = [];
fixture.app.server.on('connection', (socket: Socket) => served.push(socket));
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
const input = longText(turns, 'en', CHARACTERS);
const body = JSON.stringify({ input, language: 'en', format: values.format });
const url = new URL(base);

/** Sends the request and resolves the socket once the head has come; `read` reads on, or not. */
function client(read: boolean): Promise<{ socket: Socket; done: Promise<number> }> {
  const socket = connect(Number(url.port), url.hostname);
  return new Promise((resolve, reject) => {
    let head = '';
    let bytes = 0;
    let headDone = false;
    socket.once('error', reject);
    const done = new Promise<number>((ended) => socket.once('close', () => ended(bytes)));
    socket.on('data', (chunk: Buffer) => {
      if (headDone) {
        bytes += chunk.byteLength;
        return;
      }
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      headDone = true;
      if (!/^HTTP\/1\.1 200/.test(head)) return reject(new Error(head.slice(0, 300)));
      socket.on('error', () => {});
      if (!read) {
        socket.pause();
        socket.removeAllListeners('data');
      }
      resolve({ socket, done });
    });
    socket.write(
      `POST /api/v1/tts-stream.php HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${key()}\r\n` +
        `Content-Type: application/json\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  });
}

// Reference: the path used to the end, a few times.
for (let i = 0; i < 2; i++) {
  const { done } = await client(true);
  await done;
}
const before = await sample(3000);
served.length = 0;
const jobsBefore = jobs.length;
console.log(`before:  ${show(before)}`);

const stalled: Socket[] = [];
for (let i = 0; i < STREAMS; i++) stalled.push((await client(false)).socket);
// Let synthesis run as far ahead as it will: until the pool has had nothing to do for a while.
const stalledAt = performance.now();
for (let idle = 0; idle < 10 && performance.now() - stalledAt < 180_000; ) {
  await sleep(200);
  idle = pool.running === 0 && pool.queued === 0 ? idle + 1 : 0;
}
console.log(`synthesis stopped after ${((performance.now() - stalledAt) / 1000).toFixed(1)} s`);
console.log(`  ${(jobs.length - jobsBefore) / STREAMS} clauses a stream of ${jobsBefore / 2}; ${written()}`);
const during = await sample(2000);
console.log(`stalled: ${show(during)}  (pool: ${pool.running} running, ${pool.queued} queued)`);
console.log(`  held:  ${per(before, during, STREAMS)}`);

for (const socket of stalled) socket.destroy();
await sleep(2000);
const after = await sample(3000);
console.log(`after:   ${show(after)}  (pool: ${pool.running} running, ${pool.queued} queued)`);
console.log(`  kept:  ${per(before, after, STREAMS)}`);

await fixture.close();
await pool.close();
