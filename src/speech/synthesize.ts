import type { CompressedFormat } from './audio/compressed-formats.ts';
import type { EncodingStream } from './audio/encoding-threads.ts';
import { FRAME_MS, type StreamFormat } from './audio/formats.ts';
import { Framer } from './audio/framer.ts';
import { audioBoundSeconds } from './audio-bound.ts';
import type { AccountClauses, ClauseSpec } from './cache/clause-cache.ts';
import type { EngineInput, EngineWord } from './engines/engine.ts';
import { engines, frontEndOf, ipaReaderOf } from './engines/registry.ts';
import { MAX_BREAK_MS, plainDocument, type SpeechDocument } from './input/document.ts';
import type { EnginePool, OpenCall } from './pool/engine-pool.ts';
import { bytesPerSecond, type OutputSpec } from './pool/protocol.ts';
import { defaultClauseOptions, type FirstPhrase, splitFirstPhrase } from './text/clauses.ts';
import type { FrontEnd } from './text/front-end.ts';
import type { LanguageCode } from './text/verbalizer.ts';
import type { Voice } from './voices/voices.ts';

/**
 * The audio a request asks for: a stream format of the API, the voice's own rate for WAV files,
 * or a compressed format (MP3, Ogg Opus, FLAC), encoded on the pool's encoding threads.
 */
export type AudioTarget =
  | { readonly kind: 'stream'; readonly format: StreamFormat }
  | { readonly kind: 'native' }
  | { readonly kind: 'compressed'; readonly format: CompressedFormat };

export interface SynthesisRequest {
  readonly document: SpeechDocument;
  readonly voice: Voice;
  readonly target: AudioTarget;
  /**
   * The most audio the request may produce, in seconds (see `audio-bound.ts`). Synthesis stops
   * with `AudioBoundExceeded` before any audio beyond it is yielded.
   */
  readonly maxSeconds: number;
  readonly signal?: AbortSignal;
  /**
   * When the listener needs the first audio (a `performance.now()` time); now when absent. A live
   * context's later text is due only once the audio already sent has played.
   */
  readonly dueAt?: number;
  /**
   * Nobody hears the audio while it is made (a file): its clauses wait `FILE_SLACK_MS` behind
   * streams'. By default, the voice's own rate (WAV) is taken for a file, every other target for
   * a listener.
   */
  readonly file?: boolean;
  /** Yield `words` events: each clause's word timings once its audio has been yielded. */
  readonly words?: boolean;
  /**
   * The call this synthesis belongs to, when the caller opened it (`EnginePool.openCall`: a live
   * context holds one for all its parts); otherwise synthesis opens its own, or throws `VoiceBusy`.
   */
  readonly call?: OpenCall;
  /**
   * The clause cache of the account the audio is for (`ClauseCache.forAccount`): a clause it holds
   * is not asked of the pool, and one the pool speaks whole is kept. Absent: no cache.
   */
  readonly clauses?: AccountClauses;
}

/** A plain text the service itself chose (samples, warm-up, benches) as what `synthesize` takes. */
export function plainSpeech(
  text: string,
  language: LanguageCode,
): Pick<SynthesisRequest, 'document' | 'maxSeconds'> {
  const document = plainDocument(text);
  return { document, maxSeconds: audioBoundSeconds(language, document.spokenCharacters, 'text') };
}

/** Thrown when a request's audio would pass its bound: the request fails, and is not charged. */
export class AudioBoundExceeded extends Error {
  constructor(readonly maxSeconds: number) {
    super(`the audio would be longer than the ${maxSeconds} s this input may produce`);
    this.name = 'AudioBoundExceeded';
  }
}

/**
 * Thrown before any synthesis when the voice's engine takes no more calls now (a neural voice at
 * its limit): the request fails, uncharged, and may be tried again after `retryAfterSeconds`.
 */
export class VoiceBusy extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('the voice is speaking as many calls as it can take');
    this.name = 'VoiceBusy';
  }
}

/** When a caller refused with `VoiceBusy` should try again: calls to a voice last seconds. */
const BUSY_RETRY_SECONDS = 2;

/** Opens the call a synthesis of `voice` belongs to, or throws `VoiceBusy`. */
export function openCall(pool: EnginePool, voice: Voice): OpenCall {
  const call = pool.openCall(voice.engineVoice.engine);
  if (!call) throw new VoiceBusy(BUSY_RETRY_SECONDS);
  return call;
}

/** A spoken word and when it is heard, in ms from the request's first sample. */
export interface WordTiming {
  readonly text: string;
  readonly startMs: number;
  readonly endMs: number;
}

