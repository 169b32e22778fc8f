/**
 * Migration 0003: an index on `runs (finalized_at_ms)`, for the all-accounts immediate-anchor budget
 * (`RunsTable.finalizedSinceAll`, `ImmediateAnchorQuota.allAccountsCount`), which counts the runs
 * finalized in the last period on every immediate finalize: without it, a scan of every run. Additive:
 * the schema version stays 3.
 */
import { sql, type Kysely } from "kysely";

/** Applies migration 0003 (the same statement on both engines). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`CREATE INDEX runs_by_finalize ON runs (finalized_at_ms)`).execute(db);
}
