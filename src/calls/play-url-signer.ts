import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type PlayFormat, playFormats } from './play-urls.ts';

// What a playable URL says, and the HMAC-SHA-256 that vouches for it. The URL's last path segment
// is `<id>.<expires>.<key id>.<signature>.<format>`: the row's id (22 base62 characters), the
// expiry in Unix seconds, which key signed it, the signature over all of that, and the format as
// the extension players go by (Asterisk picks its reader from it). The text is in the row, never
// in the URL.

/** The key URLs are signed with; `id` goes in the URL, so a new key can replace an old one. */
export interface PlayUrlKey {
  readonly id: string;
  readonly secret: Uint8Array;
}

/** What a URL says, once its signature is checked. */
export interface PlayUrlClaims {
  readonly id: string;
  /** Whole seconds. */
  readonly expiresAt: Date;
  readonly format: PlayFormat;
}

const NAME = new RegExp(
  `^([0-9A-Za-z]{22})\\.([0-9]{1,12})\\.([0-9A-Za-z]{1,16})\\.([A-Za-z0-9_-]{43})\\.(${playFormats.join('|')})$`,
);

/** Signs the URLs' claims and checks them in constant time. */
export class PlayUrlSigner {
  readonly #key: PlayUrlKey;

  constructor(key: PlayUrlKey) {
    this.#key = key;
  }

  /** The URL's last path segment for `claims`. */
  name(claims: PlayUrlClaims): string {
    const expires = String(Math.floor(claims.expiresAt.getTime() / 1000));
    const signature = this.#mac(claims.id, expires, claims.format).toString('base64url');
    return `${claims.id}.${expires}.${this.#key.id}.${signature}.${claims.format}`;
  }

  /**
   * The claims of `name`, or undefined when it is malformed, signed by another key, or altered
   * in any part: a forged or altered URL cannot be told from an unknown one.
   */
  verify(name: string): PlayUrlClaims | undefined {
    const parts = NAME.exec(name);
    if (parts === null) return undefined;
    const [, id, expires, keyId, signature, format] = parts as unknown as [
      string,
      string,
      string,
      string,
      string,
      PlayFormat,
    ];
    if (keyId !== this.#key.id) return undefined;
    // Compared as text: a signature's last character has bits no byte uses, and a name with them
    // changed would decode to the same bytes (two names, and a test, for one URL).
    const given = Buffer.from(signature, 'latin1');
    const expected = Buffer.from(this.#mac(id, expires, format).toString('base64url'), 'latin1');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return { id, expiresAt: new Date(Number(expires) * 1000), format };
  }

  #mac(id: string, expires: string, format: string): Buffer {
    return createHmac('sha256', this.#key.secret)
      .update(`ijwi-play-url-v1\n${this.#key.id}\n${id}\n${expires}\n${format}`)
      .digest();
  }
}

/** The operator's key (PLAY_URL_SECRET): its id is a digest of it, so every instance agrees. */
export function configuredPlayUrlKey(secret: string): PlayUrlKey {
  const digest = createHash('sha256').update(`ijwi-play-url-key-id\n${secret}`).digest('hex');
  return { id: `c${digest.slice(0, 10)}`, secret: Buffer.from(secret, 'utf8') };
}

/** The key kept in the database (`PlayUrlRepository.signingKey`) as the signer takes it. */
export function storedPlayUrlKey(stored: { readonly id: string; readonly secret: string }): PlayUrlKey {
  return { id: stored.id, secret: Buffer.from(stored.secret, 'utf8') };
}

/** A new random key (256 bits), for a deployment whose operator configures none. */
export function freshPlayUrlKey(): { readonly id: string; readonly secret: string } {
  return { id: `k${randomBytes(6).toString('hex')}`, secret: randomBytes(32).toString('base64url') };
}
