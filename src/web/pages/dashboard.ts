import { type ApiKeyView, MAX_KEY_NAME_LENGTH } from '../../accounts/accounts.ts';
import { FREE_GENERATIONS, FREE_MAX_SECONDS, MINIMUM_TOP_UP } from '../../accounts/billing.ts';
import type { LedgerEntry } from '../../accounts/repositories.ts';
import { MAX_REQUESTED_TOKENS, type TopUpRequest } from '../../accounts/topup-requests.ts';
import { contact } from '../contact.ts';
import { html, type SafeHtml } from '../html.ts';
import type { MessageKey } from '../i18n/catalogue.ts';
import type { Translator } from '../i18n/translator.ts';
import { type PageContext, page, type Viewer } from '../layout.ts';
import { type UsageDay, usageCharts } from '../usage-chart.ts';
import { languageName } from '../words.ts';

/** Messages the dashboard shows after a redirect. */
export type DashboardNotice = 'welcome' | 'key_created' | 'key_revoked' | 'key_not_found' | 'topup_requested';

/** Why a dashboard form was refused. */
export type DashboardRefusal = 'keyName' | 'keyFailed' | 'topUpTokens';

export interface DashboardPageOptions {
  readonly viewer: Extract<Viewer, { kind: 'user' }>;
  readonly accountName: string;
  readonly accountId: string;
  readonly balance: number;
  readonly freeUsesRemaining: number;
  readonly keys: readonly ApiKeyView[];
  /** Newest first. */
  readonly ledger: readonly LedgerEntry[];
  /** Every day of the chart, oldest first (see `usageSeries`). */
  readonly usage: readonly UsageDay[];
  /** A key just created: the only time it is ever shown. */
  readonly newKey?: { readonly key: string; readonly name: string | null };
  readonly keyError?: Extract<DashboardRefusal, 'keyName' | 'keyFailed'>;
  readonly notice?: DashboardNotice;
  /** The account's requests to buy tokens, newest first. */
  readonly topUpRequests: readonly TopUpRequest[];
  /** A refused request: what was typed. */
  readonly topUpError?: { readonly value: string };
  /** The operator's contact, or null. */
  readonly supportEmail: string | null;
}

const STATUS_WORDS: Readonly<Record<TopUpRequest['status'], MessageKey>> = {
  pending: 'dashboard.topup.status.pending',
  approved: 'dashboard.topup.status.approved',
  declined: 'dashboard.topup.status.declined',
};

/** A time as the pages show it, marked up as a time. */
function when(t: Translator, iso: string): SafeHtml {
  return html`<time datetime="${iso}">${t.dateTime(iso)}</time>`;
}

function topUpTable(t: Translator, requests: readonly TopUpRequest[]): SafeHtml {
  if (requests.length === 0) return html``;
  const column = {
    reference: t.text('dashboard.topup.column.reference'),
    tokens: t.text('dashboard.topup.column.tokens'),
    price: t.text('dashboard.topup.column.price'),
    asked: t.text('dashboard.topup.column.asked'),
    status: t.text('dashboard.topup.column.status'),
  };
  return html`<div class="table-wrap"><table class="table table-stack" id="topup-requests">
  <thead><tr><th scope="col">${column.reference}</th><th scope="col">${column.tokens}</th><th scope="col">${column.price}</th><th scope="col">${column.asked}</th><th scope="col">${column.status}</th></tr></thead>
  <tbody>${requests.map(
    (r) =>
      html`<tr><td data-label="${column.reference}"><code>${r.reference}</code></td><td data-label="${column.tokens}">${t.number(r.tokens)}</td><td data-label="${column.price}">${t.usd(r.tokens)}</td><td data-label="${column.asked}">${when(t, r.createdAt)}</td><td data-label="${column.status}">${t.text(STATUS_WORDS[r.status])}</td></tr>`,
  )}</tbody>
</table></div>`;
}

const NOTICES: Readonly<
  Record<DashboardNotice, { readonly kind: 'success' | 'error'; readonly text: MessageKey }>
