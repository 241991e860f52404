import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import {
  type FileHandle,
  mkdir,
  open as openFile,
  readdir,
  rename,
  stat,
  unlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
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

/** How long a generated file is served when no lifetime is configured: 24 hours. */
export const DEFAULT_FILE_LIFETIME_MS = 24 * 60 * 60 * 1000;

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// 22 base62 characters carry 22 x log2(62) = 131 random bits, above the 128 the contract asks.
const ID_LENGTH = 22;
const ID_PATTERN = /^[0-9A-Za-z]{22}$/;
// Temp names start with a dot, so no id can ever name one and open() never serves half a file.
const TEMP_PATTERN = /^\.[0-9A-Za-z-]+\.tmp$/;

/**
 * A fresh file id: 22 base62 characters from the system's CSPRNG. Bytes are drawn by rejection
 * (only values below 248 = 4 x 62 are used) so every character is equally likely.
 */
export function newFileId(): string {
  let id = '';
  while (id.length < ID_LENGTH) {
    for (const byte of randomBytes(32)) {
      if (byte < 248 && id.length < ID_LENGTH) id += ALPHABET.charAt(byte % 62);
    }
  }
  return id;
}

/** Whether `id` has the exact shape of a file id; checked before any path is built from it. */
export function isFileId(id: string): boolean {
  return ID_PATTERN.test(id);
}

/**
 * The errors of a folder that cannot take files now (a full or read-only disk, a folder gone or
 * replaced, permissions changed): an outage the operator fixes, not a bug, answered 503.
 */
const UNWRITABLE = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'ENOTDIR', 'ENOENT', 'EIO']);

