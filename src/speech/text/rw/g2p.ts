/**
 * Kinyarwanda grapheme-to-phoneme conversion. espeak-ng has no Kinyarwanda voice, so Ijwi
 * speaks it through the Swahili voice (`sw`) fed with phoneme input (`[[...]]`); this module
 * turns normalised Kinyarwanda text into that input, and into broad IPA for users. The rules,
 * each with its source, and the approximations the Swahili inventory forces are listed in
 * README.md beside this file.
 */
import { espeakWord, ipaWord, type Phone } from './syllables.ts';

type Kind = 'vowel' | 'consonant' | 'glide';

interface Unit {
  ipa: string;
  kind: Kind;
  long: boolean;
}

// Spelling -> sound before any context rule. `c` alone is [t͡ʃ] and `cy` is [c]; `j` alone is
// [ʒ] and `jy` is [ɟ] (Wikipedia "Kinyarwanda", Orthography). `l` appears only in loans and is
// the same liquid as `r` (Wikibooks "Kinyarwanda/Orthography"). q and x only occur in foreign
// names and are read as a Kinyarwanda speaker spells them out.
const GRAPHEMES: Readonly<Record<string, readonly (readonly [string, Kind])[]>> = {
  a: [['a', 'vowel']],
  e: [['e', 'vowel']],
  i: [['i', 'vowel']],
  o: [['o', 'vowel']],
  u: [['u', 'vowel']],
  b: [['β', 'consonant']],
  c: [['t͡ʃ', 'consonant']],
  cy: [['c', 'consonant']],
  d: [['d', 'consonant']],
  f: [['f', 'consonant']],
  g: [['ɡ', 'consonant']],
  h: [['h', 'consonant']],
  j: [['ʒ', 'consonant']],
  jy: [['ɟ', 'consonant']],
  k: [['k', 'consonant']],
  l: [['ɾ', 'consonant']],
  m: [['m', 'consonant']],
  n: [['n', 'consonant']],
  ny: [['ɲ', 'consonant']],
  p: [['p', 'consonant']],
  pf: [['p͡f', 'consonant']],
  q: [['k', 'consonant']],
  r: [['ɾ', 'consonant']],
  s: [['s', 'consonant']],
  sh: [['ʃ', 'consonant']],
  t: [['t', 'consonant']],
  ts: [['t͡s', 'consonant']],
  v: [['v', 'consonant']],
  w: [['w', 'glide']],
  x: [
    ['k', 'consonant'],
    ['s', 'consonant'],
  ],
  y: [['j', 'glide']],
  z: [['z', 'consonant']],
};
const GRAPHEME = /sh|ny|cy|jy|pf|ts|[a-z]/g;
const LATERAL: readonly (readonly [string, Kind])[] = [['l', 'consonant']];

/**
 * Broad IPA -> the mnemonic of each sound in the phoneme table of espeak-ng's `sw` voice, each
 * checked by synthesising it (test/speech/text/rw/g2p.test.ts). `R` would be a trill and `r` an
 * approximant there; `*` is the tap. Also the core of what SSML `phoneme` accepts for `rw`
 * (../ipa.ts).
 */
export const ESPEAK: ReadonlyMap<string, string> = new Map([
  ['a', 'a'],
  ['e', 'e'],
  ['i', 'i'],
  ['o', 'o'],
  ['u', 'u'],
  ['m', 'm'],
  ['n', 'n'],
  ['ɲ', 'n^'],
  ['ŋ', 'N'],
  ['p', 'p'],
  ['b', 'b'],
  ['β', 'B'],
  ['t', 't'],
  ['d', 'd'],
  ['c', 'c'],
  ['ɟ', 'J'],
  ['k', 'k'],
  ['ɡ', 'g'],
  ['f', 'f'],
  ['v', 'v'],
  ['s', 's'],
  ['z', 'z'],
  ['ʃ', 'S'],
  ['ʒ', 'Z'],
  ['ç', 'C'],
  ['h', 'h'],
  ['t͡ʃ', 'tS'],
  ['t͡s', 'ts'],
  ['p͡f', 'pf'],
  ['ɾ', '*'],
  ['j', 'j'],
  ['w', 'w'],
]);

