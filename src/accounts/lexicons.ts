import { ipaReaderOf } from '../speech/engines/registry.ts';
import { firstForbiddenCharacter } from '../speech/input/control-characters.ts';
import type { LanguageCode } from '../speech/text/verbalizer.ts';
import { languages, voicesOf } from '../speech/voices/voices.ts';
import { codePointCount } from '../unicode.ts';
import type { LexiconKind } from './dictionary-repository.ts';

/** Code points of a phrase, and of what says it. */
export const MAX_PHRASE_CHARS = 100;
export const MAX_SAYS_CHARS = 200;

/** An entry as a person writes it. */
export interface LexiconInput {
  readonly language: string;
  readonly phrase: string;
  readonly kind: string;
  readonly says: string;
  /**
   * The language a respelling's words are said as (API name `word_language`): `rw`, `en` or
   * `fr`; absent or empty: decided as any text's words are. The respelling may be the phrase
   * itself, for an entry that only names its word's language.
   */
  readonly wordLanguage?: string | undefined;
}

export type LexiconResult =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly code: 'invalid_entry';
      readonly field: keyof LexiconInput;
      readonly message: string;
    }
  | { readonly ok: false; readonly code: 'duplicate' | 'full' | 'not_found'; readonly message: string };

/** An entry refused, naming its field. */
export type Refusal = Extract<LexiconResult, { code: 'invalid_entry' }>;

const refusal = (field: keyof LexiconInput, message: string): Refusal => ({
  ok: false,
  code: 'invalid_entry',
  field,
  message,
});

function checkText(field: 'phrase' | 'says', value: string, max: number): Refusal | undefined {
  const forbidden = firstForbiddenCharacter(value);
  if (forbidden) return refusal(field, `it holds the control character ${forbidden.name}`);
  const length = codePointCount(value.trim());
  if (length === 0) return refusal(field, 'it is empty');
  if (length > max) return refusal(field, `it has ${length} characters; the limit is ${max}`);
  if (!/[\p{L}\p{N}]/u.test(value)) return refusal(field, 'it has no letter or digit');
  return undefined;
}

/** An entry that passed its checks. */
export interface Checked {
  readonly ok: true;
  readonly language: LanguageCode;
  readonly kind: LexiconKind;
  readonly wordLanguage: LanguageCode | null;
}

const languageCodes = () => languages.map((l) => l.code).join(', ');

/**
 * An entry of a pronunciation dictionary checked: a known language, a phrase and a respelling of plain words (said, if it names
 * one, as words of its word language), or IPA every voice of the language can say.
 */
export function checkEntry(input: LexiconInput): Refusal | Checked {
  const language = languages.find((l) => l.code === input.language)?.code;
  if (language === undefined) return refusal('language', `language must be one of ${languageCodes()}`);
  if (input.kind !== 'respelling' && input.kind !== 'ipa')
    return refusal('kind', 'kind must be respelling or ipa');
  const named = input.wordLanguage ?? '';
  const wordLanguage = named === '' ? null : languages.find((l) => l.code === named)?.code;
  if (wordLanguage === undefined)
    return refusal('wordLanguage', `word_language must be one of ${languageCodes()}, or none`);
  const phrase = checkText('phrase', input.phrase, MAX_PHRASE_CHARS);
  if (phrase) return phrase;
  if (input.kind === 'respelling') {
    const says = checkText('says', input.says, MAX_SAYS_CHARS);
    if (says) return says;
    return { ok: true, language, kind: input.kind, wordLanguage };
  }
  if (wordLanguage !== null)
    return refusal(
      'wordLanguage',
      'an IPA entry is said as its IPA is written, in no language; give word_language with a respelling',
    );
  const length = codePointCount(input.says.trim());
  if (length === 0 || length > MAX_SAYS_CHARS)
    return refusal('says', `the IPA must have 1-${MAX_SAYS_CHARS} characters`);
  for (const voice of voicesOf(language)) {
    const read = ipaReaderOf(voice)?.(input.says.trim());
    if (read === undefined) return refusal('says', `the ${voice.name} voice cannot read IPA`);
    if (!read.ok) return refusal('says', `the ${voice.name} voice cannot say "${read.symbol}"`);
  }
  return { ok: true, language, kind: input.kind, wordLanguage: null };
}
