import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';

const root = new URL('../..', import.meta.url);

/**
 * The command line of `npm start` in the checkout at `dir`, with this Node for its `node` and the
 * variables it sets, so a service is started as an operator starts it, without npm's own process
 * in between. It runs the build (`npm run build`, which `npm ci` and `npm test` run); a missing
 * build is said plainly.
 */
export function startCommand(dir: URL = root): {
  readonly env: Readonly<Record<string, string>>;
  readonly file: string;
  readonly args: string[];
} {
  const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as {
    scripts: { start: string };
  };
  const words = pkg.scripts.start.split(/\s+/);
  const env: Record<string, string> = {};
  for (let word = words[0]; word?.includes('='); word = words[0]) {
    env[word.slice(0, word.indexOf('='))] = word.slice(word.indexOf('=') + 1);
    words.shift();
  }
  const [file, ...args] = words;
  if (file !== 'node') throw new Error(`npm start runs ${file}, not node`);
  const entry = args.find((arg) => /\.[jt]s$/.test(arg));
  if (entry !== undefined && !existsSync(new URL(entry, dir)))
    throw new Error(`${entry} is missing: run npm run build`);
  return { env, file: process.execPath, args };
}

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
 * Starts the service as `npm start` does (`startCommand`) with `env` over defaults for a test
 * (port 0, one engine worker, info logs, whose "listening at" line gives the port). `nodeOptions`
 * go before the command's own, for a test that watches the process.
 */
export function startService(
  env: Readonly<Record<string, string>>,
  nodeOptions: readonly string[] = [],
): ServiceProcess {
  const start = startCommand();
  const child = spawn(start.file, [...nodeOptions, ...start.args], {
    cwd: root,
    env: { ...inherited, ...start.env, PORT: '0', POOL_SIZE: '1', LOG_LEVEL: 'info', ...env },
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
