import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  API_KEY_PREFIX,
  apiKeyHint,
  generateApiKey,
  hashApiKey,
  hashesEqual,
  hasValidChecksum,
} from '../../src/accounts/keys.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// Format from the API contract (Authentication: `ijwi_sk_` + at least 128 bits of random base62 +
// a short checksum), modelled on GitHub's token format (GitHub Blog, "Behind GitHub's new
// authentication token formats", 2021: prefix, base62 secret, 6-character base62 CRC32).
describe('generateApiKey', () => {
  it('makes ijwi_sk_ + 28 base62 characters + a 6-character checksum', () => {
    const { key } = generateApiKey();
    assert.match(key, /^ijwi_sk_[0-9A-Za-z]{34}$/);
    assert.ok(hasValidChecksum(key));
  });

  it('carries at least 128 random bits', () => {
    const secretChars = generateApiKey().key.length - API_KEY_PREFIX.length - 6;
    assert.ok(secretChars * Math.log2(62) >= 128);
  });

  it('never repeats a key in 1000 draws', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey().key));
    assert.equal(keys.size, 1000);
  });

  it('returns the SHA-256 of the key and a hint of prefix plus last 4 characters', () => {
    const { key, hash, hint } = generateApiKey();
    assert.equal(hash, hashApiKey(key));
    assert.equal(hint, `ijwi_sk_…${key.slice(-4)}`);
    assert.ok(!hint.includes(key.slice(API_KEY_PREFIX.length, -6)), 'the hint shows none of the secret');
  });
});

describe('hasValidChecksum', () => {
  it('rejects every one-character typo anywhere after the prefix', () => {
    const { key } = generateApiKey();
    for (let i = API_KEY_PREFIX.length; i < key.length; i++) {
      for (const replacement of BASE62) {
        if (replacement === key[i]) continue;
        const typo = key.slice(0, i) + replacement + key.slice(i + 1);
        assert.equal(hasValidChecksum(typo), false, `typo at ${i}: ${typo}`);
      }
    }
  });

  it('rejects two swapped neighbouring characters', () => {
    const { key } = generateApiKey();
    for (let i = API_KEY_PREFIX.length; i < key.length - 1; i++) {
      if (key[i] === key[i + 1]) continue;
      const swapped = key.slice(0, i) + key[i + 1] + key[i] + key.slice(i + 2);
      assert.equal(hasValidChecksum(swapped), false, `swap at ${i}`);
    }
  });

  it('rejects wrong prefixes, truncated or padded keys and made-up strings', () => {
    const { key } = generateApiKey();
    for (const bad of [
      key.replace('ijwi_sk_', 'ijwi_pk_'),
      key.replace('ijwi_sk_', 'IJWI_SK_'),
      key.slice(0, -1),
      `${key}A`,
      ` ${key}`,
      `ijwi_sk_${'A'.repeat(34)}`,
      'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789',
      '',
    ]) {
      assert.equal(hasValidChecksum(bad), false, bad);
    }
  });
});

// Test vector from FIPS 180-2, Appendix B.1: SHA-256("abc").
describe('hashApiKey', () => {
  it('is SHA-256 in lower-case hex', () => {
    assert.equal(hashApiKey('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('hashesEqual and apiKeyHint', () => {
  it('compares equal hashes as equal and different or shorter ones as different', () => {
    const a = hashApiKey('a');
    assert.equal(hashesEqual(a, hashApiKey('a')), true);
    assert.equal(hashesEqual(a, hashApiKey('b')), false);
    assert.equal(hashesEqual(a, a.slice(0, -1)), false);
  });

  it('shows the last four characters', () => {
    assert.equal(apiKeyHint('ijwi_sk_xxxxWXYZ'), 'ijwi_sk_…WXYZ');
  });
});
