import { createHash } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { MIN_PASSWORD_LENGTH } from '../../accounts/passwords.ts';
import type { UserRecord } from '../../accounts/user-repositories.ts';
import { normalizeEmail, type SignUpResult } from '../../accounts/users.ts';
import { isSiteLanguage } from '../../web/i18n/languages.ts';
import { type AuthFormState, type FieldProblem, signInPage, signUpPage } from '../../web/pages/auth.ts';
import { messagePage } from '../../web/pages/message.ts';
import { sendPage } from '../page-headers.ts';
import { chosenLanguage, pageLanguage, setLanguageCookie } from '../page-language.ts';
import type { WebContext } from '../web-context.ts';
import {
  clearSessionCookie,
  formField,
  formToken,
  setSessionCookie,
  webPageContext,
} from '../web-session.ts';

// Sign-in throttling, in the same 60 s windows as the API's rate limit (one store serves both):
// per email, a few guesses a minute stop online password guessing against one account; per
// address, a looser limit stops one client from trying many accounts, or opening many.
const ATTEMPTS_PER_EMAIL = 5;
const ATTEMPTS_PER_ADDRESS = 20;
const WINDOW_MS = 60_000;

/** Where to go after signing in: a path on this site only, so the link cannot send people elsewhere. */
export function safeNext(value: unknown): string | undefined {
  return typeof value === 'string' && /^\/(?![/\\])[\w\-./?=&%#]*$/.test(value) ? value : undefined;
}

/**
 * Each refused field of a sign-up as the form explains it. The domain says which fields are at
 * fault; which of a field's rules failed is read from what was typed.
 */
function signUpProblems(
  input: { email: string; password: string },
  refused: Extract<SignUpResult, { ok: false }>,
): Partial<Record<'name' | 'email' | 'password', FieldProblem>> {
  const problems: Partial<Record<'name' | 'email' | 'password', FieldProblem>> = {};
  if (refused.problems.name !== undefined) problems.name = 'nameLength';
  if (refused.code === 'email_taken') problems.email = 'emailTaken';
  else if (refused.problems.email !== undefined)
    problems.email = input.email.trim() === '' ? 'emailMissing' : 'emailInvalid';
  if (refused.problems.password !== undefined) {
    // Counted as the domain counts a password: code points after NFKC.
    const length = [...input.password.normalize('NFKC')].length;
    problems.password = length < MIN_PASSWORD_LENGTH ? 'passwordShort' : 'passwordLong';
  }
  return problems;
}

/** POST /signup, /signin and /signout, and the two form pages. */
export const accountRoutes: FastifyPluginAsync<WebContext> = async (app, context) => {
  const tooMany = (request: FastifyRequest, reply: FastifyReply, retryMs: number) => {
    const minutes = Math.max(1, Math.ceil(retryMs / 60_000));
    reply.header('Retry-After', String(Math.ceil(retryMs / 1000)));
    const page = webPageContext(request);
    return sendPage(
      reply,
      messagePage(page, {
        title: page.t.text('throttled.title'),
        message: page.t.text('throttled.text', { minutes }),
        action: { href: '/signin', label: page.t.text('throttled.back') },
      }),
      429,
    );
  };

  /** Counts an attempt under each key; the first full bucket refuses it (in ms to wait), else undefined. */
  const throttle = async (keys: readonly (readonly [string, number])[]): Promise<number | undefined> => {
    for (const [key, limit] of keys) {
      const decision = await context.rateLimit.hit(key, limit, WINDOW_MS);
      if (!decision.allowed) return decision.resetMs;
    }
    return undefined;
  };

  /** A fresh session (never the one the browser came with), then on to `next`. */
  const signedIn = async (request: FastifyRequest, reply: FastifyReply, user: UserRecord, next: string) => {
    const previous = request.cookies[context.cookies.session];
    if (previous) await context.sessions.end(previous);
    const { token } = await context.sessions.start(user);
    setSessionCookie(reply, context.cookies, token);
    // The account's language follows the person to this browser; a browser's choice made
    // before the account had one becomes the account's.
    const chosen = chosenLanguage(request);
    if (isSiteLanguage(user.language)) setLanguageCookie(reply, user.language, context.cookies.secure);
    else if (chosen !== undefined) await context.users.setLanguage(user.id, chosen);
    return reply.redirect(next, 303);
  };

  const formState = (
    request: FastifyRequest,
    reply: FastifyReply,
    rest: Omit<AuthFormState, 'csrfToken'>,
  ) => ({
    ...rest,
    csrfToken: formToken(request, reply, context.cookies),
  });

  app.get('/signup', async (request, reply) => {
    if (request.webSession) return reply.redirect('/dashboard', 303);
    return sendPage(reply, signUpPage(webPageContext(request), formState(request, reply, {})));
  });

  app.post('/signup', async (request, reply) => {
    const retry = await throttle([[`auth:address:${request.ip}`, ATTEMPTS_PER_ADDRESS]]);
    if (retry !== undefined) return tooMany(request, reply, retry);
    const input = {
      name: formField(request, 'name'),
      email: formField(request, 'email'),
      password: formField(request, 'password'),
    };
    // The language the form was shown in becomes the account's.
    const result = await context.users.signUp({ ...input, language: pageLanguage(request) });
    if (!result.ok) {
      const state = formState(request, reply, {
        problems: signUpProblems(input, result),
        name: input.name,
        email: input.email,
      });
      return sendPage(
        reply,
        signUpPage(webPageContext(request), state),
        result.code === 'email_taken' ? 409 : 400,
      );
    }
    return signedIn(request, reply, result.user, '/dashboard?notice=welcome');
  });

  app.get('/signin', async (request, reply) => {
    const next = safeNext((request.query as { next?: unknown }).next);
    if (request.webSession) return reply.redirect(next ?? '/dashboard', 303);
    return sendPage(
      reply,
      signInPage(webPageContext(request), formState(request, reply, next ? { next } : {})),
    );
  });

  app.post('/signin', async (request, reply) => {
    const email = formField(request, 'email');
    const next = safeNext(formField(request, 'next'));
    // Keyed by a hash: no email address is kept in the rate-limit store.
    const emailKey = createHash('sha256').update(normalizeEmail(email)).digest('base64url');
    const retry = await throttle([
      [`auth:address:${request.ip}`, ATTEMPTS_PER_ADDRESS],
      [`signin:email:${emailKey}`, ATTEMPTS_PER_EMAIL],
    ]);
    if (retry !== undefined) return tooMany(request, reply, retry);
    const result = await context.users.signIn({ email, password: formField(request, 'password') });
    if (!result.ok) {
      const state = formState(request, reply, {
        credentialsRefused: true,
        email,
        ...(next ? { next } : {}),
      });
      return sendPage(reply, signInPage(webPageContext(request), state), 401);
    }
    return signedIn(request, reply, result.user, next ?? '/dashboard');
  });

  app.post('/signout', async (request, reply) => {
    const token = request.cookies[context.cookies.session];
    if (token) await context.sessions.end(token);
    clearSessionCookie(reply, context.cookies);
    return reply.redirect('/', 303);
  });
};
