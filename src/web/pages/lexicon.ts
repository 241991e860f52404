import type { LexiconEntry } from '../../accounts/lexicon-repository.ts';
import { MAX_LEXICON_ENTRIES, MAX_PHRASE_CHARS, MAX_SAYS_CHARS } from '../../accounts/lexicons.ts';
import { languages } from '../../speech/voices.ts';
import { count } from '../format.ts';
import { html, type SafeHtml } from '../html.ts';
import { page, type Viewer } from '../layout.ts';

/** Messages the lexicon page shows after a redirect. */
export type LexiconNotice = 'added' | 'saved' | 'deleted' | 'not_found';

/** A refused form: what was typed, and the message beside each field at fault. */
export interface LexiconFormState {
  readonly values: {
    readonly language: string;
    readonly phrase: string;
    readonly kind: string;
    readonly says: string;
    readonly wordLanguage?: string | undefined;
  };
  readonly errors: Readonly<
    Partial<Record<'language' | 'phrase' | 'kind' | 'says' | 'wordLanguage' | 'form', string>>
  >;
}

export interface LexiconPageOptions {
  readonly viewer: Extract<Viewer, { kind: 'user' }>;
  readonly entries: readonly LexiconEntry[];
  readonly notice?: LexiconNotice;
  /** The add form as it was refused. */
  readonly refused?: LexiconFormState;
}

const NOTICES: Readonly<
  Record<LexiconNotice, { readonly kind: 'success' | 'error'; readonly text: string }>
> = {
  added: { kind: 'success', text: 'Entry added. Every request of this account now says it this way.' },
  saved: { kind: 'success', text: 'Entry saved.' },
  deleted: { kind: 'success', text: 'Entry deleted.' },
  not_found: { kind: 'error', text: 'That entry no longer exists.' },
};

const languageName = (code: string) => languages.find((l) => l.code === code)?.name ?? code;

function fieldError(id: string, message: string | undefined): SafeHtml {
  return message ? html`<p class="error-text" id="${id}-error">${message}</p>` : html``;
}

const invalid = (id: string, message: string | undefined) =>
  message ? html` aria-invalid="true" aria-describedby="${id}-error"` : '';

/** The options of a word-language select: none (the text's own rules), then each language. */
function wordLanguageOptions(selected: string | null | undefined): SafeHtml {
  return html`<option value=""${selected ? '' : ' selected'}>decided automatically</option>
        ${languages.map((l) => html`<option value="${l.code}"${l.code === selected ? ' selected' : ''}>${l.name}</option>`)}`;
}

function addForm(options: LexiconPageOptions): SafeHtml {
  const values = options.refused?.values ?? {
    language: 'en',
    phrase: '',
    kind: 'respelling',
    says: '',
    wordLanguage: '',
  };
  const errors = options.refused?.errors ?? {};
  return html`<form method="post" action="/dashboard/lexicon" class="stack" novalidate>
  <input type="hidden" name="_csrf" value="${options.viewer.csrfToken}">
  ${errors.form ? html`<div class="alert alert-error" role="alert"><p>${errors.form}</p></div>` : ''}
  <div class="form-grid">
    <div class="field">
      <label for="lex-language">Language</label>
      <select id="lex-language" name="language"${invalid('lex-language', errors.language)}>
        ${languages.map((l) => html`<option value="${l.code}"${l.code === values.language ? ' selected' : ''}>${l.name}</option>`)}
      </select>
      ${fieldError('lex-language', errors.language)}
    </div>
    <div class="field">
      <label for="lex-phrase">Word or phrase</label>
      <input id="lex-phrase" name="phrase" type="text" maxlength="${MAX_PHRASE_CHARS}" value="${values.phrase}" placeholder="e.g. Uwase"${invalid('lex-phrase', errors.phrase)}>
      ${fieldError('lex-phrase', errors.phrase)}
    </div>
    <div class="field">
      <label for="lex-kind">Written as</label>
      <select id="lex-kind" name="kind"${invalid('lex-kind', errors.kind)}>
        <option value="respelling"${values.kind === 'respelling' ? ' selected' : ''}>a respelling</option>
        <option value="ipa"${values.kind === 'ipa' ? ' selected' : ''}>IPA</option>
      </select>
      ${fieldError('lex-kind', errors.kind)}
    </div>
    <div class="field">
      <label for="lex-says">Say it as</label>
      <input id="lex-says" name="says" type="text" maxlength="${MAX_SAYS_CHARS}" value="${values.says}" placeholder="e.g. oo wah seh"${invalid('lex-says', errors.says)}>
      ${fieldError('lex-says', errors.says)}
    </div>
    <div class="field">
      <label for="lex-word-language">Said as a word of</label>
      <select id="lex-word-language" name="word_language"${invalid('lex-word-language', errors.wordLanguage)}>
        ${wordLanguageOptions(values.wordLanguage)}
      </select>
      ${fieldError('lex-word-language', errors.wordLanguage)}
    </div>
  </div>
  <button type="submit" class="btn btn-primary">Add entry</button>
</form>`;
}

