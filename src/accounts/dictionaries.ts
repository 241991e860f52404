import { Lexicon, type Pronunciation, phraseKey } from '../speech/text/lexicon.ts';
import type { LanguageCode } from '../speech/text/verbalizer.ts';
import { codePointCount } from '../unicode.ts';
import {
  type DictionaryChange,
  type DictionaryLimits,
  type DictionaryRecord,
  type DictionaryRepository,
  type DictionaryWrite,
  defaultDictionaryId,
  type LexiconEntry,
} from './dictionary-repository.ts';
import { newId } from './ids.ts';
import { checkEntry, type LexiconInput, type LexiconResult } from './lexicons.ts';
import { type PlsReading, readPls, writePls } from './pls.ts';

/** Dictionaries one account may keep, its default dictionary included. */
export const MAX_DICTIONARIES = 50;
/** Entries one dictionary may hold (all languages together). */
export const MAX_DICTIONARY_ENTRIES = 1000;
/** Versions of a dictionary kept, the current one included: older ones can no longer be named. */
export const KEPT_VERSIONS = 20;
/** Dictionaries one request may name. */
export const MAX_SELECTED_DICTIONARIES = 3;
/** Code points of a dictionary's name. */
export const MAX_DICTIONARY_NAME_CHARS = 100;
/** Compiled lexicons one instance keeps (per selection and language); the least recently used goes first. */
const CACHED_LEXICONS = 1000;

const LIMITS: DictionaryLimits = {
  maxDictionaries: MAX_DICTIONARIES,
  maxEntries: MAX_DICTIONARY_ENTRIES,
  keptVersions: KEPT_VERSIONS,
};

/** A dictionary a request names: its current version, or the version given. */
export interface DictionaryRef {
  readonly id: string;
  readonly version?: number | undefined;
}

/** A dictionary's summary, with `isDefault` for the account's default dictionary. */
export interface DictionaryInfo extends DictionaryRecord {
  readonly isDefault: boolean;
}

/** A dictionary at one version, with its entries. */
export interface DictionaryContent {
  readonly dictionary: DictionaryInfo;
  /** The version read (the current one unless another was asked for). */
  readonly version: number;
  readonly entries: readonly LexiconEntry[];
}

/** Why a change or a read was refused; `param`: the request field at fault, as the API names it. */
export interface DictionaryRefusal {
  readonly ok: false;
  readonly code: 'invalid' | 'not_found' | 'duplicate' | 'full' | 'too_many' | 'default_kept';
  readonly message: string;
  readonly param?: string;
}

export type DictionaryResult<T> = ({ readonly ok: true } & T) | DictionaryRefusal;

/** The lexicon a request speaks with, or the dictionary it named that is not the account's. */
export type LexiconChoice =
  | { readonly ok: true; readonly lexicon: Lexicon }
  | {
      readonly ok: false;
      readonly code: 'not_found';
      readonly message: string;
      /** Which of the named dictionaries, and whether its id or its version is not the account's. */
      readonly index: number;
      readonly part: 'id' | 'version';
    };

const API_FIELDS: Record<keyof LexiconInput, string> = {
  language: 'language',
  phrase: 'phrase',
  kind: 'kind',
  says: 'says',
  wordLanguage: 'word_language',
};

const refused = (code: DictionaryRefusal['code'], message: string, param?: string): DictionaryRefusal => ({
  ok: false,
  code,
  message,
  ...(param === undefined ? {} : { param }),
});

/** A least-recently-used map of at most `size` values. */
class Recent<V> {
  readonly #map = new Map<string, V>();
  constructor(readonly size: number) {}
  get(key: string): V | undefined {
    const value = this.#map.get(key);
    if (value !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, value);
    }
    return value;
  }
  set(key: string, value: V): void {
    this.#map.set(key, value);
    if (this.#map.size > this.size) this.#map.delete(this.#map.keys().next().value as string);
  }
  delete(key: string): void {
    this.#map.delete(key);
  }
}

