import type { ApiKeyView } from '../../accounts/accounts.ts';
import { FREE_GENERATIONS, MINIMUM_TOP_UP } from '../../accounts/billing.ts';
import type { LedgerEntry } from '../../accounts/repositories.ts';
import type { TopUpRequest } from '../../accounts/topup-requests.ts';
import { languages } from '../../speech/voices.ts';
import { contact } from '../contact.ts';
import { count, dateTime, plural, usd } from '../format.ts';
import { html, type SafeHtml } from '../html.ts';
import { page, type Viewer } from '../layout.ts';

/** Messages the dashboard shows after a redirect. */
export type DashboardNotice = 'welcome' | 'key_created' | 'key_revoked' | 'key_not_found' | 'topup_requested';

export interface DashboardPageOptions {
  readonly viewer: Extract<Viewer, { kind: 'user' }>;
  readonly accountName: string;
  readonly accountId: string;
  readonly balance: number;
  readonly freeUsesRemaining: number;
  readonly keys: readonly ApiKeyView[];
  /** Newest first. */
  readonly ledger: readonly LedgerEntry[];
  /** A key just created: the only time it is ever shown. */
  readonly newKey?: { readonly key: string; readonly name: string | null };
  readonly keyError?: string;
  readonly notice?: DashboardNotice;
  /** The account's requests to buy tokens, newest first. */
  readonly topUpRequests: readonly TopUpRequest[];
  /** A refused request: what was typed, and why. */
  readonly topUpError?: { readonly value: string; readonly message: string };
  /** The operator's contact, or null. */
  readonly supportEmail: string | null;
}

const STATUS_WORDS: Readonly<Record<TopUpRequest['status'], string>> = {
  pending: 'Waiting for payment',
  approved: 'Credited',
  declined: 'Declined',
};

function topUpTable(requests: readonly TopUpRequest[]): SafeHtml {
  if (requests.length === 0) return html``;
  return html`<div class="table-wrap"><table class="table table-stack" id="topup-requests">
  <thead><tr><th scope="col">Reference</th><th scope="col">Tokens</th><th scope="col">Price</th><th scope="col">Asked</th><th scope="col">Status</th></tr></thead>
  <tbody>${requests.map(
    (r) =>
      html`<tr><td data-label="Reference"><code>${r.reference}</code></td><td data-label="Tokens">${count(r.tokens)}</td><td data-label="Price">${usd(r.tokens)}</td><td data-label="Asked">${dateTime(r.createdAt)}</td><td data-label="Status">${STATUS_WORDS[r.status]}</td></tr>`,
  )}</tbody>
</table></div>`;
}

const NOTICES: Readonly<
  Record<DashboardNotice, { readonly kind: 'success' | 'error'; readonly text: string }>
> = {
  welcome: {
    kind: 'success',
    text: 'Welcome to Ijwi! Try the voices in the studio, or create an API key below to call the API.',
  },
  key_created: {
    kind: 'success',
    text: 'The key was created and shown once. If you did not copy it, revoke it and create another.',
  },
  key_revoked: { kind: 'success', text: 'The key is revoked: requests that use it now get 401.' },
  topup_requested: {
    kind: 'success',
    text: 'Your request is recorded. Quote its reference with your payment; the tokens are credited once it is received.',
  },
  key_not_found: { kind: 'error', text: 'That key does not exist or is already revoked.' },
};

const languageName = (code: string | null) => languages.find((l) => l.code === code)?.name ?? code ?? '';

function newKeyPanel(created: NonNullable<DashboardPageOptions['newKey']>): SafeHtml {
  return html`<div class="new-key alert alert-warning" role="alert" id="new-key">
  <h3>Your new API key${created.name ? html` “${created.name}”` : ''}</h3>
  <p><strong>Copy it now: this is the only time it is shown.</strong> Ijwi keeps only a fingerprint of it, so it
    cannot be shown again. Store it in a password manager or your server’s secret settings; if it is lost, revoke
    it and create another.</p>
  <div class="copy-row">
    <label class="visually-hidden" for="new-key-value">API key</label>
    <input id="new-key-value" class="key-value" type="text" readonly value="${created.key}" spellcheck="false">
    <button type="button" class="btn btn-primary" data-copy="new-key-value">Copy</button>
  </div>
</div>`;
}

