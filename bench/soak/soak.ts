import { mkdir, writeFile } from 'node:fs/promises';
import { AccountService } from '../../src/accounts/accounts.ts';
import { BillingService } from '../../src/accounts/billing.ts';
import type { DatabaseSource } from '../../src/store/db/database.ts';
import { openDatabase } from '../../src/store/db/open-database.ts';
import { randomSource } from '../../test/helpers/signals.ts';
import { treeRssMb } from '../process-tree.ts';
import { loadTurns } from '../turns.ts';
import { Callers, type CallRecord } from './calls.ts';
import { NEURAL_VOICE, SoakDeployment, type SoakMode } from './deployment.ts';
import { type FaultName, type FaultRecord, injectFault, type ProbeKind } from './faults.ts';
import {
  type LedgerRow,
  type MemorySample,
  printSoak,
  type SoakReport,
  soakChart,
  soakReport,
} from './report.ts';

// `npm run bench -- --soak [--scale-out] [--minutes N]`: the service started as `npm start` starts
// it (embedded: one instance on its defaults; scaled out: two on a private PostgreSQL, Redis and
// S3-compatible store), fed by receptionist-like callers spread over the instances while a fault
// schedule runs; then the ledger is read and set against what every client received. Writes
// bench/results/soak.json (soak-scale-out.json) and its chart. Not a test: the figures depend on
// the machine (the short soak in CI, test/integration/soak.test.ts, asserts what does not).

const ACCOUNTS = 6;
const KEYS_PER_ACCOUNT = 30;
/** Callers at once between bursts (the machine is shared: a few, not a call centre). */
const CONCURRENT = 4;
const BURST = 12;
const BURST_EVERY_MS = 60_000;
const MEMORY_EVERY_MS = 5_000;
const RETRY_AFTER_MS = 1_000;
/** Every fault each mode can inject: the neural pack is installed embedded, the stores are private scaled out. */
const FAULTS: Readonly<Record<SoakMode, readonly FaultName[]>> = {
  embedded: ['pool-worker', 'encoding-thread', 'neural-runtime', 'storage-unusable', 'kill-9'],
  'scale-out': ['pool-worker', 'encoding-thread', 'postgres-restart', 'redis-restart', 'kill-9'],
};
/** How long the file store stays unusable and a restarted store down, by default. */
const OUTAGE_MS = 20_000;

/** The faults named in `list` (comma-separated), each one the mode can inject, in that order. */
export function soakFaults(mode: SoakMode, list: string): FaultName[] {
  const known: readonly string[] = FAULTS[mode];
  const names = list.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0)
    throw new Error(`--faults: ${unknown.join(', ')} not among ${known.join(', ')} (${mode})`);
  return names as FaultName[];
}

export interface SoakOptions {
  readonly minutes: number;
  readonly mode: SoakMode;
  /** The faults, spread evenly over the run; by default every fault the mode can inject. */
  readonly faults?: readonly FaultName[];
  /** How long the file store stays unusable and a restarted store down. */
  readonly outageMs?: number;
  readonly progress?: (line: string) => void;
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** Accounts with tokens, keys, and their free trial used, so every call is charged in tokens. */
export async function prepareAccounts(
  database: DatabaseSource,
): Promise<{ accountIds: string[]; keys: string[][] }> {
  const db = await openDatabase(database);
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

async function readLedger(database: DatabaseSource): Promise<LedgerRow[]> {
  const db = await openDatabase(database);
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

/** Runs the soak and returns its report; writes nothing. */
export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const { minutes, mode, progress = () => {} } = options;
  const faultNames = options.faults ?? FAULTS[mode];
  const deployment = await SoakDeployment.create(mode);
  try {
    const { accountIds, keys } = await prepareAccounts(deployment.database);
    progress(`soak (${mode}): ${minutes} min, ${ACCOUNTS} accounts, starting the service`);
    await deployment.start();
    // Calls go to the instances in turn, as a load balancer's round robin would send them.
    let turn = 0;
    const base = () => {
      const services = deployment.services;
      return (services[turn++ % services.length] ?? services[0])?.base ?? '';
    };
    const turns = await loadTurns();
    const callers = new Callers({ base, keys, turns, random: randomSource(39) });
    const probeCallers = new Callers({
      base,
      keys: [(keys[0] ?? []).slice(0, 10)],
      turns,
      random: randomSource(7),
    });
    const probes: CallRecord[] = [];
    const probe = async (kind: ProbeKind) => {
      const record =
        kind === 'stream'
          ? await probeCallers.stream()
          : kind === 'neural'
            ? await probeCallers.stream(NEURAL_VOICE)
            : kind === 'mp3'
              ? await probeCallers.openai()
              : await probeCallers.file();
      probes.push(record);
      return record.end === 'completed';
    };
    const runStart = performance.now();
    const until = runStart + minutes * 60_000;
    const records: CallRecord[] = [];
    const memory: MemorySample[] = [];
    const faults: FaultRecord[] = [];
    const sampler = setInterval(async () => {
      // Every instance's process tree together, and their main threads' heaps; a sample while one
      // is down is left out.
      const at = (performance.now() - runStart) / 1000;
      const services = deployment.services;
      const sizes = services.map((service) =>
        service.pid === undefined ? undefined : treeRssMb(service.pid),
      );
      const heaps = await Promise.all(services.map((service) => service.heapUsedMb()));
      if (sizes.every((mb) => mb !== undefined) && heaps.every((mb) => mb !== undefined))
        memory.push({ at, mb: sum(sizes), heapMb: sum(heaps) });
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
    const target = { deployment, outageMs: options.outageMs ?? OUTAGE_MS, probe };
    const schedule = (async () => {
      const every = (minutes * 60_000) / (faultNames.length + 1);
      for (const [i, fault] of faultNames.entries()) {
        await new Promise((resolve) =>
          setTimeout(resolve, Math.max(0, runStart + every * (i + 1) - performance.now())),
        );
        progress(`soak: ${fault}`);
        const record = await injectFault(fault, target, runStart);
        progress(
          `soak: ${fault} ${record.hit ? '' : '(not hit) '}recovered in ${record.recoveryMs === null ? 'never' : `${Math.round(record.recoveryMs)} ms`}`,
        );
        faults.push(record);
      }
    })();
    try {
      await Promise.all([...Array.from({ length: CONCURRENT }, loop), bursts, schedule]);
    } finally {
      clearInterval(sampler);
    }
    await deployment.stop();
    return soakReport({
      mode,
      minutes,
      records: [...records, ...probes],
      faults,
      memory,
      ledger: await readLedger(deployment.database),
      accountIds,
      runStart,
    });
  } finally {
    await deployment.close();
  }
}

/** Runs the soak, prints its report and writes it to bench/results/ as JSON and SVG. */
export async function benchSoak(options: SoakOptions): Promise<SoakReport> {
  const report = await runSoak(options);
  const name = options.mode === 'embedded' ? 'soak' : 'soak-scale-out';
  const dir = new URL('../results/', import.meta.url);
  await mkdir(dir, { recursive: true });
  await writeFile(
    new URL(`${name}.json`, dir),
    `${JSON.stringify({ date: new Date().toISOString(), ...report }, null, 2)}\n`,
  );
  await writeFile(new URL(`${name}.svg`, dir), soakChart(report));
  printSoak(report);
  console.log(`\nwritten bench/results/${name}.json and ${name}.svg`);
  return report;
}