const NASAL = new Set(['m', 'n', 'ɲ', 'ŋ']);
const VOICELESS = new Set(['p', 't', 'k', 'c', 'f', 's', 'ʃ', 't͡ʃ', 't͡s', 'p͡f', 'h']);
const VELAR = new Set(['k', 'ɡ', 'h']);
const FRONT_VOWEL = new Set(['i', 'e']);
// Nasal + voiceless stop: the stop is lost and the nasal is followed by breathy release, [h].
const NASAL_VOICELESS_STOP = new Set(['p', 't', 'k']);

function isConsonant(u: Unit | undefined): u is Unit {
  return u !== undefined && u.kind === 'consonant';
}

/** The word's sounds by its letters; `native` false keeps a written l as [l] (see `applyRules`). */
function unitsOf(word: string, native = true): Unit[] {
  const units: Unit[] = [];
  for (const [grapheme] of word.matchAll(GRAPHEME)) {
    const sounds = !native && grapheme === 'l' ? LATERAL : GRAPHEMES[grapheme];
    for (const [ipa, kind] of sounds ?? []) {
      const previous = units.at(-1);
      // A doubled vowel letter is one long vowel (aa, ee...); a tripled one in an interjection too.
      if (kind === 'vowel' && previous?.kind === 'vowel' && previous.ipa === ipa) {
        previous.long = true;
        continue;
      }
      units.push({ ipa, kind, long: false });
    }
  }
  return units;
}

/**
 * Context rules, in order; each is cited in README.md. `native`: false for another language's
 * voice saying a name, which leaves out the sounds only Kinyarwanda's own speech has there (see
 * `kinyarwandaWordIpa`).
 */
function applyRules(units: Unit[], native = true): Unit[] {
  // Nasal + voiceless stop: mp [mh], nt [nh], nk [ŋh].
  for (let i = 1; native && i < units.length; i++) {
    const nasal = units[i - 1];
    const stop = units[i];
    if (!nasal || !stop || stop.kind !== 'consonant' || !NASAL_VOICELESS_STOP.has(stop.ipa)) continue;
    if (nasal.ipa !== 'm' && nasal.ipa !== 'n') continue;
    if (stop.ipa === 'k') nasal.ipa = 'ŋ';
    stop.ipa = 'h';
  }
  for (let i = 0; i < units.length; i++) {
    const unit = units[i];
    const next = units[i + 1];
    if (unit?.kind !== 'consonant') continue;
    // n takes the place of a following velar: ng [ŋɡ].
    if (unit.ipa === 'n' && next && (next.ipa === 'k' || next.ipa === 'ɡ')) unit.ipa = 'ŋ';
    // b is [β] everywhere except after m, where it is a stop: umugabo [umuɡaβo], imbwa [imbɡwa].
    if (unit.ipa === 'β' && units[i - 1]?.ipa === 'm') unit.ipa = 'b';
  }
  const out: Unit[] = [];
  for (const unit of units) {
    const previous = out.at(-1);
    if (unit.kind === 'glide' && isConsonant(previous)) {
      if (unit.ipa === 'j') {
        hardenPalatalGlide(out, previous);
        continue;
      }
      if (native) insertVelar(out, previous);
    }
    out.push(unit);
  }
  for (let i = 0; i < out.length; i++) {
    const unit = out[i];
    const next = out[i + 1];
    // k and g are palatal before a front vowel: Kigali [ciɡaɾi], igiti [iɟiti].
    if (native && unit?.kind === 'consonant' && next?.kind === 'vowel' && FRONT_VOWEL.has(next.ipa)) {
      if (unit.ipa === 'k') unit.ipa = 'c';
      else if (unit.ipa === 'ɡ') unit.ipa = 'ɟ';
    }
  }
  lengthenBeforePrenasalised(out);
  return out;
}

/**
 * Consonant + y: the glide hardens to a palatal stop that agrees in voicing (by [βɟ], py [pc],
 * ry [ɾɟ], shy [ʃc]), merges with k/g (ky [c], gy [ɟ]) and becomes [ɲ] after a nasal (my [mɲ]).
 */
