import { buildAccount } from './accounts.ts';
import { newId } from './ids.ts';
import { hashPassword, passwordProblem, verifyDecoy, verifyPassword } from './passwords.ts';
import type { AccountRecord } from './repositories.ts';
import type { UserRecord, UserRepository } from './user-repositories.ts';

export type SignUpResult =
  | { readonly ok: true; readonly user: UserRecord; readonly account: AccountRecord }
  | {
      readonly ok: false;
      readonly code: 'invalid_name' | 'invalid_email' | 'weak_password' | 'email_taken';
      readonly message: string;
    };

/** One answer for an unknown email and a wrong password, so sign-in does not reveal who has an account. */
export type SignInResult =
  | { readonly ok: true; readonly user: UserRecord }
  | { readonly ok: false; readonly code: 'invalid_credentials' };

export interface UserServiceDeps {
  readonly users: UserRepository;
  readonly now?: () => Date;
}

/** The form an email is stored and looked up in. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** People who sign in to the dashboard and studio: sign-up (a user and the account it owns) and sign-in. */
export class UserService {
  readonly #users: UserRepository;
  readonly #now: () => Date;

  constructor(deps: UserServiceDeps) {
    this.#users = deps.users;
    this.#now = deps.now ?? (() => new Date());
  }

  /**
   * Creates an account named `name` and its user, who signs in with `email` and `password` (at
   * least 12 characters). The email is required here, unlike for operator-made accounts: it is
   * the sign-in name.
   */
  async signUp(input: { name: string; email: string; password: string }): Promise<SignUpResult> {
    const email = normalizeEmail(input.email);
    if (email.length === 0) return { ok: false, code: 'invalid_email', message: 'enter your email address' };
    const now = this.#now();
    const built = buildAccount({ name: input.name, email }, now);
    if (!built.ok) return built;
    const weak = passwordProblem(input.password);
    if (weak !== undefined) return { ok: false, code: 'weak_password', message: weak };
    const user: UserRecord = {
      id: newId('usr'),
      accountId: built.account.id,
      email,
      passwordHash: await hashPassword(input.password),
      createdAt: now.toISOString(),
    };
    if ((await this.#users.createWithAccount(built.account, user)) === 'email_taken') {
      return {
        ok: false,
        code: 'email_taken',
        message: 'an account already uses this email; sign in instead',
      };
    }
    return { ok: true, user, account: built.account };
  }

  /**
   * The user with this email and password. An unknown email costs the same scrypt work as a
   * wrong password, and both give `invalid_credentials`.
   */
  async signIn(input: { email: string; password: string }): Promise<SignInResult> {
    const user = await this.#users.findByEmail(normalizeEmail(input.email));
    const valid = user
      ? await verifyPassword(input.password, user.passwordHash)
      : await verifyDecoy(input.password);
    return valid && user ? { ok: true, user } : { ok: false, code: 'invalid_credentials' };
  }
}
