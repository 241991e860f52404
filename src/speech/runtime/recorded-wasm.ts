import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

// WebAssembly modules that Ijwi builds itself (espeak-ng, the resampler's kernel): each beside
// the SHA-256 its reproducible build recorded (`<module>.sha256`, as `sha256sum` writes it), and
// loaded only when its bytes are those.

/** The SHA-256 recorded for the module at `moduleUrl`, from the `.sha256` file beside it. */
export function recordedChecksum(moduleUrl: URL): string {
  const checksumUrl = new URL(`${moduleUrl.href}.sha256`);
  const checksum = readFileSync(checksumUrl, 'utf8').trim().split(/\s+/)[0] ?? '';
  if (!/^[0-9a-f]{64}$/.test(checksum))
    throw new Error(`${basename(fileURLToPath(checksumUrl))} holds no SHA-256`);
  return checksum;
}

/** The module's bytes, refused unless they are its build's recorded ones. */
export function recordedModuleBytes(moduleUrl: URL): Uint8Array {
  const bytes = readFileSync(moduleUrl);
  const checksum = createHash('sha256').update(bytes).digest('hex');
  if (checksum !== recordedChecksum(moduleUrl))
    throw new Error(`${basename(fileURLToPath(moduleUrl))} is not the recorded build (SHA-256 ${checksum})`);
  return bytes;
}