function hardenPalatalGlide(out: Unit[], previous: Unit): void {
  if (previous.ipa === 'k' || previous.ipa === 'ɡ') {
    previous.ipa = previous.ipa === 'k' ? 'c' : 'ɟ';
    return;
  }
  if (previous.ipa === 'h') {
    out.push({ ipa: 'j', kind: 'glide', long: false });
    return;
  }
  const ipa = NASAL.has(previous.ipa) ? 'ɲ' : VOICELESS.has(previous.ipa) ? 'c' : 'ɟ';
  out.push({ ipa, kind: 'consonant', long: false });
}

/**
 * Consonant + w: a velar is inserted before the glide, voiceless after a voiceless consonant
 * (tw [tkw], sw [skw]), voiced after a voiced one (rw [ɾɡw], bw [βɡw]), nasal after a nasal
 * (mw [mŋw], nyw [ɲŋw]); n itself becomes the velar (nw [ŋw]). Velars and h take w as it is.
 */
function insertVelar(out: Unit[], previous: Unit): void {
  if (VELAR.has(previous.ipa) || previous.ipa === 'ŋ') return;
  if (previous.ipa === 'n') {
    previous.ipa = 'ŋ';
    return;
  }
  const ipa = NASAL.has(previous.ipa) ? 'ŋ' : VOICELESS.has(previous.ipa) ? 'k' : 'ɡ';
  out.push({ ipa, kind: 'consonant', long: false });
}

/**
 * A vowel before a prenasalised consonant (nasal + obstruent) is long: umuganga [umuɡaːŋɡa],
 * Rwanda [ɾɡwaːnda]; a word's first vowel is not (impamvu [imhaːmvu]).
 */
function lengthenBeforePrenasalised(units: Unit[]): void {
  for (let i = 1; i + 2 < units.length; i++) {
    const vowel = units[i];
    const nasal = units[i + 1];
    const obstruent = units[i + 2];
    if (vowel?.kind !== 'vowel' || !nasal || !NASAL.has(nasal.ipa) || !isConsonant(obstruent)) continue;
    if (!NASAL.has(obstruent.ipa)) vowel.long = true;
  }
}

function phonesOf(word: string, native = true): Phone[] {
  return applyRules(unitsOf(word, native), native).map((u) => ({
    ipa: u.ipa,
    espeak: ESPEAK.get(u.ipa) ?? '',
    vowel: u.kind === 'vowel',
    long: u.long,
  }));
}

