/**
 * Migration 0012: `anchors.held`, 1 on a pending receipt past the batched-anchoring budget
 * (`batchAnchorQuota`, `runs/finalize.ts`; probe28 A-F1: every finalize cost the operator ~32,000 gas
 * in its batch, without bound): no flush of the batcher sends it, `anchor <slug>` and the award do.
 * And an index on what a flush reads (`AnchorsTable.pendingOfKind`), so held rows piling up cost it
 * nothing. Additive: the schema version stays 3.
 */
import { sql, type Kysely } from "kysely";

/** Applies migration 0012 (the same statements on both engines). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`ALTER TABLE anchors ADD COLUMN held INTEGER NOT NULL DEFAULT 0`).execute(db);
  await sql.raw(`CREATE INDEX anchors_to_flush ON anchors (status, held, kind, created_at)`).execute(db);
}
