import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/** The shortest password accepted, in characters (Unicode code points after NFKC normalisation). */
export const MIN_PASSWORD_LENGTH = 12;
/** The longest: a bound on the work one sign-in can ask of the server, far beyond any passphrase. */
export const MAX_PASSWORD_LENGTH = 256;

// scrypt with N = 2^15, r = 8: 32 MiB of memory and some 50-100 ms per hash, the cost OWASP's
// password storage cheat sheet recommends for scrypt. The memory is what makes guessing on GPUs
// and ASICs expensive; the parameters are stored with each hash, so they can be raised later
// without invalidating existing passwords.
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
// Node refuses scrypt when 128 * N * r reaches maxmem (32 MiB by default): leave headroom.
const MAX_MEMORY = 64 * 1024 * 1024;
const HASH_PATTERN =
  /^scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

function derive(password: string, salt: Buffer, options: ScryptOptions, bytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // The asynchronous form runs on libuv's thread pool, so a sign-in never blocks the event loop.
    scrypt(password.normalize('NFKC'), salt, bytes, { ...options, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** Characters of a password as the length rule counts them. */
export function passwordLength(password: string): number {
  // NFKC first, as hashing does: the same passphrase typed on two keyboards may arrive composed
  // or decomposed, and must count and hash the same.
  return [...password.normalize('NFKC')].length;
}

/** Why a new password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  const length = passwordLength(password);
  if (length < MIN_PASSWORD_LENGTH) {
    return `use at least ${MIN_PASSWORD_LENGTH} characters; a few unrelated words make a strong, memorable password`;
  }
  if (length > MAX_PASSWORD_LENGTH) return `use at most ${MAX_PASSWORD_LENGTH} characters`;
  return undefined;
}

/**
 * Hashes a password with scrypt and a fresh 128-bit salt. The result is self-describing,
 * `scrypt$ln=15,r=8,p=1$<salt>$<hash>` (base64), so `verifyPassword` needs nothing else.
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, COST, KEY_BYTES);
  return `scrypt$ln=${Math.log2(COST.N)},r=${COST.r},p=${COST.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/**
 * Whether `password` matches a hash made by `hashPassword`, compared in constant time. A stored
 * value that is not such a hash never matches (and is not an error: it may be a disabled user).
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = HASH_PATTERN.exec(stored);
  if (!match) return false;
  const [, ln, r, p, salt, hash] = match;
  const expected = Buffer.from(hash ?? '', 'base64');
  // Bounds on what a stored hash may ask for, so a corrupted row cannot make one sign-in
  // allocate gigabytes.
  const cost = { N: 2 ** Number(ln), r: Number(r), p: Number(p) };
  if (cost.N > 2 ** 20 || cost.r < 1 || cost.r > 32 || cost.p < 1 || cost.p > 4 || expected.length < 16) {
    return false;
  }
  const actual = await derive(password, Buffer.from(salt ?? '', 'base64'), cost, expected.length);
  return timingSafeEqual(actual, expected);
}

// A hash of nothing anyone knows, verified against when the email is unknown, so that a sign-in
// for an unknown email takes as long as one with a wrong password and does not reveal which
// emails have accounts.
let decoy: Promise<string> | undefined;

/** Spends the time of one verification, for sign-ins whose email matches no user. */
export async function verifyDecoy(password: string): Promise<false> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await decoy);
  return false;
}