function entriesTable(options: LexiconPageOptions): SafeHtml {
  if (options.entries.length === 0) return html`<p class="muted">No entries yet.</p>`;
  return html`<div class="table-wrap"><table class="table table-stack">
  <thead><tr><th scope="col">Language</th><th scope="col">Word or phrase</th><th scope="col">Say it as</th><th scope="col">Actions</th></tr></thead>
  <tbody>${options.entries.map(
    (e) => html`<tr>
    <td data-label="Language">${languageName(e.language)}</td>
    <td data-label="Word or phrase">${e.phrase}</td>
    <td data-label="Say it as">
      <form method="post" action="/dashboard/lexicon/${e.id}" class="inline-fields" aria-label="Edit ${e.phrase}">
        <input type="hidden" name="_csrf" value="${options.viewer.csrfToken}">
        <input type="hidden" name="language" value="${e.language}">
        <input type="hidden" name="phrase" value="${e.phrase}">
        <label class="visually-hidden" for="kind-${e.id}">Written as</label>
        <select id="kind-${e.id}" name="kind">
          <option value="respelling"${e.kind === 'respelling' ? ' selected' : ''}>respelling</option>
          <option value="ipa"${e.kind === 'ipa' ? ' selected' : ''}>IPA</option>
        </select>
        <label class="visually-hidden" for="says-${e.id}">Say ${e.phrase} as</label>
        <input id="says-${e.id}" name="says" type="text" maxlength="${MAX_SAYS_CHARS}" value="${e.says}">
        <label class="visually-hidden" for="word-language-${e.id}">Say ${e.phrase} as a word of</label>
        <select id="word-language-${e.id}" name="word_language">
          ${wordLanguageOptions(e.wordLanguage)}
        </select>
        <button type="submit" class="btn btn-secondary btn-small">Save</button>
      </form>
    </td>
    <td data-label="Actions" class="nowrap">
      <a class="btn btn-ghost btn-small" href="/studio?language=${e.language}&amp;text=${encodeURIComponent(e.phrase)}">Hear it</a>
      <form method="post" action="/dashboard/lexicon/${e.id}/delete" class="inline-form">
        <input type="hidden" name="_csrf" value="${options.viewer.csrfToken}">
        <button type="submit" class="btn btn-ghost btn-small">Delete</button>
      </form>
    </td>
  </tr>`,
  )}</tbody>
</table></div>`;
}

/** The account's pronunciation lexicon: add, edit, delete, and hear an entry in the studio. */
export function lexiconPage(options: LexiconPageOptions): SafeHtml {
  const notice = options.notice ? NOTICES[options.notice] : undefined;
  const main = html`<section class="page-head">
  <div class="container page-head-inner">
    <div>
      <h1>Pronunciations</h1>
      <p class="muted">Tell every voice how to say a name or a word: a clinic’s name, a Kinyarwanda surname in an English voice.
        Entries apply to every request of this account (API, live, studio), before the voice reads the text.</p>
    </div>
  </div>
</section>
<section class="section section-tight">
  <div class="container stack-lg">
    ${notice ? html`<div class="alert alert-${notice.kind}" role="status"><p>${notice.text}</p></div>` : ''}
    <section class="card" aria-labelledby="add-title">
      <h2 id="add-title">Add an entry</h2>
      <p class="muted">A respelling is read like any text of the language (“oo wah seh”); IPA must use sounds every voice of the
        language can say, and is spoken as a phrase of its own. At most ${count(MAX_LEXICON_ENTRIES)} entries.</p>
      <p class="muted">A respelling can also be said as a word of another language, with that language’s sounds, in the same
        voice: a Kinyarwanda surname in an English sentence, an English word in a Kinyarwanda one. To only set a word’s
        language, respell it as written. IPA is said as written, in no language.</p>
      ${addForm(options)}
    </section>
    <section class="card" aria-labelledby="entries-title">
      <h2 id="entries-title">Entries <span class="muted">(${count(options.entries.length)})</span></h2>
      ${entriesTable(options)}
    </section>
  </div>
</section>`;
  return page({ title: 'Pronunciations · Ijwi', viewer: options.viewer, section: 'dashboard', main });
}
