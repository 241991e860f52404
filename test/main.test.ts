import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startService } from './helpers/service-process.ts';

// The embedded defaults are under test: startService passes no database, Redis or storage settings.
const dataDir = mkdtempSync(join(tmpdir(), 'ijwi-main-'));

describe('the service process', () => {
  it('listens, reports 503 until warm then 200, and stops cleanly on SIGTERM', async () => {
    const service = startService({ DATA_DIR: dataDir });
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
    assert.equal(await service.stop(), 0);
  });

  it('refuses to start on bad configuration, naming the variable', async () => {
    const service = startService({ DATA_DIR: dataDir, POOL_SIZE: 'lots' });
    await assert.rejects(service.listening, /POOL_SIZE/);
  });
});
