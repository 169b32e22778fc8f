/**
 * Datasets and publishing (seed "Publish a Benchmark from Your Data"; SPEC 3).
 *
 * Publishing, in order: options are checked; a `seed` from a network client (`PublishHow.seedFromOperatorOnly`)
 * only from the operator (`forbidden`, `operator_only`, `details.field: "seed"`; probe29 A-F8: a known seed
 * makes the salts derivable, so a guess of the rows could be checked against the public root); one
 * benchmark per dataset (`benchmark_exists` with `details.existing_slug`; also when a concurrent publish of
 * the dataset took its default slug first, probe29 A-F10); one benchmark per test-set root (the same rows
 * and `seed` as a published benchmark: `benchmark_exists` with `details.field: "seed"`, and
 * `details.existing_slug` only when that benchmark is the caller's own, so the refusal confirms nothing of
 * another account's test set (probe29 A-F8); checked under the root's lock in the insert's transaction;
 * probe27 A-F2); an explicit slug (`^[a-z0-9][a-z0-9-]{1,127}$`, taken: 409
 * `slug_conflict`); prompts rendered for every row (a missing placeholder names the lowest row index
 * and the field); gold shaped per grader (lowest offending row index); the bank: rows sorted by
 * `prompt_hash` ascending (ties, identical prompts, by the row's position in the uploaded dataset), the
 * first `round(n * public_fraction)` (half to even, exact) public, the rest private, the cut moved to
 * the nearest boundary of a group of identical prompts when it would split one (`splitCut`, the lower
 * on a tie; probe36 A-F5: a public copy's credit was its private twin's; prompts equal after SPEC 5's
 * `norm` are one group, `promptSamenessKeys`, probe36 V-F9, probe37 V-F1); per-task salts;
 * the commitment `(root, leaf_count)` from the evidence library; the default slug (slugified dataset
 * name + `-` + the first 8 hex characters of the {@link bankDigest}, taken: 409 `slug_conflict`);
 * everything stored in one transaction; then the root anchored with kind `commitment` when a chain is
 * configured: inline (one operator transaction per publish), or with batched anchoring (`serve`) left
 * pending for the batcher's next `anchorMany` (`anchor-batch.ts`: one transaction per flush whatever
 * the number of publishes, `commitment_anchor_status: "pending"` until it is mined).
 *
 * Label-free order (SPEC 6.1): nothing served to anyone but the author may be computed from a label
 * while the benchmark is open. The bank order (the order private tasks are served in), the split and
 * the default slug are therefore derived from prompts only, never from `row_hash` / `content_hash`
 * (hashes over whole rows, labels included, which stay the dataset's identity: dedupe and dataset id).
 * Sorting by row hash let a stranger who rebuilt a row from its prompt test each candidate label
 * against the served order; an 8-hex content-hash suffix in the slug let them test whole label
 * vectors offline.
 *
 * This module stores datasets and publishes; `publish/options.ts` checks the options into the config,
 * `publish/plan.ts` plans the test set (bank order, split, salts, commitment, answer allowance) and
 * `publish/reads.ts` reads published benchmarks and their tasks.
 */
import { keccak256Hex, type Hex } from "@bench-bounty/evidence";
import { anchorDigests } from "./anchor-batch.js";
import type { AnchorEvidence } from "./chain.js";
import { byDeadlineOrNull } from "./deadline.js";
import type { BenchmarkConfig, PlatformContext } from "./context.js";
import { validateDataset, type DatasetInput, type ValidatedDataset } from "./dataset.js";
import { PlatformError } from "./errors.js";
import { toStored } from "./json.js";
import { LockWaitExpired, type Tables } from "./store.js";
import { isUniqueViolation } from "./store/executor.js";
import { insertInChunks } from "./store/datasets.js";
import { writeTooLong } from "./store/engine.js";
import type { DatasetsTable as DatasetRow } from "./store/schema.js";
import { TxDeadlinePassed } from "./store/tx-deadline.js";
import { removeDeletedDataset } from "./dataset-library.js";
import { anchoredHere, NO_CHAIN_HERE, shownDigest, withheldDigests } from "./reveal.js";
import { isoMillis } from "./time.js";
import { assertDatasetOwner, assertRole, forbid } from "./identity/access.js";
import { assertKeyActive } from "./identity/key-check.js";
import { isOperator, isOperatorAccount, OPERATOR_ACCOUNT_ID, type Principal } from "./identity/principal.js";
import {
  type PublishOptions,
  DISCLOSURE,
  RESERVED_SLUGS,
  SLUG_RE,
  defaultSlug,
  benchmarkConfig,
} from "./publish/options.js";
import {
  assertPackCanFit,
  awardableAllowance,
  type DuplicatePrompts,
  hex,
  planPublication,
  type TestSetPlanner,
} from "./publish/plan.js";
import { getBenchmark } from "./publish/reads.js";
import { NETWORK_SHARE_DIVISOR, networkShareOf } from "./network-share.js";

export {
  type PublishOptions,
  DISCLOSURE,
  SLUG_RE,
  defaultSlug,
  publicCount,
  benchmarkConfig,
  assertSeed,
} from "./publish/options.js";
export {
  type DuplicatePrompts,
  type PlannedTestSet,
  type SaltSource,
  type TestSetPlanJob,
  type TestSetPlanResult,
  type TestSetPlanner,
  bankOrder,
  bankDigest,
  duplicatePrompts,
  promptSamenessKeys,
  splitCut,
  planPublication,
  planResultOfText,
  planResultText,
  planTestSet,
  promptBytesOf,
} from "./publish/plan.js";
export {
  getBenchmark,
  answerAllowanceOf,
  listBenchmarks,
  testSetRowOf,
  getTasks,
  isOpen,
  isOpenAt,
  closureOf,
  closingChainTime,
} from "./publish/reads.js";

/** A stored dataset's summary. */
export interface DatasetSummary {
  dataset_id: string;
  /** The author's account. */
  owner_account_id: string;
  name: string;
  content_hash: Hex;
  row_count: number;
  created_at: string;
}