> = {
  welcome: { kind: 'success', text: 'dashboard.notice.welcome' },
  key_created: { kind: 'success', text: 'dashboard.notice.keyCreated' },
  key_revoked: { kind: 'success', text: 'dashboard.notice.keyRevoked' },
  topup_requested: { kind: 'success', text: 'dashboard.notice.topupRequested' },
  key_not_found: { kind: 'error', text: 'dashboard.notice.keyNotFound' },
};

function newKeyPanel(t: Translator, created: NonNullable<DashboardPageOptions['newKey']>): SafeHtml {
  return html`<div class="new-key alert alert-warning" role="alert" id="new-key">
  <h3>${created.name ? t.text('dashboard.newKey.titleNamed', { name: created.name }) : t.text('dashboard.newKey.title')}</h3>
  <p>${t.rich('dashboard.newKey.text', { strong: (words) => html`<strong>${words}</strong>` })}</p>
  <div class="copy-row">
    <label class="visually-hidden" for="new-key-value">${t.text('dashboard.newKey.label')}</label>
    <input id="new-key-value" class="key-value" type="text" readonly value="${created.key}" spellcheck="false">
    <button type="button" class="btn btn-primary" data-copy="new-key-value">${t.text('common.copy')}</button>
  </div>
</div>`;
}

function keysTable(t: Translator, options: DashboardPageOptions): SafeHtml {
  if (options.keys.length === 0) {
    return html`<p class="empty">${t.text('dashboard.keys.empty')}</p>`;
  }
  const column = {
    name: t.text('dashboard.keys.column.name'),
    key: t.text('dashboard.keys.column.key'),
    created: t.text('dashboard.keys.column.created'),
    lastUsed: t.text('dashboard.keys.column.lastUsed'),
    status: t.text('dashboard.keys.column.status'),
  };
  const rows = options.keys.map((key) => {
    const label = key.name ?? key.hint;
    return html`<tr${key.revokedAt ? html` class="revoked"` : ''}>
      <td data-label="${column.name}">${key.name ? html`<span translate="no">${key.name}</span>` : html`<span class="muted">${t.text('dashboard.keys.unnamed')}</span>`}</td>
      <td data-label="${column.key}"><code>${key.hint}</code></td>
      <td data-label="${column.created}">${when(t, key.createdAt)}</td>
      <td data-label="${column.lastUsed}">${key.lastUsedAt ? when(t, key.lastUsedAt) : html`<span class="muted">${t.text('dashboard.keys.never')}</span>`}</td>
      <td data-label="${column.status}">${
        key.revokedAt
          ? html`<span class="badge badge-muted">${t.rich('dashboard.keys.revokedAt', { when: when(t, key.revokedAt) })}</span>`
          : html`<form method="post" action="/dashboard/keys/${key.id}/revoke" class="inline-form" data-confirm="${t.text('dashboard.keys.confirmRevoke', { key: label })}">
              <input type="hidden" name="_csrf" value="${options.viewer.csrfToken}">
              <button type="submit" class="btn btn-danger btn-small">${t.rich('dashboard.keys.revoke', { key: label, hidden: (words) => html`<span class="visually-hidden">${words}</span>` })}</button>
            </form>`
      }</td>
    </tr>`;
  });
  return html`<div class="table-wrap"><table class="table table-stack" id="keys">
    <thead><tr><th scope="col">${column.name}</th><th scope="col">${column.key}</th><th scope="col">${column.created}</th><th scope="col">${column.lastUsed}</th><th scope="col">${column.status}</th></tr></thead>
    <tbody>${rows}</tbody>
  </table></div>`;
}

// What a ledger entry was and what it cost. A refund is a stream whose caller left before its
// first audio: it gives back the tokens, or the free generation, of that request's charge.
function usageCells(t: Translator, entry: LedgerEntry): { what: SafeHtml; cost: SafeHtml } {
  switch (entry.kind) {
    case 'top_up':
      return {
        what: html`<span class="badge badge-accent">${t.text('dashboard.usage.topUp')}</span>`,
        cost: html`<span class="positive">${t.text('dashboard.usage.plusTokens', { count: entry.tokens })}</span>`,
      };
    case 'refund':
      return {
        what: html`<span class="badge">${t.text('dashboard.usage.refund')}</span>`,
        cost: html`<span class="positive">${t.text('dashboard.usage.plusTokens', { count: entry.tokens })}</span>`,
      };
    case 'free_use_refund':
      return {
        what: html`<span class="badge">${t.text('dashboard.usage.refund')}</span>`,
        cost: html`<span class="badge">${t.text('dashboard.usage.freeUseBack')}</span>`,
      };
    case 'free_use':
      return {
        what: html`${languageName(t, entry.language)}`,
        cost: html`<span class="badge">${t.text('common.free')}</span>`,
      };
    case 'charge':
      return {
        what: html`${languageName(t, entry.language)}`,
        cost: html`${t.text('unit.tokens', { count: -entry.tokens })}`,
      };
  }
}

