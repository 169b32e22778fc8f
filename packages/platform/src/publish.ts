/**
 * Datasets and publishing (seed "Publish a Benchmark from Your Data"; SPEC 3).
 *
 * Publishing, in order: options are checked; one benchmark per dataset (`benchmark_exists` with
 * `details.existing_slug`); an explicit slug (`^[a-z0-9][a-z0-9-]{1,127}$`, taken: 409
 * `slug_conflict`); prompts rendered for every row (a missing placeholder names the lowest row index
 * and the field); gold shaped per grader (lowest offending row index); the bank: rows sorted by
 * `prompt_hash` ascending (ties, identical prompts, by the row's position in the uploaded dataset), the
 * first `round(n * public_fraction)` (half to even, exact) public, the rest private; per-task salts;
 * the commitment `(root, leaf_count)` from the evidence library; the default slug (slugified dataset
 * name + `-` + the first 8 hex characters of the {@link bankDigest}, taken: 409 `slug_conflict`);
 * everything stored in one transaction; then the root anchored with kind `commitment` when a chain is
 * configured.
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
import type { AnchorEvidence } from "./chain.js";
import type { BenchmarkConfig, PlatformContext } from "./context.js";
import { validateDataset, type DatasetInput, type DatasetRow, type ValidatedDataset } from "./dataset.js";
import { PlatformError } from "./errors.js";
import { fromStored, toStored } from "./json.js";
import { isUniqueViolation } from "./store/executor.js";
import { isoMillis } from "./time.js";
import { assertDatasetOwner, assertRole } from "./identity/access.js";
import type { Principal } from "./identity/principal.js";
import { type PublishOptions, DISCLOSURE, SLUG_RE, defaultSlug, benchmarkConfig } from "./publish/options.js";
import { planTestSet, awardableAllowance, hex } from "./publish/plan.js";
import { getBenchmark } from "./publish/reads.js";

export {
  type PublishOptions,
  DISCLOSURE,
  SLUG_RE,
  defaultSlug,
  publicCount,
  benchmarkConfig,
} from "./publish/options.js";
export { type PlannedTestSet, bankOrder, bankDigest, planTestSet } from "./publish/plan.js";
export {
  getBenchmark,
  answerAllowanceOf,
  listBenchmarks,
  testSetRowOf,
  getTasks,
  isOpen,
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
  commit_root: Hex;
  leaf_count: number;
  public_count: number;
  private_count: number;
  /** The anchor of the root; null off-chain, or when the chain failed (the anchor is then pending, retried by `anchor` / `award`). */
  commitment_anchor: AnchorEvidence | null;
  /** `anchored`, `pending` (the chain failed: `anchor <slug>` or `award` retries it) or `off_chain` (no chain configured). */
  commitment_anchor_status: "anchored" | "pending" | "off_chain";
  /** Why the anchoring failed, when `pending`. */
  commitment_anchor_error?: string;
  config: BenchmarkConfig;
  disclosure: string;
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
  assertRole(owner, "author");
  const v = validateDataset(input);
  // The owner is part of the id: two authors uploading the same rows get two datasets.
  const datasetId = `ds-${keccak256Hex(`${owner.account_id}\n${v.name}\n${v.content_hash}`).slice(2, 18)}`;
  const existing = await ctx.store.datasets.get(datasetId);
  if (existing) return existing;
  const createdAt = isoMillis(ctx.clock());
  const record = {
    dataset_id: datasetId,
    owner_account_id: owner.account_id,
    name: v.name,
    content_hash: v.content_hash,
    row_count: v.rows.length,
    created_at: createdAt,
  };
  const inserted = await ctx.store.tx((t) =>
    t.datasets.insertIfAbsent(
      {
        ...record,
        description: v.description,
        label_policy: v.label_policy,
        options_json: toStored({
          sanitize: v.sanitize,
          bucket_fields: v.bucket_fields,
          time_bound_fields: v.time_bound_fields,
        }),
      },
      v.rows.map((row, i) => ({ row_hash: v.row_hashes[i]!, body_json: toStored(row) })),
    ),
  );
  // Another process stored the same dataset first: same id, same content.
  return inserted ? record : (await ctx.store.datasets.get(datasetId))!;
}

/** Reads a stored dataset's summary. @throws PlatformError `unknown_dataset` */
export async function getDataset(ctx: PlatformContext, datasetId: string): Promise<DatasetSummary> {
  const d = await ctx.store.datasets.get(datasetId);
  if (!d) throw new PlatformError("unknown_dataset", `no dataset ${datasetId}`, { dataset_id: datasetId });
  return d;
}

