import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ClauseCache } from '../../src/speech/cache/clause-cache.ts';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import { useAssignedVoices } from '../../src/speech/voices/voices.ts';
import { storeFactories } from '../helpers/databases.ts';
import { buildTtsTestApp, startTestPool, type TtsFixture, waitUntil } from '../helpers/tts-fixture.ts';
import { assignTinyPack } from '../helpers/voice-packs.ts';

// The contract (Input text, last bullet): a stream whose client leaves before the first audio byte
// is written is not charged; a charge already committed is reversed by a ledger entry. Real
// clients over real sockets leave at different moments around the first byte, each paying in
// tokens on its own account, and every account's ledger is checked afterwards.
//
// How a client leaves decides what it can know. A client that closes outright before the audio
// reaches it gets none of it, and must not pay. A client that half-closes (sends its FIN and goes
// on reading) reads whatever was written before the server read its FIN, and pays for that. So,
// for every client: audio received <=> charged once.

/** Clients leaving 0-30 ms after sending, or at the first bytes, run in batches. */
const CLIENTS = 100;
const BATCH = 10;
/** Clients leaving one at a time within a few milliseconds of the measured first audio. */
const SWEEP = 40;
/** What each client asks for; in a neural pack's voice, Kinyarwanda's Mugisha (speaker 1). */
const REQUEST = { input: 'Good morning and welcome to the clinic. Please hold the line.', language: 'en' };
const NEURAL_REQUEST = {
  input: 'Muraho neza, murakaza neza kuri Ijwi. Mutegereze gato.',
  language: 'rw',
  speaker_id: 1,
};
/** Either input above (61 and 55 characters), at 1 token per started 100. */
const TOKENS = 1;
const TOP_UP = 289;

type Cut =
  /** Sends its FIN this long after the request (fractions of a millisecond too), keeps reading. */
  | { readonly kind: 'half-close'; readonly afterMs: number }
  /** Closes the socket this long after the request. */
  | { readonly kind: 'close'; readonly afterMs: number }
  /** Closes the socket as soon as the status line is in. */
  | { readonly kind: 'close-at-status' }
  /** Closes the socket as soon as the first audio byte is in. */
  | { readonly kind: 'close-at-audio' }
  /** Stays to the end. */
  | { readonly kind: 'none' };

/** What a client saw of its response before the connection ended. */
interface Seen {
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  /** Bytes of the chunked body (audio) received. */
  readonly audioBytes: number;
  /** Milliseconds from the request sent to the first audio byte received. */
  readonly firstAudioMs: number | undefined;
}

interface Client {
  readonly cut: Cut;
  readonly accountId: string;
  readonly seen: Seen;
}

/** The cut of batched client `i`: the four kinds in turn, the timed ones spread over 0-30 ms. */
function cutFor(i: number): Cut {
  const afterMs = Math.floor(i / 4) % 31;
  switch (i % 4) {
    case 0:
      return { kind: 'half-close', afterMs };
    case 1:
      return { kind: 'close', afterMs };
    case 2:
      return { kind: 'half-close', afterMs: (afterMs * 7) % 31 };
    default:
      return i % 8 === 3 ? { kind: 'close-at-status' } : { kind: 'close-at-audio' };
  }
}

/** Runs `action` `ms` after `start` (a `performance.now()`), to a fraction of a millisecond. */
function at(start: number, ms: number, action: () => void): void {
  const spin = () => (performance.now() - start >= ms ? action() : setImmediate(spin));
  setTimeout(spin, Math.max(0, Math.floor(ms) - 1));
}

/** Audio bytes in a chunked body received so far (a partial chunk counts what arrived of it). */
function chunkedDataBytes(body: Buffer): number {
  let at = 0;
  let data = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd < 0) return data;
    const size = Number.parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) return data;
    const start = lineEnd + 2;
    const got = Math.min(size, body.length - start);
    data += Math.max(0, got);
    if (got < size) return data;
    at = start + size + 2;
  }
}

/**
 * One stream request over a raw socket, as a telephony client sends it, cut as `cut` says.
 * Resolves when the connection has ended, with what the client received.
 */