// Diacritics are dropped (tone-marked text such as inká, French names such as Hélène);
// apostrophes of every kind become one; what remains outside a-z is not Kinyarwanda spelling.
const DIACRITICS = /\p{M}/gu;
const APOSTROPHES = /[’‘ʼ`´]/g;
const NOT_LETTER = /[^a-z]/g;
// Elision written with a stray space after the apostrophe (tukuvug' ibigwi) still joins the
// consonant to the next word; an apostrophe after a vowel is a closing quote.
const ELISION_SPACE = /([b-df-hj-np-tv-z])'\s+(?=\p{L})/gu;
const TOKEN = /(\p{L}+(?:'\p{L}+)*)|([.,;:!?…()[\]{}\-–—])|[\s\S]/gu;

type Token =
  | { readonly kind: 'word'; readonly phones: Phone[] }
  | { readonly kind: 'punct'; readonly text: string }
  | { readonly kind: 'space' };

/** Text as the rules read it: no tone marks or accents, lower case, one apostrophe. */
function spelling(text: string): string {
  return text.normalize('NFD').replace(DIACRITICS, '').toLowerCase().replace(APOSTROPHES, "'");
}

/**
 * One Kinyarwanda word (a name, a place) in broad IPA for a voice of another language, which says
 * it with Kinyarwanda's vowels and consonants as its letters spell them, without the sounds only
 * Kinyarwanda's own speech puts there: no velar before w (Rwanda [ɾwaːnda], not [ɾɡwaːnda]), k
 * and g before i and e as written (Kigali [kiɡali], Gicumbi [ɡitʃumbi], not [c ɟ]), a nasal before
 * p, t, k keeping the stop (Ntare [ntaɾe], not [nhaɾe]), and l as written. These are what English
 * and French speakers hear in the names (the issue's own examples: "Gicumbi" with [dʒ] is wrong)
 * and how Rwandans say them to a caller in those languages.
 */
export function kinyarwandaWordIpa(word: string): string {
  return ipaWord(phonesOf(spelling(word).replace(NOT_LETTER, ''), false));
}

function tokens(text: string): Token[] {
  const prepared = spelling(text).replace(ELISION_SPACE, "$1'");
  const out: Token[] = [];
  for (const match of prepared.matchAll(TOKEN)) {
    const [, word, punct] = match;
    if (word !== undefined) {
      const phones = phonesOf(word.replace(NOT_LETTER, ''));
      out.push(phones.length > 0 ? { kind: 'word', phones } : { kind: 'space' });
    } else if (punct !== undefined) out.push({ kind: 'punct', text: punct });
    else out.push({ kind: 'space' });
  }
  return out;
}

/**
 * Normalised Kinyarwanda text (words, apostrophes, punctuation) as broad IPA, for users: words
 * separated by single spaces, punctuation kept where it was, quotes, digits and other symbols
 * dropped. Vowel length is shown where the spelling or a rule gives it; tone is not, because
 * the spelling does not mark it. Deterministic and total: any string gives a string.
 */
export function kinyarwandaToIpa(text: string): string {
  let out = '';
  let space = false;
  for (const token of tokens(text)) {
    if (token.kind === 'space') {
      space = true;
      continue;
    }
    const piece = token.kind === 'word' ? ipaWord(token.phones) : token.text;
    const opensGap = token.kind === 'word' || OPENING.has(piece);
    if (out !== '' && (space || (opensGap && CLOSING_OR_WORD_END.test(out)))) out += ' ';
    out += piece;
    space = false;
  }
  return out;
}

const OPENING = new Set(['(', '[', '{']);
const CLOSING_OR_WORD_END = /[^\s([{–—-]$/u;

// How each punctuation mark reaches espeak-ng, outside the brackets: there it gives the clause
// pause and intonation (measured: `,` 160 ms, `;` 240 ms, `.` `?` `!` 310-350 ms). Inside
// `[[ ]]` the same characters are phoneme codes (`,` is secondary stress), so they never go in.
const ESPEAK_PUNCT: Readonly<Record<string, string>> = {
  '.': '.',
  '…': '.',
  '?': '?',
  '!': '!',
  ';': ';',
  ':': ':',
  ',': ',',
  '(': ',',
  ')': ',',
  '[': ',',
  ']': ',',
  '{': ',',
  '}': ',',
  '–': ',',
  '—': ',',
};
// When marks meet (`?!`, `),`), the one that ends the most wins.
const PUNCT_RANK: Readonly<Record<string, number>> = { '?': 5, '!': 4, '.': 3, ';': 2, ':': 2, ',': 1 };

/**
 * Normalised Kinyarwanda text as input for espeak-ng's `sw` voice: each run of words between
 * punctuation marks becomes one `[[...]]` group of phoneme mnemonics (words separated by
 * spaces, stress on each word's penultimate syllable), and the punctuation stays outside the
 * groups so that espeak-ng pauses and shapes the intonation there. Anything that is not
 * Kinyarwanda spelling or punctuation is dropped; text with no words gives an empty string.
 * Deterministic and total: any string gives a string. `afterWord`: the text follows a word said
 * apart (a foreign word of the clause), so a mark before its first group ends that word and stays.
 */
export function kinyarwandaToEspeak(text: string, afterWord = false): string {
  let out = '';
  let group: string[] = [];
  let mark = '';
  const closeGroup = () => {
    if (group.length > 0) out += `[[${group.join(' ')}]]`;
    group = [];
  };
  for (const token of tokens(text)) {
    if (token.kind === 'word') {
      // A mark before the first group has nothing to end: it is dropped.
      if (mark && (out || afterWord)) out += `${mark} `;
      mark = '';
      group.push(espeakWord(token.phones));
    } else if (token.kind === 'punct') {
      const next = ESPEAK_PUNCT[token.text];
      if (next === undefined) continue;
      closeGroup();
      if ((PUNCT_RANK[next] ?? 0) > (PUNCT_RANK[mark] ?? 0)) mark = next;
    }
  }
  closeGroup();
  return mark && (out || afterWord) ? out + mark : out;
}
