import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { EnginePool, SynthesisJob } from '../../src/speech/pool/engine-pool.ts';
import { splitClauses } from '../../src/speech/text/clauses.ts';
import { frontEndFor } from '../../src/speech/text/front-end.ts';
import {
  buildTtsTestApp,
  listenOnLoopback,
  recordJobs,
  startTestPool,
  type TtsFixture,
  textOfLength,
  waitUntil,
  withKey,
} from '../helpers/tts-fixture.ts';

// A caller who hangs up mid-reply, over a real socket: inject() cannot drop a connection.

describe('POST /api/v1/tts-stream.php when the caller hangs up', () => {
  let pool: EnginePool;
  let fixture: TtsFixture;
  let base: string;
  /** The jobs the route gave the pool, with the signal each was given. */
  let jobs: SynthesisJob[];

  before(async () => {
    pool = await startTestPool(1);
    jobs = recordJobs(pool);
    fixture = await buildTtsTestApp({ pool: () => pool });
    base = await listenOnLoopback(fixture.app);
  });
  after(async () => {
    await fixture.close();
    await pool.close();
  });

  it('stops synthesis for the stream and frees the worker for the next call', async () => {
    const { key } = await fixture.newAccount({ topUp: 1000 });
    const input = textOfLength(4000);
    const clauses = splitClauses(frontEndFor('en').normalize(input)).length;
    await new Promise<void>((resolve, reject) => {
      const req = request(
        `${base}/api/v1/tts-stream.php`,
        { method: 'POST', headers: withKey(key) },
        (response) => {
          assert.equal(response.statusCode, 200);
          response.on('error', () => {});
          response.once('data', () => {
            response.socket.destroy();
            resolve();
          });
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ input, language: 'en' }));
    });
    // The route aborts synthesis when it sees the socket close; the pool then drops the queued
    // clause and stops the running one at its next engine chunk.
    await waitUntil(() => jobs[0]?.signal?.aborted === true, 'the route saw the hang-up');
    await waitUntil(() => pool.running === 0 && pool.queued === 0, 'the worker is free');
    const spoken = jobs.length;
    assert.ok(spoken < clauses, `${spoken} of ${clauses} clauses were given to the pool`);

    const next = await fixture.app.inject({
      method: 'POST',
      url: '/api/v1/tts-stream.php',
      headers: withKey(key),
      payload: { input: 'Next caller, please.', language: 'en' },
    });
    assert.equal(next.statusCode, 200);
    assert.ok(next.rawPayload.byteLength > 0);
    const nextClauses = splitClauses(frontEndFor('en').normalize('Next caller, please.')).length;
    assert.equal(jobs.length, spoken + nextClauses, 'nothing more of the dropped stream was synthesised');
  });
});
