/**
 * Migration 0004: `datasets.deleted_at`, set when a dataset's deletion begins (`deleteDataset`,
 * probeD1 F16). From then on the dataset is gone to every reader (its summary, its owner's list, the
 * quotas, publish); its rows are removed in bounded chunks, yielding the event loop between them, and
 * its own row last. A deletion cut short (the process stopped) is finished when the platform opens.
 * Additive: the schema version stays 3.
 */
import { sql, type Kysely } from "kysely";

/** Applies migration 0004 (the same statement on both engines). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`ALTER TABLE datasets ADD COLUMN deleted_at TEXT`).execute(db);
}
