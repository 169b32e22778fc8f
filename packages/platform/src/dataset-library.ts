/**
 * An author's own stored datasets: the list (with the bytes each keeps stored against the account's
 * dataset quota) and the deletion of one never published, which frees its bytes. A published dataset
 * stays: its benchmark was planned from it (`benchmarks.dataset_id` references it).
 * @packageDocumentation
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import type { PlatformContext, WriteHow } from "./context.js";
import { PlatformError } from "./errors.js";
import { assertDatasetOwner } from "./identity/access.js";
import { assertKeyActive } from "./identity/key-check.js";
import { isOperatorAccount, type Principal } from "./identity/principal.js";
import type { DatasetSummary } from "./publish.js";
import { DELETE_CHUNK } from "./store/datasets.js";
import { isoMillis } from "./time.js";

/** One of the caller's datasets. */
export interface OwnedDataset extends DatasetSummary {
  /**
   * UTF-8 bytes of its stored rows, plus its published test set's canonical bytes once published: what
   * it counts against the account's dataset quota.
   */
  stored_bytes: number;
  /** The slug of the benchmark published from it, or null (then it may be deleted). */
  benchmark: string | null;
}

/** The caller's datasets and the quota they count against. */
export interface OwnedDatasets {
  /** Newest first. */
  datasets: OwnedDataset[];
  /**
   * Bytes the account's quota counts: the sum of the listed datasets' `stored_bytes` and of the uploads
   * still inserting their rows (not listed until complete).
   */
  used_bytes: number;
  /** Bytes the account may keep stored (`dataset_bytes_per_account`), or null: no bound (the operator). */
  limit_bytes: number | null;
}

/**
 * The caller's own datasets, newest first, with the bytes used and the account's limit. Nobody lists
 * another account's.
 */
export async function myDatasets(ctx: PlatformContext, p: Principal): Promise<OwnedDatasets> {
  // what the quota counts (`bytesOf`), pending uploads included (probe30 A-F5: 0 with 23.5 MB counted)
  const datasets = await ctx.store.datasets.ofOwner(p.account_id);
  const used = await ctx.store.datasets.bytesOf(p.account_id);
  return {
    datasets,
    used_bytes: used,
    limit_bytes: isOperatorAccount(p.account_id) ? null : ctx.datasetBytesPerAccount,
  };
}

/** What a deletion freed. */
export interface DeletedDataset {
  dataset_id: string;
  /** Bytes no longer counted against the account's dataset quota. */
  freed_bytes: number;
}

/**
 * Deletes the caller's dataset and its rows. The checks and the mark (`deleted_at`) are one transaction
 * under the dataset's row lock, which a publish of it takes too (`publishBenchmark`): a deletion and a
 * publication of one dataset never both pass. From the mark on, the dataset is gone to every reader
 * (404 `unknown_dataset`, absent from its owner's list, its bytes freed from the quotas), never half
 * there; then its rows are removed {@link DELETE_CHUNK} at a time, one transaction each, the event loop
 * yielded between two (probeD1 F16: 100,000 rows in one statement held the loop 1.8 s), and its row last.
 * @throws PlatformError `unknown_dataset` (404); `forbidden` (`dataset_owner_only`) for another
 *   account's; `dataset_published` (409, `details: {dataset_id, slug}`) when a benchmark was published
 *   from it (it stays); `server_busy` when the mark's lock waits pass `how.answerBy` ({@link WriteHow}:
 *   nothing written; the removal after the mark is not bounded)
 * @throws PlatformError `forbidden` (`details.rule: "known_key"`) when the calling key was revoked before
 *   the write (`assertKeyActive`, checked in its transaction: probe39 A-F2); nothing written
 */
export async function deleteDataset(
  ctx: PlatformContext,
  p: Principal,
  datasetId: string,
  how: WriteHow = {},
): Promise<DeletedDataset> {
  const deleted = await ctx.store.tx(
    async (t) => {
      await assertKeyActive(t, p); // the calling key still works (probe39 A-F2)
      const ds = await t.datasets.getLocked(datasetId);
      if (ds === null)
        throw new PlatformError("unknown_dataset", `no dataset ${datasetId}`, { dataset_id: datasetId });
      assertDatasetOwner(p, ds);
      const slug = await t.benchmarks.slugOfDataset(datasetId);
      if (slug !== null)
        throw new PlatformError(
          "dataset_published",
          `dataset ${datasetId} is the test set of benchmark ${slug}: a published dataset is kept`,
          { dataset_id: datasetId, slug },
        );
      const freed = await t.datasets.markDeleted(datasetId, isoMillis(ctx.clock()));
      return { freed, rowCount: ds.row_count };
    },
    { locksBy: how.answerBy, account: p.account_id },
  );
  await removeDeletedDataset(ctx, datasetId, deleted.rowCount);
  return { dataset_id: datasetId, freed_bytes: deleted.freed };
}

/**
 * Removes a dataset whose deletion began (marked `deleted_at`): its rows {@link DELETE_CHUNK} at a time,
 * yielding the event loop between two transactions, then its row.
 * @param rowCount its row count (row indexes are `0..rowCount-1`)
 */
export async function removeDeletedDataset(
  ctx: PlatformContext,
  datasetId: string,
  rowCount: number,
): Promise<void> {
  for (let from = 0; from < rowCount; from += DELETE_CHUNK) {
    await ctx.store.tx((t) => t.datasets.removeRows(datasetId, from, from + DELETE_CHUNK));
    await nextTurn();
  }
  await ctx.store.tx((t) => t.datasets.removeDeleted(datasetId));
}

/** Finishes every deletion an earlier process left under way (`Platform.open`). */
export async function finishDeletions(ctx: PlatformContext): Promise<void> {
  for (const d of await ctx.store.datasets.deleting())
    await removeDeletedDataset(ctx, d.dataset_id, d.row_count);
}
