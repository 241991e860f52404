import { MAX_NAME_LENGTH } from '../../accounts/accounts.ts';
import { FREE_GENERATIONS } from '../../accounts/billing.ts';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../accounts/passwords.ts';
import { html, type SafeHtml } from '../html.ts';
import type { MessageKey } from '../i18n/catalogue.ts';
import type { Translator } from '../i18n/translator.ts';
import { type PageContext, page, type Viewer } from '../layout.ts';

// The forms are for people not signed in: their header offers sign-in and sign-up.
const visitor: Viewer = { kind: 'visitor' };

/** Why a field of the sign-up form was refused. */
export type FieldProblem =
  | 'nameLength'
  | 'emailMissing'
  | 'emailInvalid'
  | 'emailTaken'
  | 'passwordShort'
  | 'passwordLong';

type Field = 'name' | 'email' | 'password';

/** What a sign-in or sign-up form shows again after a refusal: why, and the fields typed (never the password). */
export interface AuthFormState {
  readonly csrfToken: string;
  /** Sign-in: the email and password match no account. */
  readonly credentialsRefused?: boolean;
  /** Each field's problem, shown beside it. */
  readonly problems?: Readonly<Partial<Record<Field, FieldProblem>>>;
  readonly email?: string;
  readonly name?: string;
  /** Where to go after signing in: a local path. */
  readonly next?: string;
}

const PROBLEMS: Readonly<Record<FieldProblem, MessageKey>> = {
  nameLength: 'signup.problem.nameLength',
  emailMissing: 'signup.problem.emailMissing',
  emailInvalid: 'signup.problem.emailInvalid',
  emailTaken: 'signup.problem.emailTaken',
  passwordShort: 'signup.problem.passwordShort',
  passwordLong: 'signup.problem.passwordLong',
};

function problemText(t: Translator, problem: FieldProblem): string {
  return t.text(PROBLEMS[problem], {
    max: MAX_NAME_LENGTH,
    min: MIN_PASSWORD_LENGTH,
    maxPassword: MAX_PASSWORD_LENGTH,
  });
}

/** The summary above the form: the one problem in full, or how many fields need correcting. */
function errorBox(t: Translator, state: AuthFormState): SafeHtml {
  const problems = Object.values(state.problems ?? {});
  const [first] = problems;
  const message = state.credentialsRefused
    ? t.text('signin.error.credentials')
    : problems.length > 1
      ? t.text('signup.error.fields', { count: problems.length })
      : first === undefined
        ? undefined
        : problemText(t, first);
  return message === undefined
    ? html``
    : html`<div class="alert alert-error" role="alert" id="form-error"><p>${message}</p></div>`;
}

/** A field's problem beside it, and the attributes that tie the two together for screen readers. */
function problemOf(t: Translator, state: AuthFormState, field: Field, describedBy?: string) {
  const problem = state.problems?.[field];
  const ids = [describedBy, problem ? `${field}-error` : undefined].filter(Boolean).join(' ');
  return {
    attributes: html`${problem ? html` aria-invalid="true"` : ''}${ids ? html` aria-describedby="${ids}"` : ''}`,
    message: problem
      ? html`<p class="error-text" id="${field}-error">${problemText(t, problem)}</p>`
      : html``,
  };
}

/** The sign-up page: a name, an email and a password make an account and its user. */
export function signUpPage(context: PageContext, state: AuthFormState): SafeHtml {
  const { t } = context;
  const name = problemOf(t, state, 'name');
  const email = problemOf(t, state, 'email');
  const password = problemOf(t, state, 'password', 'password-hint');
  const main = html`<section class="auth">
  <div class="auth-card card">
    <h1>${t.text('signup.title')}</h1>
    <p class="muted">${t.text('signup.lede', { free: FREE_GENERATIONS })}</p>
    ${errorBox(t, state)}
    <form method="post" action="/signup" class="stack" novalidate>
      <input type="hidden" name="_csrf" value="${state.csrfToken}">
      <div class="field">
        <label for="name">${t.text('signup.name')}</label>
        <input id="name" name="name" type="text" autocomplete="organization" required maxlength="${MAX_NAME_LENGTH}" value="${state.name ?? ''}"${name.attributes}>
        ${name.message}
      </div>
      <div class="field">
        <label for="email">${t.text('auth.email')}</label>
        <input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${state.email ?? ''}"${email.attributes}>
        ${email.message}
      </div>
      <div class="field">
        <label for="password">${t.text('auth.password')}</label>
        <input id="password" name="password" type="password" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}" maxlength="${MAX_PASSWORD_LENGTH}"${password.attributes}>
        ${password.message}
        <p class="hint" id="password-hint">${t.text('signup.passwordHint', { min: MIN_PASSWORD_LENGTH })}</p>
      </div>
      <button type="submit" class="btn btn-primary btn-block">${t.text('signup.submit')}</button>
    </form>
    <p class="auth-switch">${t.rich('signup.haveAccount', { link: (words) => html`<a href="/signin">${words}</a>` })}</p>
  </div>
</section>`;
  return page(
    { ...context, viewer: visitor },
    { title: t.text('signup.pageTitle'), section: 'signup', main },
  );
}

/** The sign-in page. */
export function signInPage(context: PageContext, state: AuthFormState): SafeHtml {
  const { t } = context;
  const main = html`<section class="auth">
  <div class="auth-card card">
    <h1>${t.text('signin.title')}</h1>
    <p class="muted">${t.text('signin.welcome')}</p>
    ${errorBox(t, state)}
    <form method="post" action="/signin" class="stack" novalidate>
      <input type="hidden" name="_csrf" value="${state.csrfToken}">
      ${state.next ? html`<input type="hidden" name="next" value="${state.next}">` : ''}
      <div class="field">
        <label for="email">${t.text('auth.email')}</label>
        <input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${state.email ?? ''}">
      </div>
      <div class="field">
        <label for="password">${t.text('auth.password')}</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required maxlength="${MAX_PASSWORD_LENGTH}">
      </div>
      <button type="submit" class="btn btn-primary btn-block">${t.text('signin.submit')}</button>
    </form>
    <p class="auth-switch">${t.rich('signin.new', { link: (words) => html`<a href="/signup">${words}</a>` })}</p>
  </div>
</section>`;
  return page(
    { ...context, viewer: visitor },
    { title: t.text('signin.pageTitle'), section: 'signin', main },
  );
}
