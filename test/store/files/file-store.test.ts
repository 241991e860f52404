import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { GeneratedFileStore } from '../../../src/store/files/file-store.ts';
import {
  DEFAULT_FILE_LIFETIME_MS,
  LocalFileStore,
  newFileId,
} from '../../../src/store/files/local-file-store.ts';
import { S3FileStore } from '../../../src/store/files/s3-file-store.ts';
import { type S3TestServer, startS3Server } from '../../helpers/s3-server.ts';
import { saveFile } from '../../helpers/save-file.ts';

// The contract every generated-file store keeps, run on each: the local folder (the embedded
// default) and an S3-compatible bucket (a local server). Cases follow the API contract's
// "Generated files" section: ids of at least 128 random bits, a configurable lifetime (24 h by
// default), expired and unknown ids treated alike, byte ranges. What only one store does is in
// its own test file.

const HOUR = 60 * 60 * 1000;

interface StoreOptions {
  readonly lifetimeMs?: number;
  readonly now?: () => Date;
}

/** How to get fresh, empty stores of one kind. */
interface StoreKind {
  readonly name: string;
  setUp(): Promise<void>;
  tearDown(): Promise<void>;
  /** A new, empty store. */
  make(options?: StoreOptions): Promise<GeneratedFileStore>;
}

function localStores(): StoreKind {
  let root = '';
  let made = 0;
  return {
    name: 'local',
    async setUp() {
      root = await mkdtemp(join(tmpdir(), 'ijwi-files-'));
    },
    tearDown: () => rm(root, { recursive: true, force: true }),
    make: (options = {}) => LocalFileStore.create({ dir: join(root, `store-${made++}`), ...options }),
  };
}

