/** What every table module is built on: a Kysely database or transaction, and its engine. */
import { sql, type Kysely } from "kysely";
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

  /**
   * Takes the lock named `key` until the transaction ends (PostgreSQL: a transaction-scoped advisory
   * lock on `hashtextextended(key, 0)`; on SQLite a no-op, the IMMEDIATE transaction holds the write
   * lock already). Call it inside a transaction before a check and the write it decides: two
   * transactions taking one key run their check-then-write one after the other.
   */
  protected async advisoryLock(key: string): Promise<void> {
    if (this.locks) await sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(this.db);
  }
}

/** True for a unique-constraint violation on either engine. */
export function isUniqueViolation(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}
