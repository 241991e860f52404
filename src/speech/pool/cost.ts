import type { EngineId } from '../engines/engine.ts';

/** Worker time per input character before any is measured (about 8 ms for a 40-character clause). */
export const INITIAL_MS_PER_CHARACTER = 0.2;
/** Weight of each new measurement in the moving average of worker time per character. */
export const COST_SMOOTHING = 0.05;

/**
 * How long a clause will hold a worker: worker time per input character, by engine (Flite's
 * clauses cost several times espeak-ng's), a moving average of whole runs. The yield rule reads
 * it to tell whether the waiting work fits in the audio an interrupted listener has in hand.
 */
export class CostEstimate {
  readonly #msPerCharacter = new Map<EngineId, number>();

  /** Worker time per input character on `engine`, in ms. */
  msPerCharacter(engine: EngineId): number {
    return this.#msPerCharacter.get(engine) ?? INITIAL_MS_PER_CHARACTER;
  }

  /** The worker time a clause of `characters` on `engine` is expected to take, in ms. */
  of(engine: EngineId, characters: number): number {
    return characters * this.msPerCharacter(engine);
  }

  /**
   * A whole run of a clause of `characters` on `engine` took `ms` of worker time. Only whole runs
   * measure: a cancelled or interrupted one stopped partway.
   */
  record(engine: EngineId, characters: number, ms: number): void {
    if (characters <= 0) return;
    const average = this.msPerCharacter(engine);
    this.#msPerCharacter.set(engine, average + COST_SMOOTHING * (ms / characters - average));
  }
}
