/**
 * Migration 0005: `runs.answer_bytes`, the UTF-8 bytes of a run's stored answers (`answers.answer_text`),
 * what the stored-answer quotas count (`runs/submit.ts` `submitAnswers`, probe14 D1-F20), filled in for the
 * runs already stored. The sums by account use `runs_by_account`. Additive: the schema version stays.
 */
import { sql, type Kysely } from "kysely";
import type { Engine } from "../engine.js";

/** Applies migration 0005 on `engine`. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const int8 = engine === "postgres" ? "BIGINT" : "INTEGER";
  const bytesOf =
    engine === "postgres" ? "octet_length(a.answer_text)" : "length(CAST(a.answer_text AS BLOB))";
  await sql.raw(`ALTER TABLE runs ADD COLUMN answer_bytes ${int8} NOT NULL DEFAULT 0`).execute(db);
  await sql
    .raw(
      `UPDATE runs SET answer_bytes = COALESCE((SELECT SUM(${bytesOf}) FROM answers a
        WHERE a.run_id = runs.run_id), 0)`,
    )
    .execute(db);
}
