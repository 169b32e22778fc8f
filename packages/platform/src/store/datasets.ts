/** Data access of the `datasets` and `dataset_rows` tables. */
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Hex } from "@bench-bounty/evidence";
import type { DatasetSummary } from "../publish.js";
import { writeTooLong } from "./engine.js";
import { pastTxDeadline } from "./tx-deadline.js";
import { TableModule } from "./executor.js";
import type { DatasetsTable as DatasetRow } from "./schema.js";

/** The `meta` key of the store's secret key of dataset and run ids ({@link DatasetsTable.idKey}). */
export const DATASET_ID_KEY = "dataset_id_key";

/** Rows per INSERT statement (well under both engines' bound-parameter limits). */
export const INSERT_CHUNK = 500;

/**
 * Rows a deletion removes per transaction ({@link DatasetsTable.removeRows}), the event loop yielded
 * between two (probeD1 F16: 100,000 rows in one statement held SQLite's synchronous driver 1.8 s).
 */
export const DELETE_CHUNK = 2000;

/** About how many characters (UTF-16 units) one INSERT of {@link insertInChunks} carries: one stretch of the event loop. */
export const INSERT_CHUNK_CHARS = 1024 * 1024;

/**
 * Inserts `items` with `insert`, in consecutive slices of at most {@link INSERT_CHUNK} items and about
 * {@link INSERT_CHUNK_CHARS} characters (`charsOf` each; an item over it is a slice of its own),
 * yielding to the event loop (a `setImmediate` turn) between two: on SQLite's synchronous driver an
 * awaited statement resolves without one, so the slices ran as one stretch (probe17 A-F6: a 100 MB
 * test set held it 6.7 s; probe28 A-F2: a 63 MB upload's rows 2.1-2.6 s). Inside a transaction nothing
 * else runs in it meanwhile: on SQLite the other statements wait for its one connection, on
 * PostgreSQL they run on other connections.
 *
 * The rows are new ones (a new dataset's, a new benchmark's): their statements wait on no other writer.
 * So in a transaction bounded by a request's deadline (`Store.tx` `locksBy`, PostgreSQL) the deadline
 * passing during them is the insert's own length, refused as such, not as a busy store (probe29 A-F4).
 * @param what what the items are, for that refusal (`the dataset's rows`)
 * @throws PlatformError `write_too_long` ({@link writeTooLong}) when a bounded transaction's deadline
 *   passes before or during one of the slices' statements; what `insert` throws otherwise
 */
export async function insertInChunks<T>(
  items: readonly T[],
  charsOf: (item: T) => number,
  insert: (slice: T[]) => Promise<unknown>,
  what: string,
): Promise<void> {
  let from = 0;
  while (from < items.length) {
    let to = from;
    let chars = 0;
    while (to < items.length && to - from < INSERT_CHUNK && (to === from || chars < INSERT_CHUNK_CHARS))
      chars += charsOf(items[to++]!);
    if (from > 0) await nextTurn();
    try {
      await insert(items.slice(from, to));
    } catch (e) {
      if (pastTxDeadline(e)) throw writeTooLong(what, items.length);
      throw e;
    }
    from = to;
  }
}

/** Splits `xs` into chunks of {@link INSERT_CHUNK}. */
export function chunks<T>(xs: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += INSERT_CHUNK) out.push(xs.slice(i, i + INSERT_CHUNK));
  return out;
}

const toSummary = (r: DatasetRow): DatasetSummary => ({
  dataset_id: r.dataset_id,
  owner_account_id: r.owner_account_id,
  name: r.name,
  content_hash: r.content_hash as Hex,
  row_count: r.row_count,
  created_at: r.created_at,
});

/** The `datasets` / `dataset_rows` tables. */
export class DatasetsTable extends TableModule {
  /**
   * The store's secret key of dataset and run ids (`meta.dataset_id_key`, {@link DATASET_ID_KEY}): written once
   * with `fresh` (random hex) by the first caller, read by every later one, never served. Dataset ids are
   * keyed with it so that they say nothing of the labels their content hash covers (probe28 B-F5), and run
   * ids (`runIdOf`) so that nobody can compute which agent's attempt has which id (probe29 A-F9).
   * @returns the key (hex)
   */
  async idKey(fresh: string): Promise<string> {
    await this.db
      .insertInto("meta")
      .values({ key: DATASET_ID_KEY, value: fresh })
      .onConflict((oc) => oc.column("key").doNothing())
      .execute();
    const r = await this.db
      .selectFrom("meta")
      .select("value")
      .where("key", "=", DATASET_ID_KEY)
      .executeTakeFirstOrThrow();
    return r.value;
  }

