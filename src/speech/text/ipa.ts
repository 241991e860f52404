/**
 * IPA a client wrote (SSML `phoneme`) -> the phoneme mnemonics of the espeak-ng voice that
 * speaks each language, to go inside `[[ ]]`. Only symbols in the language's table are
 * accepted: a symbol the voice has no phoneme for is refused, never guessed, so what a client
 * hears is what it wrote. Each mnemonic was checked against the voices' phoneme tables
 * (espeak-ng `phsource/ph_english`, `ph_english_us`, `ph_french`, `ph_swahili`, `phonemes`) and by
 * synthesising it (test/speech/text/ipa.test.ts); the choices are listed in ../ssml/README.md.
 */
import { ESPEAK as SWAHILI_VOICE } from './rw/g2p.ts';
import type { LanguageCode } from './verbalizer.ts';

export type IpaConversion =
  | { readonly ok: true; readonly mnemonics: string }
  | { readonly ok: false; readonly symbol: string };

// Tie bars above and below: `t͡ʃ`, `t͜ʃ` and `tʃ` are one affricate.
const TIE_BARS = /[\u0361\u035C]/g;

function table(entries: Iterable<readonly [string, string]>): ReadonlyMap<string, string> {
  return new Map(
    Array.from(entries, ([ipa, mnemonic]) => [ipa.normalize('NFC').replace(TIE_BARS, ''), mnemonic]),
  );
}

// Each language writes its own r with the plain letter in dictionaries, so `r` is that r:
// the tap in Kinyarwanda, the approximant in English, the uvular fricative in French.
const KINYARWANDA = table([
  ...SWAHILI_VOICE,
  ['g', 'g'],
  ['r', '*'],
  ['l', 'l'],
  ['dʒ', 'dZ'],
  ['ʧ', 'tS'],
  ['ʤ', 'dZ'],
  ['ʦ', 'ts'],
  ['x', 'x'],
  ['ɣ', 'Q'],
  ['θ', 'T'],
  ['ð', 'D'],
]);

// Stops, fricatives and affricates that English and French voices name alike.
const OBSTRUENTS: readonly (readonly [string, string])[] = [
  ['p', 'p'],
  ['b', 'b'],
  ['t', 't'],
  ['d', 'd'],
  ['k', 'k'],
  ['ɡ', 'g'],
  ['g', 'g'],
  ['f', 'f'],
  ['v', 'v'],
  ['s', 's'],
  ['z', 'z'],
  ['ʃ', 'S'],
  ['ʒ', 'Z'],
];
const AFFRICATES: readonly (readonly [string, string])[] = [
  ['tʃ', 'tS'],
  ['dʒ', 'dZ'],
  ['ʧ', 'tS'],
  ['ʤ', 'dZ'],
];

// Mnemonics present in both `en-us` and `en-wi` (the table of `en-029`, African English).
const ENGLISH = table([
  ['ə', '@'],
  ['ɚ', '3'],
  ['ɜ', '3:'],
  ['ɜː', '3:'],
  ['ɝ', '3:'],
  ['ɝː', '3:'],
  ['æ', 'a'],
  ['a', 'a'],
  ['ɑ', 'A:'],
  ['ɑː', 'A:'],
  ['ɒ', '0'],
  ['ɔ', 'O'],
  ['ɔː', 'O:'],
  ['ʌ', 'V'],
  ['ɪ', 'I'],
  ['i', 'i'],
  ['iː', 'i:'],
  ['ʊ', 'U'],
  ['u', 'u'],
  ['uː', 'u:'],
  ['e', 'e'],
  ['ɛ', 'E'],
  ['o', 'o'],
  ['oː', 'o:'],
  ['eɪ', 'eI'],
  ['aɪ', 'aI'],
  ['aʊ', 'aU'],
  ['oʊ', 'oU'],
  ['əʊ', 'oU'],
  ['ɔɪ', 'OI'],
  ['ɪə', 'i@'],
  ['eə', 'e@'],
  ['ɛə', 'e@'],
  ['ʊə', 'U@'],
  ['l̩', '@L'],
  ...OBSTRUENTS,
  ['θ', 'T'],
  ['ð', 'D'],
  ['h', 'h'],
  ['x', 'x'],
  ['m', 'm'],
  ['n', 'n'],
  ['ŋ', 'N'],
  ['l', 'l'],
  ['ɫ', 'l'],
  ['ɹ', 'r'],
  ['r', 'r'],
  ['ɾ', '*'],
  ['j', 'j'],
  ['w', 'w'],
  ...AFFRICATES,
]);

