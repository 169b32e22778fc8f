/**
 * The store's versioned migrations, in code (Kysely `Migrator`): each is applied once, in name order,
 * in its own transaction, recorded in `kysely_migration`. A new migration is a new file here; one that
 * changes what the store means also moves `meta.schema_version` to the next version (`SCHEMA_VERSION`
 * in the store). An additive one (0002: a column and an index; 0003: an index; 0004, 0005, 0006: a column; 0007: an index; 0008: a table of counters; 0009: an index; 0010: a column; 0011: a column, a unique index and an index; 0012: a column and an index; 0013: counts filled in again; 0014: a column; 0015: a column and an index; 0016: receipt squats cleared) keeps it: a build without it is still
 * refused (`invalid_store`: the migrator does not open a database that ran a migration it does not know).
 */
import type { Kysely } from "kysely";
import type { Migration, MigrationProvider } from "kysely/migration";
import type { Engine } from "../engine.js";
import * as m0001 from "./0001_initial.js";
import * as m0002 from "./0002_dataset_bytes.js";
import * as m0003 from "./0003_runs_by_finalize.js";
import * as m0004 from "./0004_dataset_deleting.js";
import * as m0005 from "./0005_answer_bytes.js";
import * as m0006 from "./0006_anchor_squats.js";
import * as m0007 from "./0007_runs_by_account_started.js";
import * as m0008 from "./0008_answer_bytes_totals.js";
import * as m0009 from "./0009_runs_by_benchmark_started.js";
import * as m0010 from "./0010_verification_observers.js";
import * as m0011 from "./0011_bounty_attached_once.js";
import * as m0012 from "./0012_anchor_held.js";
import * as m0013 from "./0013_run_record_bytes.js";
import * as m0014 from "./0014_dataset_pending.js";
import * as m0015 from "./0015_account_network.js";
import * as m0016 from "./0016_receipt_squats_adopted.js";

/** The migrations for `engine`, by name. */
export function migrationsFor(engine: Engine): MigrationProvider {
  const wrap = (m: { up(db: Kysely<unknown>, engine: Engine): Promise<void> }): Migration => ({
    up: (db) => m.up(db, engine),
  });
  return {
    async getMigrations() {
      return {
        "0001_initial": wrap(m0001),
        "0002_dataset_bytes": wrap(m0002),
        "0003_runs_by_finalize": wrap(m0003),
        "0004_dataset_deleting": wrap(m0004),
        "0005_answer_bytes": wrap(m0005),
        "0006_anchor_squats": wrap(m0006),
        "0007_runs_by_account_started": wrap(m0007),
        "0008_answer_bytes_totals": wrap(m0008),
        "0009_runs_by_benchmark_started": wrap(m0009),
        "0010_verification_observers": wrap(m0010),
        "0011_bounty_attached_once": wrap(m0011),
        "0012_anchor_held": wrap(m0012),
        "0013_run_record_bytes": wrap(m0013),
        "0014_dataset_pending": wrap(m0014),
        "0015_account_network": wrap(m0015),
        "0016_receipt_squats_adopted": wrap(m0016),
      };
    },
  };
}
