/**
 * Installs the third-party client libraries the compatibility tests drive (`test/clients/`) when
 * they are missing or their lock file changed since they were installed. They are heavy (hundreds
 * of MB with LiveKit's agents) and only tests use them, so they stay out of the service's own
 * dependencies: `npm ci && npm start` never fetches them; `npm test` and `.ci/run` run this first.
 * Run by hand: `node --import tsx scripts/install-test-clients.ts`.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../test/clients/', import.meta.url));
// npm keeps nothing that says which lock a node_modules was installed from, so this stamp does.
const stamp = join(dir, 'node_modules', '.installed-lock-sha256');
const lock = createHash('sha256')
  .update(readFileSync(join(dir, 'package-lock.json')))
  .digest('hex');

if (existsSync(stamp) && readFileSync(stamp, 'utf8') === lock) {
  console.log('test clients: up to date');
} else {
  const started = performance.now();
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit' });
  writeFileSync(stamp, lock);
  console.log(`test clients: installed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
