/**
 * The one engine contract. An engine lives inside a pool worker thread, where it may block;
 * the pool turns it into an async iterable with an AbortSignal for callers. A second engine
 * (neural voices) joins by implementing this interface and registering in `registry.ts`.
 */

/** Engine-specific voice settings; each engine narrows `engine` to its own id. */
export interface EngineVoice {
  readonly engine: EngineId;
}

export type EngineId = 'espeak-ng';

/** Where an engine sends audio while it synthesises, and how it learns it should stop. */
export interface ChunkSink {
  /** Mono 16-bit PCM at the engine's sample rate for this voice. The engine must not reuse the array. */
  push(samples: Int16Array): void;
  /** Read between chunks: true once the request was cancelled. */
  cancelled(): boolean;
}

export interface SpeechEngine {
  readonly id: EngineId;
  /** Output sample rate for a voice (espeak-ng: always 22050). */
  sampleRate(voice: EngineVoice): number;
  /**
   * Synthesises one clause. `input` is in the engine's input language (for espeak-ng: text,
   * possibly holding `[[...]]` phonemes). Returns when done or cancelled.
   */
  synthesize(input: string, voice: EngineVoice, sink: ChunkSink): void;
  /**
   * The phonemes the engine would speak for plain text, in IPA, for `--show phonemes`. (Phoneme
   * input needs no answer: the front-end that wrote it knows its IPA.)
   */
  phonemes(input: string, voice: EngineVoice): string;
}

/** What the registry knows about an engine without loading it. */
export interface EngineDescriptor {
  readonly id: EngineId;
  readonly name: string;
  readonly licence: string;
  /** Runs inside a worker thread only. */
  load(): Promise<SpeechEngine>;
}