/** The 201 body of a publication: the benchmark detail plus the disclosure. */
export interface PublishResult {
  slug: string;
  title: string;
  status: "published";
  dataset_id: string;
  /** Null while its commitment anchor is pending (`reveal.ts`: `GET .../commitment` shows it once anchored). */
  commit_root: Hex | null;
  leaf_count: number;
  public_count: number;
  private_count: number;
  /**
   * The anchor of the root; null off-chain, when batched (the batcher's next flush anchors it) or when
   * the chain failed (the anchor is then pending, retried by `anchor` / `award`).
   */
  commitment_anchor: AnchorEvidence | null;
  /**
   * `anchored`, `pending` (batched: the next flush anchors it, the detail shows it once mined; or the
   * chain failed: `anchor <slug>` or `award` retries it; or published by a process without a chain on a
   * store anchored on one, `reveal.ts` `anchoredHere`: a process with the chain anchors it) or `off_chain`
   * (a store no process with a chain has opened).
   */
  commitment_anchor_status: "anchored" | "pending" | "off_chain";
  /** Why the anchoring failed, when `pending`. */
  commitment_anchor_error?: string;
  config: BenchmarkConfig;
  disclosure: string;
  /**
   * The rows rendering an identical prompt (groups, rows, the first groups' row indexes) and whether the
   * split's cut moved to keep each group on one side (`splitCut`): for the author only, never stored.
   */
  duplicate_prompts: DuplicatePrompts;
}

/**
 * Validates and stores a dataset (idempotent: the same name and content give the same dataset id).
 * @throws PlatformError `invalid_dataset` (see {@link validateDataset})
 */
export async function createDataset(
  ctx: PlatformContext,
  owner: Principal,
  input: DatasetInput,
): Promise<DatasetSummary> {
  assertRole(owner, "author"); // before the rows are checked
  return storeDataset(ctx, owner, prepareDataset(input));
}

/**
 * A validated dataset in the form the store keeps it: strings only, so it crosses a worker thread as is
 * (the server checks a large upload off its event loop and hands this to {@link storeDataset}).
 */
export interface PreparedDataset {
  name: string;
  description: string | null;
  label_policy: string | null;
  /** Stored JSON of `{sanitize, bucket_fields, time_bound_fields}`. */
  options_json: string;
  /** {@link ValidatedDataset.content_hash}. */
  content_hash: Hex;
  /** Each row's hash and stored JSON, in upload order. */
  rows: { row_hash: Hex; body_json: string }[];
}

/**
 * Validates and normalises a dataset into what the store keeps (pure: nothing stored).
 * @throws PlatformError `invalid_dataset` as {@link validateDataset}
 */
export function prepareDataset(input: unknown): PreparedDataset {
  const v = validateDataset(input);
  return {
    name: v.name,
    description: v.description,
    label_policy: v.label_policy,
    options_json: toStored({
      sanitize: v.sanitize,
      bucket_fields: v.bucket_fields,
      time_bound_fields: v.time_bound_fields,
    }),
    content_hash: v.content_hash,
    rows: v.rows.map((row, i) => ({ row_hash: v.row_hashes[i]!, body_json: toStored(row) })),
  };
}

/**
 * Stores a dataset made by {@link prepareDataset}, owned by `owner` (idempotent for the same owner, name
 * and content). Counts against the owner's {@link DEFAULT_DATASET_BYTES_PER_ACCOUNT quota} (the
 * operator's account is not counted). `how.answerBy` (unix ms): the latest moment to begin (probe16 A-F5);
 * with it the rows go in transactions of their own and the dataset is visible once complete, by then or
 * never ({@link storePending}, probe29 A-F3); without it (the CLI) in one transaction.
 * @throws PlatformError `forbidden` (not an author); `dataset_quota_exceeded` (nothing stored);
 *   `server_busy` (past `how.answerBy`: nothing stored); `write_too_long` when `how.answerBy` passes
 *   while its rows are inserted (its own size, not contention: nothing stored; probe29 A-F4)
 * @throws PlatformError `forbidden` (`details.rule: "known_key"`) when the calling key was revoked before
 *   the write (`assertKeyActive`, checked in its transaction: probe39 A-F2); nothing written
 */
export async function storeDataset(
  ctx: PlatformContext,
  owner: Principal,
  d: PreparedDataset,
  how: StoreHow = {},
): Promise<DatasetSummary> {
  assertRole(owner, "author");
  assertWriteInTime(how.answerBy, "upload");
  // The owner is part of the id: two authors uploading the same rows get two datasets. The store's
  // secret key is too: the content hash covers the labels, and an id anyone could recompute from candidate
  // labels let a stranger recover private labels from `show`, or test them against the 403/404 of another
  // account's dataset routes (probe28 B-F5). Same owner, name and content: the same id (idempotent).
  const key = await ctx.store.datasets.idKey(Buffer.from(ctx.randomBytes(32)).toString("hex"));
  const datasetId = `ds-${keccak256Hex(`${key}\n${owner.account_id}\n${d.name}\n${d.content_hash}`).slice(2, 18)}`;
  const existing = await ctx.store.datasets.get(datasetId);
  if (existing) return existing;
  // uploads a dead process left pending, this one's included, are removed before the checks: their
  // bytes are not counted, and this dataset's left-over row does not answer `server_busy` for ever
  // (probe30 A-F5: only a process's start removed them)
  await abandonStaleUploads(ctx);
  const createdAt = isoMillis(ctx.clock());
  const record = {
    dataset_id: datasetId,
    owner_account_id: owner.account_id,
    name: d.name,
    content_hash: d.content_hash,
    row_count: d.rows.length,
    created_at: createdAt,
  };
  const storedBytes = datasetBytes(d);
  const operator = isOperatorAccount(owner.account_id);
  const limit = operator ? null : ctx.datasetBytesPerAccount;
  const allLimit = operator ? null : ctx.datasetBytesAllAccounts;
  const row = {
    ...record,
    description: d.description,
    label_policy: d.label_policy,
    options_json: d.options_json,
    stored_bytes: storedBytes,
  };
  if (how.answerBy !== undefined)
    return storePending(ctx, owner, d, { row, limit, allLimit, answerBy: how.answerBy }, record);
  const inserted = await ctx.store.tx(
    async (t) => {
      await assertKeyActive(t, owner); // the calling key still works (probe39 A-F2)
      // the check and the insert in one transaction (nothing is written when refused), under the
      // account's lock (`bytesOf` with `lock`): two uploads of one account do not both pass it
      if (limit !== null) {
        assertDatasetBytes(limit, await t.datasets.bytesOf(owner.account_id, { lock: true }), storedBytes);
        assertDatasetCount(await t.datasets.countOf(owner.account_id));
      }
      // the waits for this transaction and its locks may have passed the deadline (probe17 A-F2)
      assertWriteInTime(how.answerBy, "upload", "the store's locks");
      const fresh = await t.datasets.insertIfAbsent(row, d.rows);
      // then all accounts but the operator together (probe11 O5), last: the lock every account's
      // uploads and publishes take is held from the check to the commit, not through the rows' insert
      // (probe26 A-F1); the sum counts this dataset now, and a refusal rolls the insert back
      if (fresh) await chargeAllAccounts(t, owner.account_id, allLimit, storedBytes);
      return fresh;
    },
    { locksBy: how.answerBy, account: owner.account_id },
  );
  // Another process stored the same dataset first: same id, same content.
  return inserted ? record : storedByAnother(ctx, datasetId);
}