// The `fr` voice has no separate [ɑ] (nor has most of today's French): it is said [a].
const FRENCH = table([
  ['a', 'a'],
  ['ɑ', 'a'],
  ['e', 'e'],
  ['ɛ', 'E'],
  ['i', 'i'],
  ['o', 'o'],
  ['ɔ', 'O'],
  ['u', 'u'],
  ['y', 'y'],
  ['ø', 'Y'],
  ['œ', 'W'],
  ['ə', '@'],
  ['ɑ̃', 'A~'],
  ['ɛ̃', 'E~'],
  ['ɔ̃', 'O~'],
  ['œ̃', 'W~'],
  ...OBSTRUENTS,
  ['m', 'm'],
  ['n', 'n'],
  ['ɲ', 'n^'],
  ['ŋ', 'N'],
  ['l', 'l'],
  ['ʁ', 'r'],
  ['r', 'r'],
  ['j', 'j'],
  ['w', 'w'],
  // espeak-ng's own [ɥ] (`j.`) is the vowel `y` before another vowel.
  ['ɥ', 'y'],
  ...AFFRICATES,
]);

/** IPA symbol (NFC, without tie bars) -> espeak-ng mnemonic, for the voice of each language. */
export const IPA_TABLES: Readonly<Record<LanguageCode, ReadonlyMap<string, string>>> = {
  rw: KINYARWANDA,
  en: ENGLISH,
  fr: FRENCH,
};

/** One piece of IPA: a symbol of the table, a stress mark, a length mark, or a word break. */
export type IpaToken =
  | { readonly kind: 'symbol'; readonly symbol: string }
  | { readonly kind: 'stress'; readonly primary: boolean }
  | { readonly kind: 'long' }
  | { readonly kind: 'space' };

export type IpaTokens =
  | { readonly ok: true; readonly tokens: readonly IpaToken[] }
  | { readonly ok: false; readonly symbol: string };

const STRESS: Readonly<Record<string, boolean>> = { ˈ: true, ˌ: false };
const SYLLABLE_BREAK = '.';
const LENGTH = 'ː';
const WHITESPACE = /\s/u;
const COMBINING = /\p{M}/u;

/** The symbol at `index` as a person sees it: one character with the combining marks after it. */
function symbolAt(ipa: string, index: number): string {
  const first = String.fromCodePoint(ipa.codePointAt(index) ?? 0);
  let end = index + first.length;
  while (end < ipa.length && COMBINING.test(ipa.charAt(end))) end++;
  return ipa.slice(index, end);
}

/**
 * IPA cut into the symbols of `symbols` (NFC, without tie bars), longest first, and marks: `ˈ`
 * and `ˌ` stress, `ː` length (once, however many), whitespace a word break (once), a `.`
 * syllable break dropped; affricates are accepted with or without a tie bar. The first symbol
 * that is not in the table is returned instead, with its combining marks.
 */
