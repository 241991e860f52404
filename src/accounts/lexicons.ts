import { ipaReaderOf } from '../speech/engines/registry.ts';
import { firstForbiddenCharacter } from '../speech/input/control-characters.ts';
import { Lexicon } from '../speech/text/lexicon.ts';
import type { LanguageCode } from '../speech/text/verbalizer.ts';
import { languages, voicesOf } from '../speech/voices/voices.ts';
import { codePointCount } from '../unicode.ts';
import { newId } from './ids.ts';
import type { LexiconEntry, LexiconKind, LexiconRepository } from './lexicon-repository.ts';

/** Entries one account may keep (all languages together). */
export const MAX_LEXICON_ENTRIES = 1000;
/** Code points of a phrase, and of what says it. */
export const MAX_PHRASE_CHARS = 100;
export const MAX_SAYS_CHARS = 200;
/** Accounts whose compiled lexicons one instance keeps; the least recently used goes first. */
const CACHED_ACCOUNTS = 1000;

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

type Refusal = Extract<LexiconResult, { code: 'invalid_entry' }>;

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

interface Checked {
  readonly ok: true;
  readonly language: LanguageCode;
  readonly kind: LexiconKind;
  readonly wordLanguage: LanguageCode | null;
}

const languageCodes = () => languages.map((l) => l.code).join(', ');

/**
 * The entry checked: a known language, a phrase and a respelling of plain words (said, if it names
 * one, as words of its word language), or IPA every voice of the language can say.
 */
function check(input: LexiconInput): Refusal | Checked {
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

/**
 * Each account's pronunciation lexicon: entries checked before they are stored (a respelling is
 * plain words; IPA must be sayable by every voice of its language), at most 1,000 per account,
 * and each account's compiled lexicons cached in this instance. Before a cached copy is used its
 * version is read (one indexed row): every change bumps it, on whichever instance it was made, so
 * no instance speaks with a stale lexicon and no account ever gets another's.
 */
export class LexiconService {
  readonly #repository: LexiconRepository;
  readonly #now: () => Date;
  readonly #cache = new Map<string, { version: number; byLanguage: Map<string, Lexicon> }>();

  constructor(repository: LexiconRepository, now: () => Date = () => new Date()) {
    this.#repository = repository;
    this.#now = now;
  }

  list(accountId: string): Promise<LexiconEntry[]> {
    return this.#repository.list(accountId);
  }

  async add(accountId: string, input: LexiconInput): Promise<LexiconResult> {
    const checked = check(input);
    if (!checked.ok) return checked;
    const written = await this.#repository.add(
      {
        id: newId('lex'),
        accountId,
        language: checked.language,
        phrase: input.phrase.trim(),
        kind: checked.kind,
        says: input.says.trim(),
        wordLanguage: checked.wordLanguage,
        createdAt: this.#now().toISOString(),
      },
      MAX_LEXICON_ENTRIES,
    );
    return outcome(written);
  }

  async update(accountId: string, id: string, input: LexiconInput): Promise<LexiconResult> {
    const checked = check(input);
    if (!checked.ok) return checked;
    const entry = (await this.#repository.list(accountId)).find((e) => e.id === id);
    if (entry === undefined) return outcome('not_found');
    if (entry.language !== checked.language)
      return refusal('language', 'the language of an entry cannot change');
    return outcome(
      await this.#repository.update(accountId, id, {
        phrase: input.phrase.trim(),
        kind: checked.kind,
        says: input.says.trim(),
        wordLanguage: checked.wordLanguage,
        updatedAt: this.#now().toISOString(),
      }),
    );
  }

  async remove(accountId: string, id: string): Promise<LexiconResult> {
    return outcome(await this.#repository.remove(accountId, id));
  }

  /** The account's lexicon for `language`, as current as the store. */
  async lexiconFor(accountId: string, language: string): Promise<Lexicon> {
    const version = await this.#repository.version(accountId);
    let cached = this.#cache.get(accountId);
    if (cached === undefined || cached.version !== version) {
      const entries = version === undefined ? [] : await this.#repository.list(accountId);
      const byLanguage = new Map<string, Lexicon>();
      for (const code of languages.map((l) => l.code))
        byLanguage.set(code, new Lexicon(entries.filter((e) => e.language === code)));
      cached = { version: version ?? -1, byLanguage };
    }
    // Most recently used last: the first key is the one to drop.
    this.#cache.delete(accountId);
    this.#cache.set(accountId, cached);
    if (this.#cache.size > CACHED_ACCOUNTS) this.#cache.delete(this.#cache.keys().next().value as string);
    return cached.byLanguage.get(language) ?? new Lexicon([]);
  }
}

function outcome(written: 'ok' | 'duplicate' | 'full' | 'not_found'): LexiconResult {
  switch (written) {
    case 'ok':
      return { ok: true };
    case 'duplicate':
      return { ok: false, code: 'duplicate', message: 'this phrase already has an entry in that language' };
    case 'full':
      return { ok: false, code: 'full', message: `an account keeps at most ${MAX_LEXICON_ENTRIES} entries` };
    case 'not_found':
      return { ok: false, code: 'not_found', message: 'no such entry' };
  }
}
