import type { EngineId } from '../engines/engine.ts';
import type { YieldWindow } from './protocol.ts';

// The scheduling policy, as functions over the pool's queue of clause jobs: which job a free
// worker takes, when jobs due later wait (the hold rule), and how many running jobs may give their
// worker up to a new call's first clause (the yield rule). Times are ms on the
// `performance.now()` clock. The pool (`engine-pool.ts`) owns the queue, the workers and the
// timers; nothing here starts a thread or reads a clock.

/**
 * A running job may yield its worker once it has delivered this much audio, which its listener
 * plays while the job waits, and no later than `YIELD_UNTIL_SECONDS`: the engine cannot pause,
 * so the resumed job speaks its clause from the start again and drops what was delivered, and
 * that repeated work must stay small (two seconds of audio cost a few ms with espeak-ng, about
 * 25 ms with Flite). This is what lets a burst of new calls each get its first audio without
 * waiting for whole clauses of the others. A second, not less: the interrupted job must resume
 * before its listener has played it, and with half a second (tried) a burst of 64 calls left
 * most of its streams waiting mid-sentence (`npm run bench`, bursts: late streams).
 */
export const YIELD_FROM_SECONDS = 1;
export const YIELD_UNTIL_SECONDS = 2;
/**
 * What needs no engine goes ahead of the clauses listeners need only later: while a request is
 * being accepted (one arrived within `ARRIVAL_QUIET_MS`, see `EnginePool.requestArrived`) or a
 * clause that is due waits for its first audio (a new call's first clause, queued or speaking), a
 * worker does not start a job due more than `HOLD_AHEAD_MS` from now (a call's later clause, a
 * file's) and leaves the cores to the request thread and to that first audio. A held job starts
 * once neither holds, or once it is due within `HOLD_AHEAD_MS`, whichever comes first: held, it
 * can come no closer to its listener's need than that, which is more than a clause takes with
 * its queue.
 */
export const HOLD_AHEAD_MS = 500;
export const ARRIVAL_QUIET_MS = 10;

/** What the policy reads of a job: one clause (or a phonemes look-up) for one listener. */
export interface ScheduledJob {
  /** Arrival order: of two jobs due at once, the one that came first runs first. */
  readonly id: number;
  readonly engine: EngineId;
  /** Its engine is heavy (`admission.ts`): it waits for a worker of its engine's share, never for a yield. */
  readonly heavy: boolean;
  /** When its next audio is needed; moves later by the audio it has delivered when it yields. */
  deadline: number;
  /** Of the job's output; 0 for a job without audio. */
  readonly bytesPerSecond: number;
  /** Bytes the caller has been given. */
  delivered: number;
  /**
   * When its listener began to play its audio: its first bytes, or its deadline if they came
   * sooner. A job that started late gives its listener audio from then on, not from its deadline.
   */
  playingFrom: number | undefined;
  /** True once this run of the job has sent audio; false again when it yields. */
  sounding: boolean;
}

/** True when `a` runs before `b`: the earlier deadline, then the earlier arrival. */
export function runsBefore(a: ScheduledJob, b: ScheduledJob): boolean {
  return a.deadline < b.deadline || (a.deadline === b.deadline && a.id < b.id);
}

/** Puts `job` into `queue` (soonest due first) after every job that runs before it. */
export function enqueue<J extends ScheduledJob>(queue: J[], job: J): void {
  let low = 0;
  let high = queue.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const other = queue[mid];
    if (other && runsBefore(other, job)) low = mid + 1;
    else high = mid;
  }
  queue.splice(low, 0, job);
}

/** When a job's listener runs out of the audio it has been given: a job that yielded is due again then. */
export function dueAgain(job: ScheduledJob): number {
  const from = job.playingFrom ?? job.deadline;
  return job.bytesPerSecond > 0 ? from + (job.delivered / job.bytesPerSecond) * 1000 : from;
}

/**
 * When a new job may give its worker up (in bytes delivered, `YIELD_FROM_SECONDS` to
 * `YIELD_UNTIL_SECONDS` of its audio): undefined for one that must run to its end, a job
 * without a deadline or of a heavy engine.
 */