/**
 * Each account's pronunciation dictionaries: named, versioned (every change makes a version, the
 * last `KEPT_VERSIONS` of them selectable), at most `MAX_DICTIONARIES` per account of at most
 * `MAX_DICTIONARY_ENTRIES` checked entries each. The account's lexicon of before is its default
 * dictionary, which a request without a selection speaks with, and which the dashboard edits entry
 * by entry. Compiled lexicons are cached per (dictionaries, versions, language) on each instance;
 * before one is used the versions are read (one indexed query), so every instance speaks each
 * change as soon as it is made, and no account ever gets another's.
 */
export class DictionaryService {
  readonly #repository: DictionaryRepository;
  readonly #now: () => Date;
  readonly #entries = new Recent<Promise<LexiconEntry[]>>(CACHED_LEXICONS);
  readonly #lexicons = new Recent<Lexicon>(CACHED_LEXICONS);

  constructor(repository: DictionaryRepository, now: () => Date = () => new Date()) {
    this.#repository = repository;
    this.#now = now;
  }

  // The default dictionary, entry by entry (the dashboard and the admin tool).

  /** The default dictionary's current entries. */
  async list(accountId: string): Promise<LexiconEntry[]> {
    const id = defaultDictionaryId(accountId);
    const version = (await this.#repository.versions(accountId, [id])).get(id)?.version;
    return version === undefined ? [] : this.#repository.entries(id, version);
  }

  async add(accountId: string, input: LexiconInput): Promise<LexiconResult> {
    const entry = this.#entry(input);
    if (!entry.ok) return entry;
    return outcome(await this.#change(accountId, defaultDictionaryId(accountId), { add: [entry.entry] }));
  }

  async update(accountId: string, entryId: string, input: LexiconInput): Promise<LexiconResult> {
    const entry = this.#entry(input);
    if (!entry.ok) return entry;
    const current = (await this.list(accountId)).find((e) => e.id === entryId);
    if (current === undefined) return outcome({ ok: false, code: 'not_found' });
    if (current.language !== entry.entry.language)
      return {
        ok: false,
        code: 'invalid_entry',
        field: 'language',
        message: 'the language of an entry cannot change',
      };
    return outcome(
      await this.#change(accountId, defaultDictionaryId(accountId), {
        removeIds: [entryId],
        add: [{ ...entry.entry, id: entryId, createdAt: current.createdAt }],
      }),
    );
  }

