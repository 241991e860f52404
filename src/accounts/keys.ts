import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** Every key starts with this, so leaked keys are easy to scan for in code and logs. */
export const API_KEY_PREFIX = 'ijwi_sk_';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// 28 base62 characters carry 28 x log2(62) = 166.7 random bits. The hint shows the last 4 key
// characters, which are checksum digits: they reveal about 24 bits of a CRC, a linear function of
// the secret, so at most 24 bits are lost and over 142 remain, above the 128 the contract asks.
const SECRET_LENGTH = 28;
// CRC-32 is below 2^32 < 62^6, so six base62 digits hold any value.
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${SECRET_LENGTH + CHECKSUM_LENGTH}}$`);
const HINT_TAIL = 4;

/** A freshly made key: `key` is shown to its owner once; only `hash` and `hint` are stored. */
export interface GeneratedApiKey {
  readonly key: string;
  readonly hash: string;
  readonly hint: string;
}

function toBase62(value: number, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = BASE62.charAt(rest % 62) + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(48)) {
      // Only bytes below 248 = 4 x 62 are used, so every character is equally likely.
      if (byte < 248 && out.length < length) out += BASE62.charAt(byte % 62);
    }
  }
  return out;
}

// A CRC, unlike a truncated hash, catches every error confined to 32 consecutive bits, so any
// one mistyped or swapped-adjacent character is always caught.
function checksumOf(body: string): string {
  return toBase62(crc32(body), CHECKSUM_LENGTH);
}

/**
 * Makes a new API key: `ijwi_sk_`, 28 random base62 characters (about 167 bits from the system
 * CSPRNG) and a 6-character base62 CRC-32 of everything before it. Returns the key (to show once),
 * its SHA-256 hash (to store and look up) and its display hint.
 */
export function generateApiKey(): GeneratedApiKey {
  const body = API_KEY_PREFIX + randomBase62(SECRET_LENGTH);
  const key = body + checksumOf(body);
  return { key, hash: hashApiKey(key), hint: apiKeyHint(key) };
}

/**
 * Whether `key` has the shape of an Ijwi key and its checksum matches. Runs without the database,
 * so typos, truncated pastes and made-up strings are refused cheaply. The checksum is not a
 * secret and does not stop a forger: that is the job of the random part.
 */
export function hasValidChecksum(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const body = key.slice(0, key.length - CHECKSUM_LENGTH);
  return checksumOf(body) === key.slice(key.length - CHECKSUM_LENGTH);
}

/**
 * The stored form of a key: SHA-256, hex. A fast unsalted hash is right here, unlike for
 * passwords: a key has over 128 random bits, so no dictionary or brute-force search of the
 * preimage is feasible however fast the hash, and a slow hash (bcrypt, scrypt, argon2) would add
 * tens of milliseconds to every API request. Being deterministic, it lets the database find the
 * key by an index on the hash.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** What a dashboard shows for a key: the prefix and the last 4 characters (`ijwi_sk_…a1B2`). */
export function apiKeyHint(key: string): string {
  return `${API_KEY_PREFIX}…${key.slice(-HINT_TAIL)}`;
}

/**
 * Compares two hex hashes in time that does not depend on where they first differ, so response
 * timing cannot be used to learn a stored hash byte by byte.
 */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