/**
 * What the pipeline yields: whole 20 ms frames as they are ready, word timings after each clause
 * when asked for, then one summary.
 */
export type SynthesisEvent =
  | {
      readonly type: 'audio';
      readonly bytes: Uint8Array;
      /**
       * How much audio the bytes carry, in seconds: exact for PCM and G.711; for a compressed
       * format, the PCM given to the encoder since the previous audio event (an encoder holds a
       * little back, which the last event carries).
       */
      readonly seconds: number;
    }
  | { readonly type: 'words'; readonly words: readonly WordTiming[] }
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

/** One step of a request's audio: a clause for the engine, or a pause. */
type Step =
  | {
      readonly kind: 'speak';
      readonly input: EngineInput;
      readonly rate: number;
      readonly characters: number;
      /** The clause as read (normalised text), for its words; empty for phonemes a client gave. */
      readonly text: string;
    }
  | { readonly kind: 'pause'; readonly ms: number };

/**
 * A first clause of more words than this is spoken as its first phrase and the rest, for an
 * engine that analyses a clause whole before its first audio: Flite's first audio of a
 * ten-word clause waits about twice as long as a five-word phrase's (engines/flite/README.md).
 */
export const FIRST_PHRASE_MAX_WORDS = 6;

/**
 * Where the document's first clause is cut after its first phrase: only for a listener who waits
 * for the first audio now (not a file, nor a live context's later part), on an engine whose first
 * audio waits for the whole clause, in a language that says where phrases start.
 */
function firstPhraseOf(request: SynthesisRequest, frontEnd: FrontEnd): FirstPhrase | undefined {
  const { voice, target, dueAt } = request;
  const file = request.file ?? target.kind === 'native';
  const now = dueAt === undefined || dueAt <= performance.now();
  if (file || !now || engines[voice.engineVoice.engine].analysesClauseWhole !== true) return undefined;
  const { startsPhrase } = frontEnd;
  return startsPhrase && { maxWords: FIRST_PHRASE_MAX_WORDS, startsPhrase };
}

/**
 * The document as the steps the pipeline runs: clauses in engine input, pauses in ms; the first
 * clause cut after its first phrase when `firstPhrase` is given.
 */
function planOf(
  document: SpeechDocument,
  frontEnd: FrontEnd,
  voice: Voice,
  firstPhrase: FirstPhrase | undefined,
): Step[] {
  const readIpa = ipaReaderOf(voice);
  const steps: Step[] = [];
  const speak = (text: string, rate: number) => {
    const first = firstPhrase !== undefined && steps.length === 0;
    const { chunks, phraseCut } = splitFirstPhrase(
      text,
      first ? { ...defaultClauseOptions, firstPhrase } : defaultClauseOptions,
    );
    for (const [i, clause] of chunks.entries()) {
      const input = frontEnd.engineInput(clause);
      if (!input) continue;
      const goesOn = first && phraseCut && i === 0;
      steps.push({
        kind: 'speak',
        input: goesOn ? { ...input, goesOn } : input,
        rate,
        characters: clause.length,
        text: clause,
      });
    }
  };
  for (const segment of document.segments) {
    switch (segment.kind) {
      case 'text':
        speak(frontEnd.normalize(segment.text), segment.rate);
        break;
      case 'words':
        // Spelled out already, but held to the characters the voices read like any text.
        speak(frontEnd.readable(segment.text), segment.rate);
        break;
      case 'phonemes': {
        // The parser accepted it for this voice; a voice that cannot read it is a bug.
        const read = readIpa?.(segment.ipa);
        if (!read?.ok) throw new Error(`the ${voice.name} voice cannot read the IPA of a phoneme`);
        const input: EngineInput = { kind: 'phonemes', phonemes: read.phones };
        if (read.phones !== '')
          steps.push({ kind: 'speak', input, rate: segment.rate, characters: segment.ipa.length, text: '' });
        break;
      }
      case 'break':
        if (segment.ms > 0) steps.push({ kind: 'pause', ms: Math.min(segment.ms, MAX_BREAK_MS) });
        break;
    }
  }
  return steps;
}

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
  if (target.kind === 'compressed') {
    const rate = target.format.sampleRate;
    return { spec: { sampleRate: rate, encoding: 'pcm_s16le' }, frameBytes: (rate / 50) * 2, silence: 0 };
  }
  const f = target.format;
  return {
    spec: { sampleRate: f.sampleRate, encoding: f.encoding },
    frameBytes: f.bytesPerFrame,
    silence: f.silenceByte,
  };
}