function usageTable(t: Translator, ledger: readonly LedgerEntry[]): SafeHtml {
  if (ledger.length === 0) {
    return html`<p class="empty">${t.text('dashboard.usage.empty')}</p>`;
  }
  const column = {
    date: t.text('dashboard.usage.column.date'),
    language: t.text('dashboard.usage.column.language'),
    characters: t.text('dashboard.usage.column.characters'),
    tokens: t.text('dashboard.usage.column.tokens'),
  };
  const rows = ledger.map((entry) => {
    const { what, cost } = usageCells(t, entry);
    return html`<tr>
      <td data-label="${column.date}">${when(t, entry.createdAt)}</td>
      <td data-label="${column.language}">${what}</td>
      <td data-label="${column.characters}" class="num">${entry.characters === null ? '' : t.number(entry.characters)}</td>
      <td data-label="${column.tokens}" class="num">${cost}</td>
    </tr>`;
  });
  return html`<div class="table-wrap"><table class="table table-stack" id="usage">
    <thead><tr><th scope="col">${column.date}</th><th scope="col">${column.language}</th><th scope="col" class="num">${column.characters}</th><th scope="col" class="num">${column.tokens}</th></tr></thead>
    <tbody>${rows}</tbody>
  </table></div>`;
}

const REFUSALS: Readonly<Record<DashboardRefusal, MessageKey>> = {
  keyName: 'dashboard.keys.error.name',
  keyFailed: 'dashboard.keys.error.failed',
  topUpTokens: 'dashboard.topup.error.tokens',
};

function refusal(t: Translator, reason: DashboardRefusal): string {
  return t.text(REFUSALS[reason], {
    max: MAX_KEY_NAME_LENGTH,
    minimum: MINIMUM_TOP_UP,
    maximum: MAX_REQUESTED_TOKENS,
  });
}

