import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './config.ts';
import { buildApp } from './http/app.ts';
import { EnginePool } from './speech/pool.ts';
import { voices } from './speech/voices.ts';
import { warmUpPlan } from './speech/warm-up.ts';
import { startSweeper } from './store/files/file-store.ts';
import { LocalFileStore } from './store/files/local-file-store.ts';

// The composition root: config -> adapters -> app -> listen, and a graceful shutdown.

const SHUTDOWN_GRACE_MS = 15_000;
const SWEEP_INTERVAL_MS = 10 * 60_000;

function readVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }

  const files = await LocalFileStore.create({
    dir: join(config.dataDir, 'generated'),
    lifetimeMs: config.fileLifetimeMs,
  });
  let pool: EnginePool | undefined;
  const app = await buildApp({
    version: readVersion(),
    healthChecks: { engine: () => (pool?.ready ? true : 'warming up'), storage: () => files.check() },
    limits: { fileMaxChars: 10_000, streamMaxChars: 4_000, requestsPerMinute: 30 },
    files,
    logger: { level: config.logLevel },
  });
  const stopSweeper = startSweeper(files, SWEEP_INTERVAL_MS, (err) =>
    app.log.error({ err }, 'file sweep failed'),
  );

  // Listen first, warm second: health answers 503 until the engines are ready.
  await app.listen({ port: config.port, host: config.host });
  pool = await EnginePool.start({ size: config.poolSize, warmUp: warmUpPlan(voices) });
  app.log.info({ workers: pool.size }, 'engines warmed; ready');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: no new requests, letting running ones finish');
    const forced = setTimeout(() => {
      app.log.warn('grace period over; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    forced.unref();
    stopSweeper();
    await app.close();
    await pool?.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

await main();
