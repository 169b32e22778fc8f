/**
 * Migration 0002: `datasets.stored_bytes`, the UTF-8 bytes of a dataset's stored rows (`body_json`),
 * what the per-account dataset quota counts (`publish.ts` `storeDataset`, probe10 R5), filled in for
 * the datasets already stored; and an index on `datasets (owner_account_id)` for that sum. Additive:
 * the schema version stays 3 (a build without this migration refuses the store: Kysely's migrator
 * does not open a database that ran a migration it does not know).
 */
import { sql, type Kysely } from "kysely";
import type { Engine } from "../engine.js";

/** Applies migration 0002 on `engine`. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const int8 = engine === "postgres" ? "BIGINT" : "INTEGER";
  const bytesOf = engine === "postgres" ? "octet_length(r.body_json)" : "length(CAST(r.body_json AS BLOB))";
  await sql.raw(`ALTER TABLE datasets ADD COLUMN stored_bytes ${int8} NOT NULL DEFAULT 0`).execute(db);
  await sql
    .raw(
      `UPDATE datasets SET stored_bytes = COALESCE((SELECT SUM(${bytesOf}) FROM dataset_rows r
        WHERE r.dataset_id = datasets.dataset_id), 0)`,
    )
    .execute(db);
  await sql.raw(`CREATE INDEX datasets_by_owner ON datasets (owner_account_id)`).execute(db);
}
