import type { StreamFormat } from './audio/formats.ts';
import { Framer } from './audio/framer.ts';
import type { EnginePool } from './pool.ts';
import type { OutputSpec } from './pool-protocol.ts';
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

/** Priority of a request's first clause in the pool: ahead of the later clauses of longer replies. */
const FIRST_CLAUSE_PRIORITY = 0;
const LATER_CLAUSE_PRIORITY = 1;

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
 * while the current one is delivered. Aborting the signal stops synthesis and throws its reason.
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
  const start = (index: number) => {
    const clause = clauses[index];
    if (clause === undefined) return undefined;
    return pool.synthesize({
      input: frontEnd.engineInput(clause),
      voice: voice.engineVoice,
      output: spec,
      priority: index === 0 ? FIRST_CLAUSE_PRIORITY : LATER_CLAUSE_PRIORITY,
      ...(signal ? { signal } : {}),
    });
  };

  let total = 0;
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
  const bytesPerSecond = spec.sampleRate * (spec.encoding === 'pcm_s16le' ? 2 : 1);
  yield { type: 'end', seconds: total / bytesPerSecond, bytes: total, sampleRate: spec.sampleRate };
}
