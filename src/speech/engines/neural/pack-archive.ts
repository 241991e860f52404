import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { ReadEntry } from 'tar';
import { x as extract } from 'tar';
import unbzip2 from 'unbzip2-stream';

/**
 * Unpacks a voice pack archive as its makers publish it: a `.tar.gz` or a `.tar.bz2` (sherpa-onnx
 * publishes its converted voices so) of the voice's folder. The bytes are not trusted: the
 * compression is told by the archive's first bytes, not its name; the decompressed stream is
 * counted and given up past a limit (a small archive that unpacks to terabytes never fills the
 * disk); only plain files and folders are unpacked (no links, no device files, no path out of
 * the folder: `tar` refuses `..` and strips a leading `/`), at most so many of them.
 */

const MAX_UNPACKED_BYTES = 2 * 1024 * 1024 * 1024;
const MAX_ENTRIES = 20_000;
/** The archive endings a voice's name is taken from when its files sit at the archive's root. */
const ARCHIVE_ENDING = /\.(tar\.gz|tgz|tar\.bz2|tbz2?)$/i;

export class PackArchiveError extends Error {}

/** An unpacked archive: the voice's folder in it, and how to delete everything it made. */
export interface UnpackedPack {
  readonly folder: string;
  remove(): Promise<void>;
}

export interface UnpackLimits {
  /** Bytes the archive may decompress to, tar headers included. */
  readonly maxBytes?: number;
  readonly maxEntries?: number;
}

/** Counts the bytes that pass and fails with `message` past `limit`. */
export function byteLimit(limit: number, message: string, onBytes?: (total: number) => void): Transform {
  let total = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      if (total > limit) {
        done(new PackArchiveError(message));
        return;
      }
      onBytes?.(total);
      done(null, chunk);
    },
  });
}

/** The decompressor the archive's magic bytes call for: gzip (1f 8b) or bzip2 ("BZh"). */
async function decompressorFor(archive: string): Promise<NodeJS.ReadWriteStream> {
  const file = await open(archive, 'r').catch(() => {
    throw new PackArchiveError(`cannot read the archive ${basename(archive)}`);
  });
  const magic = Buffer.alloc(3);
  try {
    await file.read(magic, 0, 3, 0);
  } finally {
    await file.close();
  }
  if (magic[0] === 0x1f && magic[1] === 0x8b) return createGunzip();
  if (magic.toString('latin1') === 'BZh') return unbzip2();
  throw new PackArchiveError('the archive cannot be unpacked: it is neither a .tar.gz nor a .tar.bz2');
}

/**
 * Unpacks `archive` into a new temporary folder named after it, and returns the voice's folder:
 * the archive's root, or the one folder it holds (as both Piper's and sherpa-onnx's archives do).
 */
export async function unpackArchive(archive: string, limits: UnpackLimits = {}): Promise<UnpackedPack> {
  const dir = await mkdtemp(join(tmpdir(), 'ijwi-pack-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    // Named after the archive, so a voice whose files sit at the archive's root is named so too.
    const name =
      basename(archive)
        .replace(ARCHIVE_ENDING, '')
        .replace(/[^\w.-]+/g, '-') || 'pack';
    const unpacked = join(dir, name.startsWith('.') ? `pack${name}` : name);
    await unpackInto(archive, unpacked, limits);
    return { folder: await voiceFolder(unpacked), remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

async function unpackInto(archive: string, into: string, limits: UnpackLimits): Promise<void> {
  const maxBytes = limits.maxBytes ?? MAX_UNPACKED_BYTES;
  const maxEntries = limits.maxEntries ?? MAX_ENTRIES;
  await mkdir(into);
  let entries = 0;
  let refused: string | undefined;
  const allowed = (entry: ReadEntry) => {
    entries++;
    if (entry.type !== 'File' && entry.type !== 'OldFile' && entry.type !== 'Directory') {
      refused ??= `the archive holds ${entry.path}, a ${entry.type}: a pack holds plain files and folders only`;
    } else if (entries > maxEntries) refused ??= `the archive holds more than ${maxEntries} entries`;
    return refused === undefined;
  };
  const decompress = await decompressorFor(archive);
  try {
    await pipeline(
      createReadStream(archive),
      decompress,
      byteLimit(maxBytes, `the archive unpacks to more than ${maxBytes} bytes`),
      extract({ cwd: into, strict: true, filter: (_path, entry) => allowed(entry as ReadEntry) }),
    );
  } catch (error) {
    if (error instanceof PackArchiveError) throw error;
    throw new PackArchiveError(
      `the archive cannot be unpacked: ${error instanceof Error ? error.message : error}`,
    );
  }
  if (refused !== undefined) throw new PackArchiveError(refused);
}

/** The unpacked voice's folder: the archive's root, or the one folder it holds. */
async function voiceFolder(unpacked: string): Promise<string> {
  const entries = await readdir(unpacked, { withFileTypes: true });
  if (entries.length === 0) throw new PackArchiveError('the archive is empty');
  const [only] = entries;
  return entries.length === 1 && only?.isDirectory() ? join(unpacked, only.name) : unpacked;
}