/** The same dataset stored by another request first, or `server_busy` while its rows are still going in. */
async function storedByAnother(ctx: PlatformContext, datasetId: string): Promise<DatasetSummary> {
  const there = await ctx.store.datasets.get(datasetId);
  if (there) return there;
  throw new PlatformError(
    "server_busy",
    "the server is busy: another request is storing this same dataset and nothing was stored by this one; retry later",
    { retry_after_seconds: 5 },
  );
}

/** What {@link storePending} takes: the dataset's row, the owner's and all accounts' limits, the deadline. */
interface PendingUpload {
  row: DatasetRow;
  limit: number | null;
  allLimit: number | null;
  answerBy: number;
}

/**
 * {@link storeDataset} for a request (`answerBy`): the quota checks and the dataset's row, marked
 * pending, in one short transaction; its rows in short transactions of their own ({@link insertInChunks}'
 * slices), the event loop and the store free between two, so other requests are served meanwhile (probe29
 * A-F3: in one transaction, SQLite's one connection was held for the whole insert and every keyed request
 * waited 2.8-5.9 s); then one short transaction makes it visible. A pending dataset is invisible to
 * every read and counts against the quotas from the first transaction on; on any failure it is removed
 * (`removeDeletedDataset`), and one left by a process that died is removed by the next upload, in any
 * process, or `Platform.open` ({@link abandonStaleUploads}). Bounded as a whole by `answerBy`: past it, nothing is made visible.
 * Counted in `ctx.uploadCalls` until its work ends: once the platform stops (`Platform.stopUploads`,
 * `close`) it begins nothing, or ends at its next slice with its dataset removed, before the store
 * closes (probe30 A-F10: the store was closed under it, its pending dataset left behind).
 * @throws as {@link storeDataset}; `write_too_long` when `answerBy` passes while the rows go in;
 *   `server_busy` with `details.stopping` ({@link uploadStopping}) once the platform stops
 */
function storePending(
  ctx: PlatformContext,
  owner: Principal,
  d: PreparedDataset,
  w: PendingUpload,
  record: DatasetSummary,
): Promise<DatasetSummary> {
  if (ctx.uploadCalls.stopped) return Promise.reject(uploadStopping());
  const work = fillPending(ctx, owner, d, w, record);
  ctx.uploadCalls.track(work);
  return work;
}

/**
 * 503-shaped `server_busy`: this process is stopping, and the upload was not stored, or the publish not
 * written (nothing kept: `details.stopping`, `retry_after_seconds`): send it again once the server is
 * back, or to another on the store.
 */
function uploadStopping(what: "upload" | "publish" = "upload"): PlatformError {
  return new PlatformError(
    "server_busy",
    what === "upload"
      ? "this server is stopping: the dataset was not stored (nothing of it was kept); upload it again once the server is back"
      : "this server is stopping: the benchmark was not published (nothing was written); publish it again once the server is back",
    { stopping: true, retry_after_seconds: 5 },
  );
}

/** The work of {@link storePending}: reserve, insert the rows slice by slice, make visible. */
async function fillPending(
  ctx: PlatformContext,
  owner: Principal,
  d: PreparedDataset,
  w: PendingUpload,
  record: DatasetSummary,
): Promise<DatasetSummary> {
  const id = w.row.dataset_id;
  const bounded = { locksBy: w.answerBy, account: owner.account_id };
  const reserved = await ctx.store.tx(async (t) => {
    await assertKeyActive(t, owner); // the calling key still works (probe39 A-F2: a slow upload)
    if (w.limit !== null) {
      assertDatasetBytes(
        w.limit,
        await t.datasets.bytesOf(owner.account_id, { lock: true }),
        w.row.stored_bytes,
      );
      assertDatasetCount(await t.datasets.countOf(owner.account_id));
    }
    assertWriteInTime(w.answerBy, "upload", "the store's locks");
    const r = await t.datasets.insertPending(w.row, w.answerBy);
    if (r === "inserted") await chargeAllAccounts(t, owner.account_id, w.allLimit, w.row.stored_bytes);
    return r;
  }, bounded);
  if (reserved !== "inserted") return storedByAnother(ctx, id);
  try {
    const rows = d.rows.map((r, i) => ({ dataset_id: id, row_index: i, ...r }));
    await insertInChunks(
      rows,
      (r) => r.body_json.length,
      async (part) => {
        // bounded per slice: each is short and waits on no other writer (no write slot, no lock
        // timeout); the upload as a whole ends by `answerBy`, checked before each and at the end; a
        // stop of the platform ends it here, the store still open for the removal (probe30 A-F10)
        if (ctx.uploadCalls.stopped) throw uploadStopping();
        if (Date.now() >= w.answerBy) throw new TxDeadlinePassed(w.answerBy);
        await ctx.store.tx((t) => t.datasets.insertRowSlice(part));
      },
      "the dataset's rows",
    );
    const visible = await ctx.store.tx(async (t) => {
      await assertKeyActive(t, owner); // revoked while the rows went in: not made visible
      if (Date.now() >= w.answerBy) throw writeTooLong("the dataset's rows", rows.length);
      return t.datasets.makeVisible(id);
    }, bounded);
    if (!visible) throw storedByAnotherGone();
    return record;
  } catch (e) {
    await ctx.store.tx((t) => t.datasets.abandonPending(id, isoMillis(ctx.clock())));
    await removeDeletedDataset(ctx, id, d.rows.length);
    throw e;
  }
}

/** A pending upload removed by another process (its deadline long past) before it was made visible. */
function storedByAnotherGone(): PlatformError {
  return new PlatformError(
    "server_busy",
    "the server is busy: the upload was abandoned before it was complete and nothing was stored; retry later",
    { retry_after_seconds: 5 },
  );
}

/**
 * How long (ms) after its deadline an upload's pending dataset is taken for abandoned by its process
 * (it died) and removed by {@link abandonStaleUploads}: past any clock difference between processes (a
 * live upload makes its dataset visible before its deadline or not at all).
 */
export const PENDING_UPLOAD_GRACE_MS = 60_000;

/**
 * Removes the pending datasets ({@link storePending}) of uploads whose deadline passed more than
 * {@link PENDING_UPLOAD_GRACE_MS} ago, their rows included: their process died while inserting. Called
 * by `Platform.open` and before every upload ({@link storeDataset}), so the processes still running
 * on a shared store remove them too (probe30 A-F5: only a process's start did, and until then a
 * re-upload of the same dataset was `server_busy` and its bytes counted against its owner's quota).
 */
