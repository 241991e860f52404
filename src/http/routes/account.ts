import { createHash } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { UserRecord } from '../../accounts/user-repositories.ts';
import { normalizeEmail } from '../../accounts/users.ts';
import { type AuthFormState, signInPage, signUpPage } from '../../web/pages/auth.ts';
import { messagePage } from '../../web/pages/message.ts';
import { sendPage } from '../page-headers.ts';
import type { WebContext } from '../web.ts';
import { clearSessionCookie, formField, formToken, setSessionCookie, viewerOf } from '../web-session.ts';

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

/** POST /signup, /signin and /signout, and the two form pages. */
export const accountRoutes: FastifyPluginAsync<WebContext> = async (app, context) => {
  const tooMany = (request: FastifyRequest, reply: FastifyReply, retryMs: number) => {
    const minutes = Math.max(1, Math.ceil(retryMs / 60_000));
    reply.header('Retry-After', String(Math.ceil(retryMs / 1000)));
    return sendPage(
      reply,
      messagePage({
        viewer: viewerOf(request),
        title: 'Too many attempts',
        message: `There have been too many sign-in attempts in a short time, so they are paused to keep accounts safe. Try again in ${minutes === 1 ? 'a minute' : `${minutes} minutes`}.`,
        action: { href: '/signin', label: 'Back to sign in' },
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
    return sendPage(reply, signUpPage(formState(request, reply, {})));
  });

  app.post('/signup', async (request, reply) => {
    const retry = await throttle([[`auth:address:${request.ip}`, ATTEMPTS_PER_ADDRESS]]);
    if (retry !== undefined) return tooMany(request, reply, retry);
    const input = {
      name: formField(request, 'name'),
      email: formField(request, 'email'),
      password: formField(request, 'password'),
    };
    const result = await context.users.signUp(input);
    if (!result.ok) {
      const count = Object.keys(result.problems).length;
      const state = formState(request, reply, {
        error: count > 1 ? `Please correct the ${count} fields marked below.` : sentence(result.message),
        problems: result.problems,
        name: input.name,
        email: input.email,
      });
      return sendPage(reply, signUpPage(state), result.code === 'email_taken' ? 409 : 400);
    }
    return signedIn(request, reply, result.user, '/dashboard?notice=welcome');
  });

  app.get('/signin', async (request, reply) => {
    const next = safeNext((request.query as { next?: unknown }).next);
    if (request.webSession) return reply.redirect(next ?? '/dashboard', 303);
    return sendPage(reply, signInPage(formState(request, reply, next ? { next } : {})));
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
        error: 'That email and password do not match an account. Check them and try again.',
        email,
        ...(next ? { next } : {}),
      });
      return sendPage(reply, signInPage(state), 401);
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

/** A domain message ("use at least 12 characters") as a sentence for a page. */
function sentence(message: string): string {
  return `${message.charAt(0).toUpperCase()}${message.slice(1)}.`;
}
