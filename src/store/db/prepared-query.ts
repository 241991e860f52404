import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { Schema } from './schema.ts';

// Every billed call runs the same few statements (its key, its account's totals, its charge, the
// seconds it was heard), and kysely builds each as a tree of frozen nodes and compiles it to SQL
// again on every run: about 25 µs and several KB of garbage a statement, where SQLite runs one of
// them in under 10 µs. A prepared query is built and compiled once, at its first run, and each
// run after that only binds its values. On SQLite, a run while nobody holds the database's one
// connection goes straight to it (`DirectLane`, sqlite-dialect.ts), without kysely's executor.

/** A value bound to one placeholder of a prepared query (a list, as `in` takes, is not one). */
export type QueryValue = string | number | null;

/**
 * A way to a database's connection that skips kysely's executor: `tryRun` runs the statement at
 * once and settles with what the executor would (its errors reported as the driver's are), or
 * gives undefined when the connection is held and the statement must take its turn.
 */
export interface DirectLane {
  tryRun<R>(sql: string, parameters: readonly unknown[]): Promise<QueryResult<R>> | undefined;
}

// The root kysely instance of each database that has a lane, and the lane's own instance for the
// transactions it runs (`SqliteLane.owner`); a kysely transaction's or `connection()` scope's
// instance is another object, so its statements take the executor, on the connection that scope
// holds.
const lanes = new WeakMap<Kysely<Schema>, DirectLane>();

/** Prepared queries run on `db` (the instance itself, not its transactions) take `lane` when they can. */
export function runDirectly(db: Kysely<Schema>, lane: DirectLane): void {
  lanes.set(db, lane);
}

/** Runs a prepared query on `db` (the database, or a transaction on it) with its values. */
export type PreparedQuery<Values extends Readonly<Record<string, QueryValue>>, Row> = (
  db: Kysely<Schema>,
  values: Values,
) => Promise<QueryResult<Row>>;

// What the query is built with in place of its values: text no value of the store's holds, so a
// parameter equal to one is that placeholder, and any other parameter is a constant of the query.
const placeholder = (name: string): string => `\u0000prepared value ${name}\u0000`;

/**
 * `build` compiled once, by the first `db` it runs on (the dialect's SQL is the same for the
 * database and its transactions), its placeholders then bound by name on every run. `build` must
 * use each value as one value: a list, or a value the query's shape depends on, would bind
 * wrongly, so a value of the first run that no placeholder takes fails loudly.
 */
export function prepared<Values extends Readonly<Record<string, QueryValue>>, Row>(
  build: (db: Kysely<Schema>, values: Values) => Compilable<Row>,
): PreparedQuery<Values, Row> {
  let compiled:
    | { readonly query: CompiledQuery<Row>; readonly slots: readonly (keyof Values | undefined)[] }
    | undefined;
  return (db, values) => {
    if (compiled === undefined) {
      const names = new Map(Object.keys(values).map((name) => [placeholder(name), name as keyof Values]));
      const placeholders = Object.fromEntries(
        [...names].map(([text, name]) => [name, text]),
      ) as unknown as Values;
      const query = build(db, placeholders).compile();
      const slots = query.parameters.map((parameter) =>
        typeof parameter === 'string' ? names.get(parameter) : undefined,
      );
      for (const name of names.values())
        if (!slots.includes(name))
          throw new Error(`prepared query value ${String(name)} is bound to no placeholder`);
      compiled = { query, slots };
    }
    const { query, slots } = compiled;
    const parameters = slots.map((name, at) => (name === undefined ? query.parameters[at] : values[name]));
    const direct = lanes.get(db)?.tryRun<Row>(query.sql, parameters);
    return direct ?? db.executeQuery<Row>({ ...query, parameters });
  };
}
