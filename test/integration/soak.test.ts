import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FaultName } from '../../bench/soak/faults.ts';
import { runSoak } from '../../bench/soak/soak.ts';
import { noPrivatePostgres } from '../helpers/private-postgres.ts';
import { noPrivateRedis } from '../helpers/private-redis.ts';

// The soak bench (bench/soak/) compressed into about three minutes, every fault of its schedules
// at least once: the service started as `npm start` starts it, receptionist-like callers on
// 127.0.0.1 (streams in every telephony format, OpenAI calls in every format, file requests, live
// contexts, hang-ups, a burst). Embedded: an engine worker thread and the encoding thread ended,
// the neural runtime processes killed, the file store unusable, the instance killed with -9 and
// started again. Scaled out (two instances on a private PostgreSQL, Redis and S3 bucket): the
// database and Redis stopped and started again, one instance killed with -9 and started again.
// What must hold on any machine, however slow: every fault found its target and the service
// recovered from it, every call got its audio or a clear error, and every account was charged
// exactly what its clients received. The hour-long run is the bench.

/** How long the file store stays unusable, and a restarted store down: long enough for calls to meet it. */
const OUTAGE_MS = 6_000;

/** Runs a compressed soak and asserts what the bench's targets are: no call lost, every account's ledger exact. */
async function soakHolds(mode: 'embedded' | 'scale-out', minutes: number, faults: readonly FaultName[]) {
  const report = await runSoak({ minutes, mode, faults, outageMs: OUTAGE_MS });
  assert.deepEqual(
    report.faults.map((f) => ({ fault: f.fault, hit: f.hit, recovered: f.recoveryMs !== null })),
    faults.map((fault) => ({ fault, hit: true, recovered: true })),
    JSON.stringify(report.faults),
  );
  assert.equal(report.calls.lost, 0, `lost calls: ${JSON.stringify(report.calls.lostCodes)}`);
  assert.ok(report.calls.completed >= 20, `only ${report.calls.completed} calls completed`);
  const counted = report.ledger.reduce((sum, account) => sum + account.countedCalls, 0);
  assert.ok(counted >= 10, `only ${counted} calls whose seconds the client could count`);
  for (const account of report.ledger) {
    const figures = JSON.stringify(account);
    assert.equal(account.unmatched, 0, `audio without a charge, or a charge without audio: ${figures}`);
    // Exact, but for a live context a fault cut after its audio began: its bill is the parts it
    // had started, which its client cannot know, between one token and its whole text.
    assert.ok(
      account.tokensCharged >= account.tokensExpectedAtLeast &&
        account.tokensCharged <= account.tokensExpected,
      figures,
    );
    if (account.liveCut === 0) assert.equal(account.tokensCharged, account.tokensExpected, figures);
    assert.equal(account.secondsLedger, account.secondsHeard, figures);
    // A stream cut after its audio began: what was handed over, or the charge's bound when its
    // instance was killed before it could write that; never less than the client heard.
    assert.ok(account.cutSecondsLedger >= account.cutSecondsHeard, figures);
  }
}

describe('a short soak with every fault', () => {
  it('embedded: loses no call and charges every account exactly through a worker, encoding thread and neural runtime death, a file store outage and kill -9', {
    timeout: 300_000,
  }, async () => {
    await soakHolds('embedded', 1.75, [
      'pool-worker',
      'encoding-thread',
      'neural-runtime',
      'storage-unusable',
      'kill-9',
    ]);
  });

  it('scaled out: loses no call and charges every account exactly through PostgreSQL and Redis restarts and kill -9 of an instance', {
    skip: noPrivatePostgres || noPrivateRedis,
    timeout: 300_000,
  }, async () => {
    await soakHolds('scale-out', 1.25, ['postgres-restart', 'redis-restart', 'kill-9']);
  });
});
