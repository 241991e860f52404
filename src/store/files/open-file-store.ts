import type { GeneratedFileStore } from './file-store.ts';
import { LocalFileStore } from './local-file-store.ts';

/** Where generated files live: a local folder (the embedded default) or an S3-compatible bucket. */
export type FileStoreSource =
  | { readonly kind: 'local'; readonly dir: string }
  | {
      readonly kind: 's3';
      readonly bucket: string;
      readonly region: string;
      /** Another S3-compatible service; null for AWS itself. */
      readonly endpoint: string | null;
      readonly prefix: string;
    };

/**
 * The file store named by `source`. For S3, credentials come from the SDK's standard chain; a
 * custom endpoint is addressed path-style (`endpoint/bucket/key`), which every S3-compatible
 * server understands. Requests time out instead of hanging, so an unreachable store fails the
 * request (503) rather than holding it. The S3 client is loaded only for S3: an instance on the
 * embedded default does not hold its memory.
 */
export async function openFileStore(
  source: FileStoreSource,
  lifetimeMs: number,
): Promise<GeneratedFileStore> {
  if (source.kind === 'local') return LocalFileStore.create({ dir: source.dir, lifetimeMs });
  const [{ S3Client }, { S3FileStore }] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('./s3-file-store.ts'),
  ]);
  const client = new S3Client({
    region: source.region,
    ...(source.endpoint === null ? {} : { endpoint: source.endpoint, forcePathStyle: true }),
    maxAttempts: 2,
    requestHandler: { connectionTimeout: 2_000, requestTimeout: 15_000 },
  });
  return new S3FileStore({ client, bucket: source.bucket, prefix: source.prefix, lifetimeMs });
}