/**
 * Publishes a benchmark from a stored dataset (see the module doc for the order of checks).
 * @throws PlatformError `unknown_dataset`, `benchmark_exists` / `slug_conflict`,
 *   `invalid_option`, `invalid_slug`, `invalid_template`, `missing_placeholder`, `invalid_label`,
 *   `invalid_gold`
 */
export async function publishBenchmark(
  ctx: PlatformContext,
  author: Principal,
  datasetId: string,
  options: PublishOptions,
): Promise<PublishResult> {
  const config = benchmarkConfig(options);
  const ds = await getDataset(ctx, datasetId);
  assertDatasetOwner(author, ds);
  const existing = await ctx.store.benchmarks.slugOfDataset(datasetId);
  if (existing !== null) throw benchmarkExists(datasetId, existing);
  if (options.slug !== undefined) {
    if (typeof options.slug !== "string" || !SLUG_RE.test(options.slug)) {
      throw new PlatformError(
        "invalid_slug",
        "slug must match ^[a-z0-9][a-z0-9-]{1,127}$ (lowercase letters, digits, dashes)",
        { field: "slug" },
      );
    }
    if (await ctx.store.benchmarks.exists(options.slug)) throw slugConflict(options.slug);
  }
  const stored = await ctx.store.datasets.rows(datasetId);
  const rows = stored.map((r) => fromStored<DatasetRow>(r.body_json));
  const seed = options.seed;
  const salts =
    seed !== undefined
      ? (i: number) => keccak256Hex(`bench-bounty.task-salt:${seed}:${ds.content_hash}:${i}`).slice(2)
      : () => hex(ctx.randomBytes(32));
  const plan = planTestSet(rows, config, salts);
  const slug = options.slug ?? defaultSlug(ds.name, plan.bank_digest);
  if (options.slug === undefined && (await ctx.store.benchmarks.exists(slug))) throw slugConflict(slug);
  config.max_answer_bytes = awardableAllowance(ctx, plan, options.title.trim(), config);
  const planSeed =
    seed !== undefined
      ? keccak256Hex(`bench-bounty.plan-seed:${seed}:${plan.bank_digest}`).slice(2)
      : hex(ctx.randomBytes(32));
  const createdAt = isoMillis(ctx.clock());
  await ctx.store.tx(async (t) => {
    // Checked again inside the transaction: another process may have published meanwhile (the
    // unique constraints on slug and dataset_id decide a race the reads did not see).
    const raced = await t.benchmarks.slugOfDataset(datasetId);
    if (raced !== null) throw benchmarkExists(datasetId, raced);
    if (await t.benchmarks.exists(slug)) throw slugConflict(slug);
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
    if (ctx.chain) await t.anchors.addPending(plan.root, "commitment", slug, createdAt);
  });
  let anchor: AnchorEvidence | null = null;
  let anchorError: string | undefined;
  if (ctx.chain) {
    try {
      anchor = await anchorCommitment(ctx, slug);
    } catch (e) {
      // The benchmark is stored; its commitment stays pending (reported here; `anchor` / `award` retry it).
      if (!(e instanceof PlatformError && e.code === "chain_error")) throw e;
      anchorError = e.message;
    }
  }
  return {
    slug,
    title: options.title.trim(),
    status: "published",
    dataset_id: datasetId,
    commit_root: plan.root,
    leaf_count: plan.leaf_count,
    public_count: plan.public_count,
    private_count: plan.leaf_count - plan.public_count,
    commitment_anchor: anchor,
    commitment_anchor_status: anchor ? "anchored" : ctx.chain ? "pending" : "off_chain",
    ...(anchorError !== undefined ? { commitment_anchor_error: anchorError } : {}),
    config,
    disclosure: DISCLOSURE,
  };
}

/**
 * Anchors a benchmark's commitment root (kind `commitment`) and records the evidence; idempotent.
 * @throws PlatformError `no_chain`, `chain_error`
 */
export async function anchorCommitment(ctx: PlatformContext, slug: string): Promise<AnchorEvidence> {
  const b = await getBenchmark(ctx, slug);
  if (b.commitment_anchor) return b.commitment_anchor;
  if (!ctx.chain)
    throw new PlatformError("no_chain", "no chain configured: cannot anchor the commitment", {});
  const ev = await ctx.chain.anchor(b.commit_root, "commitment");
  await ctx.store.tx(async (t) => {
    await t.anchors.markAnchored(b.commit_root, ev);
    await t.benchmarks.setCommitmentAnchor(slug, ev);
  });
  return ev;
}

function benchmarkExists(datasetId: string, slug: string): PlatformError {
  return new PlatformError(
    "benchmark_exists",
    `dataset ${datasetId} already has benchmark ${slug} (one benchmark per dataset)`,
    { existing_slug: slug },
  );
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
