/**
 * How an espeak-ng voice says a word of another language: the word's IPA (from Ijwi's own
 * Kinyarwanda rules, or from espeak-ng's dictionary and rules of the word's language) adapted to
 * the symbols the speaking voice has (`adaptIpa`), then written in that voice's mnemonics
 * (`ipaToEspeak`). Each table maps what the voice lacks onto what a bilingual Rwandan says in its
 * place; the tables and their sources are in `../../text/word-language/README.md`.
 */
import { adaptIpa, IPA_TABLES, ipaToEspeak } from '../../text/ipa.ts';
import type { LanguageCode } from '../../text/verbalizer.ts';

type Adaptation = ReadonlyMap<string, string>;

const table = (entries: Record<string, string>): Adaptation => new Map(Object.entries(entries));

/**
 * English in a Kinyarwanda voice: the five vowels of Rwandan English (Schmied 2004, "East African
 * English: phonology"; Wells 1982, "Accents of English" 3, 8.5), [ɾ] for r, syllabic consonants
 * with their vowel, no glottal stop. Consonants Kinyarwanda's voice has (θ ð l ŋ dʒ tʃ) stay.
 */
const ENGLISH_IN_KINYARWANDA = table({
  ə: 'a',
  ɐ: 'a',
  ɚ: 'a',
  ɪ: 'i',
  ᵻ: 'i',
  ɛ: 'e',
  eɪ: 'e',
  æ: 'a',
  ɑ: 'a',
  ɒ: 'o',
  ɔ: 'o',
  ɔɪ: 'oi',
  ʊ: 'u',
  ʌ: 'a',
  ɜ: 'e',
  aɪ: 'ai',
  aʊ: 'au',
  əʊ: 'o',
  oʊ: 'o',
  ɪə: 'ia',
  // [ɪ] then [əʊ] ("video", "radio" [ˈɹeɪdɪəʊ]), not the diphthong [ɪə] then [ʊ]
  ɪəʊ: 'io',
  eə: 'ea',
  ʊə: 'ua',
  ɹ: 'ɾ',
  r: 'ɾ',
  ɫ: 'l',
  n̩: 'n',
  l̩: 'l',
  ʔ: '',
});

/**
 * French in a Kinyarwanda voice, as French loans are adapted in Kinyarwanda (Kayigema 2010,
 * "Loanword allocation in Kinyarwanda"; bureau > biro, pharmacie > farumasi): rounded front
 * vowels unrounded ([y] > [i], [ø œ] > [e]), nasal vowels as vowel + n, [ʁ] as [ɾ], [ɥ] as [w].
 */
const FRENCH_IN_KINYARWANDA = table({
  y: 'i',
  ø: 'e',
  œ: 'e',
  ə: 'e',
  ɑ̃: 'an',
  ɛ̃: 'en',
  ɔ̃: 'on',
  œ̃: 'en',
  ɛ: 'e',
  ɔ: 'o',
  ɑ: 'a',
  ʁ: 'ɾ',
  r: 'ɾ',
  ɥ: 'w',
});

/**
 * Kinyarwanda in a French voice: Kinyarwanda's u is French [u] (ou), never [y]; its vowels are
 * oral (an n after a vowel is a consonant of the next syllable, which the IPA already says);
 * [β] > [b], the palatal stops [c ɟ] > [tʃ dʒ] as French spells them (Kacyiru, Gisenyi), [ɾ] the
 * voice's r, [ç] > [ʃ]; the affricates [ts pf] are two consonants the voice has; French has no [h].
 */
const KINYARWANDA_IN_FRENCH = table({
  β: 'b',
  c: 'tʃ',
  ɟ: 'dʒ',
  ɾ: 'ʁ',
  ç: 'ʃ',
  h: '',
});

/** English in a French voice (SSML `<lang>`): the nearest French vowels and consonants. */
const ENGLISH_IN_FRENCH = table({
  ɪ: 'i',
  ᵻ: 'i',
  æ: 'a',
  ɐ: 'a',
  ɒ: 'ɔ',
  ʌ: 'œ',
  ʊ: 'u',
  ɜ: 'œ',
  ɚ: 'œʁ',
  eɪ: 'e',
  aɪ: 'aj',
  aʊ: 'aw',
  əʊ: 'o',
  oʊ: 'o',
  ɔɪ: 'ɔj',
  ɪə: 'iə',
  ɪəʊ: 'io',
  eə: 'ɛə',
  ʊə: 'uə',
  θ: 's',
  ð: 'z',
  ɹ: 'ʁ',
  r: 'ʁ',
  ɾ: 't',
  ɫ: 'l',
  n̩: 'n',
  l̩: 'l',
  h: '',
  ʔ: '',
});

const ADAPTATIONS: Partial<Record<LanguageCode, Partial<Record<LanguageCode, Adaptation>>>> = {
  rw: { en: ENGLISH_IN_KINYARWANDA, fr: FRENCH_IN_KINYARWANDA },
  fr: { rw: KINYARWANDA_IN_FRENCH, en: ENGLISH_IN_FRENCH },
};

/** A foreign word's IPA in the symbols the voice of `voiceLanguage` has. */
export function adaptedIpa(ipa: string, from: LanguageCode, voiceLanguage: LanguageCode): string {
  const adaptation = ADAPTATIONS[voiceLanguage]?.[from] ?? new Map<string, string>();
  return adaptIpa(ipa, adaptation, IPA_TABLES[voiceLanguage]);
}

/**
 * A foreign word as phoneme input for the voice of `voiceLanguage`: `[[...]]` of its mnemonics,
 * or '' when nothing of it can be said.
 */
export function foreignPhonemes(ipa: string, from: LanguageCode, voiceLanguage: LanguageCode): string {
  const adapted = adaptedIpa(ipa, from, voiceLanguage);
  const converted = ipaToEspeak(voiceLanguage, adapted);
  // Every symbol of `adapted` is the table's, so conversion cannot fail; if it did, say nothing.
  const mnemonics = converted.ok ? converted.mnemonics.trim() : '';
  return /[A-Za-z@]/u.test(mnemonics) ? `[[${mnemonics}]]` : '';
}