/** The account dashboard: balance, free generations, API keys, use over time and the ledger. */
export function dashboardPage(context: PageContext, options: DashboardPageOptions): SafeHtml {
  const { t } = context;
  // With the new key on the page, its panel says everything the notice would.
  const shown = options.notice === 'key_created' && options.newKey ? undefined : options.notice;
  const notice = shown ? NOTICES[shown] : undefined;
  const main = html`<section class="page-head">
  <div class="container page-head-inner">
    <div>
      <h1>${t.text('dashboard.title')}</h1>
      <p class="muted"><span translate="no">${options.accountName}</span> · <code class="account-id">${options.accountId}</code></p>
    </div>
    <a class="btn btn-primary" href="/studio">${t.text('nav.openStudio')}</a>
  </div>
</section>
<section class="section section-tight">
  <div class="container stack-lg">
    ${notice ? html`<div class="alert alert-${notice.kind}" role="status"><p>${t.text(notice.text)}</p></div>` : ''}
    <div class="grid grid-3 stats">
      <article class="card stat">
        <h2 class="stat-label">${t.text('dashboard.balance')}</h2>
        <p class="stat-value" id="balance">${t.number(options.balance)}</p>
        <p class="muted">${t.text('dashboard.balanceWorth', { price: t.usd(options.balance) })}</p>
      </article>
      <article class="card stat">
        <h2 class="stat-label">${t.text('dashboard.freeLeft')}</h2>
        <p class="stat-value" id="free-uses">${t.rich('dashboard.freeOf', { count: options.freeUsesRemaining, total: FREE_GENERATIONS, of: (words) => html`<span>${words}</span>` })}</p>
        <p class="muted">${t.text('dashboard.freeRule', { minutes: FREE_MAX_SECONDS / 60 })}</p>
      </article>
      <article class="card stat">
        <h2 class="stat-label">${t.text('dashboard.studioFree')}</h2>
        <p class="stat-value">${t.text('common.free')}</p>
        <p class="muted">${t.text('dashboard.studioFreeRule')}</p>
      </article>
    </div>

    <section class="card" aria-labelledby="keys-title">
      <div class="card-head">
        <h2 id="keys-title">${t.text('dashboard.keys.title')}</h2>
        <p class="muted">${t.rich('dashboard.keys.lede', { header: html`<code>Authorization: Bearer &lt;key&gt;</code>`, docs: (words) => html`<a href="/docs">${words}</a>` })}</p>
      </div>
      ${options.newKey ? newKeyPanel(t, options.newKey) : ''}
      <form method="post" action="/dashboard/keys" class="inline-fields" novalidate>
        <input type="hidden" name="_csrf" value="${options.viewer.csrfToken}">
        <div class="field">
          <label for="key-name">${t.rich('dashboard.keys.newName', { optional: (words) => html`<span class="muted">${words}</span>` })}</label>
          <input id="key-name" name="name" type="text" maxlength="${MAX_KEY_NAME_LENGTH}" placeholder="${t.text('dashboard.keys.placeholder')}"${options.keyError ? html` aria-invalid="true" aria-describedby="key-error"` : ''}>
          ${options.keyError ? html`<p class="error-text" id="key-error">${refusal(t, options.keyError)}</p>` : ''}
        </div>
        <button type="submit" class="btn btn-primary">${t.text('dashboard.keys.create')}</button>
      </form>
      ${keysTable(t, options)}
    </section>

    <section class="card" aria-labelledby="lexicon-title">
      <div class="card-head">
        <h2 id="lexicon-title">${t.text('dashboard.lexicon.title')}</h2>
        <p class="muted">${t.text('dashboard.lexicon.lede')}</p>
      </div>
      <p><a class="btn btn-secondary" href="/dashboard/lexicon">${t.text('dashboard.lexicon.edit')}</a></p>
    </section>

    <section class="card" aria-labelledby="chart-title">
      <div class="card-head">
        <h2 id="chart-title">${t.text('usage.title', { days: options.usage.length })}</h2>
        <p class="muted">${t.text('usage.lede')}</p>
      </div>
      ${usageCharts(t, options.usage)}
    </section>

    <section class="card" aria-labelledby="usage-title">
      <div class="card-head">
        <h2 id="usage-title">${t.text('dashboard.usage.title')}</h2>
        <p class="muted">${t.text('dashboard.usage.lede')}</p>
      </div>
      ${usageTable(t, options.ledger)}
    </section>

    <section class="card card-soft" aria-labelledby="topup-title">
      <h2 id="topup-title">${t.text('dashboard.topup.title')}</h2>
      <p><span>${t.text('dashboard.topup.text', { price: t.usd(1), minimum: MINIMUM_TOP_UP, minimumPrice: t.usd(MINIMUM_TOP_UP) })}</span> <span>${contact(t, options.supportEmail)}</span> <span>${t.text('dashboard.topup.noCard')}</span></p>
      <form method="post" action="/dashboard/topup-requests" class="inline-fields" novalidate>
        <input type="hidden" name="_csrf" value="${options.viewer.csrfToken}">
        <div class="field">
          <label for="topup-tokens">${t.text('dashboard.topup.tokens')}</label>
          <input id="topup-tokens" name="tokens" type="number" min="${MINIMUM_TOP_UP}" step="1" value="${options.topUpError?.value ?? MINIMUM_TOP_UP}" inputmode="numeric"${options.topUpError ? html` aria-invalid="true" aria-describedby="topup-error"` : ''}>
          ${options.topUpError ? html`<p class="error-text" id="topup-error">${refusal(t, 'topUpTokens')}</p>` : ''}
        </div>
        <button type="submit" class="btn btn-primary">${t.text('dashboard.topup.submit')}</button>
      </form>
      ${topUpTable(t, options.topUpRequests)}
    </section>
  </div>
</section>`;
  return page(context, { title: t.text('dashboard.pageTitle'), section: 'dashboard', main });
}
