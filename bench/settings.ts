/** How much of each scenario a run does: the full run for figures, a quick one to try the bench. */
export interface BenchSettings {
  readonly quick: boolean;
  /** Passes over every turn, one stream at a time. */
  readonly sequentialPasses: number;
  readonly burstSizes: readonly number[];
  /** Bursts of each size; the percentiles pool their calls. */
  readonly burstRepeats: number;
  /** Arrival rates of the sustained scenario, in new calls per second, lowest first. */
  readonly sustainedRates: readonly number[];
  /** The same for English turns only (Flite, several times espeak-ng's CPU per second of audio). */
  readonly englishSustainedRates: readonly number[];
  readonly sustainedSeconds: number;
  /** The ladder stops after this many failing rates in a row. */
  readonly sustainedStopAfterFailures: number;
  readonly fileCharacters: number;
  readonly fileRepeats: number;
  /** Rounds of "drop long streams, then call": how fast a hang-up frees the workers. */
  readonly hangUpRepeats: number;
  /** Live sockets at once, each streaming one reply word by word. */
  readonly liveSockets: readonly number[];
  /** Calls of the fresh-connection bursts. */
  readonly freshBurstSizes: readonly number[];
  /** The engines scenario (`engines.ts`): turns of each language spoken one at a time per engine. */
  readonly engineTurns: number;
  /** Its ladder of calls at once, lowest first; it stops at the first that makes a listener wait. */
  readonly engineCalls: readonly number[];
  /** Each engine's ladder takes no further step once it has run this long. */
  readonly engineLadderSeconds: number;
  /** The greeting scenario (`greeting.ts`): calls of a burst, and bursts on each side. */
  readonly greetingBurstSize: number;
  readonly greetingRounds: number;
}

export function benchSettings(quick: boolean): BenchSettings {
  const common = {
    burstSizes: [16, 64, 128, 256],
    fileCharacters: 10_000,
    liveSockets: [1, 64],
    freshBurstSizes: [64, 128],
    greetingBurstSize: 64,
  };
  if (quick) {
    return {
      ...common,
      quick,
      sequentialPasses: 1,
      burstRepeats: 1,
      sustainedRates: [20, 50, 80],
      englishSustainedRates: [10, 20],
      sustainedSeconds: 3,
      sustainedStopAfterFailures: 3,
      fileRepeats: 1,
      hangUpRepeats: 3,
      engineTurns: 10,
      engineCalls: [1, 2, 4, 8, 16],
      engineLadderSeconds: 5,
      greetingRounds: 1,
    };
  }
  return {
    ...common,
    quick,
    sequentialPasses: 3,
    burstRepeats: 3,
    sustainedRates: [20, 40, 70, 100, 130, 160, 190, 220, 250, 280],
    englishSustainedRates: [10, 20, 30, 40, 50, 60, 70],
    sustainedSeconds: 12,
    sustainedStopAfterFailures: 2,
    fileRepeats: 3,
    hangUpRepeats: 10,
    engineTurns: 30,
    engineCalls: [1, 2, 4, 8, 16, 32, 64],
    engineLadderSeconds: 12,
    greetingRounds: 3,
  };
}

/** Both the engine baseline and the service are warmed with every turn, then a burst of this many. */
export const WARM_UP_BURST = 64;

/**
 * Lateness the engines scenario spares a listener, in ms: the bench's one thread reads every
 * stream of a step, so its own event-loop delays show up as lateness, and a telephony jitter
 * buffer holds as much.
 */
export const LATE_TOLERANCE_MS = 100;

/** The targets for this bench on a 2-core machine. */
export const targets = {
  sequentialTtfbP95Ms: 30,
  burst64TtfbP95Ms: 150,
  sustainedTtfbP95Ms: 250,
  sustainedCalls: 200,
  throughputRatio: 0.85,
  fileRatio: 1.3,
  /** The memory scenario (`memory.ts`): calls in flight at once, on this many workers, at most this many MB. */
  memoryCalls: 256,
  memoryWorkers: 2,
  memoryPeakMb: 250,
  /** At most this many MB more per worker added beyond `memoryWorkers`. */
  memoryPerAddedWorkerMb: 40,
  /** A 10,000-character file, written on `memoryWorkers` workers: its peak under this many MB. */
  memoryFilePeakMb: 300,
  /** English (Flite) calls in flight in real time, first byte p95 under the sustained target. */
  englishSustainedCalls: 60,
  /** English first byte p95 at one call through HTTP against the engine's own first clause. */
  englishOneCallRatio: 2,
  /** A burst of 64 fresh calls: Ijwi's first byte p95 against the naive peer's whole-file p95. */
  freshVsPeer: 0.5,
  /** The same against the raw engine's first clause p95 for a burst of 64. */
  freshVsEngine: 1.5,
} as const;
