import {
  type DictionaryInfo,
  MAX_DICTIONARY_ENTRIES,
  MAX_SELECTED_DICTIONARIES,
} from '../../accounts/dictionaries.ts';
import type { LexiconEntry } from '../../accounts/dictionary-repository.ts';
import { MAX_PHRASE_CHARS, MAX_SAYS_CHARS } from '../../accounts/lexicons.ts';
import { languages } from '../../speech/voices/voices.ts';
import { html, type SafeHtml } from '../html.ts';
import type { MessageKey } from '../i18n/catalogue.ts';
import type { Translator } from '../i18n/translator.ts';
import { type PageContext, page, type Viewer } from '../layout.ts';
import { languageName } from '../words.ts';

/** Messages the lexicon page shows after a redirect. */
export type LexiconNotice = 'added' | 'saved' | 'deleted' | 'not_found';

/** Why a lexicon form was refused, as the page says it. */
export type LexiconProblem =
  | 'language'
  | 'phrase'
  | 'kind'
  | 'says'
  | 'saysIpa'
  | 'duplicate'
  | 'full'
  | 'wordLanguage'
  | 'wordLanguageIpa'
  | 'notSaved';

/** A refused form: what was typed, and the problem beside each field at fault. */
export interface LexiconFormState {
  readonly values: {
    readonly language: string;
    readonly phrase: string;
    readonly kind: string;
    readonly says: string;
    readonly wordLanguage?: string | undefined;
  };
  readonly errors: Readonly<
    Partial<Record<'language' | 'phrase' | 'kind' | 'says' | 'wordLanguage' | 'form', LexiconProblem>>
  >;
}

export interface LexiconPageOptions {
  readonly viewer: Extract<Viewer, { kind: 'user' }>;
  /** The default dictionary's entries, which the page edits. */
  readonly entries: readonly LexiconEntry[];
  /** Every dictionary of the account, the default one first. */
  readonly dictionaries: readonly DictionaryInfo[];
  readonly notice?: LexiconNotice;
  /** The add form as it was refused. */
  readonly refused?: LexiconFormState;
}

const NOTICES: Readonly<
  Record<LexiconNotice, { readonly kind: 'success' | 'error'; readonly text: MessageKey }>
> = {
  added: { kind: 'success', text: 'lexicon.notice.added' },
  saved: { kind: 'success', text: 'lexicon.notice.saved' },
  deleted: { kind: 'success', text: 'lexicon.notice.deleted' },
  not_found: { kind: 'error', text: 'lexicon.notice.notFound' },
};

const PROBLEMS: Readonly<Record<LexiconProblem, MessageKey>> = {
  language: 'lexicon.problem.language',
  phrase: 'lexicon.problem.phrase',
  kind: 'lexicon.problem.kind',
  says: 'lexicon.problem.says',
  saysIpa: 'lexicon.problem.saysIpa',
  duplicate: 'lexicon.problem.duplicate',
  full: 'lexicon.problem.full',
  wordLanguage: 'lexicon.problem.wordLanguage',
  wordLanguageIpa: 'lexicon.problem.wordLanguageIpa',
  notSaved: 'lexicon.problem.notSaved',
};

function problemText(t: Translator, problem: LexiconProblem | undefined): string | undefined {
  return problem === undefined
    ? undefined
    : t.text(PROBLEMS[problem], {
        phraseMax: MAX_PHRASE_CHARS,
        saysMax: MAX_SAYS_CHARS,
        entries: MAX_DICTIONARY_ENTRIES,
      });
}

function fieldError(id: string, message: string | undefined): SafeHtml {
  return message ? html`<p class="error-text" id="${id}-error">${message}</p>` : html``;
}

const invalid = (id: string, message: string | undefined) =>
  message ? html` aria-invalid="true" aria-describedby="${id}-error"` : '';

/** The options of a word-language select: none (decided automatically), then each language. */
function wordLanguageOptions(t: Translator, selected: string | null | undefined): SafeHtml {
  return html`<option value=""${selected ? '' : ' selected'}>${t.text('lexicon.wordLanguage.auto')}</option>
        ${languages.map((l) => html`<option value="${l.code}"${l.code === selected ? ' selected' : ''}>${languageName(t, l.code)}</option>`)}`;
}