export async function abandonStaleUploads(ctx: PlatformContext): Promise<void> {
  const before = Date.now() - PENDING_UPLOAD_GRACE_MS;
  if (!(await ctx.store.datasets.anyPendingBefore(before))) return; // a read: no write lock taken
  const stale = await ctx.store.tx((t) => t.datasets.abandonPending(null, isoMillis(ctx.clock()), before));
  for (const d of stale) await removeDeletedDataset(ctx, d.dataset_id, d.row_count);
}

/**
 * The default bytes of dataset rows and published test sets one account may keep stored: 256 MiB (probe10 R5: two accounts
 * stored 462 MB in 25 s, and a dataset never published is kept). `Platform.open({datasetBytesPerAccount})`
 * sets another (`serve --dataset-bytes-per-account`); null: no bound.
 */
export const DEFAULT_DATASET_BYTES_PER_ACCOUNT = 256 * 1024 * 1024;

/**
 * What a dataset counts against its owner's quota when stored: the UTF-8 bytes of its stored rows
 * (`body_json`). Its published test set is added at publish (`chargeTestSet`).
 */
export function datasetBytes(d: PreparedDataset): number {
  let n = 0;
  for (const r of d.rows) n += Buffer.byteLength(r.body_json, "utf8");
  return n;
}

/** What a quota check counts: a dataset's rows (upload) or a benchmark's test set (publish). */
type StoredKind = "dataset" | "test set";

const STORED_AS: Record<StoredKind, { what: string; detail: string }> = {
  dataset: { what: "this dataset is", detail: "dataset_bytes" },
  "test set": {
    what: "this benchmark's test set (its rendered prompts and gold) is",
    detail: "test_set_bytes",
  },
};

/**
 * Refuses a dataset, or a benchmark's test set, that would take its owner past `limit` bytes stored.
 * @throws PlatformError `dataset_quota_exceeded`, `details: {limit: "dataset_bytes_per_account",
 *   limit_bytes, used_bytes, dataset_bytes}` (`test_set_bytes` for a test set)
 */
function assertDatasetBytes(limit: number, used: number, bytes: number, kind: StoredKind = "dataset"): void {
  if (used + bytes <= limit) return;
  const { what, detail } = STORED_AS[kind];
  throw new PlatformError(
    "dataset_quota_exceeded",
    `dataset quota reached: an account may store ${limit} bytes of dataset rows and published test sets ` +
      `(dataset_bytes_per_account); this account stores ${used} bytes and ${what} ${bytes} bytes. Free space by deleting a ` +
      `dataset never published (REST DELETE /api/v1/datasets/{dataset_id}; GET /api/v1/datasets/mine lists them)`,
    { limit: "dataset_bytes_per_account", limit_bytes: limit, used_bytes: used, [detail]: bytes },
  );
}

/**
 * How many datasets one account may keep (the operator's not counted), whatever their size: 1,000
 * (probe13 C11: one account stored 3,616 small datasets in 30 s, and its list grew without bound).
 */
export const MAX_DATASETS_PER_ACCOUNT = 1000;

/**
 * @throws PlatformError `dataset_quota_exceeded`, `details: {limit: "datasets_per_account", limit_count,
 *   used_count}`
 */
function assertDatasetCount(used: number): void {
  if (used < MAX_DATASETS_PER_ACCOUNT) return;
  throw new PlatformError(
    "dataset_quota_exceeded",
    `dataset quota reached: an account may keep ${MAX_DATASETS_PER_ACCOUNT} datasets (datasets_per_account) and ` +
      `this account keeps ${used}. Free one by deleting a dataset never published (REST DELETE /api/v1/datasets/{dataset_id})`,
    { limit: "datasets_per_account", limit_count: MAX_DATASETS_PER_ACCOUNT, used_count: used },
  );
}

/**
 * The default bytes of dataset rows and published test sets all accounts but the operator's may keep stored together: 8 GiB
 * (probe11 O5: the per-account quota times free accounts). `Platform.open({datasetBytesAllAccounts})`
 * sets another (`serve --dataset-bytes-all`); null: no bound.
 */
export const DEFAULT_DATASET_BYTES_ALL_ACCOUNTS = 8 * 1024 * 1024 * 1024;

/**
 * Refuses a dataset, or a benchmark's test set, that would take all accounts (but the operator's) past
 * `limit` bytes stored.
 * @throws PlatformError `dataset_quota_exceeded`, `details: {limit: "dataset_bytes_all_accounts",
 *   limit_bytes, used_bytes, dataset_bytes}` (`test_set_bytes` for a test set)
 */
function assertAllDatasetBytes(
  limit: number,
  used: number,
  bytes: number,
  kind: StoredKind = "dataset",
): void {
  if (used + bytes <= limit) return;
  const { what, detail } = STORED_AS[kind];
  throw new PlatformError(
    "dataset_quota_exceeded",
    `dataset quota reached: all accounts together may store ${limit} bytes of dataset rows and published ` +
      `test sets (dataset_bytes_all_accounts); they store ${used} bytes and ${what} ${bytes} bytes. ` +
      `Ask the operator`,
    { limit: "dataset_bytes_all_accounts", limit_bytes: limit, used_bytes: used, [detail]: bytes },
  );
}

/**
 * Counts a benchmark's test set (`bytes`) against the dataset quotas of its dataset's owner (probeD3
 * F6b: a template that repeats fields stored 243 MB of prompts from a 200 KB dataset, which counted
 * 200 KB). Without `t`, a check before the test set is rendered (`bytes` a lower bound, nothing
 * locked); with `t`, inside the publish transaction, the check under the owner's lock then the charge:
 * the dataset's `stored_bytes` grows by `bytes` (a published dataset is kept, so it stays counted).
 * The operator's account is not counted.
 * @throws PlatformError `dataset_quota_exceeded` with `details.test_set_bytes`
 */
async function chargeTestSet(
  ctx: PlatformContext,
  ds: DatasetSummary,
  bytes: number,
  t?: Tables,
): Promise<void> {
  if (isOperatorAccount(ds.owner_account_id)) return;
  const q = t ?? ctx.store;
  const lock = { lock: t !== undefined };
  const limit = ctx.datasetBytesPerAccount;
  if (limit !== null)
    assertDatasetBytes(limit, await q.datasets.bytesOf(ds.owner_account_id, lock), bytes, "test set");
  // inside the transaction the bound of all accounts is checked last ({@link chargeAllAccounts}, after
  // the test set's insert); before it, without a lock
  const allLimit = ctx.datasetBytesAllAccounts;
  if (allLimit !== null && t === undefined)
    assertAllDatasetBytes(allLimit, await q.datasets.bytesOfAll(OPERATOR_ACCOUNT_ID), bytes, "test set");
  if (t !== undefined) await t.datasets.addStoredBytes(ds.dataset_id, bytes);
}

