import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { unusedPort } from '../../test/helpers/ports.ts';
import { startCommand } from '../../test/helpers/service-process.ts';
import { processTree } from '../process-tree.ts';

// The service of the soak: started as `npm start` starts it (the same command line, the same
// variables), with the inspector on loopback so that the fault schedule can end one of its
// threads from outside as a crash would (no hook in the service), and restarted on the same port
// and data after a kill -9. Its neural runtime processes (one per engine worker that has spoken a
// neural clause) are its descendants, found by their command line.

const root = new URL('../..', import.meta.url);
/** The scrape token of the soak's instances: their heap is read from their own /metrics. */
const METRICS_TOKEN = randomBytes(16).toString('hex');

/** The environment without a shell's store or metrics settings: only what the soak passes. */
function cleanEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(DATABASE_|REDIS_|S3_|METRICS_|DATA_DIR)/.test(name)),
  );
}

/** When a start reached each step, in ms from the process's spawn. */
export interface StartTimeline {
  /** Health's first answer, whatever its status: the service listens. */
  readonly listenMs: number;
  /** Health's first 200. */
  readonly readyMs: number;
}

/** One instance of the service, which can be killed with -9 and started again as it was. */
export class SoakService {
  readonly base: string;
  readonly #port: number;
  readonly #env: NodeJS.ProcessEnv;
  /** The checkout whose `npm start` runs. */
  readonly #dir: URL;
  #child: ChildProcess | undefined;
  #inspector: Promise<string> | undefined;

  private constructor(port: number, env: NodeJS.ProcessEnv, dir: URL) {
    this.#port = port;
    this.base = `http://127.0.0.1:${port}`;
    this.#env = env;
    this.#dir = dir;
  }

  /**
   * Starts an instance with `env` (DATA_DIR, stores, metrics token) on a free port, from the
   * checkout at `dir` (this one by default; another built one to compare them).
   */
  static async start(env: NodeJS.ProcessEnv, dir: URL = root): Promise<SoakService> {
    const service = new SoakService(await unusedPort(), env, dir);
    await service.restart();
    return service;
  }

  /** The main process's id (its engines' processes are its children). */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /**
   * Starts the instance (again) and resolves once its health answers 200, asked every `pollMs`,
   * with when it listened and turned ready.
   */
  async restart(pollMs = 100): Promise<StartTimeline> {
    const start = startCommand(this.#dir);
    const spawnedAt = performance.now();
    const child = spawn(process.execPath, ['--inspect=127.0.0.1:0', ...start.args], {
      cwd: this.#dir,
      env: {
        ...cleanEnvironment(),
        ...start.env,
        PORT: String(this.#port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        METRICS_TOKEN,
        ...this.#env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.#child = child;
    let stderr = '';
    this.#inspector = new Promise((resolve, reject) => {
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString()).slice(-20_000);
        const match = /Debugger listening on (ws:\/\/\S+)/.exec(stderr);
        if (match?.[1]) resolve(match[1]);
      });
      child.once('exit', () => reject(new Error('the service exited')));
    });
    this.#inspector.catch(() => {});
    const deadline = performance.now() + 120_000;
    let listenMs: number | undefined;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}: ${stderr}`);
      if (performance.now() > deadline) throw new Error('the service did not become ready in 120 s');
      const status = await fetch(`${this.base}/api/v1/health.php`).then(
        async (r) => {
          await r.arrayBuffer();
          return r.status;
        },
        () => 0,
      );
      const now = performance.now() - spawnedAt;
      if (status !== 0) listenMs ??= now;
      if (status === 200) return { listenMs: listenMs ?? now, readyMs: now };
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  /**
   * The main thread's V8 heap in use, in MB, from the instance's /metrics (its engine threads and
   * processes are not in it); undefined while it does not answer.
   */
  async heapUsedMb(): Promise<number | undefined> {
    try {
      const response = await fetch(`${this.base}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
        signal: AbortSignal.timeout(2_000),
      });
      const body = await response.text();
      const bytes = /^nodejs_heap_size_used_bytes (\S+)$/m.exec(body)?.[1];
      return response.ok && bytes !== undefined ? Number(bytes) / 2 ** 20 : undefined;
    } catch {
      return undefined;
    }
  }

  /** kill -9: no shutdown, no draining; resolves once the process is gone. */
  async kill9(): Promise<void> {
    const child = this.#child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }

  /** SIGTERM, then the exit. */
  async stop(): Promise<void> {
    const child = this.#child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  }

  /**
   * Ends the instance's worker threads whose title holds `name` (`ijwi-engine`, `ijwi-encoding`)
   * as a crash inside them would, through the inspector: `process.exit(70)` run in the thread.
   * Resolves how many were ended.
   */
  async killThreads(name: string, limit = 1): Promise<number> {
    const url = await this.#inspector;
    if (!url) return 0;
    const socket = new WebSocket(url);
    await once(socket, 'open');
    let id = 0;
    const sessions: string[] = [];
    const answered = new Map<number, () => void>();
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as {
        id?: number;
        method?: string;
        params?: { sessionId: string; workerInfo: { title: string } };
      };
      if (message.method === 'NodeWorker.attachedToWorker' && message.params?.workerInfo.title.includes(name))
        sessions.push(message.params.sessionId);
      if (message.id !== undefined) answered.get(message.id)?.();
    });
    const call = (method: string, params: object) =>
      new Promise<void>((resolve) => {
        answered.set(++id, resolve);
        socket.send(JSON.stringify({ id, method, params }));
      });
    try {
      await call('NodeWorker.enable', { waitForDebuggerOnStart: false });
      // Attachments are reported right after `enable` is answered.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const ended = sessions.slice(0, limit);
      for (const sessionId of ended) {
        const exit = { id: 1, method: 'Runtime.evaluate', params: { expression: 'process.exit(70)' } };
        await call('NodeWorker.sendMessageToWorker', { sessionId, message: JSON.stringify(exit) });
      }
      return ended.length;
    } finally {
      socket.close();
    }
  }

  /** kill -9 of every neural runtime process the instance runs now; resolves how many. */
  killNeuralRuntimes(): number {
    const pid = this.pid;
    if (pid === undefined) return 0;
    const runtimes = processTree(pid).filter((member) => {
      try {
        return readFileSync(`/proc/${member}/cmdline`, 'utf8').includes('runtime-process.');
      } catch {
        return false;
      }
    });
    for (const runtime of runtimes) process.kill(runtime, 'SIGKILL');
    return runtimes.length;
  }
}
