/**
 * The English and French word lists the detector asks whether a word is a word of either
 * language. English: the words of the CMU Pronouncing Dictionary (npm `cmu-pronouncing-dictionary`,
 * ISC; the dictionary is BSD-2), the lexicon Flite's English voices are built from (Flite's
 * `cmulex` is compiled from it). French: npm `an-array-of-french-words` (MIT, about 336,000
 * inflected forms): espeak-ng's French dictionary holds only the words its spelling rules get
 * wrong, so it cannot say whether a word is French.
 *
 * Each list is read once into one buffer of its words in UTF-8, one a line, in order, and the
 * offsets of the lines (about 1.6 MB for English and 3.4 MB for French), never into a `Set` of
 * strings (about four times as much): the main thread keeps them for the life of the process. A
 * package's file is read into a resizable buffer, its words are moved to the front of that same
 * buffer and the buffer is shrunk to them: reading the lists leaves nothing behind for the
 * collector. (Reading them into strings left the files' bytes, about 19 MB, resident until the
 * next full collection, which an idle instance may not run for a long time.)
 */
import { once } from 'node:events';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { startTypeScriptWorker } from '../../runtime/typescript-worker.ts';

const require = createRequire(import.meta.url);
const NEWLINE = 0x0a;
const QUOTE = 0x22;

/** What a `WordList` is made of, as a thread sends it: the buffers are transferred, not copied. */
export interface WordListParts {
  readonly lines: Uint8Array;
  readonly starts: Uint32Array;
  readonly apart: ReadonlySet<string>;
}

/** A sorted list of lower-case words, searched in place. */
export class WordList {
  readonly #words: Buffer;
  readonly #starts: Uint32Array;
  /** The few words the source lists out of order (the CMU dictionary has some), looked up apart. */
  readonly #apart: ReadonlySet<string>;

  /**
   * `lines`: lower-case words in UTF-8, one a line ending with a newline, in byte order (which is
   * code-point order; `WordBytes` keeps them so: a search in a list out of order would miss
   * words); `apart`: words that did not fit that order.
   */
  constructor(lines: Buffer, apart: ReadonlySet<string> = new Set(), starts?: Uint32Array) {
    this.#words = lines;
    this.#apart = apart;
    if (starts) {
      this.#starts = starts;
      return;
    }
    let count = 0;
    for (let at = lines.indexOf(NEWLINE); at !== -1; at = lines.indexOf(NEWLINE, at + 1)) count++;
    this.#starts = new Uint32Array(count + 1);
    let start = 0;
    for (let i = 0; i < count; i++) {
      this.#starts[i] = start;
      start = lines.indexOf(NEWLINE, start) + 1;
    }
    this.#starts[count] = start;
  }

  /** A list made by another thread (`parts`). */
  static fromParts(parts: WordListParts): WordList {
    const { lines } = parts;
    return new WordList(
      Buffer.from(lines.buffer, lines.byteOffset, lines.byteLength),
      parts.apart,
      parts.starts,
    );
  }

  /** What the list is made of, for a thread to send (the buffers are then transferred). */
  parts(): WordListParts {
    return { lines: this.#words, starts: this.#starts, apart: this.#apart };
  }

  get size(): number {
    return this.#starts.length - 1 + this.#apart.size;
  }

  /** Whether the list holds `word` (compared as given: pass it in lower case). */
  has(word: string): boolean {
    const key = utf8(word);
    const words = this.#words;
    const starts = this.#starts;
    let low = 0;
    let high = starts.length - 2;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const order = compareBytes(
        key,
        0,
        key.length,
        words,
        starts[middle] as number,
        (starts[middle + 1] as number) - 1,
      );
      if (order === 0) return true;
      if (order > 0) low = middle + 1;
      else high = middle - 1;
    }
    return this.#apart.has(word);
  }
}

const encoder = new TextEncoder();
// A word's bytes are encoded here, not into a new buffer for each look-up.
const scratch = new Uint8Array(256);

function utf8(word: string): Uint8Array {
  // Three bytes at most a UTF-16 unit: a longer word takes a buffer of its own.
  if (word.length * 3 > scratch.length) return encoder.encode(word);
  return scratch.subarray(0, encoder.encodeInto(word, scratch).written);
}

/**
 * The order of two byte ranges, as `Buffer.compare` gives it, in JavaScript: a look-up makes about
 * twenty comparisons of a few bytes, where a call into native code for each costs more than it does.
 */
function compareBytes(
  a: Uint8Array,
  aStart: number,
  aEnd: number,
  b: Uint8Array,
  bStart: number,
  bEnd: number,
): number {
  const length = Math.min(aEnd - aStart, bEnd - bStart);
  for (let i = 0; i < length; i++) {
    const difference = (a[aStart + i] as number) - (b[bStart + i] as number);
    if (difference !== 0) return difference < 0 ? -1 : 1;
  }
  return Math.sign(aEnd - aStart - (bEnd - bStart));
}

