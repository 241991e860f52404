import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { fliteEngine } from '../../../src/speech/engines/flite/flite.ts';

const WASM_DIR = new URL('../../../src/speech/engines/flite/wasm/', import.meta.url);

describe("Flite's WebAssembly module, built in the repository", () => {
  test('the committed module is the one its SHA-256 file records', () => {
    const recorded = readFileSync(new URL('flite.wasm.sha256', WASM_DIR), 'utf8').split(/\s+/)[0];
    const actual = createHash('sha256')
      .update(readFileSync(new URL('flite.wasm', WASM_DIR)))
      .digest('hex');
    assert.equal(actual, recorded);
    // The engine's version, part of the clause cache's key, names the module: a clause cached
    // from another build is never served for this one.
    assert.equal(fliteEngine.version, `2.2+wasm.${recorded?.slice(0, 12)}`);
  });

  test('calls no function through a signature it was not defined with (the linker would make the call a trap)', () => {
    // Flite's main declared flite_set_lang_list as returning a pointer, its definition returns
    // nothing: wasm-ld links such a call to a stub that traps, named in the name section
    // (patches/02 declares it as defined).
    const binary = readFileSync(new URL('flite.wasm', WASM_DIR));
    assert.equal(binary.indexOf('signature_mismatch'), -1);
  });

  const toolchain = [
    '/usr/bin/clang',
    '/usr/bin/wasm-ld',
    '/usr/lib/wasm32-wasi/libc.a',
    '/usr/bin/patch',
  ].every((path) => existsSync(path));
  test("the build script makes the same bytes again from Flite's released source and the patches", {
    skip: toolchain ? false : 'needs clang, lld, wasi-libc and patch (.ci/run installs them)',
    timeout: 300_000,
  }, async () => {
    const script = fileURLToPath(new URL('build.sh', WASM_DIR));
    const { stdout } = await promisify(execFile)('bash', [script, '--check'], { maxBuffer: 1 << 20 });
    assert.match(stdout, /the same bytes as recorded/);
  });
});
