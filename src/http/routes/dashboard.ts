import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { withoutReversedCharges } from '../../accounts/ledger-view.ts';
import type { ActiveSession } from '../../accounts/sessions.ts';
import { type DashboardNotice, type DashboardPageOptions, dashboardPage } from '../../web/pages/dashboard.ts';
import { usageSeries, usageSince } from '../../web/usage-chart.ts';
import { sendPage } from '../page-headers.ts';
import { openFlash, sealFlash } from '../sealed-flash.ts';
import type { WebContext } from '../web-context.ts';
import { flashCookie, formField, sessionOrSignIn, webPageContext } from '../web-session.ts';

// The usage table shows the newest entries; a busy account's full history is an export for later.
const LEDGER_ROWS = 50;
const NOTICES: readonly DashboardNotice[] = [
  'welcome',
  'key_created',
  'key_revoked',
  'key_not_found',
  'topup_requested',
];
/** The purpose a new key is sealed for, so no other sealed value can be opened as one. */
const NEW_KEY = 'new-api-key';

/** GET /dashboard, and the key forms: POST /dashboard/keys (create) and POST /dashboard/keys/:id/revoke. */
export const dashboardRoutes: FastifyPluginAsync<WebContext> = async (app, context) => {
  const render = async (
    request: FastifyRequest,
    reply: FastifyReply,
    session: ActiveSession,
    extra: Pick<DashboardPageOptions, 'newKey' | 'keyError' | 'notice' | 'topUpError'>,
    status = 200,
  ) => {
    const accountId = session.user.accountId;
    const now = new Date();
    const [account, balance, keys, ledger, topUpRequests, usage] = await Promise.all([
      context.accounts.getAccount(accountId),
      context.billing.balance(accountId),
      context.accounts.listKeys(accountId),
      context.billing.listLedger(accountId, { limit: LEDGER_ROWS }),
      context.topUps.listForAccount(accountId),
      context.billing.dailyUsage(accountId, usageSince(now)),
    ]);
    // A user's account is made with the user and never removed: its absence is a bug.
    if (!account || !balance.ok || !keys.ok || !ledger.ok)
      throw new Error('the signed-in user has no account');
    return sendPage(
      reply,
      dashboardPage(webPageContext(request), {
        viewer: { kind: 'user', email: session.user.email, csrfToken: session.csrfToken },
        accountName: account.name,
        accountId,
        balance: balance.balance,
        freeUsesRemaining: balance.freeUsesRemaining,
        keys: keys.keys,
        ledger: withoutReversedCharges(ledger.entries),
        usage: usageSeries(usage, now),
        topUpRequests,
        supportEmail: context.supportEmail,
        ...extra,
      }),
      status,
    );
  };

  app.get('/dashboard', async (request, reply) => {
    const session = sessionOrSignIn(request, reply);
    if (!session) return reply;
    const { notice } = request.query as { notice?: unknown };
    const known = NOTICES.find((n) => n === notice);
    const newKey = takeNewKey(request, reply);
    return render(request, reply, session, {
      ...(known ? { notice: known } : {}),
      ...(newKey ? { newKey } : {}),
    });
  });

  /** The key a POST just created, shown once: the flash cookie is opened and cleared. */
  const takeNewKey = (request: FastifyRequest, reply: FastifyReply) => {
    const sealed = request.cookies[context.cookies.flash];
    const token = request.cookies[context.cookies.session];
    if (sealed === undefined) return undefined;
    reply.clearCookie(context.cookies.flash, flashCookie(context.cookies));
    const opened = token === undefined ? undefined : openFlash(sealed, token, NEW_KEY);
    if (opened === undefined) return undefined;
    const { key, name } = JSON.parse(opened) as { key: string; name: string | null };
    return { key, name };
  };

  // Post/redirect/get: the new key goes to the page after the redirect sealed in a short-lived
  // cookie (`sealed-flash.ts`), so a reload or the back button shows it at most once and never
  // creates a second key.
  app.post('/dashboard/keys', async (request, reply) => {
    const session = sessionOrSignIn(request, reply);
    if (!session) return reply;
    const name = formField(request, 'name');
    const created = await context.accounts.createKey(session.user.accountId, { name });
    const token = request.cookies[context.cookies.session] ?? '';
    if (created.ok) {
      const sealed = sealFlash(
        JSON.stringify({ key: created.key, name: created.record.name }),
        token,
        NEW_KEY,
      );
      reply.setCookie(context.cookies.flash, sealed, flashCookie(context.cookies));
      return reply.redirect('/dashboard?notice=key_created#keys-title', 303);
    }
    const keyError = created.code === 'invalid_name' ? 'keyName' : 'keyFailed';
    return render(request, reply, session, { keyError }, 400);
  });

  // Post/redirect/get: a request is recorded once however often the page is reloaded.
  app.post('/dashboard/topup-requests', async (request, reply) => {
    const session = sessionOrSignIn(request, reply);
    if (!session) return reply;
    const value = formField(request, 'tokens').trim();
    const tokens = /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
    const made = await context.topUps.request(session.user.accountId, tokens);
    if (made.ok) return reply.redirect('/dashboard?notice=topup_requested#topup-title', 303);
    return render(request, reply, session, { topUpError: { value } }, 400);
  });

  app.post('/dashboard/keys/:id/revoke', async (request, reply) => {
    const session = sessionOrSignIn(request, reply);
    if (!session) return reply;
    const { id } = request.params as { id?: string };
    // Scoped to the account: another account's key id reads as not found.
    const revoked = await context.accounts.revokeKey(id ?? '', session.user.accountId);
    return reply.redirect(
      `/dashboard?notice=${revoked.ok ? 'key_revoked' : 'key_not_found'}#keys-title`,
      303,
    );
  });
};
