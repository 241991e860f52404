import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  configuredPlayUrlKey,
  freshPlayUrlKey,
  PlayUrlSigner,
  storedPlayUrlKey,
} from '../../src/calls/play-url-signer.ts';

// The signed name of a playable URL: what it says is what was signed, by this deployment's key.

const claims = {
  id: 'Abcdefghijklmnopqrstuv',
  expiresAt: new Date('2026-11-28T15:00:00Z'),
  format: 'wav' as const,
};

describe('PlayUrlSigner', () => {
  it('reads back exactly what it signed', () => {
    const signer = new PlayUrlSigner(storedPlayUrlKey(freshPlayUrlKey()));
    const name = signer.name(claims);
    assert.match(name, /^Abcdefghijklmnopqrstuv\.1795878000\.k[0-9a-f]{12}\.[\w-]{43}\.wav$/);
    assert.deepEqual(signer.verify(name), claims);
  });

  it('refuses a name signed by another key, even one with the same key id', () => {
    const key = freshPlayUrlKey();
    const name = new PlayUrlSigner(storedPlayUrlKey(key)).name(claims);
    const impostor = new PlayUrlSigner(storedPlayUrlKey({ id: key.id, secret: freshPlayUrlKey().secret }));
    assert.equal(impostor.verify(name), undefined);
    assert.equal(new PlayUrlSigner(storedPlayUrlKey(freshPlayUrlKey())).verify(name), undefined);
  });

  it('gives every instance with the same PLAY_URL_SECRET the same key, and another secret another', () => {
    const secret = 'a'.repeat(32);
    const name = new PlayUrlSigner(configuredPlayUrlKey(secret)).name(claims);
    assert.deepEqual(new PlayUrlSigner(configuredPlayUrlKey(secret)).verify(name), claims);
    assert.equal(new PlayUrlSigner(configuredPlayUrlKey('b'.repeat(32))).verify(name), undefined);
  });

  it('refuses each part changed, and names of any other shape', () => {
    const signer = new PlayUrlSigner(storedPlayUrlKey(freshPlayUrlKey()));
    const name = signer.name(claims);
    const parts = name.split('.');
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] ?? '';
      const changed = [...parts];
      changed[i] = i === 4 ? 'mp3' : `${part.slice(0, -1)}${part.endsWith('1') ? '2' : '1'}`;
      assert.equal(signer.verify(changed.join('.')), undefined, `part ${i}`);
    }
    // The signature's last character with a bit changed that its bytes do not use.
    const signature = parts[3] ?? '';
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet[alphabet.indexOf(signature.slice(-1)) ^ 1] ?? '';
    const sameBytes = `${signature.slice(0, -1)}${last}`;
    assert.deepEqual(Buffer.from(sameBytes, 'base64url'), Buffer.from(signature, 'base64url'));
    for (const bad of [
      name.replace(signature, sameBytes),
      '',
      name.toUpperCase(),
      `${name}.wav`,
      name.replace('.wav', '.WAV'),
      `/${name}`,
      'a.b.c.d.wav',
    ])
      assert.equal(signer.verify(bad), undefined, bad);
  });
});
