import type { LanguageCode } from './verbalizer.ts';

// A pass of the normaliser that throws is a bug in that pass: a reading it cannot give is
// `undefined`, not an exception. By default the bug fails the call, so every test that reaches it
// fails; the service (`main.ts`) reports it instead, as a logged error and a metric, and the
// pass's match is left as written while every other match and pass keeps its work.

/** A pass that threw: which language and pass, and what it threw. Never the text it was reading. */
export interface NormalizationFailure {
  readonly language: LanguageCode;
  /** The pass's name (`money`, `time`, a language rule's name): a fixed set, from code. */
  readonly pass: string;
  readonly error: unknown;
}

/** What is done with a failure: throw it (the default), or record it and go on. */
export type NormalizationFailureReport = (failure: NormalizationFailure) => void;

/** Where the service counts failures, by language and pass; implemented by `metrics/`. */
export interface NormalizationMetrics {
  normalizationFailed(language: LanguageCode, pass: string): void;
}

/** Thrown by default: a pass of the normaliser failed. */
export class NormalizationPassError extends Error {
  constructor(failure: NormalizationFailure) {
    super(`normalisation pass "${failure.pass}" (${failure.language}) threw`, { cause: failure.error });
    this.name = 'NormalizationPassError';
  }
}

const strict: NormalizationFailureReport = (failure) => {
  throw new NormalizationPassError(failure);
};

// One for the process: the normalisers are built once per language when the module loads, long
// before the service has a logger or metrics to give them.
let report = strict;

/**
 * Sends the failures of every normaliser of this process to `to` instead of throwing them;
 * returns what puts the previous report back.
 */
export function reportNormalizationFailures(to: NormalizationFailureReport): () => void {
  const previous = report;
  report = to;
  return () => {
    report = previous;
  };
}

/** Reports `failure` as configured: throws by default. */
export function normalizationFailed(failure: NormalizationFailure): void {
  report(failure);
}
