import type { EngineId, SpeechEngine } from '../../src/speech/engines/engine.ts';
import { engines, frontEndOf } from '../../src/speech/engines/registry.ts';
import { splitClauses } from '../../src/speech/text/clauses.ts';
import type { Voice } from '../../src/speech/voices/voices.ts';

// A voice's engine run in this thread, without the pool: its samples exactly as it pushes them,
// before the level stage, the resampler or an encoder touch them. For tests and benches of the
// audio path's stages on real speech.

const loaded = new Map<EngineId, Promise<SpeechEngine>>();

/** The engine of `voice`, loaded once per process (its first synthesis also compiles its code). */
function engineOf(voice: Voice): Promise<SpeechEngine> {
  const descriptor = engines[voice.engineVoice.engine];
  let engine = loaded.get(descriptor.id);
  if (!engine) {
    engine = (async () => descriptor.load(await descriptor.prepare?.()))();
    loaded.set(descriptor.id, engine);
  }
  return engine;
}

/**
 * `texts` read by `voice` as a request reads plain text (normalised, cut into clauses) at its
 * normal rate: for each clause, the chunks the engine pushed, in order.
 */
export async function engineClauses(voice: Voice, texts: readonly string[]): Promise<Int16Array[][]> {
  const engine = await engineOf(voice);
  const frontEnd = frontEndOf(voice);
  const clauses: Int16Array[][] = [];
  for (const text of texts) {
    for (const clause of splitClauses(frontEnd.normalize(text))) {
      const input = frontEnd.engineInput(clause);
      if (!input) continue;
      const chunks: Int16Array[] = [];
      await engine.synthesize(input, voice.engineVoice, 1, {
        push: (samples) => void chunks.push(samples.slice()),
        cancelled: () => false,
      });
      clauses.push(chunks);
    }
  }
  return clauses;
}