/**
 * The bound of all accounts but the operator's together (probe11 O5) on `bytes` just stored in `t`
 * (a dataset inserted, or a test set charged to its dataset's `stored_bytes`): takes the lock
 * `dataset-bytes:all` (every account's uploads and publishes take it) and checks the sum, which counts
 * those bytes already. Call it last in the transaction, right before its commit: the lock is then held
 * for the check, not for the rows' insert (probe26 A-F1: one publish's 240 MB test-set insert held it
 * ~4 s, and every other account's upload waited); the caller's transaction rolls back on a refusal.
 * Before it, the share of the owner's client network ({@link networkShareOf}, probe30 A-F7), under
 * its lock `dataset-bytes:network:<network>`. `allLimit` null, or the operator's account: no bound,
 * nothing locked.
 * @param owner the account whose dataset it is (its `accounts.network` names the share)
 * @throws PlatformError `dataset_quota_exceeded` (`details.limit: "dataset_bytes_per_network"` or
 *   `"dataset_bytes_all_accounts"`)
 */
async function chargeAllAccounts(
  t: Tables,
  owner: string,
  allLimit: number | null,
  bytes: number,
  kind: StoredKind = "dataset",
): Promise<void> {
  if (allLimit === null || isOperatorAccount(owner)) return;
  // first the share of the owner's client network (probe30 A-F7), its lock before the one of all
  const network = await t.accounts.networkOf(owner);
  if (network !== null) {
    const used = await t.datasets.bytesOfNetwork(network, { lock: true });
    assertNetworkDatasetBytes(networkShareOf(allLimit), used - bytes, bytes, network, kind);
  }
  const used = await t.datasets.bytesOfAll(OPERATOR_ACCOUNT_ID, { lock: true });
  assertAllDatasetBytes(allLimit, used - bytes, bytes, kind);
}

/**
 * Refuses a dataset, or a benchmark's test set, that would take the accounts created from client
 * network `network` past `share` bytes stored ({@link networkShareOf} of the all-accounts bound).
 * @throws PlatformError `dataset_quota_exceeded`, `details: {limit: "dataset_bytes_per_network",
 *   limit_bytes, used_bytes, network, dataset_bytes}` (`test_set_bytes` for a test set)
 */
function assertNetworkDatasetBytes(
  share: number,
  used: number,
  bytes: number,
  network: string,
  kind: StoredKind,
): void {
  if (used + bytes <= share) return;
  const { what, detail } = STORED_AS[kind];
  throw new PlatformError(
    "dataset_quota_exceeded",
    `dataset quota reached: the accounts created from one client network (this account's: ${network}) may ` +
      `store ${share} bytes of dataset rows and published test sets together (dataset_bytes_per_network, ` +
      `1/${NETWORK_SHARE_DIVISOR} of what all accounts may); they store ${used} bytes and ${what} ${bytes} ` +
      `bytes. Free space by deleting a dataset never published, or ask the operator`,
    { limit: "dataset_bytes_per_network", limit_bytes: share, used_bytes: used, network, [detail]: bytes },
  );
}

/** Reads a stored dataset's summary. @throws PlatformError `unknown_dataset` */
export async function getDataset(ctx: PlatformContext, datasetId: string): Promise<DatasetSummary> {
  const d = await ctx.store.datasets.get(datasetId);
  if (!d) throw new PlatformError("unknown_dataset", `no dataset ${datasetId}`, { dataset_id: datasetId });
  return d;
}

/**
 * Publishes a benchmark from a stored dataset (see the module doc for the order of checks).
 * @throws PlatformError `unknown_dataset`, `forbidden` (`operator_only`, `details.field: "seed"`: a seed
 *   under `PublishHow.seedFromOperatorOnly` from anyone but the operator), `benchmark_exists` (the
 *   dataset's, also after losing its slug to a concurrent publish of it; or a test set with a published
 *   root: `details.field: "seed"`, `existing_slug` to its own author only) / `slug_conflict`,
 *   `invalid_option`, `invalid_slug`, `invalid_template`, `missing_placeholder`, `invalid_label`,
 *   `invalid_gold`
 */
/**
 * How many benchmarks one account may publish per period (issue 13 re-probe: 40 operator transactions
 * in 7 s from 2 addresses). Under batched anchoring (`serve`) the operator's commitment transactions
 * are bounded by time (one `anchorMany` per flush) whatever the number of publishes; inline, each
 * publish is one transaction the operator pays.
 */
export interface PublishQuota {
  /** Publishes per period (>= 1). */
  count: number;
  /** The period, in ms. */
  periodMs: number;
  /**
   * Publishes per period by all accounts but the operator's together (an integer >= 1), for an
   * operator who wants one (`serve --publish-budget-all N`); default none. It was 100 by default
   * (probe7 N2), but free accounts from one address filled it and locked every author out for the
   * period (probe8 P2); batched anchoring bounds the operator's gas instead.
   */
  allAccountsCount?: number;
}

/** How a publication runs (not what it publishes). */
export interface PublishHow {
  /**
   * Runs the planning job ({@link planPublication}: seconds of CPU for a large dataset) elsewhere, e.g.
   * the server's dataset worker thread; default: inline.
   */
  planner?: TestSetPlanner;
  /**
   * The latest moment (unix ms) the caller waits for the answer (default: none; the server passes its
   * request's deadline for waits, `AppEnv.revealBy`). One instant serves both waits a publish has: its
   * write begins by it (a planning that ends later, after waiting in the server's dataset worker queue,
   * is refused `server_busy` with nothing written, probe16 A-F5: a publish answered 503
   * `request_timeout` was stored after), and its commitment's anchor, its batch or its immediate
   * transaction, is awaited until it (then the answer says `pending`, and an immediate transaction goes
   * on and is recorded once mined within `ChainConfig.anchorWaitMs`, probe33 A-F5, probe34 A-F1; without it, the batcher's `revealWaitMs` only, probe15
   * A-F9). Two fields would name one deadline twice: the caller's patience ends once.
   */
  answerBy?: number;
  /**
   * The caller is a network client (the server's REST API): a `seed` is accepted from the operator only
   * (`forbidden`, `operator_only`, `details.field: "seed"`; probe29 A-F8). A seed makes the salts (SPEC 3)
   * derivable, so anyone holding it could check a guess of the rows, private labels included, against the
   * public commitment root. The local CLI is the operator of its own store (default: false).
   */
  seedFromOperatorOnly?: boolean;
}

