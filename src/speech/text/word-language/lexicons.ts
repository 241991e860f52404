/**
 * The English and French word lists the detector asks whether a word is a word of either
 * language. English: the words of the CMU Pronouncing Dictionary (npm `cmu-pronouncing-dictionary`,
 * ISC; the dictionary is BSD-2), the lexicon Flite's English voices are built from (Flite's
 * `cmulex` is compiled from it). French: npm `an-array-of-french-words` (MIT, about 336,000
 * inflected forms): espeak-ng's French dictionary holds only the words its spelling rules get
 * wrong, so it cannot say whether a word is French.
 *
 * Each list is read once into one string of its words, one a line, in order, and the offsets of
 * the lines (about 1.6 MB for English and 5.5 MB for French), never into a `Set` of strings (about
 * four times as much): the main thread keeps them for the life of the process. The packages' files
 * are read as bytes and copied into the list's bytes, so that reading them leaves no megabytes of
 * strings behind for the collector (building the lists from strings left 20 MB more resident).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const NEWLINE = 0x0a;
const QUOTE = 0x22;

/** A sorted list of lower-case words, searched in place. */
export class WordList {
  readonly #words: string;
  readonly #starts: Uint32Array;
  /** The few words the source lists out of order (the CMU dictionary has some), looked up apart. */
  readonly #apart: ReadonlySet<string>;

  /**
   * `lines`: lower-case words, one a line ending with a newline, in code-unit order (`WordBytes`
   * keeps them so: a search in a list out of order would miss words); `apart`: words that did not
   * fit that order.
   */
  constructor(lines: string, apart: ReadonlySet<string> = new Set()) {
    this.#words = lines;
    this.#apart = apart;
    let count = 0;
    for (let at = lines.indexOf('\n'); at !== -1; at = lines.indexOf('\n', at + 1)) count++;
    this.#starts = new Uint32Array(count + 1);
    let start = 0;
    for (let i = 0; i < count; i++) {
      this.#starts[i] = start;
      start = lines.indexOf('\n', start) + 1;
    }
    this.#starts[count] = start;
  }

  get size(): number {
    return this.#starts.length - 1 + this.#apart.size;
  }

  /** Whether the list holds `word` (compared as given: pass it in lower case). */
  has(word: string): boolean {
    let low = 0;
    let high = this.#starts.length - 2;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const entry = this.#entry(middle);
      if (entry === word) return true;
      if (entry < word) low = middle + 1;
      else high = middle - 1;
    }
    return this.#apart.has(word);
  }

  #entry(index: number): string {
    return this.#words.slice(this.#starts[index], (this.#starts[index + 1] as number) - 1);
  }
}

/**
 * Words taken from a package's bytes into the bytes of a `WordList`: each in order after the one
 * before it is copied with a newline; one that is not is kept apart. UTF-8's byte order is the
 * order of code points, which is JavaScript's for these words (none beyond U+FFFF).
 */
class WordBytes {
  readonly #out: Buffer;
  #length = 0;
  #last: Buffer = Buffer.alloc(0);
  readonly #apart = new Set<string>();

  constructor(capacity: number) {
    this.#out = Buffer.allocUnsafe(capacity);
  }

  add(word: Buffer): void {
    if (Buffer.compare(this.#last, word) > 0) {
      this.#apart.add(word.toString('utf8'));
      return;
    }
    word.copy(this.#out, this.#length);
    this.#last = this.#out.subarray(this.#length, this.#length + word.length);
    this.#length += word.length;
    this.#out[this.#length++] = NEWLINE;
  }

  list(): WordList {
    return new WordList(this.#out.toString('utf8', 0, this.#length), this.#apart);
  }
}

/**
 * The words of the CMU dictionary's module, which is its source text: `  "word": "PH ON ES",` a
 * line, a word's other pronunciations as `"word(2)"` right after it. Read as text, never
 * evaluated: an object of 135,000 keys costs tens of megabytes to build.
 */
function cmuWords(): WordList {
  const source = readFileSync(require.resolve('cmu-pronouncing-dictionary'));
  const words = new WordBytes(source.length);
  const entry = Buffer.from('\n  "');
  for (let at = source.indexOf(entry); at !== -1; at = source.indexOf(entry, at + 1)) {
    const start = at + entry.length;
    const end = source.indexOf(QUOTE, start);
    // `word(2)`: another pronunciation of the word before it.
    if (source[end - 1] !== 0x29) words.add(source.subarray(start, end));
  }
  return words.list();
}

/** The French package's JSON array of strings (sorted, lower case, NFC, no escapes), as lines. */
function frenchWords(): WordList {
  const source = readFileSync(require.resolve('an-array-of-french-words'));
  const words = new WordBytes(source.length);
  for (let at = source.indexOf(QUOTE); at !== -1; at = source.indexOf(QUOTE, at + 1)) {
    const end = source.indexOf(QUOTE, at + 1);
    words.add(source.subarray(at + 1, end));
    at = end;
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

/** Reads both lists now rather than on first use (at start, before the first request). */
export function loadWordLists(): void {
  englishWords();
  frenchWordList();
}

/** The French word list (loaded on first use). */
export function frenchWordList(): WordList {
  french ??= frenchWords();
  return french;
}