  async remove(accountId: string, entryId: string): Promise<LexiconResult> {
    return outcome(await this.#change(accountId, defaultDictionaryId(accountId), { removeIds: [entryId] }));
  }

  // Whole dictionaries (the API).

  /** The account's dictionaries, the default one first (listed even before its first entry). */
  async dictionaries(accountId: string): Promise<DictionaryInfo[]> {
    const rows = await this.#repository.list(accountId);
    const id = defaultDictionaryId(accountId);
    const stored = rows.find((r) => r.id === id);
    const first = stored ?? this.#emptyDefault(accountId);
    return [first, ...rows.filter((r) => r.id !== id)].map((r) => ({ ...r, isDefault: r.id === id }));
  }

  /** A dictionary of the account with its entries at `version` (default: the current one). */
  async read(accountId: string, id: string, version?: number): Promise<DictionaryResult<DictionaryContent>> {
    const dictionary = (await this.dictionaries(accountId)).find((d) => d.id === id);
    if (dictionary === undefined) return refused('not_found', `no dictionary ${id}`);
    const at = version ?? dictionary.version;
    if (at > dictionary.version || at < dictionary.firstVersion)
      return refused('not_found', versionMissing(id, at, dictionary), 'version');
    const entries = dictionary.version === 0 ? [] : await this.#repository.entries(id, at);
    return { ok: true, dictionary, version: at, entries };
  }

  /** A new dictionary at version 1. */
  async create(
    accountId: string,
    input: { readonly name: string; readonly entries: readonly LexiconInput[] },
  ): Promise<DictionaryResult<{ dictionary: DictionaryInfo }>> {
    const name = checkName(input.name);
    if (!name.ok) return name;
    const entries = this.#checkedEntries(input.entries);
    if (!entries.ok) return entries;
    const written = await this.#repository.create(
      { id: newId('dict'), accountId, name: name.name, at: this.#now().toISOString() },
      entries.entries,
      LIMITS,
    );
    return written.ok
      ? { ok: true, dictionary: { ...written.dictionary, isDefault: false } }
      : writeRefusal(written);
  }

  /**
   * A new version holding `entries` in place of the current ones: all of them, or those of
   * `language` only (a PLS file holds one language); a new name when one is given.
   */
  async replace(
    accountId: string,
    id: string,
    input: { readonly name?: string | undefined; readonly entries: readonly LexiconInput[] },
    language?: LanguageCode,
  ): Promise<DictionaryResult<{ dictionary: DictionaryInfo }>> {
    let name: string | undefined;
    if (input.name !== undefined) {
      const checked = checkName(input.name);
      if (!checked.ok) return checked;
      name = checked.name;
    }
    const entries = this.#checkedEntries(input.entries);
    if (!entries.ok) return entries;
    return this.#changed(accountId, id, {
      ...(name === undefined ? {} : { name }),
      ...(language === undefined ? { removeAll: true } : { removeLanguage: language }),
      add: entries.entries,
    });
  }

  /** A new dictionary from a PLS file (version 1), or why the file is refused (naming its line). */
  async createFromPls(
    accountId: string,
    name: string,
    pls: string,
  ): Promise<DictionaryResult<{ dictionary: DictionaryInfo }>> {
    const read = readPls(pls, MAX_DICTIONARY_ENTRIES);
    if (!read.ok) return plsRefusal(read);
    return this.create(accountId, { name, entries: read.entries });
  }

  /** A new version whose entries of the PLS file's language are the file's; other languages stay. */
  async replaceFromPls(
    accountId: string,
    id: string,
    pls: string,
  ): Promise<DictionaryResult<{ dictionary: DictionaryInfo }>> {
    const read = readPls(pls, MAX_DICTIONARY_ENTRIES);
    if (!read.ok) return plsRefusal(read);
    return this.replace(accountId, id, { entries: read.entries }, read.language);
  }

  /**
   * A dictionary's entries of one language at `version` as a PLS file; `language` may be left out
   * when the dictionary holds one language only.
   */
  async exportPls(
    accountId: string,
    id: string,
    version?: number,
    language?: LanguageCode,
  ): Promise<DictionaryResult<{ pls: string; language: LanguageCode; version: number }>> {
    const read = await this.read(accountId, id, version);
    if (!read.ok) return read;
    const held = [...new Set(read.entries.map((e) => e.language))];
    const chosen = language ?? (held.length === 1 ? held[0] : undefined);
    if (chosen === undefined)
      return refused(
        'invalid',
        `a PLS file holds one language: name it with ?language= (this version holds ${held.join(', ') || 'none'})`,
        'language',
      );
    return { ok: true, pls: writePls(chosen, read.entries), language: chosen, version: read.version };
  }

  /** A new version with `inputs` added; a phrase already there (in its language) is refused. */
  async addEntries(
    accountId: string,
    id: string,
    inputs: readonly LexiconInput[],
  ): Promise<DictionaryResult<{ dictionary: DictionaryInfo }>> {
    const entries = this.#checkedEntries(inputs);
    if (!entries.ok) return entries;
    return this.#changed(accountId, id, { add: entries.entries });
  }

  /** A new version without the entries of these phrases; a phrase it does not hold is refused. */
  async removeEntries(
    accountId: string,
    id: string,
    phrases: readonly { readonly language: LanguageCode; readonly phrase: string }[],
  ): Promise<DictionaryResult<{ dictionary: DictionaryInfo }>> {
    return this.#changed(accountId, id, {
      removePhrases: phrases.map((p) => ({ language: p.language, phraseKey: phraseKey(p.phrase) })),
    });
  }

  /** Deletes a dictionary; the default one is kept (replace its entries to empty it). */
  async delete(accountId: string, id: string): Promise<DictionaryResult<object>> {
    if (id === defaultDictionaryId(accountId))
      return refused(
        'default_kept',
        'the default dictionary cannot be deleted; replace its entries to empty it',
      );
    return (await this.#repository.remove(accountId, id))
      ? { ok: true }
      : refused('not_found', `no dictionary ${id}`);
  }

  // Speaking.

  /**
   * The lexicon a request of the account speaks `language` with: the dictionaries it names, in
   * order (the first that holds a phrase says it), or the default dictionary when it names none.
   * A named dictionary that is not the account's, or a version not kept, is refused.
   */
  async lexiconFor(
    accountId: string,
    language: LanguageCode,
    selection: readonly DictionaryRef[] = [],
  ): Promise<LexiconChoice> {
    const named = selection.length > 0;
    const refs = named ? selection : [{ id: defaultDictionaryId(accountId) }];
    const versions = await this.#repository.versions(
      accountId,
      refs.map((r) => r.id),
    );
    const chosen: { id: string; version: number }[] = [];
    for (const [index, ref] of refs.entries()) {
      const stored = versions.get(ref.id);
      // The default dictionary before its first entry is empty, named or not.
      const known =
        stored ?? (ref.id === defaultDictionaryId(accountId) ? { version: 0, firstVersion: 0 } : undefined);
      if (known === undefined)
        return {
          ok: false,
          code: 'not_found',
          message: `no dictionary ${ref.id}`,
          index,
          part: 'id',
        };
      const version = ref.version ?? known.version;
      if (version > known.version || version < known.firstVersion)
        return {
          ok: false,
          code: 'not_found',
          message: versionMissing(ref.id, version, known),
          index,
          part: 'version',
        };
      chosen.push({ id: ref.id, version });
    }
    const key = `${language}|${chosen.map((c) => `${c.id}@${c.version}`).join('|')}`;
    let lexicon = this.#lexicons.get(key);
    if (lexicon === undefined) {
      const seen = new Set<string>();
      const pronunciations: Pronunciation[] = [];
      for (const { id, version } of chosen) {
        for (const entry of await this.#versionEntries(id, version)) {
          const phrase = phraseKey(entry.phrase);
          if (entry.language !== language || seen.has(phrase)) continue;
          seen.add(phrase);
          pronunciations.push(entry);
        }
      }
      lexicon = new Lexicon(pronunciations);
      this.#lexicons.set(key, lexicon);
    }
    return { ok: true, lexicon };
  }

  /** A version's entries: read once per instance, as a version never changes. */
  #versionEntries(id: string, version: number): Promise<LexiconEntry[]> {
    if (version === 0) return Promise.resolve([]);
    const key = `${id}@${version}`;
    let entries = this.#entries.get(key);
    if (entries === undefined) {
      entries = this.#repository.entries(id, version);
      // A failed read is not kept: the next request reads again.
      entries.catch(() => this.#entries.delete(key));
      this.#entries.set(key, entries);
    }
    return entries;
  }

  #emptyDefault(accountId: string): DictionaryRecord {
    const at = new Date(0).toISOString();
    return {
      id: defaultDictionaryId(accountId),
      accountId,
      name: 'default',
      version: 0,
      firstVersion: 0,
      entryCount: 0,
      createdAt: at,
      updatedAt: at,
    };
  }

  #entry(
    input: LexiconInput,
  ): { ok: true; entry: LexiconEntry } | Extract<LexiconResult, { code: 'invalid_entry' }> {
    const checked = checkEntry(input);
    if (!checked.ok) return checked;
    return {
      ok: true,
      entry: {
        id: newId('lex'),
        language: checked.language,
        phrase: input.phrase.trim(),
        kind: checked.kind,
        says: input.says.trim(),
        wordLanguage: checked.wordLanguage,
        createdAt: this.#now().toISOString(),
      },
    };
  }

  /**
   * Entries checked, each refusal naming its entry (`entries[i]` and its field, or the line of a
   * PLS file); a phrase twice in one language is refused.
   */
  #checkedEntries(
    inputs: readonly (LexiconInput & { readonly line?: number })[],
  ): { ok: true; entries: LexiconEntry[] } | DictionaryRefusal {
    if (inputs.length > MAX_DICTIONARY_ENTRIES)
      return refused('full', `a dictionary holds at most ${MAX_DICTIONARY_ENTRIES} entries`, 'entries');
    const entries: LexiconEntry[] = [];
    const seen = new Set<string>();
    for (const [index, input] of inputs.entries()) {
      const where = input.line === undefined ? `entries[${index}]` : `line ${input.line}`;
      const param = (field: string) => (input.line === undefined ? `entries[${index}].${field}` : undefined);
      const entry = this.#entry(input);
      if (!entry.ok) return refused('invalid', `${where}: ${entry.message}`, param(API_FIELDS[entry.field]));
      const key = `${entry.entry.language} ${phraseKey(entry.entry.phrase)}`;
      if (seen.has(key))
        return refused('duplicate', `${where}: "${entry.entry.phrase}" is given twice`, param('phrase'));
      seen.add(key);
      entries.push(entry.entry);
    }
    return { ok: true, entries };
  }

  #change(accountId: string, id: string, change: Omit<DictionaryChange, 'at'>): Promise<DictionaryWrite> {
    return this.#repository.change(accountId, id, { ...change, at: this.#now().toISOString() }, LIMITS);
  }

  async #changed(
    accountId: string,
    id: string,
    change: Omit<DictionaryChange, 'at'>,
  ): Promise<DictionaryResult<{ dictionary: DictionaryInfo }>> {
    const written = await this.#change(accountId, id, change);
    if (!written.ok) return writeRefusal(written, id);
    return {
      ok: true,
      dictionary: { ...written.dictionary, isDefault: id === defaultDictionaryId(accountId) },
    };
  }
}

