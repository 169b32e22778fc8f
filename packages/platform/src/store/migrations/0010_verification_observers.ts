/**
 * Migration 0010: `verification_jobs.observed_indexer`, 1 once a report stored for the job was made by a
 * worker that reads the indexer (probe26 A-F6): a worker without one never takes that job again, so its
 * report (`indexer_agreement` not observed) never replaces the stronger one. Additive: the schema
 * version stays 3.
 */
import { sql, type Kysely } from "kysely";

/** Applies migration 0010 (the same statement on both engines). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`ALTER TABLE verification_jobs ADD COLUMN observed_indexer INTEGER NOT NULL DEFAULT 0`)
    .execute(db);
}
