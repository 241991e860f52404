import { PassThrough, Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  type HeadObjectCommandOutput,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { withErrorCode } from '../error-code.ts';
import { StoreUnavailableError } from '../store-unavailable.ts';
import {
  type ByteSpan,
  checkHead,
  type FileDraft,
  type FileExtension,
  fileExtensions,
  type GeneratedFileStore,
  STORED_NAME,
  type StoredFile,
} from './file-store.ts';
import { DEFAULT_FILE_LIFETIME_MS, isFileId, newFileId } from './local-file-store.ts';

// The store's own clock at save time, in milliseconds. S3's Last-Modified has whole seconds and
// the server's clock; expiry on read follows this store's clock, as the local store's does.
const CREATED_AT = 'created-at-ms';

export interface S3FileStoreOptions {
  readonly client: S3Client;
  readonly bucket: string;
  /** Put before every object key, e.g. `generated/`; only keys under it are ever swept. */
  readonly prefix?: string;
  /** How long a file is served after it was saved; default 24 hours. */
  readonly lifetimeMs?: number;
  /** The clock, for tests. */
  readonly now?: () => Date;
}

/** The HTTP status of an S3 error, or undefined when no reply came back (network, DNS, timeout). */
function statusOf(error: unknown): number | undefined {
  const status = (error as { $metadata?: { httpStatusCode?: unknown } } | null)?.$metadata?.httpStatusCode;
  return typeof status === 'number' ? status : undefined;
}

function isNotFound(error: unknown): boolean {
  return statusOf(error) === 404;
}

// No reply, a 5xx or throttling is an outage (503 at the HTTP edge); anything else (access denied,
// no such bucket) is a configuration fault and stays a plain error.
function translate(error: unknown): unknown {
  const status = statusOf(error);
  if (status !== undefined && status < 500 && status !== 429) return error;
  return new StoreUnavailableError(
    'file storage',
    status === undefined ? withErrorCode('unreachable', error) : `status ${status}`,
    { cause: error },
  );
}

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw translate(error);
  }
}

/**
 * Generated files in an S3-compatible bucket, shared by every instance: any instance serves a file
 * another made. One object per id, `<prefix><id>.<extension>`; a PUT is atomic, so readers never see half
 * a file. Expiry is enforced on read from the creation time saved with the object (so an expired
 * file is a 404 before any sweep), and `sweep()` deletes objects under the prefix whose
 * Last-Modified is past the lifetime. Credentials come from the SDK's own chain (environment,
 * shared files, instance roles), set up by whoever builds the client.
 */
export class S3FileStore implements GeneratedFileStore {
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #prefix: string;
  readonly #lifetimeMs: number;
  readonly #now: () => Date;

  constructor(options: S3FileStoreOptions) {
    const lifetimeMs = options.lifetimeMs ?? DEFAULT_FILE_LIFETIME_MS;
    if (!(Number.isFinite(lifetimeMs) && lifetimeMs > 0)) {
      throw new RangeError('lifetimeMs must be a positive number of milliseconds');
    }
    this.#client = options.client;
    this.#bucket = options.bucket;
    this.#prefix = options.prefix ?? '';
    this.#lifetimeMs = lifetimeMs;
    this.#now = options.now ?? (() => new Date());
  }

  async create(extension: FileExtension = 'wav', reserve = 0): Promise<FileDraft> {
    // Held in memory and sent in one PUT on commit: a stream body would go as aws-chunked with a
    // trailing checksum (the SDK's default), which not every S3-compatible server decodes; a
    // buffer goes plain, its checksum in a header.
    let parts: Uint8Array[] | undefined = [];
    return {
      append: async (bytes) => {
        if (!parts) throw new Error('the file was already committed or discarded');
        parts.push(bytes);
      },
      commit: async (head) => {
        checkHead(head, reserve);
        if (!parts) throw new Error('the file was already committed or discarded');
        const body = Buffer.concat(head ? [head, ...parts] : parts);
        parts = undefined;
        return this.#put(body, extension);
      },
      discard: async () => {
        parts = undefined;
      },
    };
  }

