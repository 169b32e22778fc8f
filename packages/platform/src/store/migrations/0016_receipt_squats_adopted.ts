/**
 * Migration 0016: a receipt's recorded squat (`anchors.squat_json` of a pending receipt, migration 0006)
 * is cleared, so the receipt is pending again (probe35 C-F2). A receipt hash anchored first by someone
 * else with another kind is now anchored evidence, not a squat (`anchorKindServes` of `@bench-bounty/contracts`: SPEC 9
 * asks only that it be anchored by the award block), and a recorded squat refused the award for good:
 * the next flush, `anchor SLUG` or the award looks the digest up on the registry and records that first
 * anchoring as its evidence, so no receipt squat left in a store refuses an award. Commitment squats
 * stay. Additive: the schema version stays 3.
 */
import { sql, type Kysely } from "kysely";

/** Applies migration 0016 (the same statement on both engines). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`UPDATE anchors SET squat_json = NULL WHERE kind = 'receipt' AND squat_json IS NOT NULL`)
    .execute(db);
}