/**
 * The whole pipeline as one call: speech document -> normalised text -> clauses and pauses ->
 * engine (in the pool, resampled and encoded there) -> 20 ms frames, never more than the
 * request's audio bound. The next clause is already being synthesised
 * while the current one is delivered, and no further: a reader that stops pulling stops
 * synthesis, with at most that one clause waiting for it. Each clause goes to the pool with the
 * time its listener will need it (a stream's first clause: now), so a new call's first words
 * go ahead of clauses that are only needed seconds later. Aborting the signal stops synthesis
 * and throws its reason. The synthesis is one call on the voice's engine (`request.call`, or one
 * it opens and closes): `VoiceBusy` is thrown before any work when the engine takes no more.
 * With the account's clause cache (`request.clauses`), a clause already spoken for the account is
 * delivered from it at once, byte for byte as the pool would deliver it, and the rest as above.
 */
export async function* synthesize(
  pool: EnginePool,
  request: SynthesisRequest,
): AsyncGenerator<SynthesisEvent> {
  const call = request.call ?? openCall(pool, request.voice);
  try {
    const { target } = request;
    if (target.kind === 'compressed') yield* compress(speak(pool, request), pool.openEncoder(target.format));
    else yield* speak(pool, request);
  } finally {
    if (request.call === undefined) call.close();
  }
}

/**
 * The pipeline's PCM through a stream's encoder: each part of the audio as soon as the encoder
 * gives bytes for it (MP3 frames, Ogg pages), the rest at the end. The summary is the PCM's, as
 * for every target (`bytes` 0 when nothing was spoken: then nothing is encoded either, not even
 * a container's header, so an empty stream is never taken for audio). The encoder is released
 * however the stream ends.
 */
async function* compress(
  events: AsyncGenerator<SynthesisEvent>,
  encoder: EncodingStream,
): AsyncGenerator<SynthesisEvent> {
  let ended = false;
  /** PCM seconds given to the encoder and not yet carried by an audio event. */
  let pending = 0;
  const audio = (encoded: Uint8Array): SynthesisEvent[] => {
    if (encoded.byteLength === 0) return [];
    const seconds = pending;
    pending = 0;
    return [{ type: 'audio', bytes: encoded, seconds }];
  };
  try {
    for await (const event of events) {
      if (event.type === 'audio') {
        pending += event.seconds;
        yield* audio(await encoder.encode(event.bytes));
      } else if (event.type === 'end') {
        if (event.bytes > 0) {
          ended = true;
          yield* audio(await encoder.end());
        }
        yield event;
      } else {
        yield event;
      }
    }
  } finally {
    if (!ended) encoder.drop();
  }
}

