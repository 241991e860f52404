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
      /** Every field at fault and why, so a form can show them all at once beside their fields. */
      readonly problems: Readonly<Partial<Record<'name' | 'email' | 'password', string>>>;
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
  async signUp(input: {
    name: string;
    email: string;
    password: string;
    /** The website's language the user signed up in, kept as their choice. */
    language?: string;
  }): Promise<SignUpResult> {
    const email = normalizeEmail(input.email);
    const now = this.#now();
    // Every field is checked, so the form can say everything that is wrong in one go.
    const problems: Partial<Record<'name' | 'email' | 'password', string>> = {};
    const byName = buildAccount({ name: input.name }, now);
    if (!byName.ok) problems.name = byName.message;
    const byEmail = buildAccount({ name: 'x', email }, now);
    if (email.length === 0) problems.email = 'enter your email address';
    else if (!byEmail.ok) problems.email = byEmail.message;
    const weak = passwordProblem(input.password);
    if (weak !== undefined) problems.password = weak;
    const first = (['name', 'email', 'password'] as const).find((field) => problems[field] !== undefined);
    if (first !== undefined) {
      const code = first === 'name' ? 'invalid_name' : first === 'email' ? 'invalid_email' : 'weak_password';
      return { ok: false, code, message: problems[first] ?? '', problems };
    }
    const built = buildAccount({ name: input.name, email }, now);
    if (!built.ok) throw new Error('a checked account was refused');
    const user: UserRecord = {
      id: newId('usr'),
      accountId: built.account.id,
      email,
      passwordHash: await hashPassword(input.password),
      createdAt: now.toISOString(),
      language: input.language ?? null,
    };
    if ((await this.#users.createWithAccount(built.account, user)) === 'email_taken') {
      return {
        ok: false,
        code: 'email_taken',
        message: 'an account already uses this email; sign in instead',
        problems: { email: 'an account already uses this email; sign in instead' },
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

  /** Keeps `language` as the user's website language (the web layer checks it is one of its own). */
  async setLanguage(userId: string, language: string): Promise<boolean> {
    return this.#users.setLanguage(userId, language);
  }
}
