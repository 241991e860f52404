import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { VoiceAssignments } from '../src/speech/engines/neural/voice-assignments.ts';
import { VoiceStore } from '../src/speech/engines/neural/voice-store.ts';
import { POOL_WORKER_NAME } from '../src/speech/pool/workers.ts';
import { holdWorkers, inspectorUrl } from './helpers/held-workers.ts';
import { Scrape } from './helpers/metrics.ts';
import { unusedPort } from './helpers/ports.ts';
import { startService } from './helpers/service-process.ts';
import { writeVoicePack } from './helpers/voice-packs.ts';

// The embedded defaults are under test: startService passes no database, Redis or storage settings.
const dataDir = mkdtempSync(join(tmpdir(), 'ijwi-main-'));

const asModule = (code: string) => `data:text/javascript,${encodeURIComponent(code)}`;
/**
 * A Node option that makes the service print, on standard error, every module its main thread
 * resolves: a module loader hook, in `data:` modules, so that the service runs as it is, with no
 * file of the tests and no TypeScript loader.
 */
const REPORT_MODULES = [
  '--import',
  asModule(
    `import { register } from 'node:module'; register(${JSON.stringify(
      asModule(`import { writeSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  writeSync(2, 'module resolved: ' + resolved.url + '\\n');
  return resolved;
}`),
    )});`,
  ),
];
const resolvedModules = (output: string) =>
  [...output.matchAll(/^module resolved: (\S+)$/gm)].map((m) => m[1]);
/** The client libraries of the optional shared stores: PostgreSQL, Redis, S3. */
const STORE_CLIENTS = /\/node_modules\/(pg|ioredis|@aws-sdk\/client-s3)\//;

