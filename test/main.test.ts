import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const root = new URL('..', import.meta.url);
const dataDir = mkdtempSync(join(tmpdir(), 'ijwi-main-'));
// The embedded defaults are under test: a shell's own database or Redis must not leak in.
const { DATABASE_URL: _database, REDIS_URL: _redis, ...inherited } = process.env;

/** Starts the service as `npm start` does, on a free port, and resolves with its base URL. */
function startService(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: { ...inherited, PORT: '0', POOL_SIZE: '1', LOG_LEVEL: 'info', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
  return { child, listening, output: () => output };
}

describe('the service process', () => {
  it('listens, reports 503 until warm then 200, and stops cleanly on SIGTERM', async () => {
    const service = startService({});
    const base = await service.listening;
    const states = new Set<number>();
    for (let i = 0; i < 300; i++) {
      const response = await fetch(`${base}/api/v1/health.php`);
      states.add(response.status);
      if (response.status === 200) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(states.has(503), 'answered 503 while warming up');
    assert.ok(states.has(200), 'became ready');
    const voices = await fetch(`${base}/api/v1/voices.php?format=json`);
    assert.equal(voices.status, 200);
    service.child.kill('SIGTERM');
    const [code] = await once(service.child, 'exit');
    assert.equal(code, 0);
  });

  it('refuses to start on bad configuration, naming the variable', async () => {
    const service = startService({ POOL_SIZE: 'lots' });
    await assert.rejects(service.listening, /POOL_SIZE/);
  });
});
