import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** The credentials the local S3-compatible server accepts (its fixed defaults). */
export const S3_TEST_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/** A local S3-compatible server with one empty bucket, on a free port, over a temp folder. */
export interface S3TestServer {
  readonly endpoint: string;
  readonly bucket: string;
  readonly region: string;
  /** A client for it, as the service builds one (path-style addressing). */
  client(): S3Client;
  /** The service's environment for this bucket under `prefix`. */
  env(prefix: string): Record<string, string>;
  close(): Promise<void>;
}

/** Starts the server in this process; `close()` stops it and removes its folder. */
export async function startS3Server(): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 'ijwi-s3-'));
  const bucket = `ijwi-test-${randomBytes(4).toString('hex')}`;
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const region = 'us-east-1';
  const clients: S3Client[] = [];
  return {
    endpoint,
    bucket,
    region,
    client() {
      const client = new S3Client({
        endpoint,
        region,
        forcePathStyle: true,
        credentials: S3_TEST_CREDENTIALS,
      });
      clients.push(client);
      return client;
    },
    env: (prefix) => ({
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: region,
      S3_PREFIX: prefix,
      AWS_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
    }),
    async close() {
      for (const client of clients) client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
