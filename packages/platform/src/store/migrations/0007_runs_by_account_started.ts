/**
 * Migration 0007: an index on `runs (account_id, started_at_ms DESC, run_id)`, the order of the caller's
 * runs (`RunsTable.ofAccount`, `GET /benchmarks/runs/mine`): a page is read from the index, not by
 * sorting every run of the account (probe15 A-F8). Additive: the schema version stays.
 */
import { sql, type Kysely } from "kysely";

/** Applies migration 0007 (the same statement on both engines). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`CREATE INDEX runs_by_account_started ON runs (account_id, started_at_ms DESC, run_id)`)
    .execute(db);
}
