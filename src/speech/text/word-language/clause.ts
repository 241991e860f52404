/**
 * The words of a clause that are not of the clause's language: given by a mark (`marks.ts`:
 * SSML `<lang>`, a lexicon entry) or decided by `detect.ts`. A word is always decided whole,
 * with its inner apostrophes and hyphens, so a live text that arrives in pieces is decided the
 * same as the text sent at once: the front-end reads only whole clauses.
 */
import type { LanguageCode } from '../verbalizer.ts';
import { wordLanguage } from './detect.ts';
import { languageOfMark, MARK_CHARACTERS } from './marks.ts';

/** A word said in another language than its clause's: where it is (its mark included) and which. */
export interface ForeignWord {
  /** Code units from the clause's start, mark included; `end` excluded. */
  readonly start: number;
  readonly end: number;
  /** The word as written, without its mark. */
  readonly text: string;
  readonly language: LanguageCode;
  /**
   * The part of `text` that is of `language`, and the IPA of what the clause's own language puts
   * before and after it (French "l'Akagera": `l`, English "Rwanda's": `z`), said with it.
   */
  readonly stem: string;
  readonly before: string;
  readonly after: string;
}

const WORD = new RegExp(`([${MARK_CHARACTERS}])?([\\p{L}\\p{M}]+(?:['’-][\\p{L}\\p{M}]+)*)`, 'gu');
// What English adds to a name ("Rwanda's") and French puts before one ("l'Akagera", "d'Huye"):
// not part of the name, but said with it, as one word, in these sounds.
const ENGLISH_POSSESSIVE = /['’]s$/u;
const FRENCH_ELISION = /^(c|d|j|l|m|n|s|t|qu|jusqu|lorsqu|puisqu)['’]/iu;
const FRENCH_ELISION_IPA: Readonly<Record<string, string>> = {
  c: 's',
  d: 'd',
  j: 'ʒ',
  l: 'l',
  m: 'm',
  n: 'n',
  s: 's',
  t: 't',
  qu: 'k',
  jusqu: 'ʒysk',
  lorsqu: 'lɔʁsk',
  puisqu: 'pɥisk',
};

/** The foreign words of `clause`, a clause of `language`, in order. */
export function foreignWords(clause: string, language: LanguageCode): ForeignWord[] {
  const found: ForeignWord[] = [];
  for (const match of clause.matchAll(WORD)) {
    const marked = languageOfMark(match[1]);
    const text = match[2] as string;
    const start = match.index ?? 0;
    const end = start + match[0].length;
    if (marked === undefined) found.push(...decided(text, end, language));
    else if (marked !== language)
      found.push({ start, end, text, language: marked, stem: text, before: '', after: '' });
  }
  return found;
}

/**
 * A word's own decision (on its stem, without an English possessive or a French elided word
 * before it), or, for a compound that is native whole, each of its parts'. `end`: where the word
 * ends in the clause.
 */
function decided(text: string, end: number, language: LanguageCode): ForeignWord[] {
  const start = end - text.length;
  let stem = text;
  let before = '';
  let after = '';
  if (language === 'en' && ENGLISH_POSSESSIVE.test(text)) {
    stem = text.replace(ENGLISH_POSSESSIVE, '');
    after = 'z';
  }
  const elided = language === 'fr' ? FRENCH_ELISION.exec(text) : null;
  if (elided) {
    stem = text.slice(elided[0].length);
    before = FRENCH_ELISION_IPA[(elided[1] as string).toLowerCase()] ?? '';
  }
  const whole = wordLanguage(stem, language);
  if (whole !== language) return [{ start, end, text, language: whole, stem, before, after }];
  if (!stem.includes('-')) return [];
  const parts: ForeignWord[] = [];
  let at = start + text.indexOf(stem);
  for (const part of stem.split('-')) {
    const partLanguage = wordLanguage(part, language);
    if (partLanguage !== language)
      parts.push({
        start: at,
        end: at + part.length,
        text: part,
        language: partLanguage,
        stem: part,
        before: '',
        after: '',
      });
    at += part.length + 1;
  }
  return parts;
}
