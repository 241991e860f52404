/**
 * A Kinyarwanda word (its broad IPA from Ijwi's rules, `text/rw/g2p.ts`) in the phones of Flite's
 * US English voices, as a bilingual Rwandan says a name in English: Kinyarwanda's five vowels as
 * the nearest full English vowels (never reduced: "Musanze" keeps its final e), its consonants as
 * their English counterparts, and the stress on the penultimate syllable, where English listeners
 * hear the prominence of Kinyarwanda's words (Kimenyi 2002, "A tonal grammar of Kinyarwanda":
 * the penultimate is lengthened before a pause). The table and its sources are in
 * `../../text/word-language/README.md`.
 */
import { isVowel } from './cmu-phones.ts';
import { IPA_PHONES } from './ipa-phones.ts';

/**
 * Kinyarwanda IPA -> Flite phones where they differ from English IPA's (`ipa-phones.ts`): the five
 * vowels, full; the sounds English has not. A vowel is written without its stress digit.
 */
const PHONES: ReadonlyMap<string, readonly string[]> = new Map([
  ...IPA_PHONES,
  ...Object.entries({
    a: ['aa'],
    e: ['ey'],
    i: ['iy'],
    o: ['ow'],
    u: ['uw'],
    β: ['b'],
    c: ['ch'],
    ɟ: ['jh'],
    ç: ['sh'],
    ts: ['t', 's'],
    pf: ['p', 'f'],
    ɲ: ['n', 'y'],
    ɾ: ['r'],
  }),
]);
const LONGEST = Math.max(...Array.from(PHONES.keys(), (k) => k.length));
const TIE_BARS = /[\u0361\u035C]/gu;

/**
 * The phones of a Kinyarwanda word (broad IPA without stress marks; `ː` is dropped, US vowels
 * having their own length), the penultimate vowel stressed and every other one with secondary
 * stress: a full vowel, as Kinyarwanda's all are. Flite's duration model stretches a full vowel
 * marked unstressed, which US English hardly has: on ten names in "Welcome to ...", unstressed
 * made the sentences 18 % (slt) and 7 % (rms) longer than secondary stress did. Symbols outside
 * the table are dropped. Empty for IPA with no sound.
 */
export function kinyarwandaFlitePhones(ipa: string): string[] {
  const text = ipa.normalize('NFC').replace(TIE_BARS, '');
  const phones: string[] = [];
  let i = 0;
  while (i < text.length) {
    let length = Math.min(LONGEST, text.length - i);
    while (length > 0 && !PHONES.has(text.slice(i, i + length))) length--;
    if (length === 0) {
      i++;
      continue;
    }
    phones.push(...(PHONES.get(text.slice(i, i + length)) as readonly string[]));
    i += length;
  }
  const vowels = phones.flatMap((phone, index) => (isVowel(`${phone}0`) ? [index] : []));
  const stressed = vowels.length >= 2 ? vowels[vowels.length - 2] : vowels[0];
  return phones.map((phone, index) =>
    isVowel(`${phone}0`) ? `${phone}${index === stressed ? 1 : 2}` : phone,
  );
}
