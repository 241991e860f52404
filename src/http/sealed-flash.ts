import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

// A value a POST hands to the GET it redirects to (post/redirect/get), carried by the browser in a
// short-lived cookie, sealed with AES-256-GCM under a key derived from the browser's session
// token. The server stores nothing; the sealed value is useless without that session's token,
// which the server never stores either (only its hash); and any change to it fails to open.

const IV_BYTES = 12;
const TAG_BYTES = 16;

function keyOf(sessionToken: string, purpose: string): Buffer {
  return createHash('sha256').update(`ijwi-flash\u0000${purpose}\u0000${sessionToken}`).digest();
}

/** `value` sealed for `purpose` under the session token, as base64url. */
export function sealFlash(value: string, sessionToken: string, purpose: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyOf(sessionToken, purpose), iv);
  const sealed = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** The value `sealFlash` sealed, or undefined when it was sealed for another session or purpose, or altered. */
export function openFlash(sealed: string, sessionToken: string, purpose: string): string | undefined {
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.byteLength <= IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      keyOf(sessionToken, purpose),
      bytes.subarray(0, IV_BYTES),
    );
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return undefined;
  }
}
