import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type AppDeps, buildApp } from '../../src/http/app.ts';
import { LocalFileStore } from '../../src/store/files/local-file-store.ts';

/** The app as `main.ts` builds it, without logging, with every dependency overridable. */
export async function buildTestApp(overrides: Partial<AppDeps> = {}): Promise<FastifyInstance> {
  const files =
    overrides.files ?? (await LocalFileStore.create({ dir: await mkdtemp(join(tmpdir(), 'ijwi-files-')) }));
  const app = await buildApp({
    version: '0.0.0-test',
    healthChecks: { engine: () => true },
    limits: { fileMaxChars: 10_000, streamMaxChars: 4_000, requestsPerMinute: 30 },
    logger: false,
    files,
    ...overrides,
  });
  await app.ready();
  return app;
}