  /** A dataset's summary, or null (also for one being deleted, or whose rows are being inserted). */
  async get(datasetId: string): Promise<DatasetSummary | null> {
    const r = await this.db
      .selectFrom("datasets")
      .selectAll()
      .where("dataset_id", "=", datasetId)
      .where("deleted_at", "is", null)
      .where("pending_until", "is", null)
      .executeTakeFirst();
    return r ? toSummary(r) : null;
  }

  /**
   * The bytes stored in the datasets `owner` owns (the sum of their `stored_bytes`). With `lock`
   * (inside a transaction) it first takes the owner's lock `dataset-bytes:<owner>` until the
   * transaction ends (PostgreSQL: a transaction-scoped advisory lock; SQLite's IMMEDIATE transaction
   * holds the write lock already): two uploads of one owner run their check and insert one after the other.
   */
  async bytesOf(owner: string, opts: { lock?: boolean } = {}): Promise<number> {
    if (opts.lock) await this.advisoryLock(`dataset-bytes:${owner}`);
    const r = await this.db
      .selectFrom("datasets")
      .select((eb) => eb.fn.sum<number | string | null>("stored_bytes").as("bytes"))
      .where("owner_account_id", "=", owner)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    return Number(r?.bytes ?? 0); // PostgreSQL's SUM of a BIGINT is a NUMERIC (a string)
  }

