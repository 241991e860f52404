import { createHash, randomBytes } from 'node:crypto';
import type { SessionRecord, SessionRepository, UserRecord } from './user-repositories.ts';

/** How long a sign-in lasts. Absolute, not sliding: a stolen cookie stops working on its own. */
export const SESSION_LIFETIME_MS = 14 * 24 * 60 * 60 * 1000;

// 256 random bits, base64url: the cookie value. Its SHA-256 is what the database holds, so a
// copy of the database does not let anyone act as a signed-in user.
const TOKEN_BYTES = 32;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A session as the web edge uses it: who is signed in, and the token their forms must carry. */
export interface ActiveSession {
  readonly user: UserRecord;
  readonly csrfToken: string;
  readonly expiresAt: Date;
}

export interface SessionServiceDeps {
  readonly sessions: SessionRepository;
  readonly now?: () => Date;
}

function randomToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Browser sessions: started at sign-in with a fresh token, looked up per request, ended at sign-out. */
export class SessionService {
  readonly #sessions: SessionRepository;
  readonly #now: () => Date;

  constructor(deps: SessionServiceDeps) {
    this.#sessions = deps.sessions;
    this.#now = deps.now ?? (() => new Date());
  }

  /**
   * Starts a session for `user` under a token made here and now, never one the browser offered,
   * so a token planted before sign-in (session fixation) is worthless. Returns the token for the
   * cookie; expired sessions of anyone are cleared on the way.
   */
  async start(user: UserRecord): Promise<{ token: string; session: ActiveSession }> {
    const now = this.#now();
    await this.#sessions.deleteExpired(now.toISOString());
    const token = randomToken();
    const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
    const record: SessionRecord = {
      tokenHash: hashToken(token),
      userId: user.id,
      csrfToken: randomToken(),
      createdAt: now.toISOString(),
      expiresAt: expiresAt.toISOString(),
    };
    await this.#sessions.insert(record);
    return { token, session: { user, csrfToken: record.csrfToken, expiresAt } };
  }

  /** The live session behind a cookie value, or undefined (malformed, unknown or expired). */
  async resume(token: string): Promise<ActiveSession | undefined> {
    if (!TOKEN_PATTERN.test(token)) return undefined;
    const found = await this.#sessions.find(hashToken(token));
    if (!found) return undefined;
    const expiresAt = new Date(found.session.expiresAt);
    if (expiresAt.getTime() <= this.#now().getTime()) {
      await this.#sessions.delete(found.session.tokenHash);
      return undefined;
    }
    return { user: found.user, csrfToken: found.session.csrfToken, expiresAt };
  }

  /** Ends the session behind a cookie value; unknown values are not an error. */
  async end(token: string): Promise<void> {
    if (TOKEN_PATTERN.test(token)) await this.#sessions.delete(hashToken(token));
  }
}

/** A random token for forms of visitors who are not signed in (the double-submit cookie). */
export function newFormToken(): string {
  return randomToken();
}
