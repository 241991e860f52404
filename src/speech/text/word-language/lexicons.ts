/**
 * The English and French word lists the detector asks whether a word is a word of either
 * language. English: the words of the CMU Pronouncing Dictionary (npm `cmu-pronouncing-dictionary`,
 * ISC; the dictionary is BSD-2), the lexicon Flite's English voices are built from (Flite's
 * `cmulex` is compiled from it). French: npm `an-array-of-french-words` (MIT, about 336,000
 * inflected forms): espeak-ng's French dictionary holds only the words its spelling rules get
 * wrong, so it cannot say whether a word is French.
 *
 * Each list is read once, when first asked, into one sorted string and the offsets of its words
 * (about 1.7 MB for English and 5 MB for French), never into a `Set` of strings (about four times
 * as much): the main thread keeps them for the life of the process.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A sorted list of lower-case words, searched in place. */
export class WordList {
  readonly #words: string;
  readonly #starts: Uint32Array;

  /**
   * `lines`: lower-case words, one a line, in code-unit order (duplicates allowed). Both packages
   * ship their words so; a list out of order is refused, as a search in it would miss words.
   */
  constructor(lines: string) {
    this.#words = lines.endsWith('\n') ? lines : `${lines}\n`;
    let count = 0;
    for (let at = this.#words.indexOf('\n'); at !== -1; at = this.#words.indexOf('\n', at + 1)) count++;
    this.#starts = new Uint32Array(count + 1);
    let start = 0;
    for (let i = 0; i < count; i++) {
      this.#starts[i] = start;
      start = this.#words.indexOf('\n', start) + 1;
    }
    this.#starts[count] = start;
    for (let i = 1; i < count; i++) {
      if (this.#entry(i - 1) > this.#entry(i)) throw new Error(`word list out of order at ${this.#entry(i)}`);
    }
  }

  get size(): number {
    return this.#starts.length - 1;
  }

  /** Whether the list holds `word` (compared as given: pass it in lower case). */
  has(word: string): boolean {
    let low = 0;
    let high = this.size - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const entry = this.#entry(middle);
      if (entry === word) return true;
      if (entry < word) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }

  #entry(index: number): string {
    return this.#words.slice(this.#starts[index], (this.#starts[index + 1] as number) - 1);
  }
}

/**
 * The words of the CMU dictionary's module, which is its source text: `  "word": "PH ON ES",` a
 * line, a word's other pronunciations as `"word(2)"` right after it. Read as text, never
 * evaluated: an object of 135,000 keys costs tens of megabytes to build.
 */
function cmuWords(): string {
  const source = readFileSync(require.resolve('cmu-pronouncing-dictionary'), 'utf8');
  const words: string[] = [];
  for (let at = source.indexOf('\n  "'); at !== -1; at = source.indexOf('\n  "', at + 1)) {
    const end = source.indexOf('"', at + 4);
    const word = source.slice(at + 4, end);
    if (!word.endsWith(')')) words.push(word);
  }
  // A few entries are out of order in the source (`sepultura`): sorted here.
  return words.sort().join('\n');
}

/** The French package's JSON array, already sorted, lower case and NFC, as lines. */
function frenchWords(): string {
  const source = readFileSync(require.resolve('an-array-of-french-words'), 'utf8').trim();
  return source.slice(2, -2).replaceAll('","', '\n');
}

let english: WordList | undefined;
let french: WordList | undefined;

/** The English word list (loaded on first use). */
export function englishWords(): WordList {
  english ??= new WordList(cmuWords());
  return english;
}

/** Reads both lists now rather than on first use (at start, before the first request). */
export function loadWordLists(): void {
  englishWords();
  frenchWordList();
}

/** The French word list (loaded on first use). */
export function frenchWordList(): WordList {
  french ??= new WordList(frenchWords());
  return french;
}
