import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import { LiveClient } from '../helpers/live-client.ts';
import {
  buildTtsTestApp,
  listenOnLoopback,
  startTestPool,
  type TtsFixture,
  waitUntil,
  withKey,
} from '../helpers/tts-fixture.ts';

// The contract's stream rule on the live WebSocket: a context whose client is gone before its
// first audio frame pays nothing. Clients open a context and drop their connection (a TCP close,
// no closing handshake, as a phone line that goes dead) 0 to 30 ms later, around the first frame;
// each pays on its own account, and every ledger is checked afterwards.

const CLIENTS = 60;
const BATCH = 10;
const TEXT = 'Good morning and welcome to the clinic. Please hold the line.';
/** The 61 characters above, at 1 token per started 100. */
const TOKENS = 1;

describe('GET /api/v1/tts-live when the client leaves around the first audio frame', () => {
  let pool: EnginePool;
  let fixture: TtsFixture;
  let base: string;

  before(async () => {
    pool = await startTestPool(2);
    fixture = await buildTtsTestApp({ pool: () => pool });
    base = await listenOnLoopback(fixture.app);
  });
  after(async () => {
    await fixture.close();
    await pool.close();
  });

  /** One client: opens a context, drops the connection `afterMs` later; whether audio came first. */
  const client = async (afterMs: number) => {
    const account = await fixture.newPayingAccount({ topUp: 289 });
    const live = await LiveClient.connect(base, {
      authorization: withKey(account.key).authorization as string,
    });
    live.send({ type: 'text', context_id: 'c1', text: TEXT, language: 'en', format: 'mulaw_8k' });
    live.send({ type: 'end', context_id: 'c1' });
    await sleep(afterMs);
    // One more poll of the sockets, so that what is already in this client's kernel is read
    // before it decides, as a client in a process of its own would have read it.
    await new Promise((resolve) => setImmediate(resolve));
    const audioBeforeLeaving = live.messages.some((m) => m.message.type === 'audio');
    live.socket.terminate();
    await live.closed;
    return { accountId: account.accountId, audioBeforeLeaving };
  };

  it('charges no client that received no audio, and every one that did once', async () => {
    const clients: Awaited<ReturnType<typeof client>>[] = [];
    for (let start = 0; start < CLIENTS; start += BATCH) {
      clients.push(
        ...(await Promise.all(Array.from({ length: BATCH }, (_, j) => client(((start + j) * 7) % 31)))),
      );
    }
    await waitUntil(() => pool.running === 0 && pool.queued === 0, 'every context has stopped');
    // A charge or refund may still be on its way to the database.
    await sleep(300);

    const problems: string[] = [];
    const tally = new Map<string, number>();
    for (const [i, { accountId, audioBeforeLeaving }] of clients.entries()) {
      const ledger = await fixture.ledgerOf(accountId);
      const own = ledger.filter((e) => e.kind !== 'top_up' && !(e.requestId ?? '').startsWith('req_trial_'));
      const net = -own.reduce((sum, e) => sum + e.tokens, 0);
      const key = `${audioBeforeLeaving ? 'audio' : 'no audio'} -> net ${net}`;
      tally.set(key, (tally.get(key) ?? 0) + 1);
      if (!audioBeforeLeaving && net !== 0) problems.push(`client ${i}: received no audio, net ${net}`);
      if (audioBeforeLeaving && net !== TOKENS) problems.push(`client ${i}: received audio, net ${net}`);
      const balance = await fixture.balanceOf(accountId);
      const sum = ledger.reduce((total, e) => total + e.tokens, 0);
      if (balance.balance !== sum)
        problems.push(`client ${i}: balance ${balance.balance}, ledger sum ${sum}`);
    }
    const summary = [...tally]
      .sort()
      .map(([k, n]) => `${k}: ${n}`)
      .join('; ');
    assert.deepEqual(problems, [], summary);
    // The cuts landed on both sides of the first frame, or the test proved nothing.
    const noAudio = clients.filter((c) => !c.audioBeforeLeaving);
    assert.ok(noAudio.length > 0 && noAudio.length < clients.length, summary);
  });
});
