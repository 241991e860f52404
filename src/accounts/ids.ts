import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// 20 base62 characters: 119 random bits, so ids from several instances never collide and cannot be
// enumerated. Base62 keeps an id one "word" for double-click selection in terminals and dashboards.
const ID_LENGTH = 20;

export type IdPrefix = 'acct' | 'key' | 'led' | 'usr' | 'ctx' | 'lex' | 'top' | 'dict';

/** A new prefixed id such as `acct_3kTMd9QeWz0pLx7Rb2Va` (the prefix says what it names). */
export function newId(prefix: IdPrefix): string {
  let out = '';
  while (out.length < ID_LENGTH) {
    for (const byte of randomBytes(32)) {
      // Only bytes below 248 = 4 x 62 are used, so every character is equally likely.
      if (byte < 248 && out.length < ID_LENGTH) out += BASE62.charAt(byte % 62);
    }
  }
  return `${prefix}_${out}`;
}
