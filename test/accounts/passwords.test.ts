import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  hashPassword,
  passwordLength,
  passwordProblem,
  verifyDecoy,
  verifyPassword,
} from '../../src/accounts/passwords.ts';

describe('passwords', () => {
  it('hashes with scrypt and a fresh salt, and verifies only the same password', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    assert.match(a, /^scrypt\$ln=15,r=8,p=1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    assert.notEqual(a, b, 'salted');
    assert.equal(await verifyPassword('correct horse battery', a), true);
    assert.equal(await verifyPassword('correct horse batterY', a), false);
    assert.equal(await verifyPassword('', a), false);
  });

  it('treats composed and decomposed accents as the same password', async () => {
    const composed = 'café au lait ôté';
    const decomposed = composed.normalize('NFD');
    assert.notEqual(composed, decomposed);
    assert.equal(await verifyPassword(decomposed, await hashPassword(composed)), true);
    assert.equal(passwordLength(decomposed), passwordLength(composed));
  });

  it('never matches a stored value that is not one of its hashes, or asks for absurd work', async () => {
    for (const stored of [
      '',
      'plain text',
      'scrypt$ln=15,r=8,p=1$c2FsdA==$',
      'scrypt$ln=30,r=8,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA==',
    ]) {
      assert.equal(await verifyPassword('anything at all', stored), false, stored);
    }
  });

  it('asks for at least 12 characters, counted as code points', () => {
    assert.match(passwordProblem('elevenchars') ?? '', /at least 12 characters/);
    assert.equal(passwordProblem('twelve chars'), undefined);
    assert.match(passwordProblem('🙂'.repeat(11)) ?? '', /at least 12/, 'an emoji is one character, not two');
    assert.match(passwordProblem('x'.repeat(257)) ?? '', /at most 256/);
  });

  it('spends a verification on unknown emails and never matches', async () => {
    assert.equal(await verifyDecoy('correct horse battery'), false);
  });
});
