import { tokensFor } from '../accounts/billing.ts';
import { newFileId } from '../store/files/local-file-store.ts';
import type { CallBilling, CallLog } from './call-services.ts';
import { type CallResult, refused, refusingOutages } from './refusal.ts';
import { billingRefusal, type SpeechRequest } from './stream-call.ts';

// Playable URLs: a request stored at creation (nothing spoken, nothing charged), spoken and
// charged at its first fetch (`play-call.ts`), its audio kept for every later fetch. The row, not
// the URL, holds the text; its state is shared by every instance through the database.

/** The formats a playable URL can have, as its extension. */
export const playFormats = ['wav', 'mp3'] as const;

export type PlayFormat = (typeof playFormats)[number];

/** new: never spoken; speaking: a first fetch holds it; ready: its audio is stored; failed: it never will be. */
export type PlayState = 'new' | 'speaking' | 'ready' | 'failed';

/** How the stored text is read: the `tts.php` fields other than `input`. */
export interface PlayReading {
  readonly language: string;
  readonly speaker_id: number;
  readonly text_type: string;
  /** The pronunciation dictionaries the request named, as it named them (at play, the same). */
  readonly dictionaries?: readonly { readonly id: string; readonly version?: number }[];
}

export interface PlayUrlRecord {
  readonly id: string;
  readonly accountId: string;
  /** The text as sent. */
  readonly input: string;
  readonly reading: PlayReading;
  readonly format: PlayFormat;
  readonly state: PlayState;
  /** The stored audio's file id, once ready. */
  readonly fileId: string | null;
  /** When the first fetch that holds it began (ISO 8601). */
  readonly claimedAt: string | null;
  readonly createdAt: string;
  /** Whole seconds (ISO 8601). */
  readonly expiresAt: string;
}

/** Where playable URLs are kept (`store/db/play-url-repository.ts`). */
export interface PlayUrlRepository {
  /** Stores `record` unless its account already has `maxLive` URLs that expire after `now`. */
  create(record: PlayUrlRecord, maxLive: number, now: string): Promise<'created' | 'full'>;
  find(id: string): Promise<PlayUrlRecord | undefined>;
  /** Moves `id` from new to speaking, at `now`; false when another fetch moved it first. */
  claim(id: string, now: string): Promise<boolean>;
  /** Ends the claim on `id`: back to new (nothing was heard), ready with its file, or failed. */
  settle(id: string, outcome: PlaySettlement): Promise<void>;
  /** Deletes the URLs expired at `now`; resolves the files they had, to delete too. */
  removeExpired(now: string): Promise<readonly { fileId: string; format: PlayFormat }[]>;
  /** The key stored for signing; `fresh` is stored first when there is none. */
  signingKey(fresh: { id: string; secret: string }, now: string): Promise<{ id: string; secret: string }>;
}

export type PlaySettlement =
  | { readonly state: 'new' }
  | { readonly state: 'ready'; readonly fileId: string }
  | { readonly state: 'failed' };

/** The longest life of a URL: 24 hours (api-v1.md, "Playable URL"). */
export const PLAY_URL_MAX_SECONDS = 24 * 3600;
/** A URL's life when the request names none: an hour, enough for a call to fetch it. */
export const PLAY_URL_DEFAULT_SECONDS = 3600;
/**
 * A first fetch speaks for at most this long (the longest text, read at a listener's pace, is
 * about a quarter of it); a claim older than this was left by an instance that stopped, and its
 * URL is failed.
 */
export const PLAY_CLAIM_STALE_MS = 60 * 60_000;
/** How often a fetch that waits for another's first fetch looks at the row again. */
const WAIT_POLL_MS = 200;

export interface PlayUrlSettings {
  /** URLs an account may have unexpired at once. */
  readonly maxPerAccount: number;
  /** The token rule, for the balance check at creation. */
  readonly charsPerToken: number;
  readonly now?: () => Date;
}

/** What is asked of a new URL. */
export interface NewPlayUrl {
  readonly input: string;
  readonly reading: PlayReading;
  readonly format: PlayFormat;
  /** How the text reads now: its tokens and audio bound for the balance check. */
  readonly speech: SpeechRequest;
  readonly lifetimeSeconds: number;
}

