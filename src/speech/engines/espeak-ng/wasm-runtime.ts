/**
 * espeak-ng compiled to WebAssembly (`wasm/`, built by `wasm/build.sh` from espeak-ng 1.52.0's
 * released source): the module compiled once per process, an instance per worker, and the file
 * system the instance reads its data from.
 *
 * The data are espeak-ng's, as the `@echogarden/espeak-ng-emscripten` package ships them: one
 * 24 MB file of every language's files end to end, and a list of where each lies. An instance
 * sees them as a read-only directory, `/usr/share/espeak-ng-data`, of WASI files whose bytes are
 * read from the package only when espeak-ng first reads them: a worker holds the files of the
 * voices it speaks, about 1 MB, never the 23 MB of languages Ijwi does not speak.
 */

import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Directory, File, type Inode, OpenFile, PreopenDirectory, WASI } from '@bjorn3/browser_wasi_shim';
import { recordedChecksum as recordedChecksumOf, recordedModuleBytes } from '../../runtime/recorded-wasm.ts';

const DATA_DIR = '/usr/share/espeak-ng-data';
/** The release of espeak-ng that `wasm/build.sh` builds. */
export const ESPEAK_NG_VERSION = '1.52.0';
const MODULE_URL = new URL('./wasm/espeak-ng.wasm', import.meta.url);
/** The npm package whose data espeak-ng reads. */
export const DATA_PACKAGE = '@echogarden/espeak-ng-emscripten';

/** `espeak_Synth`'s flags: text as UTF-8, SSML and `[[phonemes]]` read. */
export const SYNTH_TEXT = 0;
export const SYNTH_SSML_AND_PHONEMES = 0x1 | 0x10 | 0x100;

/** One file of the data package: its path under the data directory and its byte range. */
export interface PackagedFile {
  readonly path: string;
  readonly start: number;
  readonly end: number;
}

/** What a worker needs to make instances: the compiled module and where the data lie. */
export interface CompiledEspeak {
  readonly module: WebAssembly.Module;
  readonly dataFile: string;
  readonly files: readonly PackagedFile[];
}

/** The SHA-256 the build recorded for the module (`wasm/espeak-ng.wasm.sha256`). */
export function recordedChecksum(): string {
  return recordedChecksumOf(MODULE_URL);
}

/** The module's bytes, refused unless they are the build's recorded ones. */
export function moduleBytes(): Uint8Array {
  return recordedModuleBytes(MODULE_URL);
}

/**
 * Where each file lies in the data package: emscripten's loader, which the package's JavaScript
 * is, lists them as `{filename:"...",start:N,end:N}`.
 */
export function packagedFiles(loaderSource: string): PackagedFile[] {
  const files: PackagedFile[] = [];
  const prefix = `${DATA_DIR}/`;
  for (const match of loaderSource.matchAll(/\{filename:"([^"]+)",start:(\d+),end:(\d+)\}/g)) {
    const [, filename = '', start = '', end = ''] = match;
    if (!filename.startsWith(prefix)) continue;
    const path = filename.slice(prefix.length);
    if (path.split('/').some((part) => part === '' || part === '.' || part === '..'))
      throw new Error(`espeak-ng's data package lists a file outside its directory: ${filename}`);
    files.push({ path, start: Number(start), end: Number(end) });
  }
  if (files.length === 0) throw new Error("espeak-ng's data package lists no files");
  return files;
}

/** Compiles the module and reads the data package's list of files: once per process. */
export async function compileEspeak(): Promise<CompiledEspeak> {
  const require = createRequire(import.meta.url);
  const dataFile = require.resolve(`${DATA_PACKAGE}/espeak-ng.data`);
  const files = packagedFiles(readFileSync(require.resolve(DATA_PACKAGE), 'utf8'));
  return { module: await WebAssembly.compile(moduleBytes()), dataFile, files };
}

export function isCompiledEspeak(value: unknown): value is CompiledEspeak {
  const v = value as Partial<CompiledEspeak> | undefined;
  return v?.module instanceof WebAssembly.Module && typeof v.dataFile === 'string' && Array.isArray(v.files);
}

/** A read-only file whose bytes are read from the package when first read, then kept. */
function packagedFile(dataFile: string, entry: PackagedFile): File {
  const file = new File(new ArrayBuffer(0), { readonly: true });
  let bytes: Uint8Array | undefined;
  const read = (): Uint8Array => {
    const buffer = new Uint8Array(entry.end - entry.start);
    const fd = openSync(dataFile, 'r');
    try {
      readSync(fd, buffer, 0, buffer.byteLength, entry.start);
    } finally {
      closeSync(fd);
    }
    return buffer;
  };
  Object.defineProperty(file, 'data', {
    get: () => {
      bytes ??= read();
      return bytes;
    },
    set: (value: Uint8Array) => {
      bytes = value;
    },
  });
  Object.defineProperty(file, 'size', { get: () => BigInt(bytes?.byteLength ?? entry.end - entry.start) });
  return file;
}

function dataDirectory(compiled: CompiledEspeak): Map<string, Inode> {
  const root = new Map<string, Inode>();
  for (const entry of compiled.files) {
    const parts = entry.path.split('/');
    const name = parts.pop() as string;
    let contents = root;
    for (const part of parts) {
      let child = contents.get(part);
      if (child === undefined) {
        child = new Directory(new Map());
        contents.set(part, child);
      }
      if (!(child instanceof Directory))
        throw new Error(`espeak-ng's data package has ${part} as a file and a folder`);
      contents = child.contents;
    }
    contents.set(name, packagedFile(compiled.dataFile, entry));
  }
  return root;
}

/**
 * An event of a buffer: a word starts (where it is in the text, from 1, in characters, and when
 * in the audio), or a phoneme (its name, IPA).
 */