  async open(id: string, extension: FileExtension = 'wav'): Promise<StoredFile | undefined> {
    if (!isFileId(id) || !fileExtensions.includes(extension)) return undefined;
    const key = this.#key(id, extension);
    let head: HeadObjectCommandOutput;
    try {
      head = await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: key }));
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw translate(error);
    }
    const saved = Number(head.Metadata?.[CREATED_AT]);
    const createdAt = Number.isFinite(saved) ? new Date(saved) : (head.LastModified ?? new Date(0));
    const expiresAt = new Date(createdAt.getTime() + this.#lifetimeMs);
    if (this.#now().getTime() >= expiresAt.getTime()) {
      await this.delete(id, extension);
      return undefined;
    }
    return {
      size: head.ContentLength ?? 0,
      createdAt,
      expiresAt,
      stream: (range?: ByteSpan) => this.#stream(key, range),
    };
  }

  async delete(id: string, extension: FileExtension = 'wav'): Promise<void> {
    if (!isFileId(id) || !fileExtensions.includes(extension)) return;
    // S3 answers a delete of a missing key with success.
    await guarded(() =>
      this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: this.#key(id, extension) })),
    );
  }

  async sweep(now: Date = this.#now()): Promise<number> {
    const cutoff = now.getTime() - this.#lifetimeMs;
    let removed = 0;
    let token: string | undefined;
    do {
      const page = await guarded(() =>
        this.#client.send(
          new ListObjectsV2Command({ Bucket: this.#bucket, Prefix: this.#prefix, ContinuationToken: token }),
        ),
      );
      for (const object of page.Contents ?? []) {
        const name = object.Key?.slice(this.#prefix.length) ?? '';
        // Only names this store writes, so a shared bucket loses nothing else.
        if (!STORED_NAME.test(name) || object.Key === undefined) continue;
        if ((object.LastModified?.getTime() ?? Number.POSITIVE_INFINITY) > cutoff) continue;
        await guarded(() =>
          this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: object.Key })),
        );
        removed++;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return removed;
  }

  async check(): Promise<true | string> {
    // A bucket read, not a probe write: load balancers poll health often, and writes cost money.
    try {
      await this.#client.send(new HeadBucketCommand({ Bucket: this.#bucket }));
      return true;
    } catch (error) {
      const status = statusOf(error);
      if (status === 404) return 'bucket not found';
      if (status === 403) return 'access denied';
      return status === undefined ? withErrorCode('unreachable', error) : `status ${status}`;
    }
  }

  async #put(body: Buffer, extension: FileExtension): Promise<{ id: string }> {
    const id = newFileId();
    const createdAt = this.#now();
    await guarded(() =>
      this.#client.send(
        new PutObjectCommand({
          Bucket: this.#bucket,
          Key: this.#key(id, extension),
          Body: body,
          // For the bucket's own tools only: downloads get their type from the service.
          ContentType: `audio/${extension === 'mp3' ? 'mpeg' : extension === 'opus' ? 'ogg' : extension}`,
          Metadata: { [CREATED_AT]: String(createdAt.getTime()) },
          // Bucket-side caches and lifecycle tools see the same end of life as the service.
          Expires: new Date(createdAt.getTime() + this.#lifetimeMs),
        }),
      ),
    );
    return { id };
  }

  #key(id: string, extension: FileExtension): string {
    return `${this.#prefix}${id}.${extension}`;
  }

  // The route needs a stream at once, and S3 answers later: hand out a pass-through and pipe the
  // object into it. A failure after the headers left cuts the response, as a failed disk read would.
  #stream(key: string, range?: ByteSpan): NodeJS.ReadableStream {
    const out = new PassThrough();
    this.#client
      .send(
        new GetObjectCommand({
          Bucket: this.#bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      )
      .then((object) => {
        const body = object.Body;
        if (!(body instanceof Readable)) throw new Error('the S3 client returned no Node.js stream');
        body.on('error', (error) => out.destroy(error));
        // A client gone mid-download stops the transfer from S3 too.
        out.on('close', () => body.destroy());
        body.pipe(out);
      })
      .catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
    return out;
  }
}
