/**
 * Migration 0013: a run's plan and receipt count in the stored-answer quotas (probe28 A-F4: an empty run
 * of a 12,000-task benchmark stored a 2.1 MB receipt, in no bound). `runs.answer_bytes` of every run
 * stored gains its `plan_json` bytes and its `receipt_json` bytes, or, in progress, the receipt's reserve
 * (`store/answer-totals.ts` `receiptReserveBytes`, what its finalize gives back); then the counters
 * `answer_bytes_totals` are summed again from the runs (as 0008 did). Additive: the schema version stays.
 * Named 0013: 0012 is taken by another change under way (`0012_anchor_held`).
 */
import { sql, type Kysely } from "kysely";
import type { Engine } from "../engine.js";
import { OPERATOR_ACCOUNT_ID as OPERATOR } from "../../identity/principal.js";
import { RECEIPT_RESERVE_BYTES_PER_TASK, RECEIPT_RESERVE_FIXED_BYTES } from "../answer-totals.js";

/**
 * SQL of what a run of `runs` stores beyond its answers, in bytes (`engine`'s dialect): its `plan_json`
 * and its `receipt_json`, or in progress the receipt's reserve (`receiptReserveBytes`).
 */
export function runRecordBytesSql(engine: Engine): string {
  const pg = engine === "postgres";
  const bytesOf = (col: string) => (pg ? `octet_length(${col})` : `length(CAST(${col} AS BLOB))`);
  const tasks = pg ? "json_array_length(plan_json::json)" : "json_array_length(plan_json)";
  return `(${bytesOf("plan_json")} + CASE
    WHEN receipt_json IS NULL THEN ${RECEIPT_RESERVE_FIXED_BYTES} + ${RECEIPT_RESERVE_BYTES_PER_TASK} * ${tasks}
    ELSE ${bytesOf("receipt_json")} END)`;
}

/** Applies migration 0013 on `engine`. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await sql.raw(`UPDATE runs SET answer_bytes = answer_bytes + ${runRecordBytesSql(engine)}`).execute(db);
  await sql.raw(`DELETE FROM answer_bytes_totals`).execute(db);
  await sql
    .raw(
      `INSERT INTO answer_bytes_totals (scope, bytes)
        SELECT 'account:' || account_id, SUM(answer_bytes) FROM runs
        WHERE account_id <> '${OPERATOR}' GROUP BY account_id`,
    )
    .execute(db);
  await sql
    .raw(
      `INSERT INTO answer_bytes_totals (scope, bytes)
        SELECT 'all', COALESCE(SUM(answer_bytes), 0) FROM runs WHERE account_id <> '${OPERATOR}'`,
    )
    .execute(db);
}