export type SynthEvent =
  | {
      readonly type: 'word';
      readonly textPosition: number;
      readonly length: number;
      readonly audioMs: number;
    }
  | { readonly type: 'phoneme'; readonly name: string };

/**
 * Gets each buffer's samples (a view of the instance's memory, valid only during the call) and
 * the events in it; returns true to stop the synthesis.
 */
export type ChunkListener = (samples: Int16Array, events: readonly SynthEvent[]) => boolean;

/** The settings `ijwi_synthesize` sets before every synthesis. */
export interface SynthSettings {
  readonly rate: number;
  readonly volume: number;
  readonly pitch: number;
  readonly range: number;
}

interface EspeakExports {
  readonly memory: WebAssembly.Memory;
  ijwi_initialize(): number;
  ijwi_allocate(size: number): number;
  ijwi_release(pointer: number): void;
  ijwi_set_voice(name: number): number;
  ijwi_synthesize(
    text: number,
    flags: number,
    rate: number,
    volume: number,
    pitch: number,
    range: number,
  ): number;
  ijwi_ipa(text: number): number;
}

/** The bytes of a phoneme event's name (`espeak_EVENT.id.string`), NUL-terminated only when shorter. */
const PHONEME_NAME_BYTES = 8;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One espeak-ng: an instance of the module, its own data directory and state. */
export class EspeakInstance {
  readonly sampleRate: number;
  readonly #exports: EspeakExports;
  readonly #data: Map<string, Inode>;
  #listener: ChunkListener | undefined;
  #events: SynthEvent[] = [];

  constructor(compiled: CompiledEspeak) {
    const data = new PreopenDirectory(DATA_DIR, dataDirectory(compiled));
    this.#data = data.dir.contents;
    const wasi = new WASI(
      [],
      [],
      [new OpenFile(new File([])), new OpenFile(new File([])), new OpenFile(new File([])), data],
      // The shim's trace of every call goes to the console unless it is turned off.
      { debug: false },
    );
    const instance = new WebAssembly.Instance(compiled.module, {
      wasi_snapshot_preview1: wasi.wasiImport,
      ijwi: {
        word: (textPosition: number, length: number, audioMs: number) => {
          this.#events.push({ type: 'word', textPosition, length, audioMs });
        },
        phoneme: (pointer: number) => {
          const bytes = new Uint8Array(this.#exports.memory.buffer, pointer, PHONEME_NAME_BYTES);
          const end = bytes.indexOf(0);
          this.#events.push({
            type: 'phoneme',
            name: decoder.decode(end < 0 ? bytes : bytes.subarray(0, end)),
          });
        },
        samples: (pointer: number, count: number) => {
          const events = this.#events;
          this.#events = [];
          const samples = new Int16Array(this.#exports.memory.buffer, pointer, count);
          return this.#listener?.(samples, events) === true ? 1 : 0;
        },
      },
    });
    wasi.initialize(
      instance as unknown as { exports: { memory: WebAssembly.Memory; _initialize?: () => unknown } },
    );
    this.#exports = instance.exports as unknown as EspeakExports;
    this.sampleRate = this.#exports.ijwi_initialize();
    if (this.sampleRate <= 0) throw new Error(`espeak-ng did not start (${this.sampleRate})`);
  }

  /** Writes a file into the data directory (a voice variant), replacing any of that name. */
  writeFile(path: string, contents: string): void {
    const parts = path.split('/');
    const name = parts.pop() as string;
    let contentsOf = this.#data;
    for (const part of parts) {
      const child = contentsOf.get(part);
      if (!(child instanceof Directory)) throw new Error(`no folder ${part} in espeak-ng's data`);
      contentsOf = child.contents;
    }
    contentsOf.set(name, new File(encoder.encode(contents), { readonly: true }));
  }

  /** Selects a voice by espeak-ng's name (`sw+ijwi-grace`); 0 when it was found. */
  setVoice(name: string): number {
    return this.#withString(name, (pointer) => this.#exports.ijwi_set_voice(pointer));
  }

  /** Speaks `text` with `flags`, handing each buffer to `listener`; espeak-ng's status. */
  synthesize(text: string, flags: number, settings: SynthSettings, listener: ChunkListener): number {
    this.#listener = listener;
    this.#events = [];
    try {
      return this.#withString(text, (pointer) =>
        this.#exports.ijwi_synthesize(
          pointer,
          flags,
          settings.rate,
          settings.volume,
          settings.pitch,
          settings.range,
        ),
      );
    } finally {
      this.#listener = undefined;
      this.#events = [];
    }
  }

  /** The IPA espeak-ng reads `text` (as text) with, phonemes joined by `_`. */
  ipa(text: string): string {
    const pointer = this.#withString(text, (textPointer) => this.#exports.ijwi_ipa(textPointer));
    if (pointer === 0) throw new Error('espeak-ng wrote no phonemes');
    try {
      const memory = new Uint8Array(this.#exports.memory.buffer);
      const end = memory.indexOf(0, pointer);
      return decoder.decode(memory.subarray(pointer, end < 0 ? pointer : end));
    } finally {
      this.#exports.ijwi_release(pointer);
    }
  }

  #withString<T>(text: string, use: (pointer: number) => T): T {
    const bytes = encoder.encode(text);
    const pointer = this.#exports.ijwi_allocate(bytes.byteLength + 1);
    if (pointer === 0) throw new Error('espeak-ng is out of memory');
    try {
      const memory = new Uint8Array(this.#exports.memory.buffer);
      memory.set(bytes, pointer);
      memory[pointer + bytes.byteLength] = 0;
      return use(pointer);
    } finally {
      this.#exports.ijwi_release(pointer);
    }
  }
}
