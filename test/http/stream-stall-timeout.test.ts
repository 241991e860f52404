import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import { streamClient } from '../helpers/stalled-readers.ts';
import {
  buildTtsTestApp,
  listenOnLoopback,
  startTestPool,
  type TtsFixture,
  textOfLength,
  waitUntil,
} from '../helpers/tts-fixture.ts';

// A stream whose client takes nothing for the stall time (a line that dropped without a FIN) is
// disconnected, as a live socket is: its call ends and the ledger keeps the audio handed over.
// A client that reads slowly but reads is never cut.

const STALL_MS = 400;
const PATH = '/api/v1/tts-stream.php';

describe('a stream whose client stops reading', () => {
  let pool: EnginePool;
  let fixture: TtsFixture;
  let base: string;
  const served = new Set<Socket>();

  before(async () => {
    pool = await startTestPool();
    fixture = await buildTtsTestApp({ pool: () => pool, liveTimings: { stallMs: STALL_MS } });
    base = await listenOnLoopback(fixture.app);
    fixture.app.server.on('connection', (socket: Socket) => {
      served.add(socket);
      socket.once('close', () => served.delete(socket));
    });
  });
  after(async () => {
    await fixture?.close();
    await pool?.close();
  });

  // 24 kHz audio of 4,000 characters is several MB: more than the kernel's buffers take.
  const request = { input: textOfLength(4000), language: 'rw', format: 'pcm16_24k' };

  it('is disconnected once it has taken nothing for the stall time, charged for what it was handed', async () => {
    const account = await fixture.newPayingAccount({ topUp: 300 });
    await streamClient(base, PATH, account.key, request, { kind: 'stalled' });
    // The client reads nothing, so only the service's side sees the connection end.
    await waitUntil(() => served.size === 0, 'the service closed the stalled connection', 60_000);
    let charge: { seconds: number | null } | undefined;
    for (let i = 0; i < 100 && (charge === undefined || (charge.seconds ?? 0) >= 200); i++) {
      await sleep(50);
      charge = (await fixture.ledgerOf(account.accountId)).find((e) => e.kind === 'charge');
    }
    // The kernel took some seconds of audio before the writes stopped; far from the whole text.
    assert.ok((charge?.seconds ?? 0) > 0 && (charge?.seconds ?? 0) < 200, `${charge?.seconds} s`);
  });

  it('never cuts a client that reads, however slowly', async () => {
    const { key } = await fixture.newPayingAccount({ topUp: 300 });
    const slow = await streamClient(
      base,
      PATH,
      key,
      { ...request, input: textOfLength(1500) },
      {
        kind: 'slow',
        bytes: 256 * 1024,
        ms: STALL_MS / 4,
      },
    );
    await slow.closed;
    const seconds = slow.body().byteLength / 48_000;
    assert.ok(seconds > 60, `the whole stream came: ${seconds} s`);
  });
});