/** `error` as `StoreUnavailableError` when the folder cannot take files now; otherwise as it is. */
function writeFailure(error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code !== undefined && UNWRITABLE.has(code)
    ? new StoreUnavailableError('file storage', code, { cause: error })
    : error;
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

async function removeQuietly(path: string): Promise<boolean> {
  try {
    await unlink(path);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

export interface LocalFileStoreOptions {
  /** The folder that holds the files; created if missing. Nothing else should write there. */
  readonly dir: string;
  /** How long a file is served after it was saved; default 24 hours. */
  readonly lifetimeMs?: number;
  /** The clock, for tests. */
  readonly now?: () => Date;
}

/**
 * The embedded default: one file per id in a local folder, `<id>.<extension>`. A file is written
 * to a dot-named temp file as its bytes come and renamed into place when committed, which is atomic within one file system. A file's age is
 * its modification time, set from the store's clock when it is saved.
 */
export class LocalFileStore implements GeneratedFileStore {
  readonly #dir: string;
  readonly #lifetimeMs: number;
  readonly #now: () => Date;

  private constructor(options: LocalFileStoreOptions) {
    this.#dir = options.dir;
    this.#lifetimeMs = options.lifetimeMs ?? DEFAULT_FILE_LIFETIME_MS;
    this.#now = options.now ?? (() => new Date());
  }

  /** Creates the folder (owner-only) if needed and returns the store over it. */
  static async create(options: LocalFileStoreOptions): Promise<LocalFileStore> {
    const lifetimeMs = options.lifetimeMs ?? DEFAULT_FILE_LIFETIME_MS;
    if (!(Number.isFinite(lifetimeMs) && lifetimeMs > 0)) {
      throw new RangeError('lifetimeMs must be a positive number of milliseconds');
    }
    await mkdir(options.dir, { recursive: true, mode: 0o700 });
    return new LocalFileStore(options);
  }

  async create(extension: FileExtension = 'wav', reserve = 0): Promise<FileDraft> {
    const temp = join(this.#dir, `.${newFileId()}-${randomBytes(6).toString('hex')}.tmp`);
    const handle = await openFile(temp, 'wx', 0o600).catch((error: unknown) => {
      throw writeFailure(error);
    });
    return new LocalFileDraft(handle, temp, reserve, async () => {
      // No fsync: the files are disposable, and rename alone already hides partial writes
      // from readers; a power cut may lose a file, which the client then asks for again.
      const id = newFileId();
      const now = this.#now();
      await utimes(temp, now, now);
      await rename(temp, this.#path(id, extension));
      return { id };
    });
  }

  async open(id: string, extension: FileExtension = 'wav'): Promise<StoredFile | undefined> {
    if (!isFileId(id) || !fileExtensions.includes(extension)) return undefined;
    const path = this.#path(id, extension);
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(path);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    if (!info.isFile()) return undefined;
    const createdAt = info.mtime;
    const expiresAt = new Date(createdAt.getTime() + this.#lifetimeMs);
    if (this.#now().getTime() >= expiresAt.getTime()) {
      await removeQuietly(path);
      return undefined;
    }
    return {
      size: info.size,
      createdAt,
      expiresAt,
      // Opened lazily: a HEAD request never holds a descriptor. Once the stream has opened the
      // file, a sweep that unlinks it does not cut the download short.
      stream: (range?: ByteSpan) =>
        createReadStream(path, range ? { start: range.start, end: range.end } : {}),
    };
  }

  async delete(id: string, extension: FileExtension = 'wav'): Promise<void> {
    if (!isFileId(id) || !fileExtensions.includes(extension)) return;
    await removeQuietly(this.#path(id, extension));
  }

  async sweep(now: Date = this.#now()): Promise<number> {
    const cutoff = now.getTime() - this.#lifetimeMs;
    let removed = 0;
    // Only names this store writes are considered, so a misconfigured folder loses nothing else.
    for (const name of await readdir(this.#dir)) {
      if (!STORED_NAME.test(name) && !TEMP_PATTERN.test(name)) continue;
      const path = join(this.#dir, name);
      try {
        const info = await stat(path);
        if (info.isFile() && info.mtime.getTime() <= cutoff && (await removeQuietly(path))) removed++;
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    }
    return removed;
  }

  async check(): Promise<true | string> {
    const probe = join(this.#dir, `.check-${randomBytes(6).toString('hex')}.tmp`);
    try {
      await writeFile(probe, '', { flag: 'wx', mode: 0o600 });
      await unlink(probe);
      return true;
    } catch {
      // No path or errno in the reason: health output is public.
      return 'not writable';
    }
  }

  #path(id: string, extension: FileExtension): string {
    return join(this.#dir, `${id}.${extension}`);
  }
}

// Appended bytes are written once this many wait, so a long file costs one write a MiB.
const WRITE_BATCH_BYTES = 1024 * 1024;

/** A file written to a dot-named temp file, renamed to its id by `commit`. */
class LocalFileDraft implements FileDraft {
  readonly #handle: FileHandle;
  readonly #temp: string;
  readonly #reserve: number;
  readonly #publish: () => Promise<{ id: string }>;
  #waiting: Uint8Array[] = [];
  #waitingBytes = 0;
  #position: number;
  #done = false;

  constructor(handle: FileHandle, temp: string, reserve: number, publish: () => Promise<{ id: string }>) {
    this.#handle = handle;
    this.#temp = temp;
    this.#reserve = reserve;
    this.#publish = publish;
    this.#position = reserve;
  }

  async append(bytes: Uint8Array): Promise<void> {
    if (this.#done) throw new Error('the file was already committed or discarded');
    this.#waiting.push(bytes);
    this.#waitingBytes += bytes.length;
    if (this.#waitingBytes >= WRITE_BATCH_BYTES)
      await this.#flush().catch((error: unknown) => {
        throw writeFailure(error);
      });
  }

  async commit(head?: Uint8Array): Promise<{ id: string }> {
    checkHead(head, this.#reserve);
    if (this.#done) throw new Error('the file was already committed or discarded');
    this.#done = true;
    try {
      await this.#flush();
      if (head) await this.#handle.write(head, 0, head.length, 0);
      await this.#handle.close();
      return await this.#publish();
    } catch (error) {
      await this.#handle.close().catch(() => {});
      await removeQuietly(this.#temp).catch(() => {});
      throw writeFailure(error);
    }
  }

  async discard(): Promise<void> {
    if (this.#done) return;
    this.#done = true;
    this.#waiting = [];
    await this.#handle.close().catch(() => {});
    await removeQuietly(this.#temp);
  }

  async #flush(): Promise<void> {
    const waiting = this.#waiting;
    const length = this.#waitingBytes;
    this.#waiting = [];
    this.#waitingBytes = 0;
    // One call writes every buffer, however many, from the position given (libuv loops over
    // short writes and the system's limit on buffers a call).
    if (waiting.length > 0) await this.#handle.writev(waiting, this.#position);
    this.#position += length;
  }
}
