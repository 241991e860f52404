import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountService } from '../src/accounts/accounts.ts';
import { BillingService } from '../src/accounts/billing.ts';
import { openDatabase } from '../src/store/db/open-database.ts';
import { startCommand } from '../test/helpers/service-process.ts';

// The service under test: a fresh data directory with customers and keys, then the service
// started as `npm start` starts it, on loopback, with its embedded defaults.

const root = new URL('..', import.meta.url);
/** Far more than any run spends: the bench measures speech, not the 402 path. */
const TOKENS_PER_ACCOUNT = 100_000_000;

export interface BenchData {
  readonly dataDir: string;
  readonly keys: readonly string[];
}

/** What `prepareData` writes the data with: a checkout's database and account services. */
interface StoreCode {
  readonly openDatabase: typeof openDatabase;
  readonly AccountService: typeof AccountService;
  readonly BillingService: typeof BillingService;
}

const ownStore: StoreCode = { openDatabase, AccountService, BillingService };

/**
 * Another built checkout's store code, from its `dist/`: the data a service starts on must be
 * written by its own migrations (a service refuses a database that holds migrations it does not
 * know). Its database factory moved to `open-database.js`; an older build has it in `database.js`.
 */
async function builtStore(dir: URL): Promise<StoreCode> {
  const database = ['dist/store/db/open-database.js', 'dist/store/db/database.js']
    .map((path) => new URL(path, dir))
    .find((url) => existsSync(url));
  if (database === undefined)
    throw new Error(`${dir.pathname}: no built database module (npm run build there)`);
  const { openDatabase } = (await import(database.href)) as { openDatabase: typeof ownStore.openDatabase };
  const { AccountService } = (await import(new URL('dist/accounts/accounts.js', dir).href)) as StoreCode;
  const { BillingService } = (await import(new URL('dist/accounts/billing.js', dir).href)) as StoreCode;
  return { openDatabase, AccountService, BillingService };
}

/**
 * A data directory with `accounts` customer accounts of `keysPerAccount` keys each. Calls are
 * spread over many keys because one key may make 30 requests a minute, and over several accounts
 * as a service with many customers sees them (each account's ledger is its own). Written by the
 * checkout at `dir` when given (its `dist/`), the one its service will run.
 */
export async function prepareData(accounts: number, keysPerAccount: number, dir?: URL): Promise<BenchData> {
  const dataDir = await mkdtemp(join(tmpdir(), 'ijwi-bench-'));
  const store = dir === undefined || dir.href === root.href ? ownStore : await builtStore(dir);
  const db = await store.openDatabase(join(dataDir, 'ijwi.sqlite'));
  try {
    const accountService = new store.AccountService({ accounts: db.accounts, keys: db.keys });
    const billing = new store.BillingService({ accounts: db.accounts, ledger: db.ledger });
    const keys: string[] = [];
    for (let a = 0; a < accounts; a++) {
      const account = await accountService.createAccount({ name: `bench customer ${a + 1}` });
      if (!account.ok) throw new Error(account.message);
      const topUp = await billing.topUp(account.account.id, TOKENS_PER_ACCOUNT);
      if (!topUp.ok) throw new Error(`top-up refused: ${topUp.code}`);
      for (let k = 0; k < keysPerAccount; k++) {
        const key = await accountService.createKey(account.account.id);
        if (!key.ok) throw new Error(`key refused: ${key.code}`);
        keys.push(key.key);
      }
    }
    return { dataDir, keys };
  } finally {
    await db.close();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port')),
      );
    });
  });
}

export interface RunningServer {
  readonly base: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/**
 * The environment without the settings that swap an embedded store for a shared one, and
 * without metrics (on only where a scenario turns them on, so it can compare).
 */
function embeddedDefaults(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(DATABASE_|REDIS_|S3_|METRICS_)/.test(name)),
  );
}

export interface ServerOptions {
  /** Settings over the embedded defaults (`POOL_SIZE`, say). */
  readonly env?: NodeJS.ProcessEnv;
  /** The checkout to start, by default this one: the memory bench can measure another beside it. */
  readonly dir?: URL;
}

/**
 * The service's clause cache off: the bench's turns repeat, so with it the scenarios would measure
 * the cache, not the engines (the greeting scenario measures the cache, against this).
 */
export const NO_CLAUSE_CACHE: NodeJS.ProcessEnv = { CLAUSE_CACHE_MB: '0' };

/**
 * Starts the service on a free loopback port as `npm start` does, on its embedded stores whatever
 * the shell sets (`POOL_SIZE` passes through, as the baseline uses it too), with `options.env`'s
 * settings on top, and resolves once it is ready.
 */
export async function startServer(dataDir: string, options: ServerOptions = {}): Promise<RunningServer> {
  const port = await freePort();
  const dir = options.dir ?? root;
  const start = startCommand(dir);
  const child: ChildProcess = spawn(start.file, start.args, {
    cwd: dir,
    env: {
      ...embeddedDefaults(),
      ...start.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = once(child, 'exit');
  const base = `http://127.0.0.1:${port}`;
  const deadline = performance.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    if (performance.now() > deadline) throw new Error('the service did not become ready in 120 s');
    const status = await fetch(`${base}/api/v1/health.php`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const pid = child.pid;
  if (pid === undefined) throw new Error('the service has no process id');
  return {
    base,
    pid,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
