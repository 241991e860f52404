import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { Client } from 'pg';
import type { Database, DatabaseSource } from '../../src/store/db/database.ts';
import { openDatabase } from '../../src/store/db/open-database.ts';
import { probeService, type ServiceProbe } from './external-services.ts';

// Contract tests run once per database: SQLite always, PostgreSQL at TEST_DATABASE_URL (default:
// the local server CI provides). Every suite gets its own empty store: a new SQLite file, or a new
// PostgreSQL schema (selected through the URL's search_path) that is dropped afterwards, so test
// files running in parallel, or two checkouts sharing one server, never see each other's rows.

const postgresUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The PostgreSQL the tests use, probed once per test file. */
export const postgres: ServiceProbe = await probeService(
  'PostgreSQL',
  'TEST_DATABASE_URL',
  postgresUrl,
  (url) =>
    withClient(url, async (client) => {
      await client.query('select 1');
    }),
);

export type DatabaseKind = DatabaseSource['kind'];

/** Makes empty stores of one kind and removes them all at the end. */
export interface StoreFactory {
  readonly kind: DatabaseKind;
  readonly skip: string | false;
  /** Throws when this kind cannot run here (see `ServiceProbe.assertReachable`). */
  assertReachable(): void;
  /** A new, empty store: a file in a new folder, or a new schema. */
  create(): Promise<DatabaseSource>;
  /** Removes every store `create` made; open connections to them must be closed first. */
  dispose(): Promise<void>;
}

function sqliteStores(): StoreFactory {
  const dirs: string[] = [];
  return {
    kind: 'sqlite',
    skip: false,
    assertReachable() {},
    async create() {
      const dir = await mkdtemp(join(tmpdir(), 'ijwi-db-'));
      dirs.push(dir);
      return { kind: 'sqlite', file: join(dir, 'ijwi.sqlite') };
    },
    async dispose() {
      await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
    },
  };
}

function postgresStores(): StoreFactory {
  const schemas: string[] = [];
  return {
    kind: 'postgres',
    skip: postgres.skip,
    assertReachable: () => postgres.assertReachable(),
    async create() {
      const schema = `ijwi_test_${randomBytes(6).toString('hex')}`;
      await withClient(postgres.url, (client) => client.query(`create schema ${schema}`));
      schemas.push(schema);
      const url = new URL(postgres.url);
      url.searchParams.set('options', `-c search_path=${schema}`);
      return { kind: 'postgres', url: url.href };
    },
    async dispose() {
      const names = schemas.splice(0);
      if (names.length === 0) return;
      await withClient(postgres.url, (client) =>
        client.query(`drop schema if exists ${names.join(', ')} cascade`),
      );
    },
  };
}

/** One store factory per database kind, SQLite first. */
export function storeFactories(): StoreFactory[] {
  return [sqliteStores(), postgresStores()];
}

/** What a contract suite sees of its database. */
export interface DatabaseContext {
  readonly kind: DatabaseKind;
  /** The suite's database, open from its `before` hook to its `after` hook. */
  readonly db: Database;
  /** Where `db` lives: open it again to play a second service instance. */
  readonly source: DatabaseSource;
  /** Another empty store of the same kind, removed after the suite. */
  fresh(): Promise<DatabaseSource>;
}

/**
 * Declares the suite `body` once per database kind, as `title [sqlite]` and `title [postgres]`,
 * each over its own empty store.
 */
export function describeEachDatabase(title: string, body: (context: DatabaseContext) => void): void {
  for (const stores of storeFactories()) {
    describe(`${title} [${stores.kind}]`, { skip: stores.skip }, () => {
      let db: Database | undefined;
      let source: DatabaseSource | undefined;
      before(async () => {
        stores.assertReachable();
        source = await stores.create();
        db = await openDatabase(source);
      });
      after(async () => {
        await db?.close();
        await stores.dispose();
      });
      body({
        kind: stores.kind,
        get db() {
          if (db === undefined) throw new Error('the database opens in the suite’s before hook');
          return db;
        },
        get source() {
          if (source === undefined) throw new Error('the database opens in the suite’s before hook');
          return source;
        },
        fresh: () => stores.create(),
      });
    });
  }
}