function addForm(t: Translator, options: LexiconPageOptions): SafeHtml {
  const values = options.refused?.values ?? {
    language: 'en',
    phrase: '',
    kind: 'respelling',
    says: '',
    wordLanguage: '',
  };
  const refused = options.refused?.errors ?? {};
  const errors = {
    form: problemText(t, refused.form),
    language: problemText(t, refused.language),
    phrase: problemText(t, refused.phrase),
    kind: problemText(t, refused.kind),
    says: problemText(t, refused.says),
    wordLanguage: problemText(t, refused.wordLanguage),
  };
  return html`<form method="post" action="/dashboard/lexicon" class="stack" novalidate>
  <input type="hidden" name="_csrf" value="${options.viewer.csrfToken}">
  ${errors.form ? html`<div class="alert alert-error" role="alert"><p>${errors.form}</p></div>` : ''}
  <div class="form-grid">
    <div class="field">
      <label for="lex-language">${t.text('lexicon.language')}</label>
      <select id="lex-language" name="language"${invalid('lex-language', errors.language)}>
        ${languages.map((l) => html`<option value="${l.code}"${l.code === values.language ? ' selected' : ''}>${languageName(t, l.code)}</option>`)}
      </select>
      ${fieldError('lex-language', errors.language)}
    </div>
    <div class="field">
      <label for="lex-phrase">${t.text('lexicon.phrase')}</label>
      <input id="lex-phrase" name="phrase" type="text" maxlength="${MAX_PHRASE_CHARS}" value="${values.phrase}" placeholder="${t.text('lexicon.phrasePlaceholder')}"${invalid('lex-phrase', errors.phrase)}>
      ${fieldError('lex-phrase', errors.phrase)}
    </div>
    <div class="field">
      <label for="lex-kind">${t.text('lexicon.kind')}</label>
      <select id="lex-kind" name="kind"${invalid('lex-kind', errors.kind)}>
        <option value="respelling"${values.kind === 'respelling' ? ' selected' : ''}>${t.text('lexicon.kind.respelling')}</option>
        <option value="ipa"${values.kind === 'ipa' ? ' selected' : ''}>${t.text('lexicon.kind.ipa')}</option>
      </select>
      ${fieldError('lex-kind', errors.kind)}
    </div>
    <div class="field">
      <label for="lex-says">${t.text('lexicon.says')}</label>
      <input id="lex-says" name="says" type="text" maxlength="${MAX_SAYS_CHARS}" value="${values.says}" placeholder="${t.text('lexicon.saysPlaceholder')}"${invalid('lex-says', errors.says)}>
      ${fieldError('lex-says', errors.says)}
    </div>
    <div class="field">
      <label for="lex-word-language">${t.text('lexicon.wordLanguage')}</label>
      <select id="lex-word-language" name="word_language"${invalid('lex-word-language', errors.wordLanguage)}>
        ${wordLanguageOptions(t, values.wordLanguage)}
      </select>
      ${fieldError('lex-word-language', errors.wordLanguage)}
    </div>
  </div>
  <button type="submit" class="btn btn-primary">${t.text('lexicon.add')}</button>
</form>`;
}

function entriesTable(t: Translator, options: LexiconPageOptions): SafeHtml {
  if (options.entries.length === 0) return html`<p class="muted">${t.text('lexicon.empty')}</p>`;
  const column = {
    language: t.text('lexicon.language'),
    phrase: t.text('lexicon.phrase'),
    says: t.text('lexicon.says'),
    actions: t.text('lexicon.actions'),
  };
  return html`<div class="table-wrap"><table class="table table-stack">
  <thead><tr><th scope="col">${column.language}</th><th scope="col">${column.phrase}</th><th scope="col">${column.says}</th><th scope="col">${column.actions}</th></tr></thead>
  <tbody>${options.entries.map(
    (e) => html`<tr>
    <td data-label="${column.language}">${languageName(t, e.language)}</td>
    <td data-label="${column.phrase}" lang="${e.language}" translate="no">${e.phrase}</td>
    <td data-label="${column.says}">
      <form method="post" action="/dashboard/lexicon/${e.id}" class="inline-fields" aria-label="${t.text('lexicon.editEntry', { phrase: e.phrase })}">
        <input type="hidden" name="_csrf" value="${options.viewer.csrfToken}">
        <input type="hidden" name="language" value="${e.language}">
        <input type="hidden" name="phrase" value="${e.phrase}">
        <label class="visually-hidden" for="kind-${e.id}">${t.text('lexicon.kind')}</label>
        <select id="kind-${e.id}" name="kind">
          <option value="respelling"${e.kind === 'respelling' ? ' selected' : ''}>${t.text('lexicon.kind.respellingShort')}</option>
          <option value="ipa"${e.kind === 'ipa' ? ' selected' : ''}>${t.text('lexicon.kind.ipa')}</option>
        </select>
        <label class="visually-hidden" for="says-${e.id}">${t.text('lexicon.sayAs', { phrase: e.phrase })}</label>
        <input id="says-${e.id}" name="says" type="text" maxlength="${MAX_SAYS_CHARS}" value="${e.says}">
        <label class="visually-hidden" for="word-language-${e.id}">${t.text('lexicon.wordLanguage.sayAs', { phrase: e.phrase })}</label>
        <select id="word-language-${e.id}" name="word_language">
          ${wordLanguageOptions(t, e.wordLanguage)}
        </select>
        <button type="submit" class="btn btn-secondary btn-small">${t.text('lexicon.save')}</button>
      </form>
    </td>
    <td data-label="${column.actions}" class="nowrap">
      <a class="btn btn-ghost btn-small" href="/studio?language=${e.language}&amp;text=${encodeURIComponent(e.phrase)}">${t.text('lexicon.hear')}</a>
      <form method="post" action="/dashboard/lexicon/${e.id}/delete" class="inline-form">
        <input type="hidden" name="_csrf" value="${options.viewer.csrfToken}">
        <button type="submit" class="btn btn-ghost btn-small">${t.text('lexicon.delete')}</button>
      </form>
    </td>
  </tr>`,
  )}</tbody>
</table></div>`;
}

