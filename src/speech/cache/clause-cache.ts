import { createHash } from 'node:crypto';
import { type EngineInput, type EngineWord, inputText } from '../engines/engine.ts';
import { engines } from '../engines/registry.ts';
import type { OutputSpec } from '../pool/protocol.ts';
import type { Voice } from '../voices/voices.ts';
import { type CachedClause, type ClauseJob, replayClause, SharedClause } from './cached-clause-stream.ts';

/**
 * The audio of clauses already spoken, per account, so that a phrase said on every call (a
 * receptionist's greeting, the hold message) costs no engine time after its first. Synthesis is
 * deterministic: the key (`clauseKey`) holds everything that decides a clause's bytes, so a hit
 * is byte for byte what the engine would make again. Entries are never shared between accounts:
 * a shared cache would let one customer learn, by timing, what another recently said. Entries go,
 * least recently used first and those used only once before those used again, once the bytes
 * held pass the bound; an entry being played keeps its audio when it is evicted, so eviction never
 * breaks a stream. A clause being spoken for an account is spoken once however many of its
 * requests ask for it meanwhile: they read the one job (`SharedClause`).
 */

/** What the cache has done since the service started; no text and no account in it. */
export interface ClauseCacheStats {
  /** Clauses served without engine work: from an entry, or by joining the same clause being spoken. */
  readonly hits: number;
  readonly misses: number;
  readonly evictions: number;
  /** Entries held now. */
  readonly entries: number;
  /** Bytes held now: the audio, the word timings, the keys and each entry's bookkeeping. */
  readonly bytes: number;
  /** The bound on `bytes`; 0 when the cache is off. */
  readonly maxBytes: number;
}

/**
 * What an entry costs beyond its audio, part ends, words and key characters: the map slot and the
 * entry, clause, array and typed-array objects (V8 spends about 200-300 bytes on them; counted
 * high, never low).
 */
const ENTRY_OVERHEAD_BYTES = 512;
/** A word event as a V8 object of three small integers. */
const WORD_BYTES = 64;
/** No entry may take more than this share of the bound, so one long clause cannot empty the cache. */
const LARGEST_ENTRY_SHARE = 1 / 16;
/** Of the bound, what entries used more than once may hold; the rest is for new entries. */
const PROTECTED_SHARE = 0.8;

interface Entry {
  readonly clause: CachedClause;
  readonly bytes: number;
}

/** What decides the bytes of one clause, besides the account that asks. */
export interface ClauseSpec {
  /** The clause as the engine reads it: after normalisation and the account's lexicon. */
  readonly input: EngineInput;
  readonly voice: Voice;
  /** Speaking rate as a multiple of the voice's own. */
  readonly rate: number;
  readonly output: OutputSpec;
}

/**
 * The one place a clause's key is made, from everything that decides its bytes: the account, the
 * engine input (the text after normalisation and the account's lexicon, or phonemes), the engine
 * and its version, the voice's engine settings (for a neural voice its pack's files, speaker and
 * rate), the assigned pack's id and version, the voice's calibrated gain, the speaking rate,
 * the output's sample rate and encoding, and whether the clause's sentence goes on after it. Hashed, so the cache keeps no request text and every key is the same small size.
 */
export function clauseKey(account: string, spec: ClauseSpec): string {
  const { engineVoice, pack, gainDb } = spec.voice;
  const parts = [
    account,
    engineVoice.engine,
    engines[engineVoice.engine].version,
    canonicalJson(engineVoice),
    pack ? `${pack.id}@${pack.version}` : '',
    String(gainDb ?? 0),
    spec.input.kind,
    inputText(spec.input),
    String(spec.rate),
    String(spec.output.sampleRate),
    spec.output.encoding,
    // Only where set, so the keys of every other clause stay what they were.
    ...(spec.input.goesOn ? ['goes on'] : []),
  ];
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}

/** JSON with every object's keys sorted: two equal settings give one string however they were built. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

function sizeOf(key: string, clause: CachedClause): number {
  return (
    clause.audio.byteLength +
    clause.partEnds.length * 8 +
    (clause.words?.length ?? 0) * WORD_BYTES +
    key.length * 2 +
    ENTRY_OVERHEAD_BYTES
  );
}

/** How the pipeline asks for one clause: its reader's signal, the job that speaks it, its words. */
export interface ClauseRequest {
  readonly signal?: AbortSignal | undefined;
  /** The pool job for the clause, started only when the account has it neither kept nor being spoken. */
  readonly job: ClauseJob;
  /** Given the clause's words once the whole clause has been read (at once for a kept clause). */
  readonly words: (words: readonly EngineWord[] | undefined) => void;
}

