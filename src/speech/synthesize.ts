import type { StreamFormat } from './audio/formats.ts';
import { Framer } from './audio/framer.ts';
import type { EnginePool } from './pool.ts';
import { bytesPerSecond, type OutputSpec } from './pool-protocol.ts';
import { splitClauses } from './text/clauses.ts';
import { frontEndFor } from './text/front-end.ts';
import type { Voice } from './voices.ts';

/** The audio a request asks for: a stream format of the API, or the voice's own rate for WAV files. */
export type AudioTarget =
  | { readonly kind: 'stream'; readonly format: StreamFormat }
  | { readonly kind: 'native' };

export interface SynthesisRequest {
  readonly text: string;
  readonly voice: Voice;
  readonly target: AudioTarget;
  readonly signal?: AbortSignal;
}

/** What the pipeline yields: whole 20 ms frames as they are ready, then one summary. */
export type SynthesisEvent =
  | { readonly type: 'audio'; readonly bytes: Uint8Array }
  | { readonly type: 'end'; readonly seconds: number; readonly bytes: number; readonly sampleRate: number };

/**
 * No voice reads faster than this (they take 0.06-0.09 s per character), so a clause's audio
 * lasts at least this long per character: the next clause's deadline errs early, never late.
 */
const MIN_SECONDS_PER_CHARACTER = 0.05;
/**
 * Nobody listens to a WAV file while it is made: its clauses are due this long after they are
 * queued, so a live stream's next audio goes first unless the file has waited as long.
 */
const FILE_SLACK_MS = 1000;

function outputOf(
  target: AudioTarget,
  voice: Voice,
): { spec: OutputSpec; frameBytes: number; silence: number } {
  if (target.kind === 'native') {
    const samplesPer20ms = Math.round(voice.sampleRate / 50);
    return {
      spec: { sampleRate: voice.sampleRate, encoding: 'pcm_s16le' },
      frameBytes: samplesPer20ms * 2,
      silence: 0,
    };
  }
  const f = target.format;
  return {
    spec: { sampleRate: f.sampleRate, encoding: f.encoding },
    frameBytes: f.bytesPerFrame,
    silence: f.silenceByte,
  };
}

/**
 * The whole pipeline as one call: text -> normalised text -> clauses -> engine (in the pool,
 * resampled and encoded there) -> 20 ms frames. The next clause is already being synthesised
 * while the current one is delivered, and no further: a reader that stops pulling stops
 * synthesis, with at most that one clause waiting for it. Each clause goes to the pool with the
 * time its listener will need it (a stream's first clause: now), so a new call's first words
 * go ahead of clauses that are only needed seconds later. Aborting the signal stops synthesis
 * and throws its reason.
 */
export async function* synthesize(
  pool: EnginePool,
  request: SynthesisRequest,
): AsyncGenerator<SynthesisEvent> {
  const { voice, signal } = request;
  const frontEnd = frontEndFor(voice.language);
  const clauses = splitClauses(frontEnd.normalize(request.text));
  const { spec, frameBytes, silence } = outputOf(request.target, voice);
  const framer = new Framer(frameBytes, silence);
  const rate = bytesPerSecond(spec);
  const startedAt = performance.now();
  let total = 0;
  /** When clause `index` is needed: once the audio before it has played, counting from the request. */
  const deadlineOf = (index: number): number => {
    if (request.target.kind === 'native') return performance.now() + FILE_SLACK_MS;
    if (index === 0) return startedAt;
    // Clauses before `index - 1` have all been delivered; that one is estimated from its text.
    const previous = (clauses[index - 1]?.length ?? 0) * MIN_SECONDS_PER_CHARACTER;
    return startedAt + (total / rate + previous) * 1000;
  };
  const start = (index: number) => {
    const clause = clauses[index];
    if (clause === undefined) return undefined;
    return pool.synthesize({
      input: frontEnd.engineInput(clause),
      voice: voice.engineVoice,
      output: spec,
      deadline: deadlineOf(index),
      ...(signal ? { signal } : {}),
    });
  };

  let next = start(0);
  try {
    for (let i = 0; next !== undefined; i++) {
      const current = next;
      next = start(i + 1);
      for await (const bytes of current) {
        const frames = framer.push(bytes);
        if (frames.byteLength > 0) {
          total += frames.byteLength;
          yield { type: 'audio', bytes: frames };
        }
      }
    }
  } finally {
    // Reached early only when the caller stopped or synthesis failed: the look-ahead clause is not wanted.
    await next?.return();
  }
  const tail = framer.flush();
  if (tail.byteLength > 0) {
    total += tail.byteLength;
    yield { type: 'audio', bytes: tail };
  }
  yield { type: 'end', seconds: total / rate, bytes: total, sampleRate: spec.sampleRate };
}
