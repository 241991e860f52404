import type { EngineDescriptor, EngineId } from '../engines/engine.ts';

/** What admission reads of an engine's descriptor (`EngineDescriptor.heavy`). */
export type AdmittedEngine = Pick<EngineDescriptor, 'id' | 'heavy'>;

/** Workers a heavy engine's clauses may hold at once in a pool of `size`: all but one, when there are two or more. */
export function heavyWorkersOf(size: number): number {
  return Math.max(1, size - 1);
}

/**
 * The calls `engine` takes at once in a pool of `size`: `configured[engine]` when the service sets
 * it, else its descriptor's calls per worker for each worker it may use; undefined for an engine
 * that is not heavy, which takes every call.
 */
export function callLimitOf(
  engine: AdmittedEngine,
  size: number,
  configured?: Partial<Record<EngineId, number>>,
): number | undefined {
  if (engine.heavy === undefined) return undefined;
  return configured?.[engine.id] ?? heavyWorkersOf(size) * engine.heavy.callsPerWorker;
}

/**
 * Whether a clause of `engine` may take a free worker while `busyWithIt` workers run its clauses:
 * a heavy engine leaves one worker of two or more to the other engines' first audio.
 */
export function mayTakeWorker(engine: AdmittedEngine, busyWithIt: number, size: number): boolean {
  return engine.heavy === undefined || busyWithIt < heavyWorkersOf(size);
}

/** A call admitted by `CallCount.open`: its engine counts it until it is closed. */
export interface OpenCall {
  close(): void;
}

/** Calls in flight on each heavy engine, admitted against a limit (`callLimitOf`). */
export class CallCount {
  readonly #calls = new Map<EngineId, number>();

  /** Calls open on `engine`. */
  on(engine: EngineId): number {
    return this.#calls.get(engine) ?? 0;
  }

  /**
   * Opens a call on `engine` when fewer than `limit` are open; undefined when it has as many as
   * it takes. Closing a call twice counts once.
   */
  open(engine: EngineId, limit: number): OpenCall | undefined {
    const calls = this.on(engine);
    if (calls >= limit) return undefined;
    this.#calls.set(engine, calls + 1);
    let open = true;
    return {
      close: () => {
        if (!open) return;
        open = false;
        this.#calls.set(engine, this.on(engine) - 1);
      },
    };
  }
}