function keysTable(options: DashboardPageOptions): SafeHtml {
  if (options.keys.length === 0) {
    return html`<p class="empty">No keys yet. Create one to call the API from your own code.</p>`;
  }
  const rows = options.keys.map(
    (key) => html`<tr${key.revokedAt ? html` class="revoked"` : ''}>
      <td data-label="Name">${key.name ?? html`<span class="muted">unnamed</span>`}</td>
      <td data-label="Key"><code>${key.hint}</code></td>
      <td data-label="Created">${dateTime(key.createdAt)}</td>
      <td data-label="Last used">${key.lastUsedAt ? dateTime(key.lastUsedAt) : html`<span class="muted">never</span>`}</td>
      <td data-label="Status">${
        key.revokedAt
          ? html`<span class="badge badge-muted">Revoked ${dateTime(key.revokedAt)}</span>`
          : html`<form method="post" action="/dashboard/keys/${key.id}/revoke" class="inline-form" data-confirm="Revoke ${key.name ?? key.hint}? Programs using it will get 401 at once.">
              <input type="hidden" name="_csrf" value="${options.viewer.csrfToken}">
              <button type="submit" class="btn btn-danger btn-small">Revoke<span class="visually-hidden"> ${key.name ?? key.hint}</span></button>
            </form>`
      }</td>
    </tr>`,
  );
  return html`<div class="table-wrap"><table class="table table-stack" id="keys">
    <thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th></tr></thead>
    <tbody>${rows}</tbody>
  </table></div>`;
}

// What a ledger entry was and what it cost. A refund is a stream whose caller left before its
// first audio: it gives back the tokens, or the free generation, of that request's charge.
function usageCells(entry: LedgerEntry): { what: SafeHtml; cost: SafeHtml } {
  switch (entry.kind) {
    case 'top_up':
      return {
        what: html`<span class="badge badge-accent">Top-up</span>`,
        cost: html`<span class="positive">+${plural(entry.tokens, 'token')}</span>`,
      };
    case 'refund':
      return {
        what: html`<span class="badge">Refund</span>`,
        cost: html`<span class="positive">+${plural(entry.tokens, 'token')}</span>`,
      };
    case 'free_use_refund':
      return {
        what: html`<span class="badge">Refund</span>`,
        cost: html`<span class="badge">Free use back</span>`,
      };
    case 'free_use':
      return { what: html`${languageName(entry.language)}`, cost: html`<span class="badge">Free</span>` };
    case 'charge':
      return { what: html`${languageName(entry.language)}`, cost: html`${plural(-entry.tokens, 'token')}` };
  }
}

function usageTable(ledger: readonly LedgerEntry[]): SafeHtml {
  if (ledger.length === 0) {
    return html`<p class="empty">Nothing yet. Generations through the API and English or French in the studio appear here.</p>`;
  }
  const rows = ledger.map((entry) => {
    const { what, cost } = usageCells(entry);
    return html`<tr>
      <td data-label="Date">${dateTime(entry.createdAt)}</td>
      <td data-label="Language">${what}</td>
      <td data-label="Characters" class="num">${entry.characters === null ? '' : count(entry.characters)}</td>
      <td data-label="Tokens" class="num">${cost}</td>
    </tr>`;
  });
  return html`<div class="table-wrap"><table class="table table-stack" id="usage">
    <thead><tr><th scope="col">Date</th><th scope="col">Language</th><th scope="col" class="num">Characters</th><th scope="col" class="num">Tokens</th></tr></thead>
    <tbody>${rows}</tbody>
  </table></div>`;
}

