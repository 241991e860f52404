import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type GeneratedFileStore, startSweeper } from '../../../src/store/files/file-store.ts';
import {
  DEFAULT_FILE_LIFETIME_MS,
  isFileId,
  LocalFileStore,
  newFileId,
} from '../../../src/store/files/local-file-store.ts';
import { saveFile } from '../../helpers/save-file.ts';

/** 1,000 bytes that differ from their neighbours, so an off-by-one in a range shows. */
const bytes = Uint8Array.from({ length: 1000 }, (_, i) => i % 251);

// What only the local folder does: its files on disk, temp files, ids checked before any path is
// built. The contract every store keeps is in file-store.test.ts.
describe('LocalFileStore', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'ijwi-files-'));
  });
  after(() => rm(root, { recursive: true, force: true }));

  describe('on disk', () => {
    it('creates its folder and leaves no temp file behind, even with saves running side by side', async () => {
      const dir = join(root, 'atomic', 'generated');
      const store = await LocalFileStore.create({ dir });
      const ids = await Promise.all(Array.from({ length: 20 }, () => saveFile(store, [bytes])));
      const names = (await readdir(dir)).sort();
      assert.deepEqual(names, ids.map(({ id }) => `${id}.wav`).sort());
    });
    it('writes a file being made to a temp file no id names, renamed into place on commit, removed on discard', async () => {
      const dir = join(root, 'drafts');
      const store = await LocalFileStore.create({ dir });
      const kept = await store.create('wav', 44);
      const dropped = await store.create('wav');
      await kept.append(Uint8Array.from({ length: 2_000_000 }, (_, i) => i % 256));
      await dropped.append(bytes);
      const temps = await readdir(dir);
      assert.equal(temps.length, 2);
      for (const name of temps) assert.match(name, /^\.[0-9A-Za-z-]+\.tmp$/);
      await dropped.discard();
      const { id } = await kept.commit(new Uint8Array(44));
      assert.deepEqual(await readdir(dir), [`${id}.wav`]);
    });
  });

  describe('ids', () => {
    it('are 22 base62 characters (131 bits, at least 128), unique, using the whole alphabet', () => {
      const ids = Array.from({ length: 1000 }, newFileId);
      assert.equal(new Set(ids).size, ids.length);
      for (const id of ids) {
        assert.match(id, /^[0-9A-Za-z]{22}$/);
        assert.ok(id.length * Math.log2(62) >= 128);
      }
      // 22,000 draws over 62 characters: each is expected about 355 times, so a missing one
      // means a broken alphabet or mapping, not bad luck.
      assert.equal(new Set(ids.join('')).size, 62);
    });

    it('are checked by shape before any path is built: traversal and near misses are refused', async () => {
      // Path traversal shapes from OWASP's "Path Traversal" attack page.
      const dir = join(root, 'traversal', 'generated');
      const store = await LocalFileStore.create({ dir });
      const secret = join(root, 'traversal', 'secret.wav');
      await writeFile(secret, 'not yours');
      const nearMiss = `${newFileId()}x`; // 23 characters, present on disk
      await writeFile(join(dir, `${nearMiss}.wav`), bytes);
      for (const id of ['../secret', '..%2Fsecret', '..\\secret', `${newFileId()}\0`, nearMiss, '', '.']) {
        assert.equal(isFileId(id), false, JSON.stringify(id));
        assert.equal(await store.open(id), undefined, JSON.stringify(id));
        await store.delete(id);
      }
      assert.equal(await readFile(secret, 'utf8'), 'not yours');
      assert.deepEqual(await readdir(dir), [`${nearMiss}.wav`]);
    });
  });

  describe('lifetime', () => {
    it('sweep removes files (and stale temp files) older than the lifetime, and nothing else', async () => {
      const dir = join(root, 'sweep');
      const store = await LocalFileStore.create({ dir });
      const { id: old } = await saveFile(store, [bytes]);
      const { id: fresh } = await saveFile(store, [bytes]);
      const dayAgo = new Date(Date.now() - DEFAULT_FILE_LIFETIME_MS - 1000);
      await utimes(join(dir, `${old}.wav`), dayAgo, dayAgo);
      const staleTemp = `.${newFileId()}-0123456789ab.tmp`;
      await writeFile(join(dir, staleTemp), 'half');
      await utimes(join(dir, staleTemp), dayAgo, dayAgo);
      await writeFile(join(dir, 'README.txt'), 'operator notes');
      await utimes(join(dir, 'README.txt'), dayAgo, dayAgo);

      assert.equal(await store.sweep(), 2);
      assert.deepEqual((await readdir(dir)).sort(), [`${fresh}.wav`, 'README.txt'].sort());
      assert.equal(await store.open(old), undefined);
      assert.ok(await store.open(fresh));
      assert.equal(await store.sweep(new Date(Date.now() + DEFAULT_FILE_LIFETIME_MS)), 1);
      assert.deepEqual(await readdir(dir), ['README.txt']);
    });
  });

  describe('check', () => {
    it('is true while the folder is writable and a short reason, without the path, once it is gone', async () => {
      const dir = join(root, 'check');
      const store = await LocalFileStore.create({ dir });
      assert.equal(await store.check(), true);
      assert.deepEqual(await readdir(dir), []);
      await rm(dir, { recursive: true });
      assert.equal(await store.check(), 'not writable');
    });
  });
});

describe('startSweeper', () => {
  it('sweeps on every tick until stopped, never two sweeps at once, surviving errors', async () => {
    let sweeps = 0;
    let running = 0;
    let overlapped = false;
    const errors: unknown[] = [];
    const store: GeneratedFileStore = {
      create: async () => assert.fail('not used'),
      open: async () => undefined,
      delete: async () => {},
      check: async () => true,
      sweep: async () => {
        sweeps++;
        running++;
        if (running > 1) overlapped = true;
        await new Promise((resolve) => setTimeout(resolve, 25));
        running--;
        if (sweeps === 1) throw new Error('disk hiccup');
        return 0;
      },
    };
    const stop = startSweeper(store, 5, (error) => errors.push(error));
    await new Promise((resolve) => setTimeout(resolve, 120));
    stop();
    const atStop = sweeps;
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.ok(atStop >= 2, `swept ${atStop} times`);
    assert.equal(sweeps, atStop, 'no sweep starts after stop');
    assert.equal(overlapped, false);
    assert.equal(errors.length, 1);
  });
});