/** The pipeline itself, within the call `synthesize` holds. */
async function* speak(pool: EnginePool, request: SynthesisRequest): AsyncGenerator<SynthesisEvent> {
  const { voice, signal } = request;
  const frontEnd = frontEndOf(voice);
  const steps = planOf(request.document, frontEnd, voice, firstPhraseOf(request, frontEnd));
  const { spec, frameBytes, silence } = outputOf(request.target, voice);
  const framer = new Framer(frameBytes, silence);
  const rate = bytesPerSecond(spec);
  const maxBytes = Math.floor(request.maxSeconds * rate);
  const startedAt = request.dueAt ?? performance.now();
  let total = 0;
  /** How long a step's audio lasts at least: the next step's deadline errs early, never late. */
  const shortest = (step: Step | undefined): number => {
    if (step === undefined) return 0;
    return step.kind === 'pause' ? step.ms / 1000 : (step.characters * MIN_SECONDS_PER_CHARACTER) / step.rate;
  };
  /** When step `index` is needed: once the audio before it has played, counting from the request. */
  const deadlineOf = (index: number): number => {
    if (request.file ?? request.target.kind === 'native') return performance.now() + FILE_SLACK_MS;
    if (index === 0) return startedAt;
    // Steps before `index - 1` have all been delivered; that one is estimated.
    return startedAt + (total / rate + shortest(steps[index - 1])) * 1000;
  };
  /** The engine's words of each step, once the step is whole (engines that report words). */
  const engineWords: (readonly EngineWord[] | undefined)[] = [];
  const { clauses } = request;
  const start = (index: number): AsyncIterableIterator<Uint8Array> | undefined => {
    const step = steps[index];
    if (step === undefined) return undefined;
    if (step.kind === 'pause') return pauseOf(step.ms, frameBytes, silence);
    const job = (jobSignal: AbortSignal | undefined, onWords?: (words: readonly EngineWord[]) => void) =>
      pool.synthesize({
        input: step.input,
        voice: voice.engineVoice,
        rate: step.rate,
        gainDb: voice.gainDb ?? 0,
        output: spec,
        deadline: deadlineOf(index),
        ...(jobSignal ? { signal: jobSignal } : {}),
        ...(onWords ? { onWords } : {}),
      });
    const keepWords = (words: readonly EngineWord[] | undefined) => {
      engineWords[index] = words;
    };
    if (!clauses) return job(signal, request.words ? keepWords : undefined);
    // A clause to keep keeps its words, for a later request that asks for them.
    const clause: ClauseSpec = { input: step.input, voice, rate: step.rate, output: spec };
    return clauses.speak(clause, { signal, job, words: keepWords });
  };
  const bounded = (bytes: Uint8Array): Uint8Array => {
    if (total + bytes.byteLength > maxBytes) throw new AudioBoundExceeded(request.maxSeconds);
    total += bytes.byteLength;
    return bytes;
  };

  let next = start(0);
  /** Bytes given to the framer: where each step's audio starts. */
  let produced = 0;
  const msOf = (bytes: number) => (bytes / rate) * 1000;
  try {
    for (let i = 0; next !== undefined; i++) {
      const current = next;
      next = start(i + 1);
      const stepStart = produced;
      for await (const bytes of current) {
        produced += bytes.byteLength;
        const frames = framer.push(bytes);
        if (frames.byteLength > 0)
          yield { type: 'audio', bytes: bounded(frames), seconds: frames.byteLength / rate };
      }
      const step = steps[i];
      if (request.words && step?.kind === 'speak' && step.text !== '') {
        const words = wordTimings(step.input, step.text, engineWords[i], msOf(stepStart), msOf(produced));
        if (words.length > 0) yield { type: 'words', words };
      }
    }
  } finally {
    // Reached early only when the caller stopped or synthesis failed: the look-ahead step is not wanted.
    await next?.return?.();
  }
  const tail = framer.flush();
  if (tail.byteLength > 0) yield { type: 'audio', bytes: bounded(tail), seconds: tail.byteLength / rate };
  yield { type: 'end', seconds: total / rate, bytes: total, sampleRate: spec.sampleRate };
}

/** A word with its punctuation trimmed off; empty when it holds no letter or digit. */
function bareWord(word: string): string {
  return word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
}

/**
 * The timings of one clause's words, from `startMs` to `endMs` of the request's audio. With the
 * engine's word events: each word from its event to the next one (text input names the word by its
 * place in the text; phoneme input, one event per word, by its order among the clause's words).
 * Without them (an engine that reports none, or events that do not match the words), each word
 * gets a share of the clause's time in proportion to its length: an estimate.
 */
function wordTimings(
  input: EngineInput,
  clause: string,
  events: readonly EngineWord[] | undefined,
  startMs: number,
  endMs: number,
): WordTiming[] {
  const words = clause
    .split(/\s+/)
    .map(bareWord)
    .filter((w) => w !== '');
  const round = (ms: number) => Math.round(ms);
  const timed = (list: readonly { text: string; ms: number }[]): WordTiming[] =>
    list.map((w, i) => ({
      text: w.text,
      startMs: round(startMs + w.ms),
      endMs: round(i + 1 < list.length ? startMs + (list[i + 1]?.ms ?? 0) : endMs),
    }));
  if (events && events.length > 0) {
    if (input.kind === 'text') {
      const characters = Array.from(input.text);
      // An event may name part of a written word ("rendez" of "rendez-vous"): the word runs on to
      // the next space, unless the next event starts first.
      const named = events
        .map((e, i) => {
          let end = e.start + e.length;
          const limit = events[i + 1]?.start ?? characters.length;
          while (end < limit && !/\s/u.test(characters[end] ?? ' ')) end++;
          return { text: bareWord(characters.slice(e.start, end).join('')), ms: e.ms };
        })
        .filter((w) => w.text !== '');
      if (named.length > 0) return timed(named);
    } else if (events.length === words.length) {
      return timed(events.map((e, i) => ({ text: words[i] as string, ms: e.ms })));
    }
  }
  const weights = words.map((w) => Array.from(w).length + 1);
  const total = weights.reduce((a, b) => a + b, 0);
  let at = 0;
  return timed(
    words.map((text, i) => {
      const word = { text, ms: (at / total) * (endMs - startMs) };
      at += weights[i] ?? 0;
      return word;
    }),
  );
}

/** A pause as whole frames of the format's silence, so the frames after it stay aligned. */
async function* pauseOf(ms: number, frameBytes: number, silence: number): AsyncIterableIterator<Uint8Array> {
  yield new Uint8Array(Math.round(ms / FRAME_MS) * frameBytes).fill(silence);
}