/** How a dataset is stored ({@link storeDataset}). */
export interface StoreHow {
  /** As {@link PublishHow.answerBy}: the write begins by it (the upload was checked in the worker queue). */
  answerBy?: number;
}

/**
 * Refuses a write that would begin past `answerBy` (unix ms, wall clock; see {@link PublishHow.answerBy}).
 * @throws PlatformError `server_busy`, `details: {retry_after_seconds: 5}` (nothing written)
 */
export function assertWriteInTime(
  answerBy: number | undefined,
  what: "publish" | "upload",
  whom = "the dataset worker",
): void {
  if (answerBy === undefined || Date.now() <= answerBy) return;
  throw lateWrite(what, whom);
}

/** The refusal of a write whose waits (for `whom`) passed its deadline: nothing written. */
function lateWrite(what: "publish" | "upload", whom: string): PlatformError {
  return new PlatformError(
    "server_busy",
    `the server is busy: the ${what} waited too long for ${whom} and nothing was ${what === "publish" ? "published" : "stored"}; retry later`,
    { retry_after_seconds: 5 },
  );
}

/** {@link planPublication} on the calling thread. */
const planInline: TestSetPlanner = async (job) => planPublication(job);

/** The store lock (`Store.withLock`) a publish holds for its check and insert under a budget for all accounts. */
export const PUBLISH_BUDGET_LOCK = "publish-budget";

/** The default {@link PublishQuota}: 20 benchmarks per account per 24 hours; no budget for all accounts. */
export const DEFAULT_PUBLISH_QUOTA: PublishQuota = {
  count: 20,
  periodMs: 24 * 3600 * 1000,
};

/**
 * Refuses a publish past the account's {@link PublishQuota}, or past its count for all accounts
 * together when one is set (the operator, who pays, is not counted nor refused). Without `t`, an early
 * check (nothing locked); with `t`, inside the publish transaction before its insert: the account's
 * publish lock is taken first (`lockAccountPublishes`), so concurrent publishes of one account, in one
 * process or several, count each other (probe16 A-F4). The count for all accounts is serialised by
 * the caller's {@link PUBLISH_BUDGET_LOCK}.
 * @throws PlatformError `publish_quota_exceeded`, `details: {limit: "publishes_per_account" or
 *   "publishes_all_accounts", count, period_seconds, retry_after_seconds}`
 */
export async function assertPublishQuota(ctx: PlatformContext, p: Principal, t?: Tables): Promise<void> {
  const quota = ctx.publishQuota;
  if (quota === null || isOperatorAccount(p.account_id)) return;
  const q = t ?? ctx.store;
  if (t !== undefined) await t.benchmarks.lockAccountPublishes(p.account_id);
  const now = ctx.clock();
  const since = isoMillis(now - quota.periodMs);
  const period = Math.round(quota.periodMs / 1000);
  // `newest`: the latest `count` creation times within the period, newest first
  const refuse = (newest: string[], count: number, limit: string, who: string): void => {
    if (newest.length < count) return;
    const freedAt = Date.parse(newest[count - 1]!) + quota.periodMs;
    const retry = Math.max(1, Math.ceil((freedAt - now) / 1000));
    throw new PlatformError(
      "publish_quota_exceeded",
      `publish quota reached: ${who} may publish ${count} benchmarks per ${period} s (${limit}); retry in ${retry} s`,
      { limit, count, period_seconds: period, retry_after_seconds: retry },
    );
  };
  refuse(
    await q.benchmarks.createdSince(since, quota.count, { author: p.account_id }),
    quota.count,
    "publishes_per_account",
    "an account",
  );
  const all = quota.allAccountsCount;
  if (all === undefined) return;
  refuse(
    await q.benchmarks.createdSince(since, all, { notAuthor: OPERATOR_ACCOUNT_ID }),
    all,
    "publishes_all_accounts",
    "all accounts together",
  );
}

/**
 * Publishes the dataset's benchmark (see the module doc), as {@link PublishHow} says. A publish of a
 * request (`how.answerBy`) is counted in `ctx.uploadCalls` until its work ends, like an upload: once
 * the platform stops (`Platform.stopUploads`, `close`) it begins nothing, and one in flight writes
 * nothing after its planning nor inside its transaction before the insert, so the store closes only
 * after its last read or write (probe31 A-F6: the store was closed under a publish, "The database
 * connection is not open").
 * @throws PlatformError as the module doc says; `server_busy` with `details.stopping` once the platform stops
 * @throws PlatformError `forbidden` (`details.rule: "known_key"`) when the calling key was revoked before
 *   the write (`assertKeyActive`, checked in its transaction: probe39 A-F2); nothing written
 */
export function publishBenchmark(
  ctx: PlatformContext,
  author: Principal,
  datasetId: string,
  options: PublishOptions,
  how: PublishHow = {},
): Promise<PublishResult> {
  if (how.answerBy === undefined) return publishNow(ctx, author, datasetId, options, how);
  if (ctx.uploadCalls.stopped) return Promise.reject(uploadStopping("publish"));
  const work = publishNow(ctx, author, datasetId, options, how);
  ctx.uploadCalls.track(work);
  return work;
}