/** The cache as one account sees it: only its own entries and its own clauses being spoken. */
export interface AccountClauses {
  /** The clause's audio when this account has it; counts a hit or a miss. */
  get(spec: ClauseSpec): CachedClause | undefined;
  /** Keeps a clause's whole audio, spoken to its end and not cancelled. */
  put(spec: ClauseSpec, clause: CachedClause): void;
  /**
   * The clause's audio as the pool would deliver it: from its entry; else by joining the same
   * clause while it is being spoken for this account (a hit too: no engine work); else from
   * `request.job`, which others of the account join meanwhile and whose audio is kept once whole
   * (a miss). Aborting the signal fails the reads with its reason.
   */
  speak(spec: ClauseSpec, request: ClauseRequest): AsyncIterableIterator<Uint8Array>;
}

/** The instance's clause cache, bounded in bytes (`maxBytes`; 0 turns it off). */
export class ClauseCache {
  readonly maxBytes: number;
  /**
   * Segmented LRU: a new entry goes to `#probation`, and moves to `#protected` when it is used
   * again. Eviction takes the least recently used of probation first, so a flood of clauses said
   * once (a language model's replies) churns probation and leaves the phrases said on every call
   * in place, as plain LRU would not. Each map is in use order, the least recently used first.
   */
  readonly #probation = new Map<string, Entry>();
  readonly #protected = new Map<string, Entry>();
  /** Clauses being spoken now, by key (the account is in it: one account never joins another's). */
  readonly #speaking = new Map<string, SharedClause>();
  #bytes = 0;
  #protectedBytes = 0;
  #hits = 0;
  #misses = 0;
  #evictions = 0;

  constructor(maxBytes: number) {
    if (!Number.isInteger(maxBytes) || maxBytes < 0)
      throw new RangeError('the clause cache bound must be a whole number of bytes');
    this.maxBytes = maxBytes;
  }

  /** The cache as `account` sees it; undefined when the cache is off. */
  forAccount(account: string): AccountClauses | undefined {
    if (this.maxBytes === 0) return undefined;
    return {
      get: (spec) => this.#get(clauseKey(account, spec)),
      put: (spec, clause) => this.#put(clauseKey(account, spec), clause),
      speak: (spec, request) => this.#speak(clauseKey(account, spec), request),
    };
  }

  stats(): ClauseCacheStats {
    return {
      hits: this.#hits,
      misses: this.#misses,
      evictions: this.#evictions,
      entries: this.#probation.size + this.#protected.size,
      bytes: this.#bytes,
      maxBytes: this.maxBytes,
    };
  }

  #speak(key: string, request: ClauseRequest): AsyncIterableIterator<Uint8Array> {
    const cached = this.#get(key, { countMiss: false });
    if (cached) {
      request.words(cached.words);
      return replayClause(cached, request.signal);
    }
    const reader = { signal: request.signal, words: request.words };
    const speaking = this.#speaking.get(key);
    if (speaking?.joinable) {
      this.#hits++;
      return speaking.reader({ ...reader, copies: true });
    }
    this.#misses++;
    const shared: SharedClause = new SharedClause(
      request.job,
      (whole) => this.#put(key, whole),
      () => {
        if (this.#speaking.get(key) === shared) this.#speaking.delete(key);
      },
    );
    this.#speaking.set(key, shared);
    return shared.reader({ ...reader, copies: false });
  }

  #get(key: string, { countMiss } = { countMiss: true }): CachedClause | undefined {
    const entry = this.#protected.get(key) ?? this.#probation.get(key);
    if (entry === undefined) {
      if (countMiss) this.#misses++;
      return undefined;
    }
    this.#hits++;
    this.#remove(key);
    this.#protect(key, entry);
    return entry.clause;
  }

  #put(key: string, clause: CachedClause): void {
    const bytes = sizeOf(key, clause);
    if (bytes > this.maxBytes * LARGEST_ENTRY_SHARE) return;
    this.#remove(key);
    this.#probation.set(key, { clause, bytes });
    this.#bytes += bytes;
    while (this.#bytes > this.maxBytes) {
      const [oldest] = this.#probation.size > 0 ? this.#probation : this.#protected;
      if (oldest === undefined) break;
      this.#remove(oldest[0]);
      this.#evictions++;
    }
  }

  /** Puts an entry last in protected; the least recently used of protected past its share go back to probation. */
  #protect(key: string, entry: Entry): void {
    this.#protected.set(key, entry);
    this.#protectedBytes += entry.bytes;
    this.#bytes += entry.bytes;
    for (const [demoted, old] of this.#protected) {
      if (this.#protectedBytes <= this.maxBytes * PROTECTED_SHARE) break;
      this.#protected.delete(demoted);
      this.#protectedBytes -= old.bytes;
      this.#probation.set(demoted, old);
    }
  }

  #remove(key: string): void {
    const guarded = this.#protected.get(key);
    if (guarded !== undefined) {
      this.#protected.delete(key);
      this.#protectedBytes -= guarded.bytes;
      this.#bytes -= guarded.bytes;
      return;
    }
    const entry = this.#probation.get(key);
    if (entry === undefined) return;
    this.#probation.delete(key);
    this.#bytes -= entry.bytes;
  }
}
