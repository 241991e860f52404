import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Readable } from 'node:stream';

const root = new URL('../..', import.meta.url);
// Only what a test passes reaches the service: a shell's own database, Redis or storage settings
// must not leak into a test of the embedded defaults, nor into one of a shared store.
const STORE_VARIABLES = ['DATABASE_URL', 'REDIS_URL', 'REDIS_PREFIX', 'DATA_DIR', 'PUBLIC_BASE_URL'];
const inherited = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !STORE_VARIABLES.includes(name) && !name.startsWith('S3_')),
);

/** A service started as `npm start` starts it, on a free port. */
export interface ServiceProcess {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  /** Resolves with the base URL once the server listens; rejects if the process exits first. */
  readonly listening: Promise<string>;
  /** Everything it has printed so far, for failure messages. */
  output(): string;
  /** Resolves with the base URL once health answers 200 (engines warm); fails after `timeoutMs`. */
  ready(timeoutMs?: number): Promise<string>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `node --import tsx src/main.ts` with `env` over defaults for a test (port 0, one engine
 * worker, info logs, whose "listening at" line gives the port).
 */
export function startService(env: Readonly<Record<string, string>>): ServiceProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: { ...inherited, PORT: '0', POOL_SIZE: '1', LOG_LEVEL: 'info', ...env },
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
  // A rejection nobody awaits (the process exits after the test is done with it) is not a failure.
  listening.catch(() => {});
  return {
    child,
    listening,
    output: () => output,
    async ready(timeoutMs = 30_000) {
      const base = await listening;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const response = await fetch(`${base}/api/v1/health.php`);
        await response.arrayBuffer();
        if (response.status === 200) return base;
        if (Date.now() > deadline) throw new Error(`not ready after ${timeoutMs} ms: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      return code;
    },
  };
}