/** Creates, finds and settles playable URLs; the speaking is `play-call.ts`'s. */
export class PlayUrls {
  readonly #repository: PlayUrlRepository;
  readonly #billing: Pick<CallBilling, 'precheck'>;
  readonly #settings: PlayUrlSettings;
  readonly #now: () => Date;
  readonly #waits = new Map<string, Promise<PlayUrlRecord | undefined>>();

  constructor(
    repository: PlayUrlRepository,
    billing: Pick<CallBilling, 'precheck'>,
    settings: PlayUrlSettings,
  ) {
    this.#repository = repository;
    this.#billing = billing;
    this.#settings = settings;
    this.#now = settings.now ?? (() => new Date());
  }

  /**
   * Stores a URL's request for `accountId`. Refused, for free, when the account could not pay
   * for it now (the first fetch checks again and charges), or already has its most URLs alive.
   */
  async create(
    accountId: string,
    request: NewPlayUrl,
    log: CallLog,
  ): Promise<CallResult<{ record: PlayUrlRecord }>> {
    return refusingOutages(log, async () => {
      const { speech } = request;
      const tokens = tokensFor(speech.document.spokenCharacters, this.#settings.charsPerToken);
      const precheck = await this.#billing.precheck(accountId, tokens, speech.maxSeconds, {
        language: speech.voice.language,
      });
      if (!precheck.ok) return refused(billingRefusal(precheck));
      const now = this.#now();
      const expires = Math.floor(now.getTime() / 1000) + request.lifetimeSeconds;
      const record: PlayUrlRecord = {
        id: newFileId(),
        accountId,
        input: request.input,
        reading: request.reading,
        format: request.format,
        state: 'new',
        fileId: null,
        claimedAt: null,
        createdAt: now.toISOString(),
        expiresAt: new Date(expires * 1000).toISOString(),
      };
      const created = await this.#repository.create(record, this.#settings.maxPerAccount, now.toISOString());
      if (created === 'full')
        return refused({ code: 'too_many_play_urls', limit: this.#settings.maxPerAccount });
      return { ok: true, record };
    });
  }

  /** The URL's row, when it is the one `id`, `format` and `expiresAt` were signed for. */
  async find(claims: {
    id: string;
    format: PlayFormat;
    expiresAt: Date;
  }): Promise<PlayUrlRecord | undefined> {
    const record = await this.#repository.find(claims.id);
    if (record === undefined || record.format !== claims.format) return undefined;
    if (Date.parse(record.expiresAt) !== claims.expiresAt.getTime()) return undefined;
    return this.#withStaleClaims(record);
  }

  /** Takes the URL's first fetch; false when another fetch has it. */
  claim(id: string): Promise<boolean> {
    return this.#repository.claim(id, this.#now().toISOString());
  }

  settle(id: string, outcome: PlaySettlement): Promise<void> {
    return this.#repository.settle(id, outcome);
  }

  /**
   * The row once no first fetch holds it, or as it is after `ms`. Fetches of one URL on this
   * instance share one look at the database per poll, however many wait.
   */
  waitWhileSpeaking(record: PlayUrlRecord, ms: number): Promise<PlayUrlRecord | undefined> {
    const waiting = this.#waits.get(record.id);
    if (waiting) return waiting;
    const poll = async () => {
      const deadline = Date.now() + ms;
      let now: PlayUrlRecord | undefined = record;
      while (now?.state === 'speaking' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
        const found = await this.#repository.find(record.id);
        now = found && this.#withStaleClaims(found);
      }
      return now;
    };
    const wait = poll().finally(() => this.#waits.delete(record.id));
    this.#waits.set(record.id, wait);
    return wait;
  }

  /** Deletes the expired URLs and their stored audio; resolves how many. */
  async sweep(deleteFile: (fileId: string, format: PlayFormat) => Promise<void>): Promise<number> {
    const removed = await this.#repository.removeExpired(this.#now().toISOString());
    for (const { fileId, format } of removed) await deleteFile(fileId, format);
    return removed.length;
  }

  #withStaleClaims(record: PlayUrlRecord): PlayUrlRecord {
    if (record.state !== 'speaking' || record.claimedAt === null) return record;
    const stale = Date.parse(record.claimedAt) < this.#now().getTime() - PLAY_CLAIM_STALE_MS;
    return stale ? { ...record, state: 'failed' } : record;
  }
}
