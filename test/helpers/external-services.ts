// The PostgreSQL and Redis the integration tests run against. Each is probed once per test file.
// Reachable: its suites run. Unreachable on a developer's machine: its suites are skipped with a
// message saying how to run them. Unreachable in CI (CI=true): its suites run and fail loudly,
// because CI provides both and a silent skip would hide a broken half of the contract.

/** node:test's `skip` for a suite that needs the service, and a guard for its `before` hook. */
export interface ServiceProbe {
  /** The URL to use (may carry credentials: print `where` instead). */
  readonly url: string;
  /** The URL without credentials, for messages. */
  readonly where: string;
  /** A message when the suite is skipped here; false when it runs. */
  readonly skip: string | false;
  /** Throws, saying why, when the service is unreachable; call it first in `before`. */
  assertReachable(): void;
}

/** `protocol://host:port/path` without user, password or query. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(an unparseable URL)';
  }
}

/**
 * Runs `probe` against the service at `url` and decides what its suites do. `variable` names the
 * environment variable that points the tests at another server.
 */
export async function probeService(
  name: string,
  variable: string,
  url: string,
  probe: (url: string) => Promise<void>,
): Promise<ServiceProbe> {
  const where = redactUrl(url);
  let problem: string | undefined;
  try {
    await probe(url);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    problem = `${name} at ${where} is unreachable (${typeof code === 'string' ? code : error instanceof Error ? error.message : String(error)})`;
  }
  const inCi = process.env.CI === 'true';
  return {
    url,
    where,
    skip:
      problem === undefined || inCi
        ? false
        : `${problem}; start it or set ${variable} to run these tests (they run, and must pass, in CI)`,
    assertReachable() {
      if (problem !== undefined) throw new Error(`${problem}; CI=true, so this is a failure, not a skip`);
    },
  };
}
