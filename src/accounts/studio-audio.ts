import { createHash, type Hash } from 'node:crypto';

/**
 * The studio's generations as fingerprints: the SHA-256 of each one's PCM (with its rate), kept a
 * day for the account it was made for, so that `POST /studio/download` encodes only audio Ijwi
 * made for that user, and is no free transcoding service for any WAV a user uploads. Only the
 * fingerprint is stored, never the audio or the text.
 */
export interface StudioAudioRepository {
  /** Records that `digest` was generated for `accountId` at `createdAt`; recording it again is harmless. */
  remember(accountId: string, digest: string, createdAt: string): Promise<void>;
  /** Whether `digest` was generated for `accountId` at or after `since`. */
  madeFor(accountId: string, digest: string, since: string): Promise<boolean>;
  /** Drops what was generated before `before`; resolves how many. */
  forgetBefore(before: string): Promise<number>;
}

/** How long a generation can be downloaded in another format after it was made. */
export const STUDIO_AUDIO_HOURS = 24;

/** The fingerprint of 16-bit PCM at `sampleRate`, fed part by part as it is produced. */
export class AudioDigest {
  readonly #hash: Hash;

  constructor(sampleRate: number) {
    this.#hash = createHash('sha256').update(`pcm_s16le/${sampleRate}/`);
  }

  update(pcm: Uint8Array): void {
    this.#hash.update(pcm);
  }

  /** The fingerprint; the digest takes no more parts after this. */
  digest(): string {
    return this.#hash.digest('hex');
  }
}

/** The fingerprint of a whole PCM buffer, as `AudioDigest` computes it part by part. */
export function audioDigest(pcm: Uint8Array, sampleRate: number): string {
  const digest = new AudioDigest(sampleRate);
  digest.update(pcm);
  return digest.digest();
}

/** Remembers the studio's generations for a day and answers whether a download is one of them. */
export class StudioAudioService {
  readonly #repository: StudioAudioRepository;
  readonly #now: () => Date;

  constructor(repository: StudioAudioRepository, now: () => Date = () => new Date()) {
    this.#repository = repository;
    this.#now = now;
  }

  /** Records a generation of `accountId`, and drops the ones past their day. */
  async remember(accountId: string, digest: string): Promise<void> {
    const now = this.#now();
    await this.#repository.remember(accountId, digest, now.toISOString());
    await this.#repository.forgetBefore(this.#dayBefore(now));
  }

  /** Whether audio with this fingerprint was generated for `accountId` in the last day. */
  madeFor(accountId: string, digest: string): Promise<boolean> {
    return this.#repository.madeFor(accountId, digest, this.#dayBefore(this.#now()));
  }

  #dayBefore(now: Date): string {
    return new Date(now.getTime() - STUDIO_AUDIO_HOURS * 3600_000).toISOString();
  }
}
