/** One sound of a word: its broad IPA and the espeak-ng mnemonic that says it in the `sw` voice. */
export interface Phone {
  readonly ipa: string;
  readonly espeak: string;
  readonly vowel: boolean;
  readonly long: boolean;
}

/**
 * Splits a word's sounds into syllables. Kinyarwanda syllables are open, (C)(C)(C)V: every
 * consonant before a vowel, prenasalised and glide clusters included, is that vowel's onset
 * (Kimenyi 1979; Wikipedia "Kinyarwanda", Phonology). Consonants after the last vowel, which
 * only loans and interjections have, join the last syllable; a word with no vowel is one syllable.
 */
export function syllables(phones: readonly Phone[]): Phone[][] {
  const out: Phone[][] = [];
  let current: Phone[] = [];
  for (const phone of phones) {
    current.push(phone);
    if (phone.vowel) {
      out.push(current);
      current = [];
    }
  }
  if (current.length > 0) {
    const last = out.at(-1);
    if (last) last.push(...current);
    else out.push(current);
  }
  return out;
}

/**
 * A word as espeak-ng phoneme input (without the `[[ ]]`), stressed on its penultimate
 * syllable when it has two or more. Kinyarwanda has tone, not stress, but espeak-ng stresses
 * something whatever it is given (with no mark, the last syllable of the whole `[[ ]]` run);
 * penultimate stress is the Swahili voice's own rhythm and the least foreign of the choices
 * (see README.md, "Tone and stress"). One-syllable words stay unmarked.
 */
export function espeakWord(phones: readonly Phone[]): string {
  const parts = syllables(phones);
  const stressed = parts.length >= 2 ? parts.length - 2 : -1;
  return parts
    .map((syllable, i) => {
      const text = syllable.map((p) => (p.long ? `${p.espeak}:` : p.espeak)).join('');
      return i === stressed ? `'${text}` : text;
    })
    .join('');
}

/** A word in broad IPA: no stress, no tone (the spelling marks neither), `ː` for long vowels. */
export function ipaWord(phones: readonly Phone[]): string {
  return phones.map((p) => (p.long ? `${p.ipa}ː` : p.ipa)).join('');
}