export function yieldWindowOf(
  bytesPerSecond: number,
  job: { readonly deadline: number | undefined; readonly heavy: boolean },
): YieldWindow | undefined {
  if (job.deadline === undefined || job.heavy) return undefined;
  return { fromBytes: bytesPerSecond * YIELD_FROM_SECONDS, untilBytes: bytesPerSecond * YIELD_UNTIL_SECONDS };
}

/**
 * The hold rule: whether jobs due later than `HOLD_AHEAD_MS` wait now, because a request arrived
 * within `ARRIVAL_QUIET_MS` of `now` or a job among `running` is due and has not sounded yet.
 * (A due job still queued takes the next free worker before any later one.)
 */
export function isHolding(
  now: number,
  lastArrivalAt: number,
  running: Iterable<ScheduledJob | undefined>,
): boolean {
  if (now - lastArrivalAt < ARRIVAL_QUIET_MS) return true;
  for (const job of running) if (job !== undefined && !job.sounding && job.deadline <= now) return true;
  return false;
}

/** The latest deadline of a job that may start now: `HOLD_AHEAD_MS` ahead while holding, any otherwise. */
export function startsDueBy(now: number, holding: boolean): number {
  return holding ? now + HOLD_AHEAD_MS : Number.POSITIVE_INFINITY;
}

/**
 * Takes from `queue` the most urgent job due by `dueBy` that `mayStart` lets take a worker (a
 * heavy engine's share may be full); undefined when none.
 */
export function takeNext<J extends ScheduledJob>(
  queue: J[],
  dueBy: number,
  mayStart: (job: J) => boolean,
): J | undefined {
  const at = queue.findIndex((job) => job.deadline <= dueBy && mayStart(job));
  return at < 0 ? undefined : queue.splice(at, 1)[0];
}

/**
 * While holding with a worker free: when the first held job in `queue` may start, if one is held
 * and no event will come sooner: the end of the arrivals' quiet window, or `HOLD_AHEAD_MS` before
 * its deadline. Undefined when no job is held. (A job that sounds or ends wakes the pool itself.)
 */
export function holdEndsAt(
  queue: readonly ScheduledJob[],
  now: number,
  lastArrivalAt: number,
): number | undefined {
  const held = queue.find((job) => job.deadline > now + HOLD_AHEAD_MS);
  if (held === undefined) return undefined;
  const quietAt = lastArrivalAt + ARRIVAL_QUIET_MS;
  return Math.min(held.deadline - HOLD_AHEAD_MS, quietAt > now ? quietAt : Number.POSITIVE_INFINITY);
}

/**
 * The yield rule: how many waiting jobs a running one may give its worker up to. The jobs due by
 * `now` that have not started (a new call's first clause, as a rule), as many as `readyWorkers`
 * can run, with every other job due before an interrupted one would resume and the interrupted
 * jobs' runs again, within the audio an interrupted job leaves its listener
 * (`YIELD_FROM_SECONDS`). Past that, interrupting would only move the wait from the start of some
 * calls into the middle of others. A worker inside its job's yield window takes one and yields
 * (worker-thread.ts); an interrupted job, waiting to resume, interrupts no one: it gets the next
 * free worker when it is the most urgent, which bounds the repeated work. `cost` is a job's
 * expected worker time in ms (`CostEstimate`).
 */
export function yieldsWanted<J extends ScheduledJob>(
  queue: readonly J[],
  now: number,
  readyWorkers: number,
  cost: (job: J) => number,
): number {
  const slack = YIELD_FROM_SECONDS * 1000;
  let work = 0;
  let fresh = 0;
  let freshWork = 0;
  // Every job due before an interrupted one would have to resume runs before it.
  for (const job of queue) {
    if (job.deadline > now + slack) break;
    // A heavy engine's job waits for a worker of its own share, never for a yield.
    if (job.heavy) continue;
    const jobCost = cost(job);
    work += jobCost;
    if (job.delivered === 0 && job.deadline <= now) {
      fresh++;
      freshWork += jobCost;
    }
  }
  if (fresh === 0) return 0;
  // Each yield adds the interrupted job's run again, about as much as a waiting job's.
  const spare = slack * readyWorkers - work;
  const count = Math.floor(spare / (freshWork / fresh));
  // Not `> 0` when the waiting work leaves no spare time, nor when fresh jobs cost nothing and none is spare (NaN).
  return count > 0 ? Math.min(fresh, count) : 0;
}
