import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EngineId } from '../../../src/speech/engines/engine.ts';
import {
  ARRIVAL_QUIET_MS,
  dueAgain,
  enqueue,
  HOLD_AHEAD_MS,
  holdEndsAt,
  isHolding,
  type ScheduledJob,
  startsDueBy,
  takeNext,
  YIELD_FROM_SECONDS,
  YIELD_UNTIL_SECONDS,
  yieldsWanted,
  yieldWindowOf,
} from '../../../src/speech/pool/schedule.ts';

// The pool's scheduling policy as functions over a queue: no worker thread starts here, and
// every time is given, never read from a clock.

/** µ-law at 8 kHz: a byte a sample, 8000 bytes a second of audio. */
const RATE = 8000;
const NOW = 10_000;
let nextId = 1;

function job(deadline: number, fields: Partial<ScheduledJob> = {}): ScheduledJob {
  return {
    id: nextId++,
    engine: 'espeak-ng',
    heavy: false,
    deadline,
    bytesPerSecond: RATE,
    delivered: 0,
    playingFrom: undefined,
    sounding: false,
    ...fields,
  };
}

function queueOf(...jobs: ScheduledJob[]): ScheduledJob[] {
  const queue: ScheduledJob[] = [];
  for (const each of jobs) enqueue(queue, each);
  return queue;
}

/** Every job costs 100 ms of worker time: ten fit in the second an interrupted listener has. */
const hundredMs = () => 100;

describe('the queue: earliest due first', () => {
  it('runs the job due soonest first, whatever the order they came in', () => {
    const later = job(NOW + 800);
    const soonest = job(NOW - 5);
    const middle = job(NOW + 200);
    assert.deepEqual(queueOf(later, soonest, middle), [soonest, middle, later]);
  });

  it('runs jobs due at the same time in the order they came', () => {
    const first = job(NOW);
    const second = job(NOW);
    const third = job(NOW);
    assert.deepEqual(queueOf(first, third, second), [first, second, third]);
  });

  it('gives a free worker the most urgent job its engine may run, and leaves the rest queued', () => {
    const heavy = job(NOW - 10, { engine: 'neural', heavy: true });
    const light = job(NOW);
    const queue = queueOf(light, heavy);
    const taken = takeNext(queue, Number.POSITIVE_INFINITY, (next) => !next.heavy);
    assert.equal(taken, light);
    assert.deepEqual(queue, [heavy]);
    assert.equal(
      takeNext(queue, Number.POSITIVE_INFINITY, () => false),
      undefined,
    );
  });

  it('makes a job that yielded due again when its listener has played what it was given', () => {
    const yielded = job(NOW, { playingFrom: NOW + 40, delivered: RATE * 1.5 });
    assert.equal(dueAgain(yielded), NOW + 40 + 1500);
    assert.equal(
      dueAgain(job(NOW, { delivered: RATE })),
      NOW + 1000,
      'from its deadline when it never played',
    );
    assert.equal(dueAgain(job(NOW, { bytesPerSecond: 0, delivered: 0 })), NOW, 'a job without audio');
  });
});

describe('the hold rule', () => {
  it('holds later jobs for a moment after a request arrives, then lets them go', () => {
    assert.equal(isHolding(NOW, NOW - ARRIVAL_QUIET_MS + 1, []), true);
    assert.equal(isHolding(NOW, NOW - ARRIVAL_QUIET_MS, []), false);
  });

  it('holds later jobs while a due job runs to its first audio, and not once it sounds', () => {
    const speaking = job(NOW - 1);
    assert.equal(isHolding(NOW, Number.NEGATIVE_INFINITY, [undefined, speaking]), true);
    speaking.sounding = true;
    assert.equal(isHolding(NOW, Number.NEGATIVE_INFINITY, [undefined, speaking]), false);
    const ahead = job(NOW + 100);
    assert.equal(
      isHolding(NOW, Number.NEGATIVE_INFINITY, [ahead]),
      false,
      'a running job not yet due holds nothing',
    );
  });

  it('starts no job due more than half a second out while holding, and any job otherwise', () => {
    const due = job(NOW);
    const within = job(NOW + HOLD_AHEAD_MS);
    const beyond = job(NOW + HOLD_AHEAD_MS + 1);
    const queue = queueOf(beyond, within, due);
    const holdingDueBy = startsDueBy(NOW, true);
    assert.equal(
      takeNext(queue, holdingDueBy, () => true),
      due,
    );
    assert.equal(
      takeNext(queue, holdingDueBy, () => true),
      within,
    );
    assert.equal(
      takeNext(queue, holdingDueBy, () => true),
      undefined,
      'the later clause is held',
    );
    assert.equal(
      takeNext(queue, startsDueBy(NOW, false), () => true),
      beyond,
    );
  });

  it('wakes for a held job when the arrivals fall quiet, or half a second before it is due', () => {
    const held = job(NOW + 2000);
    const queue = queueOf(job(NOW), held);
    assert.equal(holdEndsAt(queue, NOW, NOW - 4), NOW - 4 + ARRIVAL_QUIET_MS, 'the quiet window ends first');
    assert.equal(
      holdEndsAt(queue, NOW, Number.NEGATIVE_INFINITY),
      held.deadline - HOLD_AHEAD_MS,
      'held by a first audio only: when it comes within half a second',
    );
    const soon = job(NOW + HOLD_AHEAD_MS + 3);
    assert.equal(
      holdEndsAt(queueOf(soon, held), NOW, NOW),
      soon.deadline - HOLD_AHEAD_MS,
      'whichever is sooner',
    );
    assert.equal(holdEndsAt(queueOf(job(NOW + 100)), NOW, NOW), undefined, 'no job is held');
  });
});