function s3Stores(): StoreKind {
  let server: S3TestServer | undefined;
  let made = 0;
  return {
    name: 's3',
    async setUp() {
      server = await startS3Server();
    },
    tearDown: async () => server?.close(),
    async make(options = {}) {
      assert.ok(server);
      // A prefix per store: each starts empty in the one bucket.
      return new S3FileStore({
        client: server.client(),
        bucket: server.bucket,
        prefix: `store-${made++}/`,
        ...options,
      });
    },
  };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** 1,000 bytes that differ from their neighbours, so an off-by-one in a range shows. */
const bytes = Uint8Array.from({ length: 1000 }, (_, i) => i % 251);

for (const kind of [localStores(), s3Stores()]) {
  describe(`GeneratedFileStore [${kind.name}]`, () => {
    before(() => kind.setUp());
    after(() => kind.tearDown());

    it('returns the saved bytes, whole or by inclusive range, with its times', async () => {
      const store = await kind.make();
      const before = Date.now();
      // Saved in parts of uneven sizes (an empty one among them), as the file endpoint saves a WAV.
      const parts = [
        bytes.subarray(0, 44),
        bytes.subarray(44, 44),
        bytes.subarray(44, 700),
        bytes.subarray(700),
      ];
      const { id } = await saveFile(store, parts);
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
      assert.deepEqual(
        new Uint8Array(await readAll(file.stream({ start: 999, end: 999 }))),
        bytes.slice(999),
      );
    });

    it('writes a long file as it comes, in order, its head into the bytes reserved at the start', async () => {
      const store = await kind.make();
      // Three chunks of 700 KB, more than the local store keeps before it writes.
      const chunks = [1, 2, 3].map((n) => Uint8Array.from({ length: 700_000 }, (_, i) => (i * n) % 253));
      const head = Uint8Array.from({ length: 44 }, (_, i) => 200 + i);
      const draft = await store.create('wav', 44);
      for (const chunk of chunks) await draft.append(chunk);
      await assert.rejects(draft.commit(Uint8Array.of(1, 2, 3)), RangeError, 'a head of another size');
      const { id } = await draft.commit(head);
      const file = await store.open(id);
      assert.equal(file?.size, 44 + 2_100_000);
      const expected = Buffer.concat([head, ...chunks]);
      assert.ok(expected.equals(Buffer.from(await readAll(file.stream()))));
      await draft.discard();
      assert.ok(await store.open(id), 'discarding a committed file leaves it');
      await assert.rejects(draft.append(head), /already committed/);
    });

    it('leaves nothing to find of a discarded file, and a committed file has a fresh id', async () => {
      const store = await kind.make();
      const draft = await store.create('mp3');
      await draft.append(bytes);
      await draft.discard();
      await assert.rejects(draft.commit(), /already committed or discarded/);
      assert.equal(await store.sweep(new Date(Date.now() + DEFAULT_FILE_LIFETIME_MS + 5_000)), 0);
      const { id } = await saveFile(store, [bytes], 'mp3');
      assert.ok(await store.open(id, 'mp3'));
    });

    it('gives undefined for an unknown id of the right shape', async () => {
      const store = await kind.make();
      assert.equal(await store.open(newFileId()), undefined);
    });

    it('deletes a file, and deleting an unknown id is not an error', async () => {
      const store = await kind.make();
      const { id } = await saveFile(store, [bytes]);
      await store.delete(id);
      assert.equal(await store.open(id), undefined);
      await store.delete(id);
    });

    it('keeps a file under its kind: found by id and extension together, removed and swept as such', async () => {
      const store = await kind.make();
      const { id } = await saveFile(store, [bytes], 'opus');
      assert.equal((await store.open(id, 'opus'))?.size, 1000);
      assert.equal(await store.open(id), undefined, 'not a WAV');
      assert.equal(await store.open(id, 'mp3'), undefined);
      await store.delete(id, 'mp3');
      assert.ok(await store.open(id, 'opus'), 'deleting another kind leaves it');
      const { id: other } = await saveFile(store, [bytes], 'flac');
      await store.delete(other, 'flac');
      assert.equal(await store.open(other, 'flac'), undefined);
      assert.equal(await store.sweep(new Date(Date.now() + DEFAULT_FILE_LIFETIME_MS + HOUR)), 1);
      assert.equal(await store.open(id, 'opus'), undefined);
    });

    it('keeps saves running side by side apart, each under its own id', async () => {
      const store = await kind.make();
      const saved = await Promise.all(
        Array.from({ length: 20 }, (_, i) => saveFile(store, [Uint8Array.of(i, i, i)])),
      );
      assert.equal(new Set(saved.map((s) => s.id)).size, 20);
      for (const [i, { id }] of saved.entries()) {
        const file = await store.open(id);
        assert.ok(file);
        assert.deepEqual(new Uint8Array(await readAll(file.stream())), Uint8Array.of(i, i, i));
      }
    });

    it('refuses malformed ids before touching storage: traversal and near misses', async () => {
      // Path traversal shapes from OWASP's "Path Traversal" attack page.
      const store = await kind.make();
      const { id } = await saveFile(store, [bytes]);
      for (const bad of [
        '../secret',
        '..%2Fsecret',
        '..\\secret',
        `${id}\0`,
        `${id}x`,
        `../${id}`,
        '',
        '.',
      ]) {
        assert.equal(await store.open(bad), undefined, JSON.stringify(bad));
        await store.delete(bad);
      }
      assert.ok(await store.open(id), 'no malformed id reached the real file');
    });

    it('serves a file until its lifetime is up, then gives undefined and deletes it, before any sweep', async () => {
      let now = new Date('2025-03-01T08:00:00Z');
      const store = await kind.make({ lifetimeMs: HOUR, now: () => now });
      const { id } = await saveFile(store, [bytes]);
      const file = await store.open(id);
      assert.equal(file?.createdAt.toISOString(), '2025-03-01T08:00:00.000Z');
      assert.equal(file?.expiresAt.toISOString(), '2025-03-01T09:00:00.000Z');
      now = new Date('2025-03-01T08:59:59.999Z');
      assert.ok(await store.open(id));
      now = new Date('2025-03-01T09:00:00Z');
      assert.equal(await store.open(id), undefined);
      now = new Date('2025-03-01T08:30:00Z');
      assert.equal(await store.open(id), undefined, 'the expired file was deleted, not only hidden');
    });

    it('sweep removes the files past their lifetime, and only those', async () => {
      const store = await kind.make();
      const { id: first } = await saveFile(store, [bytes]);
      const { id: second } = await saveFile(store, [bytes]);
      assert.equal(await store.sweep(), 0);
      assert.ok(await store.open(first));
      // A few seconds past the lifetime: some stores keep times in whole seconds.
      assert.equal(await store.sweep(new Date(Date.now() + DEFAULT_FILE_LIFETIME_MS + 5_000)), 2);
      assert.equal(await store.open(first), undefined);
      assert.equal(await store.open(second), undefined);
      assert.equal(await store.sweep(new Date(Date.now() + DEFAULT_FILE_LIFETIME_MS + 5_000)), 0);
    });

    it('checks as ready while it can be used', async () => {
      assert.equal(await (await kind.make()).check(), true);
    });

    it('refuses a lifetime that is not a positive number', async () => {
      for (const lifetimeMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
        await assert.rejects(async () => kind.make({ lifetimeMs }), RangeError);
      }
    });
  });
}