/** The work of {@link publishBenchmark}. */
async function publishNow(
  ctx: PlatformContext,
  author: Principal,
  datasetId: string,
  options: PublishOptions,
  how: PublishHow,
): Promise<PublishResult> {
  const config = benchmarkConfig(options);
  assertSeedAllowed(author, options, how);
  const ds = await getDataset(ctx, datasetId);
  assertDatasetOwner(author, ds);
  await assertPublishQuota(ctx, author);
  const existing = await ctx.store.benchmarks.slugOfDataset(datasetId);
  if (existing !== null) throw benchmarkExists(datasetId, existing);
  if (options.slug !== undefined) {
    if (typeof options.slug !== "string" || !SLUG_RE.test(options.slug))
      throw new PlatformError(
        "invalid_slug",
        "slug must match ^[a-z0-9][a-z0-9-]{1,127}$ (lowercase letters, digits, dashes)",
        { field: "slug" },
      );
    if (RESERVED_SLUGS.includes(options.slug))
      throw new PlatformError(
        "invalid_slug",
        `slug "${options.slug}" is reserved: it names a route of its own (/benchmarks/${options.slug}/...); choose another`,
        { field: "slug", reserved: [...RESERVED_SLUGS] },
      );
    await assertSlugFree(ctx.store, options.slug, datasetId);
  }
  const stored = await ctx.store.datasets.rows(datasetId);
  // deleted meanwhile (its owner's `deleteDataset`): checked again under its lock below
  if (stored.length !== ds.row_count)
    throw new PlatformError("unknown_dataset", `no dataset ${datasetId}`, { dataset_id: datasetId });
  const seed = options.seed;
  // what the rows' count alone refuses, refused before the heavy part (probe17 A-F3)
  assertPackCanFit(ctx, stored.length, options.title.trim(), config);
  // the heavy part (parse, size, render, hash): in the caller's planner (serve: a worker thread)
  const {
    plan,
    prompt_bytes,
    test_set_bytes: testSetBytes,
  } = await (how.planner ?? planInline)({
    bodies: stored.map((r) => r.body_json),
    config,
    salts:
      seed !== undefined
        ? { seed, content_hash: ds.content_hash }
        : { salts: Array.from({ length: stored.length }, () => hex(ctx.randomBytes(32))) },
  });
  assertWriteInTime(how.answerBy, "publish");
  if (ctx.uploadCalls.stopped) throw uploadStopping("publish");
  // the owner's quota for the test set (probeD3 F6: the prompts were sized before rendering, within
  // the pack's limits); checked again in the insert's transaction
  await chargeTestSet(ctx, ds, prompt_bytes);
  const slug = options.slug ?? defaultSlug(ds.name, plan.bank_digest);
  if (options.slug === undefined) await assertSlugFree(ctx.store, slug, datasetId);
  config.max_answer_bytes = awardableAllowance(ctx, plan, options.title.trim(), config, testSetBytes);
  const planSeed =
    seed !== undefined
      ? keccak256Hex(`bench-bounty.plan-seed:${seed}:${plan.bank_digest}`).slice(2)
      : hex(ctx.randomBytes(32));
  const createdAt = isoMillis(ctx.clock());
  // With a budget for all accounts, check and insert hold its lock: on PostgreSQL (READ COMMITTED)
  // concurrent publishes by different accounts each counted the others' rows as absent and all passed.
  // Every lock wait ends by `answerBy` (probe17 A-F2: a publish answered 503 was written after it).
  const budgeted = async <T>(fn: () => Promise<T>): Promise<T> => {
    if (ctx.publishQuota?.allAccountsCount === undefined || isOperatorAccount(author.account_id)) return fn();
    const wait = how.answerBy === undefined ? {} : { waitMs: Math.max(0, how.answerBy - Date.now()) };
    try {
      return await ctx.store.withLock(PUBLISH_BUDGET_LOCK, fn, wait);
    } catch (e) {
      if (e instanceof LockWaitExpired) throw lateWrite("publish", "the publish budget's lock");
      throw e;
    }
  };
  const locksBy = { locksBy: how.answerBy, account: author.account_id };
  const known = await budgeted(() =>
    ctx.store.tx(async (t) => {
      await assertKeyActive(t, author); // the calling key still works (probe39 A-F2)
      // Checked again inside the transaction: another process may have published meanwhile (the
      // unique constraints on slug and dataset_id decide a race the reads did not see).
      // the dataset's row lock, which a deletion takes too: gone now, it is not published
      if ((await t.datasets.getLocked(datasetId)) === null)
        throw new PlatformError("unknown_dataset", `no dataset ${datasetId}`, { dataset_id: datasetId });
      const raced = await t.benchmarks.slugOfDataset(datasetId);
      if (raced !== null) throw benchmarkExists(datasetId, raced);
      await assertPublishQuota(ctx, author, t);
      if (await t.benchmarks.exists(slug)) throw slugConflict(slug);
      // one benchmark per test-set root, under the root's lock (probe27 A-F2): a bounty's root names one
      // benchmark, so nobody's bounty attaches to a copy of it published from the same rows and seed
      await t.benchmarks.lockRoot(plan.root);
      const sameRoot = await t.benchmarks.slugOfRoot(plan.root);
      if (sameRoot !== null)
        throw sameTestSet(
          sameRoot,
          (await t.benchmarks.get(sameRoot))?.author_account_id === author.account_id,
        );
      await chargeTestSet(ctx, ds, testSetBytes, t);
      await ctx.faults.publishBeforeInsert?.(slug);
      // the waits for this transaction and its locks (SQLite: the one connection) may have passed it
      assertWriteInTime(how.answerBy, "publish", "the store's locks");
      if (ctx.uploadCalls.stopped) throw uploadStopping("publish");
      try {
        await t.benchmarks.insert({
          slug,
          dataset_id: datasetId,
          author_account_id: ds.owner_account_id,
          title: options.title.trim(),
          config,
          commit_root: plan.root,
          leaf_count: plan.leaf_count,
          public_count: plan.public_count,
          private_count: plan.leaf_count - plan.public_count,
          plan_seed: planSeed,
          created_at: createdAt,
        });
      } catch (e) {
        if (isUniqueViolation(e)) throw slugConflict(slug);
        throw e;
      }
      await t.tasks.insertAll(slug, plan.rows);
      // the bound of all accounts last, its lock held from here to the commit (probe26 A-F1)
      await chargeAllAccounts(t, ds.owner_account_id, ctx.datasetBytesAllAccounts, testSetBytes, "test set");
      if (!(await anchoredHere(ctx, t))) return null;
      await t.anchors.addPending(plan.root, "commitment", slug, createdAt);
      // A root already anchored (a store from before the one-root rule, or an anchor row left by an
      // earlier benchmark): addPending left its row as it was, so no flush would record it here; its
      // evidence is this benchmark's anchor too.
      const ev = await t.anchors.evidence(plan.root);
      if (ev !== null) await t.benchmarks.setCommitmentAnchor(slug, ev);
      return ev;
    }, locksBy),
  );
  let anchor: AnchorEvidence | null = known;
  let anchorError: string | undefined;
  // Batched: the commitment waits (pending) for the batcher's next anchorMany, within its interval
  // (unless its root was anchored already: `known`, recorded above).
  if (anchor !== null || !ctx.chain) {
    // nothing to send
  } else if (ctx.anchorBatcher) {
    // the answer waits for the batch: the root is shown only once anchored (reveal.ts)
    ctx.anchorBatcher.notify();
    anchor = await ctx.anchorBatcher.anchored(plan.root, how.answerBy);
  } else if (await mayAnchorCommitmentNow(ctx, author, createdAt)) {
    try {
      // its wait ends by the request's deadline, as the batch's does (probe33 A-F5): the send goes on,
      // recorded once mined; the answer says pending
      anchor = await byDeadlineOrNull(anchorCommitment(ctx, slug), how.answerBy);
    } catch (e) {
      // The benchmark is stored; its commitment stays pending (reported here; `anchor` / `award` retry
      // it), or was anchored first by someone else with another kind (reported the same way).
      if (!(e instanceof PlatformError && (e.code === "chain_error" || e.code === "anchor_squatted")))
        throw e;
      anchorError = e.message;
    }
  }
  const withheld = await withheldDigests(ctx.store, [plan.root]);
  const anchorState = withheld.stateOf(plan.root);
  if (!ctx.chain && anchorState === "pending") anchorError = NO_CHAIN_HERE;
  return {
    slug,
    title: options.title.trim(),
    status: "published",
    dataset_id: datasetId,
    commit_root: shownDigest(plan.root, withheld),
    leaf_count: plan.leaf_count,
    public_count: plan.public_count,
    private_count: plan.leaf_count - plan.public_count,
    commitment_anchor: anchor,
    commitment_anchor_status: anchor ? "anchored" : anchorState === "off_chain" ? "off_chain" : "pending",
    ...(anchorError !== undefined ? { commitment_anchor_error: anchorError } : {}),
    config,
    disclosure: DISCLOSURE,
    duplicate_prompts: plan.duplicate_prompts,
  };
}