describe('the yield rule', () => {
  it('lets a running job yield from one second of audio to two, unless it has no deadline or a heavy engine', () => {
    assert.deepEqual(yieldWindowOf(RATE, { deadline: NOW, heavy: false }), {
      fromBytes: RATE * YIELD_FROM_SECONDS,
      untilBytes: RATE * YIELD_UNTIL_SECONDS,
    });
    assert.equal(yieldWindowOf(RATE, { deadline: undefined, heavy: false }), undefined);
    assert.equal(yieldWindowOf(RATE, { deadline: NOW, heavy: true }), undefined);
  });

  it('asks for a yield for each new call’s first clause that is due and waits', () => {
    const queue = queueOf(job(NOW), job(NOW - 20), job(NOW + 5000));
    assert.equal(yieldsWanted(queue, NOW, 2, hundredMs), 2);
  });

  it('asks for none when no first clause is due: a clause due later, or one that already sounded', () => {
    assert.equal(yieldsWanted(queueOf(job(NOW + 300)), NOW, 2, hundredMs), 0);
    assert.equal(yieldsWanted(queueOf(job(NOW - 1, { delivered: RATE })), NOW, 2, hundredMs), 0);
    assert.equal(yieldsWanted([], NOW, 2, hundredMs), 0);
  });

  it('asks for no more yields than everything due before an interrupted job would resume fits in a second', () => {
    // One worker: a second of its time. Eight fresh clauses of 100 ms and two resumed ones of
    // 100 ms due within the second leave no room for the interrupted jobs' runs again.
    const fresh = Array.from({ length: 8 }, () => job(NOW));
    const resuming = [job(NOW + 300, { delivered: RATE }), job(NOW + 900, { delivered: RATE })];
    assert.equal(yieldsWanted(queueOf(...fresh, ...resuming), NOW, 1, hundredMs), 0);
    // Two workers: two seconds, 1000 ms of it waiting work, room for ten runs of 100 ms, but only eight are fresh.
    assert.equal(yieldsWanted(queueOf(...fresh, ...resuming), NOW, 2, hundredMs), 8);
    // Costlier first clauses, 150 ms each, leave room for fewer.
    const cost = (each: ScheduledJob) => (each.delivered === 0 ? 150 : 100);
    assert.equal(yieldsWanted(queueOf(...fresh, ...resuming), NOW, 2, cost), 4);
  });

  it('leaves a heavy engine’s clauses out: they wait for a worker of their own share', () => {
    const neural = (deadline: number) => job(deadline, { engine: 'neural' as EngineId, heavy: true });
    assert.equal(yieldsWanted(queueOf(neural(NOW), neural(NOW)), NOW, 2, hundredMs), 0);
    assert.equal(yieldsWanted(queueOf(neural(NOW), job(NOW)), NOW, 2, hundredMs), 1);
  });

  it('asks for none when the fresh clauses cost nothing and no time is spare', () => {
    assert.equal(
      yieldsWanted(queueOf(job(NOW)), NOW, 0, () => 0),
      0,
    );
    assert.equal(
      yieldsWanted(queueOf(job(NOW), job(NOW)), NOW, 1, () => 0),
      2,
    );
  });
});
