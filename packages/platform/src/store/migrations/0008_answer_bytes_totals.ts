/**
 * Migration 0008: `answer_bytes_totals`, the stored-answer totals as counter rows (`account:<id>` per
 * account, `all` for every account but the operator's), updated in each submit's transaction
 * (`store/answer-totals.ts`; probe15 A-F5: every submit summed `runs.answer_bytes` over the whole
 * table, under one lock for all accounts). Filled in from the runs already stored. Additive: the
 * schema version stays.
 */
import { sql, type Kysely } from "kysely";
import type { Engine } from "../engine.js";
import { OPERATOR_ACCOUNT_ID as OPERATOR } from "../../identity/principal.js";

/** Applies migration 0008 on `engine`. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const int8 = engine === "postgres" ? "BIGINT" : "INTEGER";
  await sql
    .raw(`CREATE TABLE answer_bytes_totals (scope TEXT PRIMARY KEY, bytes ${int8} NOT NULL)`)
    .execute(db);
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
