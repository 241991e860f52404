import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The operator's admin command line (`npm run admin -- ...`), run as the operator runs it.

const script = fileURLToPath(new URL('../../src/cli/admin.ts', import.meta.url));

export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the admin tool with `args`, in this environment less its stores, plus `env`. */
export function admin(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Outcome> {
  // The caller's own database and Redis settings must not redirect the tests.
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', script, ...args],
      { env: { ...withoutStores(), ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** This process's environment without the database and Redis it may name. */
export function withoutStores(): NodeJS.ProcessEnv {
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...inherited } = process.env;
  return inherited;
}

/** The value of a `name: value` line of the tool's output. */
export function field(output: string, name: string): string {
  const match = new RegExp(`^${name}: (.+)$`, 'm').exec(output);
  assert.ok(match?.[1], `no "${name}:" line in:\n${output}`);
  return match[1];
}
