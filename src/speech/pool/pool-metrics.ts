import type { EngineId } from '../engines/engine.ts';

// The pool's port for what it records, owned here and implemented by `metrics/`: speech never
// imports the metrics it reports to.

/** What the pool records: when each clause starts to sound, the engine time it took, and admissions. */
export interface PoolMetrics {
  /** A clause's first audio (or its first after it yielded), `lateMs` after its deadline (<= 0: on time). */
  clauseStarted(engine: EngineId, lateMs: number): void;
  /** A worker ran a clause of `engine` for `ms` (whole, cancelled, failed or until it yielded). */
  engineTime(engine: EngineId, ms: number): void;
  /** A call on an engine with a bounded number of calls (the neural voices) was admitted or refused. */
  callAdmission(engine: EngineId, admitted: boolean): void;
}

/** Records nothing: the pool's default, when no metrics are given. */
export const noPoolMetrics: PoolMetrics = {
  clauseStarted() {},
  engineTime() {},
  callAdmission() {},
};
