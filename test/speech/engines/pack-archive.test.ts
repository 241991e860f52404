import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as tar from 'tar';
import { PackArchiveError, unpackArchive } from '../../../src/speech/engines/neural/pack-archive.ts';

// Voice pack archives as their makers publish them (.tar.gz, .tar.bz2), and hostile ones: each
// refused with an error that says why, nothing written outside the unpacking folder.

const HAS_BZIP2 = existsSync('/usr/bin/bzip2');

describe('voice pack archives', { skip: !HAS_BZIP2 && 'needs bzip2' }, () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'ijwi-archives-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A .tar.bz2 of `entries` (paths under `root`), made with node-tar and Debian's bzip2. */
  async function tarBz2(
    name: string,
    root: string,
    entries: string[],
    preservePaths = false,
  ): Promise<string> {
    const plain = join(dir, `${name}.tar`);
    await tar.c({ file: plain, cwd: root, preservePaths, portable: true }, entries);
    execFileSync('bzip2', ['-f', plain]);
    const archive = join(dir, `${name}.tar.bz2`);
    assert.ok(existsSync(archive));
    return archive;
  }

  /** A folder `name` under `dir` with a few plain files, as a voice's folder. */
  function voiceFolder(name: string): string {
    const folder = join(dir, 'src', name);
    mkdirSync(join(folder, 'espeak-ng-data'), { recursive: true });
    writeFileSync(join(folder, 'model.onnx'), 'model');
    writeFileSync(join(folder, 'tokens.txt'), 'a 0\n');
    writeFileSync(join(folder, 'espeak-ng-data', 'phontab'), '');
    return folder;
  }

  async function refusal(archive: string, limits = {}): Promise<string> {
    const error = await unpackArchive(archive, limits).then(
      () => assert.fail('the archive was unpacked'),
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof PackArchiveError, String(error));
    return error.message;
  }

  it('unpacks a .tar.bz2 and a .tar.gz of a voice folder to that folder, and cleans up', async () => {
    voiceFolder('vits-piper-en_US-amy-low');
    for (const archive of [
      await tarBz2('bz', join(dir, 'src'), ['vits-piper-en_US-amy-low']),
      await (async () => {
        const file = join(dir, 'gz.tar.gz');
        await tar.c({ gzip: true, file, cwd: join(dir, 'src') }, ['vits-piper-en_US-amy-low']);
        return file;
      })(),
    ]) {
      const unpacked = await unpackArchive(archive);
      assert.equal(basename(unpacked.folder), 'vits-piper-en_US-amy-low');
      assert.equal(readFileSync(join(unpacked.folder, 'tokens.txt'), 'utf8'), 'a 0\n');
      assert.ok(existsSync(join(unpacked.folder, 'espeak-ng-data', 'phontab')));
      await unpacked.remove();
      assert.equal(existsSync(unpacked.folder), false);
    }
  });

  it("names a voice whose files sit at the archive's root after the archive", async () => {
    const folder = voiceFolder('root-level');
    const archive = await tarBz2('en_US-root-medium', folder, ['model.onnx', 'tokens.txt']);
    const unpacked = await unpackArchive(archive);
    assert.equal(basename(unpacked.folder), 'en_US-root-medium');
    assert.ok(existsSync(join(unpacked.folder, 'model.onnx')));
    await unpacked.remove();
  });

  it('refuses symbolic and hard links: a pack holds plain files and folders only', async () => {
    const folder = voiceFolder('linked');
    symlinkSync('/etc/passwd', join(folder, 'passwd'));
    assert.match(
      await refusal(await tarBz2('symlink', join(dir, 'src'), ['linked'])),
      /linked\/passwd, a SymbolicLink: a pack holds plain files and folders only/,
    );
    const hard = voiceFolder('hard');
    rmSync(join(hard, 'espeak-ng-data'), { recursive: true });
    linkSync(join(hard, 'model.onnx'), join(hard, 'copy.onnx'));
    assert.match(
      await refusal(await tarBz2('hardlink', join(dir, 'src'), ['hard'])),
      /a Link: a pack holds plain files/,
    );
  });

  it('refuses a path out of the folder, and writes nothing there', async () => {
    const name = `escape-${randomBytes(4).toString('hex')}.txt`;
    const inner = join(dir, 'deep', 'a', 'b');
    mkdirSync(inner, { recursive: true });
    writeFileSync(join(dir, 'deep', name), 'outside');
    // Stored as `../../NAME`: unpacked under tmpdir/ijwi-pack-*/NAME-of-archive, it would land in tmpdir.
    const archive = await tarBz2('traversal', inner, [`../../${name}`], true);
    assert.match(await refusal(archive), /cannot be unpacked: .*'\.\.'/);
    assert.equal(existsSync(join(tmpdir(), name)), false);
  });

  it('gives up on a decompression bomb past its limit, and on too many entries', async () => {
    const bomb = join(dir, 'src', 'bomb');
    mkdirSync(bomb, { recursive: true });
    writeFileSync(join(bomb, 'zeros.bin'), Buffer.alloc(8 * 1024 * 1024));
    const archive = await tarBz2('bomb', join(dir, 'src'), ['bomb']);
    assert.ok(readFileSync(archive).length < 64 * 1024, 'a small archive');
    assert.match(
      await refusal(archive, { maxBytes: 1024 * 1024 }),
      /the archive unpacks to more than 1048576 bytes/,
    );
    const many = join(dir, 'src', 'many');
    mkdirSync(many, { recursive: true });
    for (let i = 0; i < 12; i++) writeFileSync(join(many, `f${i}`), '');
    assert.match(
      await refusal(await tarBz2('many', join(dir, 'src'), ['many']), { maxEntries: 10 }),
      /holds more than 10 entries/,
    );
  });

  it('refuses what is not a .tar.gz or .tar.bz2, or is cut short', async () => {
    const text = join(dir, 'notes.tar.bz2');
    writeFileSync(text, 'not an archive at all');
    assert.match(await refusal(text), /neither a \.tar\.gz nor a \.tar\.bz2/);
    voiceFolder('cut');
    const whole = readFileSync(await tarBz2('cut', join(dir, 'src'), ['cut']));
    const cut = join(dir, 'short.tar.bz2');
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    assert.match(await refusal(cut), /cannot be unpacked/);
    const empty = join(dir, 'empty.tar.bz2');
    writeFileSync(empty, 'BZh9');
    assert.match(await refusal(empty), /cannot be unpacked|is empty/);
  });
});
