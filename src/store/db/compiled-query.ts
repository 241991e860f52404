import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { Schema } from './schema.ts';

/**
 * A query of fixed shape that every call runs (a key's lookup, an account's totals), built and
 * compiled by kysely once and then run with each call's values. kysely builds a query's tree
 * and compiles it to SQL on every run, which on the request thread costs more than SQLite takes
 * to run the store's short queries (the account's totals, a join with a subquery: about 0.4 ms
 * a call). The values are strings: the query is built with a marker in place of each, and a run
 * swaps the markers in the compiled parameters for its values, so a value is always a bound
 * parameter, never SQL. Built on the first run, with the database it is given: one instance per
 * database (a repository's), as the SQL differs between dialects.
 */
export class CompiledOnce<Row> {
  readonly #build: (db: Kysely<Schema>, ...values: string[]) => Compilable<Row>;
  readonly #markers: readonly string[];
  #compiled: CompiledQuery<Row> | undefined;

  constructor(values: number, build: (db: Kysely<Schema>, ...values: string[]) => Compilable<Row>) {
    this.#build = build;
    this.#markers = Array.from({ length: values }, (_, i) => `\u0000compiled-once value ${i}\u0000`);
  }

  /** The query with these values, compiled with `db`'s dialect the first time. */
  with(db: Kysely<Schema>, ...values: string[]): CompiledQuery<Row> {
    if (values.length !== this.#markers.length) {
      throw new Error(`the query takes ${this.#markers.length} values, not ${values.length}`);
    }
    this.#compiled ??= this.#compile(db);
    const compiled = this.#compiled;
    return {
      ...compiled,
      parameters: compiled.parameters.map((parameter) => {
        const at = typeof parameter === 'string' ? this.#markers.indexOf(parameter) : -1;
        return at === -1 ? parameter : values[at];
      }),
    };
  }

  /** Runs it on `db` (a database or a transaction of it) with these values. */
  run(db: Kysely<Schema>, ...values: string[]): Promise<QueryResult<Row>> {
    return db.executeQuery(this.with(db, ...values));
  }

  /** Runs it on `db` with these values; its first row. */
  async first(db: Kysely<Schema>, ...values: string[]): Promise<Row | undefined> {
    return (await this.run(db, ...values)).rows[0];
  }

  #compile(db: Kysely<Schema>): CompiledQuery<Row> {
    const compiled = this.#build(db, ...this.#markers).compile();
    for (const marker of this.#markers) {
      if (!compiled.parameters.includes(marker)) {
        throw new Error('a value of the query was not bound as a parameter');
      }
    }
    return compiled;
  }
}
