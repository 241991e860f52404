import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountService } from '../../src/accounts/accounts.ts';
import { BillingService } from '../../src/accounts/billing.ts';
import { openDatabase } from '../../src/store/db/database.ts';
import { treeRssMb } from '../process-tree.ts';
import { loadTurns } from '../turns.ts';
import { Callers, type CallRecord } from './calls.ts';
import { type FaultName, type FaultRecord, injectFault } from './faults.ts';
import { type LedgerRow, printSoak, type SoakReport, soakChart, soakReport } from './report.ts';
import { SoakService } from './service.ts';

// `npm run bench -- --soak [--minutes N]`: the service on its embedded defaults, started as
// `npm start` starts it, fed by receptionist-like callers while a fault schedule runs; then the
// ledger is read and set against what every client received. Writes bench/results/soak.json and
// soak.svg. Not a test: the figures depend on the machine.

const ACCOUNTS = 6;
const KEYS_PER_ACCOUNT = 30;
/** Callers at once between bursts (the machine is shared: a few, not a call centre). */
const CONCURRENT = 4;
const BURST = 12;
const BURST_EVERY_MS = 60_000;
const MEMORY_EVERY_MS = 5_000;
const RETRY_AFTER_MS = 1_000;
const FAULTS: readonly FaultName[] = ['pool-worker', 'encoding-thread', 'storage-unusable', 'kill-9'];

/** A random source with a seed, so that two runs make the same calls. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Accounts with tokens, keys, and their free trial used, so every call is charged in tokens. */
async function prepare(dataDir: string): Promise<{ accountIds: string[]; keys: string[][] }> {
  const db = await openDatabase(join(dataDir, 'ijwi.sqlite'));
  try {
    const accounts = new AccountService({ accounts: db.accounts, keys: db.keys });
    const billing = new BillingService({ accounts: db.accounts, ledger: db.ledger });
    const accountIds: string[] = [];
    const keys: string[][] = [];
    for (let a = 0; a < ACCOUNTS; a++) {
      const account = await accounts.createAccount({ name: `soak customer ${a + 1}` });
      if (!account.ok) throw new Error(account.message);
      const id = account.account.id;
      await billing.topUp(id, 100_000_000);
      for (let i = 0; i < 5; i++) {
        await billing.commitCharge(id, {
          tokens: 1,
          seconds: 0,
          characters: 1,
          language: 'en',
          requestId: `req_trial_${id}_${i}`,
          studio: false,
        });
      }
      const made: string[] = [];
      for (let k = 0; k < KEYS_PER_ACCOUNT; k++) {
        const key = await accounts.createKey(id);
        if (!key.ok) throw new Error('key refused');
        made.push(key.key);
      }
      accountIds.push(id);
      keys.push(made);
    }
    return { accountIds, keys };
  } finally {
    await db.close();
  }
}

async function readLedger(dataDir: string): Promise<LedgerRow[]> {
  const db = await openDatabase(join(dataDir, 'ijwi.sqlite'));
  try {
    const rows = await db.kysely
      .selectFrom('ledger')
      .select(['account_id', 'kind', 'tokens', 'seconds', 'request_id'])
      .execute();
    return rows.map((r) => ({
      accountId: r.account_id,
      kind: r.kind,
      tokens: Number(r.tokens),
      seconds: r.seconds === null ? null : Number(r.seconds),
      requestId: r.request_id,
    }));
  } finally {
    await db.close();
  }
}

/** Runs the soak for `minutes` and returns its report (also written to bench/results/). */
export async function benchSoak(minutes: number, progress: (line: string) => void): Promise<SoakReport> {
  const dataDir = await mkdtemp(join(tmpdir(), 'ijwi-soak-'));
  try {
    const { accountIds, keys } = await prepare(dataDir);
    progress(`soak: ${minutes} min, ${ACCOUNTS} accounts, starting the service`);
    const service = await SoakService.start({ DATA_DIR: dataDir });
    const random = seeded(39);
    const callers = new Callers({ base: () => service.base, keys, turns: await loadTurns(), random });
    const probeKeys = keys[0] ?? [];
    const probeCallers = new Callers({
      base: () => service.base,
      keys: [probeKeys.slice(0, 10)],
      turns: await loadTurns(),
      random: seeded(7),
    });
    const probes: CallRecord[] = [];
    const probe = async (kind: 'stream' | 'mp3' | 'file') => {
      const record =
        kind === 'stream'
          ? await probeCallers.stream()
          : kind === 'mp3'
            ? await probeCallers.openai()
            : await probeCallers.file();
      probes.push(record);
      return record.end === 'completed';
    };
    const runStart = performance.now();
    const until = runStart + minutes * 60_000;
    const records: CallRecord[] = [];
    const memory: { at: number; mb: number }[] = [];
    const faults: FaultRecord[] = [];
    const sampler = setInterval(() => {
      const pid = service.pid;
      const mb = pid === undefined ? undefined : treeRssMb(pid);
      if (mb !== undefined) memory.push({ at: (performance.now() - runStart) / 1000, mb });
    }, MEMORY_EVERY_MS);
    const loop = async () => {
      while (performance.now() < until) {
        const record = await callers.call();
        records.push(record);
        // A client that got an error tries again a second later, as a dialler would, not at once.
        if (record.end !== 'completed') await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS));
      }
    };
    const bursts = (async () => {
      for (let next = runStart + BURST_EVERY_MS / 2; next < until; next += BURST_EVERY_MS) {
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
        if (performance.now() >= until) break;
        const burst = await Promise.all(Array.from({ length: BURST }, () => callers.stream()));
        records.push(...burst);
      }
    })();
    const schedule = (async () => {
      const every = (minutes * 60_000) / (FAULTS.length + 1);
      for (const [i, fault] of FAULTS.entries()) {
        await new Promise((resolve) =>
          setTimeout(resolve, Math.max(0, runStart + every * (i + 1) - performance.now())),
        );
        progress(`soak: ${fault}`);
        const record = await injectFault(fault, { service, dataDir, probe }, runStart);
        progress(
          `soak: ${fault} recovered in ${record.recoveryMs === null ? 'never' : `${Math.round(record.recoveryMs)} ms`}`,
        );
        faults.push(record);
      }
    })();
    await Promise.all([...Array.from({ length: CONCURRENT }, loop), bursts, schedule]);
    clearInterval(sampler);
    await service.stop();
    const ledger = await readLedger(dataDir);
    const report = soakReport({
      minutes,
      records: [...records, ...probes],
      faults,
      memory,
      ledger,
      accountIds,
      runStart,
    });
    const dir = new URL('../results/', import.meta.url);
    await mkdir(dir, { recursive: true });
    await writeFile(
      new URL('soak.json', dir),
      `${JSON.stringify({ date: new Date().toISOString(), ...report }, null, 2)}\n`,
    );
    await writeFile(new URL('soak.svg', dir), soakChart(report));
    printSoak(report);
    return report;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
