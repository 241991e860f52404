/**
 * The language of one written word, in a text of a given language, decided from what can be
 * measured and sourced (README.md beside this file):
 * - in English or French text, a Kinyarwanda word is one of the gazetteer (Rwanda's places,
 *   Kinyarwanda names, words Rwandans use in any language), or an unknown word that can only be
 *   Kinyarwanda: spelled as Kinyarwanda spells (`phonotactics.ts`), in neither the English nor the
 *   French word list (`lexicons.ts`), at least `MIN_NAME_LETTERS` long, without accents or an l;
 * - in Kinyarwanda text, an English or French word is one of the list of foreign words Rwandans
 *   write the foreign way (email, merci), or a word Kinyarwanda cannot spell that one of the two
 *   word lists holds. A word Kinyarwanda can spell stays Kinyarwanda ("bite", "mama", "ubu"):
 *   a native word must never be said as a foreign one.
 */
import type { LanguageCode } from '../verbalizer.ts';
import { foreignWordsInKinyarwanda } from './data/foreign-words-in-kinyarwanda.ts';
import { kinyarwandaWords } from './data/kinyarwanda-words.ts';
import { kinyarwandaGivenNames, kinyarwandaSurnames } from './data/rwanda-names.ts';
import { rwandaPlaces } from './data/rwanda-places.ts';
import { englishWords, frenchWordList } from './lexicons.ts';
import { fitsKinyarwanda } from './phonotactics.ts';

/** A word no list knows is taken for a Kinyarwanda name only from this length on ("Huye" is 4). */
const MIN_NAME_LETTERS = 4;
/** A word shorter than this is never said as a foreign word in Kinyarwanda text (n', y', ku). */
const MIN_FOREIGN_LETTERS = 3;

const lower = (word: string) => word.normalize('NFC').toLowerCase().replace(/’/gu, "'");

const GAZETTEER: ReadonlySet<string> = new Set(
  [...rwandaPlaces, ...kinyarwandaGivenNames, ...kinyarwandaSurnames, ...kinyarwandaWords].map(lower),
);
const FOREIGN_IN_KINYARWANDA: ReadonlyMap<string, LanguageCode> = new Map(
  foreignWordsInKinyarwanda.map(([word, language]) => [lower(word), language]),
);

// Spellings French has and English has not, and the other way round: they decide a word both
// lists hold ("vous" French, "cash" English), for a Kinyarwanda sentence that borrowed it.
const FRENCH_SPELLING =
  /[àâæçéèêëîïôœùûüÿ]|eau|eux$|oux$|oire?$|eur$|ez$|ier$|ette$|ique$|aux$|ous?$|our$|ois$|ais$|ait$|qu[ei]/u;
const ENGLISH_SPELLING = /w|k|th|sh|ing$|ght|ee|oo|y$/u;

/** Whether `word` is a word of English or French, by their word lists. */
function inEnglish(word: string): boolean {
  return englishWords().has(word);
}
function inFrench(word: string): boolean {
  return frenchWordList().has(word);
}

/** The language of `word` (letters, with inner apostrophes or hyphens) in a text of `context`. */
export function wordLanguage(word: string, context: LanguageCode): LanguageCode {
  const key = lower(word);
  if (context === 'rw') return languageInKinyarwanda(word, key);
  if (GAZETTEER.has(key)) return 'rw';
  if (
    /[^a-z'-]/u.test(key) ||
    Array.from(key.replace(/['-]/gu, '')).length < MIN_NAME_LETTERS ||
    !fitsKinyarwanda(key) ||
    inEnglish(key) ||
    inFrench(key)
  )
    return context;
  return 'rw';
}

function languageInKinyarwanda(word: string, key: string): LanguageCode {
  const listed = FOREIGN_IN_KINYARWANDA.get(key);
  if (listed !== undefined) return listed;
  if (Array.from(key).length < MIN_FOREIGN_LETTERS || fitsKinyarwanda(word)) return 'rw';
  const english = inEnglish(key);
  const french = inFrench(key);
  if (english && french) {
    const frenchScore = FRENCH_SPELLING.test(key) ? 1 : 0;
    const englishScore = ENGLISH_SPELLING.test(key) ? 1 : 0;
    return frenchScore > englishScore ? 'fr' : 'en';
  }
  if (english) return 'en';
  if (french) return 'fr';
  return 'rw';
}
