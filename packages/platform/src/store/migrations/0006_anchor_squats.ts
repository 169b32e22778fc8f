/**
 * Migration 0006: `anchors.squat_json`, set on a pending digest found anchored on-chain by someone else
 * with another kind (probe14 D3-F8; SPEC 1.2: the registry keeps the first anchoring forever). Such a
 * digest stays pending (it is not anchored with its kind) but no flush sends it again, and the award
 * names it. Additive: the schema version stays 3.
 */
import { sql, type Kysely } from "kysely";

/** Applies migration 0006 (the same statement on both engines). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`ALTER TABLE anchors ADD COLUMN squat_json TEXT`).execute(db);
}
