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

const HOUR = 60 * 60 * 1000;

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** 1,000 bytes that differ from their neighbours, so an off-by-one in a range shows. */
const bytes = Uint8Array.from({ length: 1000 }, (_, i) => i % 251);

// Cases follow the API contract's "Generated files" section: ids of at least 128 random bits,
// a configurable lifetime (24 h by default), expired and unknown ids treated alike.
describe('LocalFileStore', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'ijwi-files-'));
  });
  after(() => rm(root, { recursive: true, force: true }));

  describe('save and open', () => {
    it('creates its folder and returns the saved bytes, whole or by inclusive range', async () => {
      const store = await LocalFileStore.create({ dir: join(root, 'round-trip', 'generated') });
      const before = Date.now();
      const { id } = await store.save(bytes);
      const file = await store.open(id);
      assert.ok(file);
      assert.equal(file.size, 1000);
      assert.ok(Math.abs(file.createdAt.getTime() - before) < 5_000);
      assert.equal(file.expiresAt.getTime() - file.createdAt.getTime(), DEFAULT_FILE_LIFETIME_MS);
      assert.deepEqual(new Uint8Array(await readAll(file.stream())), bytes);
      assert.deepEqual(
        new Uint8Array(await readAll(file.stream({ start: 10, end: 19 }))),
        bytes.slice(10, 20),
      );
    });

    it('gives undefined for an unknown id of the right shape', async () => {
      const store = await LocalFileStore.create({ dir: join(root, 'unknown') });
      assert.equal(await store.open(newFileId()), undefined);
    });

    it('deletes a file, and deleting an unknown id is not an error', async () => {
      const dir = join(root, 'delete');
      const store = await LocalFileStore.create({ dir });
      const { id } = await store.save(bytes);
      await store.delete(id);
      assert.equal(await store.open(id), undefined);
      assert.deepEqual(await readdir(dir), []);
      await store.delete(id);
    });

    it('leaves no temp file behind, even with saves running side by side', async () => {
      const dir = join(root, 'atomic');
      const store = await LocalFileStore.create({ dir });
      const ids = await Promise.all(Array.from({ length: 20 }, () => store.save(bytes)));
      const names = (await readdir(dir)).sort();
      assert.deepEqual(names, ids.map(({ id }) => `${id}.wav`).sort());
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
    it('serves a file until its lifetime is up, then gives undefined and deletes it', async () => {
      const dir = join(root, 'expiry');
      let now = new Date('2025-03-01T08:00:00Z');
      const store = await LocalFileStore.create({ dir, lifetimeMs: HOUR, now: () => now });
      const { id } = await store.save(bytes);
      const file = await store.open(id);
      assert.equal(file?.createdAt.toISOString(), '2025-03-01T08:00:00.000Z');
      assert.equal(file?.expiresAt.toISOString(), '2025-03-01T09:00:00.000Z');
      now = new Date('2025-03-01T08:59:59.999Z');
      assert.ok(await store.open(id));
      now = new Date('2025-03-01T09:00:00Z');
      assert.equal(await store.open(id), undefined);
      assert.deepEqual(await readdir(dir), []);
    });

    it('sweep removes files (and stale temp files) older than the lifetime, and nothing else', async () => {
      const dir = join(root, 'sweep');
      const store = await LocalFileStore.create({ dir });
      const { id: old } = await store.save(bytes);
      const { id: fresh } = await store.save(bytes);
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

    it('refuses a lifetime that is not a positive number', async () => {
      for (const lifetimeMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
        await assert.rejects(LocalFileStore.create({ dir: join(root, 'bad'), lifetimeMs }), RangeError);
      }
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
      save: async () => ({ id: '' }),
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