export function ipaTokens(ipa: string, symbols: ReadonlyMap<string, unknown>): IpaTokens {
  const longest = Math.max(...Array.from(symbols.keys(), (k) => k.length));
  const text = ipa.normalize('NFC').replace(TIE_BARS, '');
  const tokens: IpaToken[] = [];
  const last = () => tokens.at(-1)?.kind;
  let i = 0;
  while (i < text.length) {
    const char = text.charAt(i);
    if (WHITESPACE.test(char) || char === LENGTH || char === SYLLABLE_BREAK || char in STRESS) {
      if (WHITESPACE.test(char)) {
        if (tokens.length > 0 && last() !== 'space') tokens.push({ kind: 'space' });
      } else if (char === LENGTH) {
        if (last() !== 'long') tokens.push({ kind: 'long' });
      } else if (char !== SYLLABLE_BREAK) {
        tokens.push({ kind: 'stress', primary: STRESS[char] as boolean });
      }
      i++;
      continue;
    }
    let matched = false;
    for (let length = Math.min(longest, text.length - i); length > 0; length--) {
      const symbol = text.slice(i, i + length);
      // A match must not leave a combining mark of its last symbol behind (`a` in `ã`).
      if (!symbols.has(symbol) || COMBINING.test(text.charAt(i + length))) continue;
      tokens.push({ kind: 'symbol', symbol });
      i += length;
      matched = true;
      break;
    }
    if (!matched) return { ok: false, symbol: symbolAt(text, i) };
  }
  while (last() === 'space') tokens.pop();
  return { ok: true, tokens };
}

/**
 * Converts IPA to the espeak-ng phoneme mnemonics of the voice that speaks `language` (`rw`: the
 * `sw` voice, `en`: `en-us` and `en-029`, `fr`: `fr`): `ˈ` and `ˌ` become stress marks, `ː`
 * lengthens, whitespace separates words (see `ipaTokens`). The result uses only the characters
 * `[A-Za-z0-9@~^*':,]` and single spaces and is meant to go inside `[[ ]]`.
 */
export function ipaToEspeak(language: LanguageCode, ipa: string): IpaConversion {
  const map = IPA_TABLES[language];
  const read = ipaTokens(ipa, map);
  if (!read.ok) return read;
  let out = '';
  for (const token of read.tokens) {
    if (token.kind === 'space') out += ' ';
    else if (token.kind === 'long') out += out.endsWith(':') ? '' : ':';
    else if (token.kind === 'stress') out += token.primary ? "'" : ',';
    else out += map.get(token.symbol) as string;
  }
  return { ok: true, mnemonics: out };
}

/**
 * IPA of another language (what an engine's dictionary gave, or Ijwi's own rules) in the
 * symbols of `target`, for a voice that says a foreign word: each symbol of `adaptation` becomes
 * its value (IPA, possibly several symbols or none), a symbol `target` has stays, stress and
 * length marks and word breaks stay, and any other symbol is dropped. Unlike a client's IPA, which
 * is refused where the voice cannot say it, a foreign word is always said, as near as the voice
 * can.
 */
export function adaptIpa(
  ipa: string,
  adaptation: ReadonlyMap<string, string>,
  target: ReadonlyMap<string, unknown>,
): string {
  const text = ipa.normalize('NFC').replace(TIE_BARS, '');
  const longest = Math.max(...Array.from([...adaptation.keys(), ...target.keys()], (k) => k.length));
  let out = '';
  let i = 0;
  while (i < text.length) {
    const char = text.charAt(i);
    if (WHITESPACE.test(char) || char === LENGTH || char in STRESS) {
      out += char;
      i++;
      continue;
    }
    let length = Math.min(longest, text.length - i);
    for (; length > 0; length--) {
      const symbol = text.slice(i, i + length);
      if (COMBINING.test(text.charAt(i + length))) continue;
      const adapted = adaptation.get(symbol);
      if (adapted !== undefined) out += adapted;
      else if (target.has(symbol)) out += symbol;
      else continue;
      break;
    }
    // A symbol neither table knows (a glottal stop, a syllable break) is dropped with its marks.
    i += length > 0 ? length : symbolAt(text, i).length;
  }
  return out;
}