/** The account dashboard: balance, free generations, API keys and usage. */
export function dashboardPage(options: DashboardPageOptions): SafeHtml {
  // With the new key on the page, its panel says everything the notice would.
  const shown = options.notice === 'key_created' && options.newKey ? undefined : options.notice;
  const notice = shown ? NOTICES[shown] : undefined;
  const main = html`<section class="page-head">
  <div class="container page-head-inner">
    <div>
      <h1>Dashboard</h1>
      <p class="muted">${options.accountName} · <code class="account-id">${options.accountId}</code></p>
    </div>
    <a class="btn btn-primary" href="/studio">Open the studio</a>
  </div>
</section>
<section class="section section-tight">
  <div class="container stack-lg">
    ${notice ? html`<div class="alert alert-${notice.kind}" role="status"><p>${notice.text}</p></div>` : ''}
    <div class="grid grid-3 stats">
      <article class="card stat">
        <h2 class="stat-label">Token balance</h2>
        <p class="stat-value" id="balance">${count(options.balance)}</p>
        <p class="muted">${usd(options.balance)} of speech through the API</p>
      </article>
      <article class="card stat">
        <h2 class="stat-label">Free generations left</h2>
        <p class="stat-value" id="free-uses">${count(options.freeUsesRemaining)}<span> of ${FREE_GENERATIONS}</span></p>
        <p class="muted">Used before tokens, for audio under 2 minutes</p>
      </article>
      <article class="card stat">
        <h2 class="stat-label">Kinyarwanda in the studio</h2>
        <p class="stat-value">Free</p>
        <p class="muted">Never uses tokens or free generations</p>
      </article>
    </div>

    <section class="card" aria-labelledby="keys-title">
      <div class="card-head">
        <h2 id="keys-title">API keys</h2>
        <p class="muted">Send a key as <code>Authorization: Bearer &lt;key&gt;</code>. See the <a href="/docs">API docs</a>.</p>
      </div>
      ${options.newKey ? newKeyPanel(options.newKey) : ''}
      <form method="post" action="/dashboard/keys" class="inline-fields" novalidate>
        <input type="hidden" name="_csrf" value="${options.viewer.csrfToken}">
        <div class="field">
          <label for="key-name">New key name <span class="muted">(optional)</span></label>
          <input id="key-name" name="name" type="text" maxlength="100" placeholder="e.g. receptionist, staging"${options.keyError ? html` aria-invalid="true" aria-describedby="key-error"` : ''}>
          ${options.keyError ? html`<p class="error-text" id="key-error">${options.keyError}</p>` : ''}
        </div>
        <button type="submit" class="btn btn-primary">Create key</button>
      </form>
      ${keysTable(options)}
    </section>

    <section class="card" aria-labelledby="lexicon-title">
      <div class="card-head">
        <h2 id="lexicon-title">Pronunciations</h2>
        <p class="muted">Tell every voice how to say your clinic’s name or a surname, for every request of this account.</p>
      </div>
      <p><a class="btn btn-secondary" href="/dashboard/lexicon">Edit pronunciations</a></p>
    </section>

    <section class="card" aria-labelledby="usage-title">
      <div class="card-head">
        <h2 id="usage-title">Usage</h2>
        <p class="muted">Every charge, free generation and top-up, newest first. Kinyarwanda in the studio is free and not listed.</p>
      </div>
      ${usageTable(options.ledger)}
    </section>

    <section class="card card-soft" aria-labelledby="topup-title">
      <h2 id="topup-title">Buy tokens</h2>
      <p>Tokens cost ${usd(1)} each; a top-up is at least ${MINIMUM_TOP_UP} tokens (${usd(MINIMUM_TOP_UP)}). Ask for the tokens you
        want here: you get a reference to quote with your payment, and the tokens are credited once the Ijwi team has
        received it. ${contact(options.supportEmail)} Online card payment is not offered yet.</p>
      <form method="post" action="/dashboard/topup-requests" class="inline-fields" novalidate>
        <input type="hidden" name="_csrf" value="${options.viewer.csrfToken}">
        <div class="field">
          <label for="topup-tokens">Tokens</label>
          <input id="topup-tokens" name="tokens" type="number" min="${MINIMUM_TOP_UP}" step="1" value="${options.topUpError?.value ?? MINIMUM_TOP_UP}" inputmode="numeric"${options.topUpError ? html` aria-invalid="true" aria-describedby="topup-error"` : ''}>
          ${options.topUpError ? html`<p class="error-text" id="topup-error">${options.topUpError.message}</p>` : ''}
        </div>
        <button type="submit" class="btn btn-primary">Ask for tokens</button>
      </form>
      ${topUpTable(options.topUpRequests)}
    </section>
  </div>
</section>`;
  return page({ title: 'Dashboard · Ijwi', viewer: options.viewer, section: 'dashboard', main });
}
