/**
 * IPA a client wrote (SSML `phoneme`) -> Flite's phones, for its English voices. The symbols
 * are those the English espeak-ng table takes (text/ipa.ts), each given the nearest phone of
 * Flite's US English set; a symbol with no such phone is refused, never guessed. A vowel after
 * `ˈ` or `ˌ` is stressed, every other one unstressed (Flite's lexicon knows no third level);
 * length marks add nothing, the US vowels having their own length.
 */

import { ipaTokens } from '../../text/ipa.ts';
import type { IpaReading } from '../engine.ts';
import { isVowel, PAUSE } from './cmu-phones.ts';

/** IPA symbol -> phones; a vowel is written without its stress digit, which is added when read. */
export const IPA_PHONES: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    ə: ['ax'],
    ɚ: ['er'],
    ɜ: ['er'],
    ɜː: ['er'],
    ɝ: ['er'],
    ɝː: ['er'],
    æ: ['ae'],
    a: ['ae'],
    ɑ: ['aa'],
    ɑː: ['aa'],
    ɒ: ['aa'],
    ɔ: ['ao'],
    ɔː: ['ao'],
    ʌ: ['ah'],
    ɪ: ['ih'],
    i: ['iy'],
    iː: ['iy'],
    ʊ: ['uh'],
    u: ['uw'],
    uː: ['uw'],
    e: ['eh'],
    ɛ: ['eh'],
    o: ['ow'],
    oː: ['ow'],
    eɪ: ['ey'],
    aɪ: ['ay'],
    aʊ: ['aw'],
    oʊ: ['ow'],
    əʊ: ['ow'],
    ɔɪ: ['oy'],
    ɪə: ['ih', 'ax'],
    eə: ['eh', 'ax'],
    ɛə: ['eh', 'ax'],
    ʊə: ['uh', 'ax'],
    l̩: ['ax', 'l'],
    p: ['p'],
    b: ['b'],
    t: ['t'],
    d: ['d'],
    k: ['k'],
    ɡ: ['g'],
    g: ['g'],
    f: ['f'],
    v: ['v'],
    s: ['s'],
    z: ['z'],
    ʃ: ['sh'],
    ʒ: ['zh'],
    tʃ: ['ch'],
    dʒ: ['jh'],
    ʧ: ['ch'],
    ʤ: ['jh'],
    θ: ['th'],
    ð: ['dh'],
    h: ['hh'],
    m: ['m'],
    n: ['n'],
    ŋ: ['ng'],
    l: ['l'],
    ɫ: ['l'],
    ɹ: ['r'],
    r: ['r'],
    ɾ: ['d'],
    j: ['y'],
    w: ['w'],
  }),
);

/** Never stressed: the reduced vowels. */
const REDUCED = new Set(['ə', 'ɚ']);

/** IPA as Flite phones (`-p`), a pause at each end; '' when it holds no sound. */
export function ipaToFlitePhones(ipa: string): IpaReading {
  const read = ipaTokens(ipa, IPA_PHONES);
  if (!read.ok) return read;
  const phones: string[] = [];
  let stressed = false;
  for (const token of read.tokens) {
    if (token.kind === 'stress') stressed = true;
    if (token.kind !== 'symbol') continue;
    for (const phone of IPA_PHONES.get(token.symbol) as readonly string[]) {
      // A vowel of the table is written without its stress digit, which it takes here.
      if (!isVowel(`${phone}0`)) {
        phones.push(phone);
        continue;
      }
      phones.push(`${phone}${stressed && !REDUCED.has(token.symbol) ? 1 : 0}`);
      stressed = false;
    }
  }
  return { ok: true, phones: phones.length === 0 ? '' : [PAUSE, ...phones, PAUSE].join(' ') };
}
