import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadEntry } from 'tar';
import { x as extract } from 'tar';
import { MANIFEST_FILE } from './voice-pack.ts';

/**
 * Fetches a voice pack published as a gzipped tar archive (`.tar.gz`, `.tgz`) of its folder,
 * and unpacks it into a temporary folder for `VoiceStore.install`. The URL is the operator's,
 * the bytes are not trusted: http(s) only, a time limit, a size limit on the download and on
 * what it unpacks to, the SHA-256 compared when one is given, and only plain files and folders
 * unpacked (no links, no device files, no path out of the folder: `tar` refuses `..` and strips
 * a leading `/`).
 */

const MAX_DOWNLOAD_BYTES = 1024 * 1024 * 1024;
const MAX_UNPACKED_BYTES = 2 * 1024 * 1024 * 1024;
const MAX_ENTRIES = 20_000;
const DOWNLOAD_TIMEOUT_MS = 30 * 60 * 1000;

export interface DownloadOptions {
  /** The archive's SHA-256 in hex; when given, any other archive is refused. */
  readonly sha256?: string;
  /** Told the bytes so far and the total when the server says it. */
  readonly onProgress?: (received: number, total: number | undefined) => void;
  readonly signal?: AbortSignal;
}

/** A downloaded and unpacked pack: its folder, and how to delete everything it made. */
export interface DownloadedPack {
  readonly folder: string;
  remove(): Promise<void>;
}

export class PackDownloadError extends Error {}

/** Counts the bytes that pass and gives up past `limit`. */
function counted(limit: number, onBytes: (total: number) => void): Transform {
  let total = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      if (total > limit) {
        done(new PackDownloadError(`the archive is larger than ${limit} bytes`));
        return;
      }
      onBytes(total);
      done(null, chunk);
    },
  });
}

export async function downloadPack(url: string, options: DownloadOptions = {}): Promise<DownloadedPack> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new PackDownloadError(`not a URL: ${url.slice(0, 200)}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new PackDownloadError('a pack is downloaded over http or https only');
  }
  const dir = await mkdtemp(join(tmpdir(), 'ijwi-pack-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    const archive = join(dir, 'pack.tar.gz');
    const hash = await fetchTo(parsed, archive, options);
    if (options.sha256 !== undefined && hash !== options.sha256.toLowerCase()) {
      throw new PackDownloadError(`the archive's SHA-256 is ${hash}, not ${options.sha256}`);
    }
    const unpacked = join(dir, 'unpacked');
    await unpack(archive, unpacked);
    return { folder: await packFolder(unpacked), remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

/** Saves the response body to `path`; returns its SHA-256 in hex. */
async function fetchTo(url: URL, path: string, options: DownloadOptions): Promise<string> {
  const signal = AbortSignal.any([
    AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS),
    ...(options.signal ? [options.signal] : []),
  ]);
  const response = await fetch(url, { signal, redirect: 'follow' }).catch((error: unknown) => {
    throw new PackDownloadError(
      `could not download ${url.href}: ${error instanceof Error ? error.message : error}`,
    );
  });
  if (!response.ok || response.body === null) {
    throw new PackDownloadError(`could not download ${url.href}: HTTP ${response.status}`);
  }
  const length = Number(response.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : undefined;
  if (total !== undefined && total > MAX_DOWNLOAD_BYTES) {
    throw new PackDownloadError(`the archive is larger than ${MAX_DOWNLOAD_BYTES} bytes`);
  }
  const hash = createHash('sha256');
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(
    Readable.fromWeb(response.body as import('node:stream/web').ReadableStream),
    counted(MAX_DOWNLOAD_BYTES, (received) => options.onProgress?.(received, total)),
    hashing,
    createWriteStream(path),
  );
  return hash.digest('hex');
}

/** Unpacks plain files and folders only, within the size and entry limits. */
async function unpack(archive: string, into: string): Promise<void> {
  await mkdir(into);
  let entries = 0;
  let bytes = 0;
  let refused: string | undefined;
  const allowed = (entry: ReadEntry) => {
    entries++;
    bytes += entry.size ?? 0;
    if (entry.type !== 'File' && entry.type !== 'OldFile' && entry.type !== 'Directory') {
      refused ??= `the archive holds ${entry.path}, a ${entry.type}: a pack holds plain files and folders only`;
    } else if (entries > MAX_ENTRIES) refused ??= `the archive holds more than ${MAX_ENTRIES} entries`;
    else if (bytes > MAX_UNPACKED_BYTES)
      refused ??= `the archive unpacks to more than ${MAX_UNPACKED_BYTES} bytes`;
    return refused === undefined;
  };
  try {
    await extract({
      file: archive,
      cwd: into,
      strict: true,
      filter: (_path, entry) => allowed(entry as ReadEntry),
    });
  } catch (error) {
    throw new PackDownloadError(
      `the archive cannot be unpacked: ${error instanceof Error ? error.message : error}`,
    );
  }
  if (refused !== undefined) throw new PackDownloadError(refused);
}

/** The unpacked pack's folder: the archive's root, or the one folder it holds. */
async function packFolder(unpacked: string): Promise<string> {
  if (await isFile(join(unpacked, MANIFEST_FILE))) return unpacked;
  const entries = await readdir(unpacked, { withFileTypes: true });
  if (entries.length === 1 && entries[0]?.isDirectory()) {
    const inner = join(unpacked, entries[0].name);
    if (await isFile(join(inner, MANIFEST_FILE))) return inner;
  }
  throw new PackDownloadError(`the archive holds no ${MANIFEST_FILE} at its root or in its one folder`);
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}