function streamClient(port: number, key: string, cut: Cut, request: object): Promise<Seen> {
  const body = JSON.stringify(request);
  const head = [
    'POST /api/v1/tts-stream.php HTTP/1.1',
    `Host: 127.0.0.1:${port}`,
    `Authorization: Bearer ${key}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    '',
  ].join('\r\n');
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    let received = Buffer.alloc(0);
    let sentAt = 0;
    let firstAudioMs: number | undefined;
    const seen = (): Seen => {
      const headEnd = received.indexOf('\r\n\r\n');
      const headText = received.subarray(0, headEnd < 0 ? received.length : headEnd).toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(headText)?.[1];
      return {
        status: status === undefined ? undefined : Number(status),
        requestId: /\r\nx-request-id: *(\S+)/i.exec(headText)?.[1],
        audioBytes: headEnd < 0 ? 0 : chunkedDataBytes(received.subarray(headEnd + 4)),
        firstAudioMs,
      };
    };
    socket.on('data', (bytes: Buffer) => {
      received = Buffer.concat([received, bytes]);
      const now = seen();
      if (firstAudioMs === undefined && now.audioBytes > 0) firstAudioMs = performance.now() - sentAt;
      if (socket.destroyed) return;
      if (cut.kind === 'close-at-status' && now.status !== undefined) socket.destroy();
      if (cut.kind === 'close-at-audio' && now.audioBytes > 0) socket.destroy();
    });
    // A reset from the server after the client left is part of the game.
    socket.on('error', () => {});
    socket.on('close', () => resolve(seen()));
    socket.write(head + body, () => {
      sentAt = performance.now();
      if (cut.kind === 'half-close') at(sentAt, cut.afterMs, () => socket.end());
      if (cut.kind === 'close') at(sentAt, cut.afterMs, () => socket.destroy());
    });
  });
}

// On each store: on PostgreSQL the charge is a few round trips, in which a hang-up can arrive
// between the first audio and its write; SQLite commits without giving way to the socket, so
// there only a hang-up read just before the first audio catches it (the sweep aims at that).
// Each twice: the first audio made by the engine, and at its fastest, a clause the account had
// said before, answered from its clause cache (each client's account hears the text whole once).
// Then, on SQLite, at its slowest: a neural voice pack, whose engine makes a clause's audio whole
// before its first byte (a tiny model, test/helpers/tiny-onnx.ts, in a runtime of its own).
const firstAudio = ['engine', 'cached clause', 'neural pack'] as const;
for (const made of firstAudio)
  for (const stores of storeFactories()) {
    const cached = made === 'cached clause';
    const neural = made === 'neural pack';
    if (neural && stores.kind !== 'sqlite') continue;
    const request = neural ? NEURAL_REQUEST : REQUEST;
    const title = `POST /api/v1/tts-stream.php when the client leaves around the first audio byte [${stores.kind}, ${made}]`;
    describe(title, { skip: stores.skip }, () => {
      let pool: EnginePool;
      let fixture: TtsFixture;
      let port: number;
      let packs: string | undefined;

      before(async () => {
        stores.assertReachable();
        if (neural) packs = await assignTinyPack('rw', 1);
        pool = await startTestPool(2);
        fixture = await buildTtsTestApp({
          pool: () => pool,
          database: await stores.create(),
          ...(cached ? { clauseCache: new ClauseCache(8 * 1024 * 1024) } : {}),
        });
        await fixture.app.listen({ port: 0, host: '127.0.0.1' });
        port = (fixture.app.server.address() as AddressInfo).port;
      });
      after(async () => {
        await fixture?.close();
        await pool?.close();
        await stores.dispose();
        if (packs !== undefined) {
          useAssignedVoices([]);
          rmSync(packs, { recursive: true, force: true });
        }
      });

      /** The requests that filled a client's clause cache, paid apart from its own. */
      const heard = new Set<string>();
      /** A client on a new account that pays in tokens (its free trial used up). */
      const client = async (cut: Cut): Promise<Client> => {
        const { accountId, key } = await fixture.newPayingAccount({ topUp: TOP_UP });
        if (cached) {
          const whole = await streamClient(port, key, { kind: 'none' }, request);
          assert.ok(whole.status === 200 && whole.requestId !== undefined, JSON.stringify(whole));
          heard.add(whole.requestId);
        }
        return { cut, accountId, seen: await streamClient(port, key, cut, request) };
      };

      /** Waits until every stream is over on the server, billing included. */
      const settled = async () => {
        let connections = -1;
        await waitUntil(() => {
          fixture.app.server.getConnections((_, count) => {
            connections = count;
          });
          return connections === 0 && pool.running === 0 && pool.queued === 0;
        }, 'every stream has stopped');
        // A charge or refund may still be on its way to the database.
        await sleep(200);
      };

      /** What is wrong with one client's ledger, given what it saw; `tally` counts outcomes. */
      const problemsOf = async (
        name: string,
        { cut, accountId, seen }: Client,
        tally: Map<string, number>,
      ) => {
        const problems: string[] = [];
        const ledger = await fixture.ledgerOf(accountId);
        // The account's own stream: everything but its top-up and the five trial uses.
        const stream = ledger.filter(
          (e) =>
            e.kind !== 'top_up' &&
            !(e.requestId ?? '').startsWith('req_trial_') &&
            !heard.has(e.requestId ?? ''),
        );
        const charges = stream.filter((e) => e.kind === 'charge' || e.kind === 'free_use');
        const refunds = stream.filter((e) => e.kind !== 'charge' && e.kind !== 'free_use');
        const net = -stream.reduce((sum, e) => sum + e.tokens, 0);
        const what = `${name} (${JSON.stringify(cut)}, status ${seen.status ?? '-'}, ${seen.audioBytes} audio bytes)`;
        const state = `${charges.length} charge(s), ${refunds.length} refund(s), net ${net}`;
        const outcome = net !== 0 ? 'charged' : refunds.length > 0 ? 'refunded' : 'not charged';
        const key = `${cut.kind} ${seen.audioBytes > 0 ? 'audio' : 'no audio'} -> ${outcome}`;
        tally.set(key, (tally.get(key) ?? 0) + 1);

        if (charges.length > 1 || refunds.length > 1) problems.push(`${what}: ${state}`);
        if (refunds.length > 0 && charges.length === 0) problems.push(`${what}: a refund of nothing`);
        const ids = new Set(stream.map((e) => e.requestId));
        if (ids.size > 1) problems.push(`${what}: entries of several requests ${[...ids].join(', ')}`);
        if (seen.requestId !== undefined && stream.some((e) => e.requestId !== seen.requestId)) {
          problems.push(`${what}: entries not of its request ${seen.requestId}`);
        }
        if (net !== 0 && net !== TOKENS) problems.push(`${what}: ${state}`);
        if (seen.audioBytes > 0 && net !== TOKENS) problems.push(`${what}: received audio but ${state}`);
        // A client that half-closes reads whatever was handed to its socket; one that closes
        // outright before the audio reaches it gets none of it: neither pays for audio it never had.
        if (seen.audioBytes === 0 && net !== 0) {
          problems.push(`${what}: received no audio but ${state}`);
        }
        const balance = await fixture.balanceOf(accountId);
        const sum = ledger.reduce((total, e) => total + e.tokens, 0);
        if (balance.balance !== sum) problems.push(`${what}: balance ${balance.balance}, ledger sum ${sum}`);
        if (balance.balance !== TOP_UP - net - (cached ? TOKENS : 0))
          problems.push(`${what}: balance ${balance.balance}`);
        return problems;
      };

      it('charges exactly the clients that were handed audio, each once', async (t) => {
        const batched: Client[] = [];
        for (let start = 0; start < CLIENTS; start += BATCH) {
          const size = Math.min(BATCH, CLIENTS - start);
          batched.push(
            ...(await Promise.all(Array.from({ length: size }, (_, j) => client(cutFor(start + j))))),
          );
        }

        // The sweep: the time to the first audio byte of a quiet server, then clients one at a
        // time half-closing from 3 ms before it to 1 ms after, a tenth of a millisecond apart.
        const timings: number[] = [];
        for (let i = 0; i < 5; i++) {
          const whole = await client({ kind: 'none' });
          assert.ok(
            whole.seen.firstAudioMs !== undefined && whole.seen.status === 200,
            JSON.stringify(whole),
          );
          timings.push(whole.seen.firstAudioMs);
        }
        const firstAudioMs = timings.sort((a, b) => a - b)[2] ?? 0;
        const swept: Client[] = [];
        for (let i = 0; i < SWEEP; i++) {
          const afterMs = Math.max(0, firstAudioMs - 3 + (4 * i) / SWEEP);
          swept.push(await client({ kind: 'half-close', afterMs: Math.round(afterMs * 100) / 100 }));
        }
        await settled();

        const problems: string[] = [];
        const tally = new Map<string, number>();
        for (const [i, c] of batched.entries()) problems.push(...(await problemsOf(`client ${i}`, c, tally)));
        const sweepTally = new Map<string, number>();
        for (const [i, c] of swept.entries())
          problems.push(...(await problemsOf(`swept client ${i}`, c, sweepTally)));
        const summary = [
          `batched: ${[...tally]
            .sort()
            .map(([k, n]) => `${k}: ${n}`)
            .join('; ')}`,
          `sweep around ${firstAudioMs.toFixed(2)} ms: ${[...sweepTally]
            .sort()
            .map(([k, n]) => `${k}: ${n}`)
            .join('; ')}`,
        ];
        for (const line of summary) t.diagnostic(line);
        assert.deepEqual(problems, [], summary.join('\n'));
        // The cuts landed on both sides of the first byte, or the test proved nothing.
        const all = [...batched, ...swept];
        assert.ok(
          all.some((c) => c.seen.audioBytes === 0) && all.some((c) => c.seen.audioBytes > 0),
          summary.join('\n'),
        );
      });
    });
  }
