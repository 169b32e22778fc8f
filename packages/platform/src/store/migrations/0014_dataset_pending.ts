/**
 * Migration 0014: `datasets.pending_until` (unix ms), set while an upload's rows are inserted in
 * transactions of their own (probe29 A-F3: one transaction for all of a 100,000-row upload's rows kept
 * SQLite's one connection, and every keyed request waited 2.8-5.9 s). A dataset with one is invisible to
 * every read but counts against the quotas; it is made visible in one short transaction, or removed on
 * failure, or, once that time has long passed, by the next upload or open (`abandonStaleUploads`). Additive:
 * the schema version stays 3.
 */
import { sql, type Kysely } from "kysely";

/** Applies migration 0014 (the same statement on both engines). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`ALTER TABLE datasets ADD COLUMN pending_until BIGINT`).execute(db);
}