function plsRefusal(read: Extract<PlsReading, { ok: false }>): DictionaryRefusal {
  return refused('invalid', read.line === null ? read.message : `line ${read.line}: ${read.message}`);
}

function checkName(name: string): { ok: true; name: string } | DictionaryRefusal {
  const trimmed = name.trim();
  const length = codePointCount(trimmed);
  if (length === 0 || length > MAX_DICTIONARY_NAME_CHARS || /[\p{Cc}\p{Cs}]/u.test(trimmed))
    return refused(
      'invalid',
      `name must have 1-${MAX_DICTIONARY_NAME_CHARS} characters, no control characters`,
      'name',
    );
  return { ok: true, name: trimmed };
}

function versionMissing(
  id: string,
  version: number,
  known: { version: number; firstVersion: number },
): string {
  return `dictionary ${id} has no version ${version}; versions ${known.firstVersion}-${known.version} are kept`;
}

function writeRefusal(written: Extract<DictionaryWrite, { ok: false }>, id?: string): DictionaryRefusal {
  switch (written.code) {
    case 'not_found':
      return refused(
        'not_found',
        id === undefined
          ? 'no such dictionary or entry'
          : `dictionary ${id} has no such entry, or does not exist`,
      );
    case 'duplicate':
      return refused(
        'duplicate',
        `"${written.phrase ?? ''}" already has an entry in that language`,
        'entries',
      );
    case 'full':
      return refused('full', `a dictionary holds at most ${MAX_DICTIONARY_ENTRIES} entries`, 'entries');
    case 'too_many':
      return refused('too_many', `an account keeps at most ${MAX_DICTIONARIES} dictionaries`);
  }
}

function outcome(written: DictionaryWrite): LexiconResult {
  if (written.ok) return { ok: true };
  switch (written.code) {
    case 'duplicate':
      return { ok: false, code: 'duplicate', message: 'this phrase already has an entry in that language' };
    case 'full':
      return {
        ok: false,
        code: 'full',
        message: `a dictionary holds at most ${MAX_DICTIONARY_ENTRIES} entries`,
      };
    case 'not_found':
    case 'too_many':
      return { ok: false, code: 'not_found', message: 'no such entry' };
  }
}
