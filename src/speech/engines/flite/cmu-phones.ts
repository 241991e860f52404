/**
 * Flite's phone set (CMU's, the US English of its lexicon): vowels carry lexical stress, 0
 * unstressed, 1 primary, 2 secondary (`ae1`); `pau` is a pause. Only these names are ever given
 * to Flite as phones.
 */

export const PAUSE = 'pau';

const VOWEL = /^(aa|ae|ah|ao|aw|ax|ay|eh|er|ey|ih|iy|ow|oy|uh|uw)[012]$/;

/** IPA of each phone without its stress; `ah` and `er` unstressed are the reduced [ə] and [ɚ]. */
const IPA: Readonly<Record<string, string>> = {
  aa: 'ɑ',
  ae: 'æ',
  ah: 'ʌ',
  ao: 'ɔ',
  aw: 'aʊ',
  ax: 'ə',
  ay: 'aɪ',
  eh: 'ɛ',
  er: 'ɝ',
  ey: 'eɪ',
  ih: 'ɪ',
  iy: 'i',
  ow: 'oʊ',
  oy: 'ɔɪ',
  uh: 'ʊ',
  uw: 'u',
  b: 'b',
  ch: 'tʃ',
  d: 'd',
  dh: 'ð',
  f: 'f',
  g: 'ɡ',
  hh: 'h',
  jh: 'dʒ',
  k: 'k',
  l: 'l',
  m: 'm',
  n: 'n',
  ng: 'ŋ',
  p: 'p',
  r: 'ɹ',
  s: 's',
  sh: 'ʃ',
  t: 't',
  th: 'θ',
  v: 'v',
  w: 'w',
  y: 'j',
  z: 'z',
  zh: 'ʒ',
};

export const isVowel = (phone: string): boolean => VOWEL.test(phone);
/** A phone's stress digit (`'1'` of `ae1`); meaningful for vowels only. */
export const stressOf = (phone: string): string => phone.slice(-1);
/** A phone without its stress digit. */
export const baseOf = (phone: string): string => (isVowel(phone) ? phone.slice(0, -1) : phone);
/** Whether Flite knows the phone: a vowel with its stress, a consonant or the pause. */
export const isPhone = (phone: string): boolean =>
  isVowel(phone) || phone === PAUSE || (IPA[phone] !== undefined && !VOWEL.test(`${phone}0`));

/** A phone string (`pau dh ax0 pau`) in IPA, a space at each pause, `ˈ` before a stressed vowel. */
export function phonesToIpa(phones: string): string {
  let ipa = '';
  for (const phone of phones.trim().split(/\s+/)) {
    if (phone === PAUSE) {
      if (ipa !== '' && !ipa.endsWith(' ')) ipa += ' ';
      continue;
    }
    const base = baseOf(phone);
    const stress = isVowel(phone) ? stressOf(phone) : '';
    if (stress === '1') ipa += 'ˈ';
    if (stress === '2') ipa += 'ˌ';
    ipa += stress === '0' && base === 'ah' ? 'ə' : stress === '0' && base === 'er' ? 'ɚ' : (IPA[base] ?? '');
  }
  return ipa.trim();
}