function dictionariesTable(t: Translator, options: LexiconPageOptions): SafeHtml {
  const column = {
    name: t.text('lexicon.dictionary.name'),
    id: t.text('lexicon.dictionary.id'),
    version: t.text('lexicon.dictionary.version'),
    entries: t.text('lexicon.dictionary.entries'),
  };
  return html`<div class="table-wrap"><table class="table table-stack">
  <thead><tr><th scope="col">${column.name}</th><th scope="col">${column.id}</th><th scope="col">${column.version}</th><th scope="col">${column.entries}</th></tr></thead>
  <tbody>${options.dictionaries.map(
    (d) => html`<tr>
    <td data-label="${column.name}"><span translate="no">${d.name}</span>${d.isDefault ? html` <span class="muted">(${t.text('lexicon.dictionary.default')})</span>` : ''}</td>
    <td data-label="${column.id}"><code translate="no">${d.id}</code></td>
    <td data-label="${column.version}">${t.number(d.version)}</td>
    <td data-label="${column.entries}">${t.number(d.entryCount)}</td>
  </tr>`,
  )}</tbody>
</table></div>`;
}

/** The account's pronunciation lexicon: add, edit, delete, and hear an entry in the studio. */
export function lexiconPage(context: PageContext, options: LexiconPageOptions): SafeHtml {
  const { t } = context;
  const notice = options.notice ? NOTICES[options.notice] : undefined;
  const main = html`<section class="page-head">
  <div class="container page-head-inner">
    <div>
      <h1>${t.text('lexicon.title')}</h1>
      <p class="muted">${t.text('lexicon.lede')}</p>
    </div>
  </div>
</section>
<section class="section section-tight">
  <div class="container stack-lg">
    ${notice ? html`<div class="alert alert-${notice.kind}" role="status"><p>${t.text(notice.text)}</p></div>` : ''}
    <section class="card" aria-labelledby="add-title">
      <h2 id="add-title">${t.text('lexicon.addTitle')}</h2>
      <p class="muted">${t.text('lexicon.addLede', { entries: MAX_DICTIONARY_ENTRIES })}</p>
      <p class="muted">${t.text('lexicon.wordLanguageLede')}</p>
      ${addForm(t, options)}
    </section>
    <section class="card" aria-labelledby="entries-title">
      <h2 id="entries-title">${t.rich('lexicon.entries', { count: options.entries.length, muted: (words) => html`<span class="muted">${words}</span>` })}</h2>
      ${entriesTable(t, options)}
    </section>
    <section class="card" aria-labelledby="dictionaries-title">
      <h2 id="dictionaries-title">${t.rich('lexicon.dictionaries', { count: options.dictionaries.length, muted: (words) => html`<span class="muted">${words}</span>` })}</h2>
      <p class="muted">${t.rich('lexicon.dictionariesLede', {
        api: html`<code translate="no">/api/v1/dictionaries</code>`,
        field: html`<code translate="no">dictionaries</code>`,
        max: MAX_SELECTED_DICTIONARIES,
      })}</p>
      ${dictionariesTable(t, options)}
    </section>
  </div>
</section>`;
  return page(context, { title: t.text('lexicon.pageTitle'), section: 'dashboard', main });
}
