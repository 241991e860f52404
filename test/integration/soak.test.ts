import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runSoak } from '../../bench/soak/soak.ts';

// The soak bench (bench/soak/) compressed into a minute: the service started as `npm start`
// starts it, receptionist-like callers on 127.0.0.1 (streams in every telephony format, OpenAI
// calls in every format, file requests, live contexts, hang-ups, a burst), while an engine worker
// thread and the encoding thread are ended and the file store is unusable for 8 s. What must hold
// on any machine, however slow: every call got its audio or a clear error, and every account was
// charged exactly what its clients received. The hour-long run with every fault is the bench.

describe('a short soak through a worker death, an encoding thread death and a file store outage', () => {
  it('loses no call and charges every account exactly for the audio its clients received', {
    timeout: 150_000,
  }, async () => {
    const report = await runSoak({
      minutes: 1,
      mode: 'embedded',
      faults: ['pool-worker', 'encoding-thread', 'storage-unusable'],
      outageMs: 8_000,
    });
    assert.deepEqual(
      report.faults.map((f) => ({ fault: f.fault, hit: f.hit, recovered: f.recoveryMs !== null })),
      [
        { fault: 'pool-worker', hit: true, recovered: true },
        { fault: 'encoding-thread', hit: true, recovered: true },
        { fault: 'storage-unusable', hit: true, recovered: true },
      ],
    );
    assert.equal(report.calls.lost, 0, `lost calls: ${JSON.stringify(report.calls.lostCodes)}`);
    assert.ok(report.calls.completed >= 20, `only ${report.calls.completed} calls completed`);
    const counted = report.ledger.reduce((sum, account) => sum + account.countedCalls, 0);
    assert.ok(counted >= 10, `only ${counted} calls whose seconds the client could count`);
    for (const account of report.ledger) {
      const figures = JSON.stringify(account);
      assert.equal(account.unmatched, 0, `audio without a charge, or a charge without audio: ${figures}`);
      // Exact, but for a live context an ended worker cut after its audio began: its bill is the
      // parts it had started, which its client cannot know, between one token and its whole text.
      assert.ok(
        account.tokensCharged >= account.tokensExpectedAtLeast &&
          account.tokensCharged <= account.tokensExpected,
        figures,
      );
      if (account.liveCut === 0) assert.equal(account.tokensCharged, account.tokensExpected, figures);
      assert.equal(account.secondsLedger, account.secondsHeard, figures);
    }
  });
});
