import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { unusedPort } from './ports.ts';

// A Redis server of one's own (`redis-server` on a free loopback port, nothing saved to disk),
// which a fault can stop and start again as an operator's restart would: it comes back empty, as
// a Redis without persistence does. The machine's shared Redis is never touched.

/** A private Redis server. */
export interface PrivateRedis {
  readonly url: string;
  /** SIGTERM: the server shuts down (it has nothing to save). */
  stop(): Promise<void>;
  /** Starts it again on the same port; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it. */
  close(): Promise<void>;
}

/** False, or why a private Redis cannot run here (for a test's `skip`). */
export const noPrivateRedis: false | string =
  spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0
    ? false
    : 'redis-server is not installed (apt-get install redis-server)';

/** Starts `redis-server` on a free port. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await unusedPort();
  let child: ChildProcess | undefined;
  const server: PrivateRedis = {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      const started = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      child = started;
      let output = '';
      await new Promise<void>((resolve, reject) => {
        started.once('error', reject);
        started.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
        started.stdout?.on('data', (chunk: Buffer) => {
          output = (output + chunk.toString()).slice(-4000);
          if (output.includes('Ready to accept connections')) resolve();
        });
      });
    },
    async stop() {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = once(running, 'exit');
      running.kill('SIGTERM');
      await exited;
    },
    close: () => server.stop(),
  };
  await server.start();
  return server;
}