describe('the service process', () => {
  it('listens, reports 503 until warm then 200, and stops cleanly on SIGTERM', async () => {
    // Its one engine worker is held before its first line (through the inspector), so the service
    // is listening and not warm, whatever the machine's speed.
    const service = startService({ DATA_DIR: dataDir }, ['--inspect-brk=127.0.0.1:0']);
    try {
      const workers = await holdWorkers(await inspectorUrl(service), POOL_WORKER_NAME, 0);
      try {
        const base = await service.listening;
        const warming = await fetch(`${base}/api/v1/health.php`);
        assert.equal(warming.status, 503, 'answers 503 while warming up');
        const body = (await warming.json()) as { status: string; checks: Record<string, string> };
        assert.deepEqual([body.status, body.checks.engine], ['not_ready', 'warming up']);
        assert.equal(workers.held.length, 1);
        workers.release();
        await service.ready(60_000);
        const voices = await fetch(`${base}/api/v1/voices.php?format=json`);
        assert.equal(voices.status, 200);
      } finally {
        await workers.close();
      }
      assert.equal(await service.stop(), 0);
    } finally {
      await service.stop();
    }
  });

  it('serves metrics behind METRICS_TOKEN and on METRICS_PORT, and never logs the token', async () => {
    const token = 'main-test-metrics-token-0123456789abcdef';
    const metricsPort = await unusedPort();
    const service = startService({
      DATA_DIR: dataDir,
      METRICS_TOKEN: token,
      METRICS_PORT: String(metricsPort),
    });
    const base = await service.ready(60_000);
    const bearer = { authorization: `Bearer ${token}` };
    assert.equal((await fetch(`${base}/metrics`)).status, 401);
    for (const url of [`${base}/metrics`, `http://127.0.0.1:${metricsPort}/metrics`]) {
      const response = await fetch(url, { headers: bearer });
      assert.equal(response.status, 200, url);
      const scraped = new Scrape(await response.text());
      assert.equal(scraped.value('ijwi_pool_workers'), 1, url);
      assert.equal(scraped.value('ijwi_health_check_up', { check: 'engine' }), 1, url);
    }
    assert.equal(await service.stop(), 0);
    assert.ok(!service.output().includes(token), 'the token is not in the logs');
  });

  it('runs the compiled build as npm start does, and loads no shared store client on the embedded defaults', async () => {
    const service = startService({ DATA_DIR: dataDir }, REPORT_MODULES);
    const base = await service.ready(60_000);
    assert.equal((await fetch(`${base}/api/v1/voices.php?format=json`)).status, 200);
    assert.equal(await service.stop(), 0);
    const modules = resolvedModules(service.output());
    assert.ok(
      modules.includes(new URL('../dist/main.js', import.meta.url).href),
      `started from the build: ${modules.slice(0, 3).join(', ')}`,
    );
    assert.deepEqual(
      modules.filter((url) => url?.endsWith('.ts') || url?.includes('/node_modules/tsx/')),
      [],
      'no TypeScript source, no TypeScript loader',
    );
    assert.deepEqual(
      modules.filter((url) => STORE_CLIENTS.test(url ?? '')),
      [],
      'no PostgreSQL, Redis or S3 client',
    );

    // The same watch sees each client once its store is configured (none of them reachable here):
    // PostgreSQL's at start, where the service stops; Redis's and S3's, with which it listens.
    const port = await unusedPort();
    const clientsLoaded = async (env: Record<string, string>) => {
      const service = startService({ DATA_DIR: dataDir, ...env }, REPORT_MODULES);
      await service.listening.catch(() => {});
      await service.stop();
      return new Set(resolvedModules(service.output()).map((url) => STORE_CLIENTS.exec(url ?? '')?.[1]));
    };
    assert.ok((await clientsLoaded({ DATABASE_URL: `postgres://ijwi@127.0.0.1:${port}/ijwi` })).has('pg'));
    const loaded = await clientsLoaded({
      REDIS_URL: `redis://127.0.0.1:${port}`,
      S3_BUCKET: 'ijwi',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
    });
    assert.ok(loaded.has('ioredis') && loaded.has('@aws-sdk/client-s3'), [...loaded].join(', '));
  });

  it('refuses to start on bad configuration, naming the variable', async () => {
    const service = startService({ DATA_DIR: dataDir, POOL_SIZE: 'lots' });
    await assert.rejects(service.listening, /POOL_SIZE/);
  });

  it('speaks an assigned voice pack from start, and keeps the built-in voice when the pack breaks', async () => {
    const data = mkdtempSync(join(tmpdir(), 'ijwi-main-packs-'));
    const voicesDir = join(data, 'voices');
    const installed = await new VoiceStore(voicesDir).install(
      writeVoicePack(join(data, 'pack'), { kind: 'mms', manifest: { name: 'Kinyarwanda tiny' } }),
    );
    assert.ok(installed.ok);
    await new VoiceAssignments(voicesDir).assign({ language: 'en', speakerId: 0, voice: 'x', speaker: 0 });
    await new VoiceAssignments(voicesDir).assign({
      language: 'rw',
      speakerId: 2,
      voice: installed.voice.id,
      speaker: 0,
    });
    const engineOf = async (base: string, language: string, speakerId: number) => {
      const listing = (await (await fetch(`${base}/api/v1/voices.php?format=json`)).json()) as {
        languages: { code: string; voices: { speaker_id: number; engine: string }[] }[];
      };
      const voices = listing.languages.find((l) => l.code === language)?.voices ?? [];
      return voices.find((v) => v.speaker_id === speakerId)?.engine;
    };

    const first = startService({ DATA_DIR: data });
    const base = await first.ready(60_000);
    assert.equal(await engineOf(base, 'rw', 2), 'neural');
    // The assignment of a pack that is not installed leaves the built-in voice, and says why.
    assert.equal(await engineOf(base, 'en', 0), 'flite');
    assert.match(first.output(), /"problem":"en\/0: x: ijwi-voice.json is missing".*built-in voice kept/);
    assert.equal(await first.stop(), 0);

    // A pack broken while the service was down: the service still starts, with the built-in voice.
    writeFileSync(join(voicesDir, installed.voice.id, 'tokens.txt'), 'not a tokens file');
    const second = startService({ DATA_DIR: data });
    const again = await second.ready(60_000);
    assert.equal(await engineOf(again, 'rw', 2), 'espeak-ng');
    assert.match(second.output(), /"problem":"rw\/2: kinyarwanda-tiny: the tokens file tokens.txt line 1/);
    assert.equal(await second.stop(), 0);
  });
});
