import { FREE_GENERATIONS } from '../../accounts/billing.ts';
import { MIN_PASSWORD_LENGTH } from '../../accounts/passwords.ts';
import { html, type SafeHtml } from '../html.ts';
import { page, type Viewer } from '../layout.ts';

/** What a sign-in or sign-up form shows again after a refusal: the message and the fields typed (never the password). */
export interface AuthFormState {
  readonly csrfToken: string;
  readonly error?: string;
  /** Each field's problem, shown beside it. */
  readonly problems?: Readonly<Partial<Record<'name' | 'email' | 'password', string>>>;
  readonly email?: string;
  readonly name?: string;
  /** Where to go after signing in: a local path. */
  readonly next?: string;
}

const visitor: Viewer = { kind: 'visitor' };

function errorBox(error: string | undefined): SafeHtml {
  return error === undefined
    ? html``
    : html`<div class="alert alert-error" role="alert" id="form-error"><p>${error}</p></div>`;
}

/** A field's problem beside it, and the attributes that tie the two together for screen readers. */
function problemOf(state: AuthFormState, field: 'name' | 'email' | 'password', describedBy?: string) {
  const problem = state.problems?.[field];
  const ids = [describedBy, problem ? `${field}-error` : undefined].filter(Boolean).join(' ');
  return {
    attributes: html`${problem ? html` aria-invalid="true"` : ''}${ids ? html` aria-describedby="${ids}"` : ''}`,
    message: problem
      ? html`<p class="error-text" id="${field}-error">${problem.charAt(0).toUpperCase()}${problem.slice(1)}.</p>`
      : html``,
  };
}

/** The sign-up page: a name, an email and a password make an account and its user. */
export function signUpPage(state: AuthFormState): SafeHtml {
  const name = problemOf(state, 'name');
  const email = problemOf(state, 'email');
  const password = problemOf(state, 'password', 'password-hint');
  const main = html`<section class="auth">
  <div class="auth-card card">
    <h1>Create your account</h1>
    <p class="muted">Hear every voice in the studio, get an API key, and start with ${FREE_GENERATIONS} free generations.
      Kinyarwanda is always free in the studio.</p>
    ${errorBox(state.error)}
    <form method="post" action="/signup" class="stack" novalidate>
      <input type="hidden" name="_csrf" value="${state.csrfToken}">
      <div class="field">
        <label for="name">Name or organisation</label>
        <input id="name" name="name" type="text" autocomplete="organization" required maxlength="200" value="${state.name ?? ''}"${name.attributes}>
        ${name.message}
      </div>
      <div class="field">
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${state.email ?? ''}"${email.attributes}>
        ${email.message}
      </div>
      <div class="field">
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}" maxlength="256"${password.attributes}>
        ${password.message}
        <p class="hint" id="password-hint">At least ${MIN_PASSWORD_LENGTH} characters. A few unrelated words make a strong password you can remember.</p>
      </div>
      <button type="submit" class="btn btn-primary btn-block">Create account</button>
    </form>
    <p class="auth-switch">Already have an account? <a href="/signin">Sign in</a></p>
  </div>
</section>`;
  return page({ title: 'Create your account · Ijwi', viewer: visitor, section: 'signup', main });
}

/** The sign-in page. */
export function signInPage(state: AuthFormState): SafeHtml {
  const main = html`<section class="auth">
  <div class="auth-card card">
    <h1>Sign in</h1>
    <p class="muted" lang="rw">Murakaza neza! <span lang="en">Welcome back.</span></p>
    ${errorBox(state.error)}
    <form method="post" action="/signin" class="stack" novalidate>
      <input type="hidden" name="_csrf" value="${state.csrfToken}">
      ${state.next ? html`<input type="hidden" name="next" value="${state.next}">` : ''}
      <div class="field">
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${state.email ?? ''}">
      </div>
      <div class="field">
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256">
      </div>
      <button type="submit" class="btn btn-primary btn-block">Sign in</button>
    </form>
    <p class="auth-switch">New to Ijwi? <a href="/signup">Create an account</a></p>
  </div>
</section>`;
  return page({ title: 'Sign in · Ijwi', viewer: visitor, section: 'signin', main });
}