/**
 * Whether a publish (committed, created at `createdAt`) may send its commitment anchor at once in
 * `immediate` mode: the benchmarks published by all accounts but the operator's within the period of
 * the `ImmediateAnchorQuota` (`runs/finalize.ts`), this one included, are at most its `allAccountsCount` (the
 * account's own count is bounded by the publish quota). Past it the commitment stays pending, as
 * after a failed anchor: the next `anchor <slug>` or the award anchors it (probe12 P3: 20 publishes
 * per account times free accounts, one operator transaction each).
 */
async function mayAnchorCommitmentNow(
  ctx: PlatformContext,
  p: Principal,
  createdAt: string,
): Promise<boolean> {
  const all = ctx.immediateAnchorQuota?.allAccountsCount;
  if (all === undefined || isOperatorAccount(p.account_id)) return true;
  const since = isoMillis(Date.parse(createdAt) - ctx.immediateAnchorQuota!.periodMs + 1);
  return (
    (await ctx.store.benchmarks.createdSince(since, all + 1, { notAuthor: OPERATOR_ACCOUNT_ID })).length <=
    all
  );
}

/**
 * Anchors a benchmark's commitment root (kind `commitment`) and records the evidence; idempotent.
 * @throws PlatformError `no_chain`, `chain_error`, `anchor_squatted` (the root was anchored first by
 *   someone else with another kind: it is recorded as squatted)
 */
export async function anchorCommitment(ctx: PlatformContext, slug: string): Promise<AnchorEvidence> {
  const b = await getBenchmark(ctx, slug);
  if (b.commitment_anchor) return b.commitment_anchor;
  if (!ctx.chain)
    throw new PlatformError("no_chain", "no chain configured: cannot anchor the commitment", {});
  const [ev] = (await anchorDigests(ctx, [b.commit_root], "commitment")) as [AnchorEvidence];
  // anchorDigests recorded it on every benchmark with this root and no anchor yet (this one included)
  return ev;
}

function benchmarkExists(datasetId: string, slug: string): PlatformError {
  return new PlatformError(
    "benchmark_exists",
    `dataset ${datasetId} already has benchmark ${slug} (one benchmark per dataset)`,
    { existing_slug: slug },
  );
}

/**
 * The refusal of a test set whose root is an existing benchmark's (the same rows published with the same
 * `seed`; probe27 A-F2): one root names one benchmark, so an on-chain bounty locked on it is attachable
 * to that benchmark only. Another seed (or none: random salts) gives another root. The benchmark is
 * named only to its own author (`mine`): to anyone else the refusal would confirm a guess of its rows,
 * private labels included (probe29 A-F8).
 */
function sameTestSet(slug: string, mine: boolean): PlatformError {
  const why =
    "(the same rows and seed give the same root, and a bounty locked on a root pays one benchmark): publish with another seed, or none";
  return mine
    ? new PlatformError(
        "benchmark_exists",
        `your benchmark ${slug} already commits to this test set ${why}`,
        {
          existing_slug: slug,
          field: "seed",
        },
      )
    : new PlatformError("benchmark_exists", `a published benchmark already commits to this test set ${why}`, {
        field: "seed",
      });
}

/**
 * Under {@link PublishHow.seedFromOperatorOnly} (a network client) a `seed` is the operator's only
 * (probe29 A-F8).
 * @throws PlatformError `forbidden` (`operator_only`, `details.field: "seed"`)
 */
function assertSeedAllowed(author: Principal, options: PublishOptions, how: PublishHow): void {
  if (how.seedFromOperatorOnly && options.seed !== undefined && !isOperator(author))
    forbid(
      "operator_only",
      "seed is the operator's only (tests and demos: a known seed makes the task salts derivable, so the rows could be checked against the public commitment root); publish without it",
      { field: "seed" },
    );
}

/**
 * Refuses a slug another benchmark has: `benchmark_exists` when that is the dataset's own benchmark (a
 * concurrent publish of the dataset took its default slug first: the rule that refuses is one benchmark
 * per dataset, and another slug would not help; probe29 A-F10), else `slug_conflict`.
 * @throws PlatformError `benchmark_exists` (`details.existing_slug`), `slug_conflict` (`details.field: "slug"`)
 */
async function assertSlugFree(q: Tables, slug: string, datasetId: string): Promise<void> {
  if (!(await q.benchmarks.exists(slug))) return;
  const raced = await q.benchmarks.slugOfDataset(datasetId);
  if (raced !== null) throw benchmarkExists(datasetId, raced);
  throw slugConflict(slug);
}

function slugConflict(slug: string): PlatformError {
  return new PlatformError("slug_conflict", `slug ${slug} is taken; choose another with the slug option`, {
    field: "slug",
    slug,
    hint: `try ${slug}-2`,
  });
}

/** Helper for tests and the CLI: validate + store + publish in one call. */
export async function publishFromInput(
  ctx: PlatformContext,
  author: Principal,
  input: DatasetInput,
  options: PublishOptions,
): Promise<PublishResult & { dataset: DatasetSummary }> {
  const dataset = await createDataset(ctx, author, input);
  const result = await publishBenchmark(ctx, author, dataset.dataset_id, options);
  return { ...result, dataset };
}

/** Re-export for callers that validated separately. */
export type { ValidatedDataset };
