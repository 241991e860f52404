/**
 * G.711 companding for the 8 kHz telephony formats: mu-law (North America, Japan) and A-law
 * (most other trunks). Backed by `alawmulaw`, which matches the ITU-T reference code bit for
 * bit. Its array functions are used on purpose: `encodeSample()` returns a signed number
 * (-1 where the byte is 0xFF), which would corrupt a byte buffer built sample by sample.
 */

import alawmulaw from 'alawmulaw';

// The package is CommonJS: Node exposes its exports only on the default import.
const { alaw, mulaw } = alawmulaw;

/** 16-bit linear PCM to G.711 mu-law bytes, one byte per sample (a new array). */
export function encodeMulaw(pcm: Int16Array): Uint8Array {
  return mulaw.encode(pcm);
}

/** G.711 mu-law bytes to 16-bit linear PCM (a new array), for tests and tools. */
export function decodeMulaw(bytes: Uint8Array): Int16Array {
  return mulaw.decode(bytes);
}

/** 16-bit linear PCM to G.711 A-law bytes, one byte per sample (a new array). */
export function encodeAlaw(pcm: Int16Array): Uint8Array {
  return alaw.encode(pcm);
}

/** G.711 A-law bytes to 16-bit linear PCM (a new array), for tests and tools. */
export function decodeAlaw(bytes: Uint8Array): Int16Array {
  return alaw.decode(bytes);
}