/** A package's file in a buffer that can shrink, giving its memory back (not only its length). */
function readShrinkable(path: string): { buffer: ArrayBuffer; bytes: Buffer } {
  const fd = openSync(path, 'r');
  try {
    const { size } = fstatSync(fd);
    const buffer = new ArrayBuffer(size, { maxByteLength: size });
    const bytes = Buffer.from(buffer);
    for (let read = 0; read < size; ) {
      const got = readSync(fd, bytes, read, size - read, read);
      if (got === 0) throw new Error(`${path} ended after ${read} of ${size} bytes`);
      read += got;
    }
    return { buffer, bytes };
  } finally {
    closeSync(fd);
  }
}

/**
 * Words of a package's file moved to the front of its own buffer as the lines of a `WordList`:
 * each in order after the one before it is moved there with a newline (never past a byte not yet
 * searched: a word and its newline are shorter than the source's quoted word); one that is not in
 * order is kept apart. UTF-8's byte order is the order of code points, which is JavaScript's for
 * these words (none beyond U+FFFF).
 */
class WordBytes {
  readonly #buffer: ArrayBuffer;
  readonly #bytes: Buffer;
  #length = 0;
  #lastStart = 0;
  #lastEnd = 0;
  readonly #apart = new Set<string>();

  constructor(path: string) {
    ({ buffer: this.#buffer, bytes: this.#bytes } = readShrinkable(path));
  }

  /** The source's bytes, to find its words in; valid until `list`. */
  get source(): Buffer {
    return this.#bytes;
  }

  /** The word at `start` to `end` of the source, which must lie at or after the words moved so far. */
  add(start: number, end: number): void {
    const bytes = this.#bytes;
    if (compareBytes(bytes, this.#lastStart, this.#lastEnd, bytes, start, end) > 0) {
      this.#apart.add(bytes.toString('utf8', start, end));
      return;
    }
    bytes.copyWithin(this.#length, start, end);
    this.#lastStart = this.#length;
    this.#length += end - start;
    this.#lastEnd = this.#length;
    bytes[this.#length++] = NEWLINE;
  }

  list(): WordList {
    this.#buffer.resize(this.#length);
    return new WordList(Buffer.from(this.#buffer, 0, this.#length), this.#apart);
  }
}

/**
 * The words of the CMU dictionary's module, which is its source text: `  "word": "PH ON ES",` a
 * line, a word's other pronunciations as `"word(2)"` right after it. Read as text, never
 * evaluated: an object of 135,000 keys costs tens of megabytes to build.
 */
function cmuWords(): WordList {
  const words = new WordBytes(require.resolve('cmu-pronouncing-dictionary'));
  const source = words.source;
  const entry = Buffer.from('\n  "');
  // Searched on from each word's end: the words moved so far never reach past it.
  for (let at = source.indexOf(entry); at !== -1; ) {
    const start = at + entry.length;
    const end = source.indexOf(QUOTE, start);
    // `word(2)`: another pronunciation of the word before it.
    if (source[end - 1] !== 0x29) words.add(start, end);
    at = source.indexOf(entry, end);
  }
  return words.list();
}

/** The French package's JSON array of strings (sorted, lower case, NFC, no escapes), as lines. */
function frenchWords(): WordList {
  const words = new WordBytes(require.resolve('an-array-of-french-words'));
  const source = words.source;
  for (let at = source.indexOf(QUOTE); at !== -1; ) {
    const end = source.indexOf(QUOTE, at + 1);
    words.add(at + 1, end);
    at = source.indexOf(QUOTE, end + 1);
  }
  return words.list();
}

let english: WordList | undefined;
let french: WordList | undefined;

/** The English word list (loaded on first use). */
export function englishWords(): WordList {
  english ??= cmuWords();
  return english;
}

/** Whether both lists are read: a caller's words wait for neither. */
export function wordListsRead(): boolean {
  return english !== undefined && french !== undefined;
}

/** Both lists, read in this thread (`word-lists-thread.ts` sends them). */
export function readWordLists(): { readonly english: WordList; readonly french: WordList } {
  return { english: englishWords(), french: frenchWordList() };
}

/**
 * Reads both lists in a thread of their own and takes them for this one (their buffers move, not
 * copied): at start, so that no caller's first words wait for them and this thread is free
 * meanwhile. What reading leaves behind goes with the thread.
 */
export async function loadWordListsInThread(): Promise<void> {
  const thread = startTypeScriptWorker(new URL('./word-lists-thread.ts', import.meta.url), undefined);
  try {
    const [lists] = (await once(thread, 'message')) as [{ english: WordListParts; french: WordListParts }];
    english ??= WordList.fromParts(lists.english);
    french ??= WordList.fromParts(lists.french);
  } finally {
    await thread.terminate();
  }
}

/** The French word list (loaded on first use). */
export function frenchWordList(): WordList {
  french ??= frenchWords();
  return french;
}
