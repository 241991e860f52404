import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DEFAULT_FILE_LIFETIME_MS } from '../../../src/store/files/local-file-store.ts';
import { S3FileStore } from '../../../src/store/files/s3-file-store.ts';
import { StoreUnavailableError } from '../../../src/store/store-unavailable.ts';
import { unusedPort } from '../../helpers/ports.ts';
import { S3_TEST_CREDENTIALS, type S3TestServer, startS3Server } from '../../helpers/s3-server.ts';
import { saveFile } from '../../helpers/save-file.ts';

// What only the S3 store does: keys under its prefix, a shared bucket left alone, and how it
// reports a missing bucket or an unreachable server. The contract is in file-store.test.ts.

describe('S3FileStore', () => {
  let server: S3TestServer;
  before(async () => {
    server = await startS3Server();
  });
  after(() => server.close());

  it('writes <prefix><id>.wav, and sweeps only its own names under its prefix', async () => {
    const client = server.client();
    const store = new S3FileStore({ client, bucket: server.bucket, prefix: 'audio/' });
    const { id } = await saveFile(store, [Uint8Array.of(1, 2, 3)]);
    const put = (Key: string) =>
      client.send(new PutObjectCommand({ Bucket: server.bucket, Key, Body: 'keep' }));
    await put('audio/README.txt');
    await put('other/AAAAAAAAAAAAAAAAAAAAAA.wav');
    const later = new Date(Date.now() + DEFAULT_FILE_LIFETIME_MS + 5_000);
    assert.equal(await store.sweep(later), 1);
    const left = await client.send(new ListObjectsV2Command({ Bucket: server.bucket }));
    const keys = (left.Contents ?? []).map((o) => o.Key).sort();
    assert.deepEqual(keys, ['audio/README.txt', 'other/AAAAAAAAAAAAAAAAAAAAAA.wav']);
    assert.ok(!keys.includes(`audio/${id}.wav`));
  });

  it('reports a missing bucket in check, without the bucket name', async () => {
    const store = new S3FileStore({ client: server.client(), bucket: 'no-such-bucket-here' });
    assert.equal(await store.check(), 'bucket not found');
  });

  it('reports an unreachable server as unavailable: a 503 at the edge, not a 500', async () => {
    const client = new S3Client({
      endpoint: `http://127.0.0.1:${await unusedPort()}`,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: S3_TEST_CREDENTIALS,
      maxAttempts: 1,
    });
    try {
      const store = new S3FileStore({ client, bucket: server.bucket });
      await assert.rejects(saveFile(store, [Uint8Array.of(1)]), (error: unknown) => {
        assert.ok(error instanceof StoreUnavailableError);
        assert.equal(error.store, 'file storage');
        assert.match(error.reason, /^unreachable/);
        return true;
      });
      assert.match(String(await store.check()), /^unreachable/);
    } finally {
      client.destroy();
    }
  });
});
