import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { byteLimit, PackArchiveError, type UnpackedPack, unpackArchive } from './pack-archive.ts';

/**
 * Fetches a voice pack published as an archive of its folder (`.tar.gz` or `.tar.bz2`) and
 * unpacks it (`pack-archive.ts`) for `VoiceStore.install`. The URL is the operator's, the bytes
 * are not trusted: http(s) only, a time limit, a size limit on the download, the SHA-256
 * compared when one is given, then the archive's own limits as it is unpacked.
 */

const MAX_DOWNLOAD_BYTES = 1024 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 30 * 60 * 1000;

export interface DownloadOptions {
  /** The archive's SHA-256 in hex; when given, any other archive is refused. */
  readonly sha256?: string;
  /** Told the bytes so far and the total when the server says it. */
  readonly onProgress?: (received: number, total: number | undefined) => void;
  /** Told when the archive is downloaded and being unpacked (a large .tar.bz2 takes a while). */
  readonly onUnpacking?: () => void;
  readonly signal?: AbortSignal;
}

/** A download's refusal; an archive's own (`PackArchiveError`) is one too. */
export class PackDownloadError extends Error {}

export async function downloadPack(url: string, options: DownloadOptions = {}): Promise<UnpackedPack> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new PackDownloadError(`not a URL: ${url.slice(0, 200)}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new PackDownloadError('a pack is downloaded over http or https only');
  }
  const dir = await mkdtemp(join(tmpdir(), 'ijwi-download-'));
  try {
    // Saved under the URL's own file name: a voice whose files sit at the archive's root is
    // named after it.
    const name = decodeURIComponent(parsed.pathname.split('/').pop() ?? '').replace(/[^\w.-]+/g, '-');
    const archive = join(dir, /^[\w-]/.test(name) ? name : 'pack.tar');
    const hash = await fetchTo(parsed, archive, options);
    if (options.sha256 !== undefined && hash !== options.sha256.toLowerCase()) {
      throw new PackDownloadError(`the archive's SHA-256 is ${hash}, not ${options.sha256}`);
    }
    options.onUnpacking?.();
    return await unpackArchive(archive).catch((error: unknown) => {
      throw error instanceof PackArchiveError ? new PackDownloadError(error.message) : error;
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
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
  try {
    await pipeline(
      Readable.fromWeb(response.body as import('node:stream/web').ReadableStream),
      byteLimit(MAX_DOWNLOAD_BYTES, `the archive is larger than ${MAX_DOWNLOAD_BYTES} bytes`, (received) =>
        options.onProgress?.(received, total),
      ),
      hashing,
      createWriteStream(path),
    );
  } catch (error) {
    if (error instanceof PackArchiveError) throw new PackDownloadError(error.message);
    throw error;
  }
  return hash.digest('hex');
}
