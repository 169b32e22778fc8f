/** What every table module is built on: a Kysely database or transaction, and its engine. */
import type { Kysely } from "kysely";
import type { Engine } from "./engine.js";
import type { Database } from "./schema.js";

/** The store's database, or one transaction of it. */
export type Executor = Kysely<Database>;

/** Base of the table modules: the executor and the engine (for the few engine-specific clauses). */
export abstract class TableModule {
  constructor(
    protected readonly db: Executor,
    protected readonly engine: Engine,
  ) {}

  /** True on PostgreSQL, where rows read to be changed are locked (`FOR UPDATE`); SQLite's IMMEDIATE transaction holds the write lock already. */
  protected get locks(): boolean {
    return this.engine === "postgres";
  }
}

/** True for a unique-constraint violation on either engine. */
export function isUniqueViolation(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}