  /** How many datasets `owner` keeps (call after {@link bytesOf} with `lock`: the same lock covers it). */
  async countOf(owner: string): Promise<number> {
    const r = await this.db
      .selectFrom("datasets")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("owner_account_id", "=", owner)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  /**
   * The bytes stored in the datasets of every owner but `except` (the operator's account): the bound on
   * all accounts together (probe11 O5). With `lock` it first takes the lock `dataset-bytes:all` until the
   * transaction ends, so two uploads of different accounts do not both pass that bound.
   */
  async bytesOfAll(except: string, opts: { lock?: boolean } = {}): Promise<number> {
    if (opts.lock) await this.advisoryLock("dataset-bytes:all");
    const r = await this.db
      .selectFrom("datasets")
      .select((eb) => eb.fn.sum<number | string | null>("stored_bytes").as("bytes"))
      .where("owner_account_id", "!=", except)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    return Number(r?.bytes ?? 0);
  }

  /**
   * The bytes stored in the datasets of the accounts created from client network `network`
   * (`accounts.network`, migration 0015): its share of the bound on all accounts (probe30 A-F7). With
   * `lock` it first takes the lock `dataset-bytes:network:<network>` until the transaction ends (take it
   * before `dataset-bytes:all`), so two uploads of that network's accounts do not both pass its share.
   */
  async bytesOfNetwork(network: string, opts: { lock?: boolean } = {}): Promise<number> {
    if (opts.lock) await this.advisoryLock(`dataset-bytes:network:${network}`);
    const r = await this.db
      .selectFrom("datasets as d")
      .innerJoin("accounts as a", "a.account_id", "d.owner_account_id")
      .select((eb) => eb.fn.sum<number | string | null>("d.stored_bytes").as("bytes"))
      .where("a.network", "=", network)
      .where("d.deleted_at", "is", null)
      .executeTakeFirst();
    return Number(r?.bytes ?? 0);
  }

  /** The same dataset uploaded again while its deletion is under way: that deletion is finished here. */
  private async finishDeletingOf(datasetId: string): Promise<void> {
    const deleting = await this.db
      .selectFrom("datasets")
      .select("dataset_id")
      .where("dataset_id", "=", datasetId)
      .where("deleted_at", "is not", null)
      .executeTakeFirst();
    if (deleting) {
      await this.db.deleteFrom("dataset_rows").where("dataset_id", "=", datasetId).execute();
      await this.db.deleteFrom("datasets").where("dataset_id", "=", datasetId).execute();
    }
  }

  /**
   * Inserts a dataset and its rows unless the id exists (call inside a transaction). The rows go in
   * slices, the event loop yielded between two ({@link insertInChunks}, probe28 A-F2).
   * @returns true when inserted, false when the dataset was there already (same id: same content)
   */
  async insertIfAbsent(d: DatasetRow, rows: { row_hash: string; body_json: string }[]): Promise<boolean> {
    await this.finishDeletingOf(d.dataset_id);
    const r = await this.db
      .insertInto("datasets")
      .values(d)
      .onConflict((oc) => oc.column("dataset_id").doNothing())
      .executeTakeFirst();
    if (Number(r.numInsertedOrUpdatedRows ?? 0n) === 0) return false;
    const all = rows.map((row, i) => ({ dataset_id: d.dataset_id, row_index: i, ...row }));
    await insertInChunks(
      all,
      (row) => row.body_json.length,
      (part) => this.db.insertInto("dataset_rows").values(part).execute(),
      "the dataset's rows",
    );
    return true;
  }

  /**
   * Inserts a dataset's row, without its rows, marked pending until `pendingUntil` (unix ms; call inside
   * a transaction, after the quota checks): invisible to every read, counted by {@link bytesOf},
   * {@link countOf} and {@link bytesOfAll}; {@link insertRowSlice} adds its rows in transactions of their
   * own and {@link makeVisible} ends it (probe29 A-F3). A deletion of the same dataset under way is
   * finished first, as in {@link insertIfAbsent}.
   * @returns `inserted`; `exists` (the same dataset is stored: same id, same content); `pending` (another
   *   upload of the same dataset is inserting its rows)
   */
  async insertPending(d: DatasetRow, pendingUntil: number): Promise<"inserted" | "exists" | "pending"> {
    await this.finishDeletingOf(d.dataset_id);
    const r = await this.db
      .insertInto("datasets")
      .values({ ...d, pending_until: pendingUntil })
      .onConflict((oc) => oc.column("dataset_id").doNothing())
      .executeTakeFirst();
    if (Number(r.numInsertedOrUpdatedRows ?? 0n) > 0) return "inserted";
    const there = await this.db
      .selectFrom("datasets")
      .select("pending_until")
      .where("dataset_id", "=", d.dataset_id)
      .executeTakeFirst();
    return (there?.pending_until ?? null) === null ? "exists" : "pending";
  }

  /** Inserts rows of a pending dataset ({@link insertPending}): one statement, `row_index` as given. */
  async insertRowSlice(
    rows: { dataset_id: string; row_index: number; row_hash: string; body_json: string }[],
  ): Promise<void> {
    await this.db.insertInto("dataset_rows").values(rows).execute();
  }

  /**
   * Makes a pending dataset visible to every reader at once (call inside a transaction, its rows all in).
   * @returns false when it is no longer pending (abandoned: {@link abandonPending}), nothing changed
   */
  async makeVisible(datasetId: string): Promise<boolean> {
    const r = await this.db
      .updateTable("datasets")
      .set({ pending_until: null })
      .where("dataset_id", "=", datasetId)
      .where("pending_until", "is not", null)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Whether a dataset is pending ({@link insertPending}) with a `pending_until` before `before` (unix ms). */
  async anyPendingBefore(before: number): Promise<boolean> {
    const r = await this.db
      .selectFrom("datasets")
      .select("dataset_id")
      .where("pending_until", "is not", null)
      .where("pending_until", "<", before)
      .where("deleted_at", "is", null)
      .limit(1)
      .executeTakeFirst();
    return r !== undefined;
  }

  /**
   * Begins the deletion ({@link markDeleted}'s mark, freeing its bytes) of a dataset still pending: an
   * upload that failed, or every one whose `pending_until` is before `before` (unix ms) when `datasetId`
   * is null (a process that died while inserting: `abandonStaleUploads`, at `Platform.open` and before
   * every upload). Its rows are then removed as a deletion's are (`removeDeletedDataset`).
   * @param at ISO 8601 instant of the mark
   * @returns the datasets marked here, with their row counts (for the removal of their rows)
   */
  async abandonPending(
    datasetId: string | null,
    at: string,
    before = Number.MAX_SAFE_INTEGER,
  ): Promise<{ dataset_id: string; row_count: number }[]> {
    let pick = this.db
      .selectFrom("datasets")
      .select(["dataset_id", "row_count"])
      .where("pending_until", "is not", null)
      .where("pending_until", "<", before)
      .where("deleted_at", "is", null);
    if (datasetId !== null) pick = pick.where("dataset_id", "=", datasetId);
    const marked = await pick.execute();
    if (marked.length === 0) return [];
    await this.db
      .updateTable("datasets")
      .set({ deleted_at: at })
      .where(
        "dataset_id",
        "in",
        marked.map((d) => d.dataset_id),
      )
      .where("pending_until", "is not", null)
      .where("deleted_at", "is", null)
      .execute();
    return marked.map((d) => ({ dataset_id: d.dataset_id, row_count: Number(d.row_count) }));
  }

  /**
   * A dataset's summary read to be changed: its row is locked until the transaction ends (PostgreSQL
   * `FOR UPDATE`; SQLite's IMMEDIATE transaction holds the write lock already), or null.
   */
  async getLocked(datasetId: string): Promise<DatasetSummary | null> {
    const r = await this.rowByKey("datasets", "dataset_id", datasetId, { lock: true });
    return r && (r.deleted_at ?? null) === null && (r.pending_until ?? null) === null ? toSummary(r) : null;
  }

  /**
   * The datasets `owner` owns, newest first, each with its stored bytes and the slug of the benchmark
   * published from it (null when none).
   */
  async ofOwner(
    owner: string,
  ): Promise<(DatasetSummary & { stored_bytes: number; benchmark: string | null })[]> {
    const rows = await this.db
      .selectFrom("datasets as d")
      .leftJoin("benchmarks as b", "b.dataset_id", "d.dataset_id")
      .selectAll("d")
      .select("b.slug as benchmark")
      .where("d.owner_account_id", "=", owner)
      .where("d.deleted_at", "is", null)
      .where("d.pending_until", "is", null)
      .orderBy("d.created_at", "desc")
      .orderBy("d.dataset_id")
      .execute();
    return rows.map((r) => ({
      ...toSummary(r),
      stored_bytes: Number(r.stored_bytes), // a BIGINT may come back as a string on PostgreSQL
      benchmark: r.benchmark ?? null,
    }));
  }

  /**
   * Adds `bytes` to a dataset's `stored_bytes` (call inside a transaction): the test set of the
   * benchmark published from it, which counts against its owner's quota with its rows.
   */
  async addStoredBytes(datasetId: string, bytes: number): Promise<void> {
    await this.db
      .updateTable("datasets")
      .set((eb) => ({ stored_bytes: eb("stored_bytes", "+", bytes) }))
      .where("dataset_id", "=", datasetId)
      .execute();
  }

  /**
   * Begins a dataset's deletion (call inside a transaction, after the checks): sets its `deleted_at`, so
   * every reader finds it gone at once; its rows stay until {@link removeRows} and {@link removeDeleted}.
   * @param at ISO 8601 instant
   * @returns its stored bytes (no longer counted by the quotas)
   */
  async markDeleted(datasetId: string, at: string): Promise<number> {
    const r = await this.db
      .selectFrom("datasets")
      .select("stored_bytes")
      .where("dataset_id", "=", datasetId)
      .executeTakeFirst();
    await this.db
      .updateTable("datasets")
      .set({ deleted_at: at })
      .where("dataset_id", "=", datasetId)
      .execute();
    return Number(r?.stored_bytes ?? 0);
  }

  /** The ids and row counts of the datasets whose deletion began and is not finished. */
  async deleting(): Promise<{ dataset_id: string; row_count: number }[]> {
    return this.db
      .selectFrom("datasets")
      .select(["dataset_id", "row_count"])
      .where("deleted_at", "is not", null)
      .execute();
  }

  /**
   * Removes the rows `from <= row_index < to` of a dataset being deleted (one bounded statement); none
   * once the dataset is no longer marked deleted (the same dataset uploaded again meanwhile: its rows
   * are the new upload's).
   */
  async removeRows(datasetId: string, from: number, to: number): Promise<void> {
    await this.db
      .deleteFrom("dataset_rows")
      .where("dataset_id", "=", datasetId)
      .where("row_index", ">=", from)
      .where("row_index", "<", to)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom("datasets")
            .select("datasets.dataset_id")
            .where("datasets.dataset_id", "=", datasetId)
            .where("datasets.deleted_at", "is not", null),
        ),
      )
      .execute();
  }

  /** Removes a dataset being deleted, once its rows are gone (any left with it). */
  async removeDeleted(datasetId: string): Promise<void> {
    await this.db.deleteFrom("dataset_rows").where("dataset_id", "=", datasetId).execute();
    await this.db
      .deleteFrom("datasets")
      .where("dataset_id", "=", datasetId)
      .where("deleted_at", "is not", null)
      .execute();
  }

  /** A dataset's rows in row order. */
  async rows(datasetId: string): Promise<{ row_hash: string; body_json: string }[]> {
    return this.db
      .selectFrom("dataset_rows")
      .select(["row_hash", "body_json"])
      .where("dataset_id", "=", datasetId)
      .orderBy("row_index")
      .execute();
  }
}
