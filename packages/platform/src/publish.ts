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
 */
import {
  canonicalHash,
  commitTestSet,
  composite,
  isEvidenceError,
  keccak256Hex,
  PACK_LIMITS,
  promptHash,
  testSetLimitProblems,
  valueLimitProblems,
  type Hex,
  type TestSetRow,
} from "@bench-bounty/evidence";
import type { AnchorEvidence } from "./chain.js";
import {
  LEADERBOARD_VISIBILITIES,
  type BenchmarkConfig,
  type BenchmarkRecord,
  type LeaderboardVisibility,
  type PlatformContext,
  type TaskRecord,
} from "./context.js";
import { validateDataset, type DatasetInput, type DatasetRow, type ValidatedDataset } from "./dataset.js";
import { PlatformError, throwRowIssues, type RowIssue } from "./errors.js";
import { GRADER_TYPE_NAMES, normaliseTolerance, shapeGold, type GraderType } from "./gold.js";
import { fromStored, toStored, type JsonObject } from "./json.js";
import type { Tables } from "./store.js";
import {
  answerBudget,
  MAX_PLACES,
  MIN_ANSWER_BYTES,
  packByteLimit,
  testSetPackBytes,
  titlePackBytes,
} from "./pack-budget.js";
import { isUniqueViolation } from "./store/executor.js";
import { parseTemplate, refuseGoldPlaceholders, renderTemplate } from "./template.js";
import { isoMillis } from "./time.js";
import { assertWellFormedText } from "./utf8.js";
import { assertDatasetOwner, assertRole } from "./identity/access.js";
import { isOperator, type Principal } from "./identity/principal.js";

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

/** Options of {@link publishBenchmark} (the body of `POST /datasets/:id/benchmark` in the seed). */
export interface PublishOptions {
  title: string;
  /** Template with plain dotted placeholders, e.g. `"Weather on {payload.date}: ..."`. */
  prompt_template: string;
  grader_type: GraderType;
  /** Dotted path of the gold in each row (default `label`). */
  gold_field?: string;
  /** `numeric`: tolerance (number or decimal string, default 0). */
  tolerance?: number | string;
  /** `exact`: dotted path of a list of alternative answers. */
  alternatives_field?: string;
  /** Share of rows that become public tasks, 0..1 (number or decimal string; default 0.5). */
  public_fraction?: number | string;
  /** Attempts per agent (default 3). */
  max_attempts?: number;
  /** Time budget of the speed term, integer seconds > 0 (default 900). */
  time_budget_seconds?: number;
  /** SPEC 6 speed weight, plain decimal string (default "0.3"). */
  speed_weight?: string;
  /** SPEC 6 cost weight, plain decimal string (default "0"). */
  cost_weight?: string;
  /** SPEC 6 cost budget in USDC with 6 decimals, or null (default null: no cost term). */
  cost_budget_usdc?: string | null;
  /** Public tasks drawn per attempt (default: all public tasks, shuffled). */
  public_tasks_per_run?: number;
  /** Who sees the leaderboard: `public` (default) or `buyer_only` (the author only). */
  leaderboard_visibility?: string;
  /** Explicit slug (`^[a-z0-9][a-z0-9-]{1,127}$`). */
  slug?: string;
  /**
   * Seed for the per-task salts and the run-plan seed. Given: salts are reproducible
   * (`keccak256("bench-bounty.task-salt:" + seed + ":" + content_hash + ":" + ordinal)`; never served
   * before the award) and so is the plan seed (`keccak256("bench-bounty.plan-seed:" + seed + ":" +
   * bank_digest)`, label-free: it orders the public tasks a run serves), which is for tests and demos
   * only: anyone knowing the seed can brute-force private gold from the root. Absent: 32 crypto-random
   * bytes per task and for the plan seed.
   */
  seed?: string;
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
 * The disclosure returned with every publication (seed "Privacy: what competitors can see"). It says
 * what the server did; unlike the seed's wording ("sorted your rows by row_hash"), rows are sorted by
 * `prompt_hash` so that neither the split nor the served order depends on a label (SPEC 6.1).
 */
export const DISCLOSURE =
  "The server sorted your rows by prompt_hash (keccak256 of the rendered prompt; identical prompts keep their upload " +
  "order), so neither the public/private split nor the order tasks are served in depends on a label (SPEC 6.1); " +
  "the first round(n * public_fraction) rows are public. " +
  "The private split hides only the LABELS. The payloads of private rows are rendered into the task prompts every " +
  "competitor receives. Gold answers never appear in any response, and per-task correctness stays hidden until the " +
  "benchmark closes, but the payload data itself is visible to everyone who enters. When the prize is awarded, the " +
  "whole test set (prompts, gold and salts) is revealed in the award evidence pack.";

/** Slug rule of explicit slugs. */
export const SLUG_RE = /^[a-z0-9][a-z0-9-]{1,127}$/;

/**
 * Default slug: slugified name (ASCII letters and digits, runs of others as `-`) + `-` + 8 hex of the
 * {@link bankDigest} (label-free, SPEC 6.1: never of the content hash, which covers the labels).
 */
export function defaultSlug(name: string, bankDigest: string): string {
  const base =
    name
      .normalize("NFKD")
      .replace(/\p{M}+/gu, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 118)
      .replace(/-+$/g, "") || "benchmark";
  return `${base}-${bankDigest.slice(2, 10)}`;
}

/**
 * Number of public tasks: `round(n * public_fraction)` computed exactly, ties to even (Python's
 * `round`, as the seed's server does).
 */
export function publicCount(n: number, publicFraction: string): number {
  const [ip = "0", fp = ""] = publicFraction.split(".");
  const den = 10n ** BigInt(fp.length);
  const num = BigInt(ip + fp) * BigInt(n);
  const q = num / den;
  const r = num % den;
  const twice = 2n * r;
  const up = twice > den || (twice === den && q % 2n === 1n);
  return Number(up ? q + 1n : q);
}

function normaliseFraction(v: unknown): string {
  let s: string;
  if (typeof v === "number" && Number.isFinite(v)) s = String(v);
  else if (typeof v === "string") s = v.trim();
  else
    throw new PlatformError("invalid_option", "public_fraction must be a number between 0 and 1", {
      field: "public_fraction",
    });
  if (!/^(0|1)(\.[0-9]+)?$/.test(s) || (s.startsWith("1") && /[1-9]/.test(s.slice(1)))) {
    throw new PlatformError(
      "invalid_option",
      `public_fraction must be between 0 and 1 in plain notation, got ${s}`,
      { field: "public_fraction" },
    );
  }
  return s;
}

function intOption(
  v: unknown,
  field: string,
  dflt: number,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (v === undefined) return dflt;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min || v > max) {
    throw new PlatformError("invalid_option", `${field} must be an integer between ${min} and ${max}`, {
      field,
    });
  }
  return v;
}

/** Checks publish options and returns the stored configuration. */
export function benchmarkConfig(o: PublishOptions): BenchmarkConfig {
  if (typeof o !== "object" || o === null)
    throw new PlatformError("invalid_option", "publish options must be an object", { field: "$" });
  assertWellFormedText(o, "$", "invalid_option"); // title, description, template, fields: no lone surrogate
  if (typeof o.title !== "string" || o.title.trim() === "")
    throw new PlatformError("invalid_option", "title is required", { field: "title" });
  if (!(GRADER_TYPE_NAMES as readonly string[]).includes(o.grader_type)) {
    throw new PlatformError("invalid_option", `grader_type must be one of ${GRADER_TYPE_NAMES.join(", ")}`, {
      field: "grader_type",
    });
  }
  const templateParts = parseTemplate(o.prompt_template);
  if (o.tolerance !== undefined && o.grader_type !== "numeric") {
    throw new PlatformError("invalid_option", "tolerance applies to the numeric grader only", {
      field: "tolerance",
    });
  }
  const tol = normaliseTolerance(o.tolerance);
  if (typeof tol === "object") throw new PlatformError("invalid_option", tol.error, { field: "tolerance" });
  if (o.alternatives_field !== undefined && o.grader_type !== "exact") {
    throw new PlatformError("invalid_option", "alternatives_field applies to the exact grader only", {
      field: "alternatives_field",
    });
  }
  for (const f of ["gold_field", "alternatives_field"] as const) {
    const v = o[f];
    if (v !== undefined && (typeof v !== "string" || !/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(v))) {
      throw new PlatformError("invalid_option", `${f} must be a plain dotted path such as label.tip5m_bps`, {
        field: f,
      });
    }
  }
  refuseGoldPlaceholders(templateParts, [
    { option: "gold_field", path: o.gold_field ?? "label" },
    ...(o.alternatives_field !== undefined
      ? [{ option: "alternatives_field", path: o.alternatives_field }]
      : []),
  ]);
  const config: BenchmarkConfig = {
    grader_type: o.grader_type,
    prompt_template: o.prompt_template,
    gold_field: o.gold_field ?? "label",
    tolerance: o.grader_type === "numeric" ? tol : null,
    alternatives_field: o.alternatives_field ?? null,
    public_fraction: normaliseFraction(o.public_fraction ?? "0.5"),
    max_attempts: intOption(o.max_attempts, "max_attempts", 3, 1, 1000),
    time_budget_seconds: intOption(o.time_budget_seconds, "time_budget_seconds", 900, 1),
    speed_weight: o.speed_weight ?? "0.3",
    cost_weight: o.cost_weight ?? "0",
    cost_budget_usdc: o.cost_budget_usdc ?? null,
    public_tasks_per_run:
      o.public_tasks_per_run === undefined
        ? null
        : intOption(o.public_tasks_per_run, "public_tasks_per_run", 0, 1),
    leaderboard_visibility: visibilityOption(o.leaderboard_visibility),
  };
  assertPackLimits(o.title, config);
  // The scoring settings are checked by the evidence library's composite (SPEC 6), on a sample run.
  try {
    composite({
      rank_accuracy: "1.0000",
      wall_seconds: "0.000",
      usdc_spent: "0.000000",
      speed_weight: config.speed_weight,
      cost_weight: config.cost_weight,
      time_budget_seconds: config.time_budget_seconds,
      cost_budget_usdc: config.cost_budget_usdc,
    });
  } catch (e) {
    if (isEvidenceError(e)) {
      const field = e.path.replace(/^\$\.?/, "") || "speed_weight";
      throw new PlatformError("invalid_option", `scoring settings: ${e.message}`, { field });
    }
    throw e;
  }
  return config;
}

/**
 * The publish options a pack carries verbatim (SPEC 8: `benchmark.title`, the `scoring` block's
 * decimals, a numeric gold's `tolerance`) must be readable by the default verifier: each within
 * evidence's `PACK_LIMITS` (strings within `maxStringLength`, decimals within `maxDecimalLength`
 * characters), refused here, at publish, rather than found by a verifier after the award.
 * @throws PlatformError `invalid_option` naming the field and the limit
 */
function assertPackLimits(title: string, config: BenchmarkConfig): void {
  const [tooLong] = valueLimitProblems(title, { path: "title", maxProblems: 1 });
  if (tooLong) throw new PlatformError("invalid_option", `title: ${tooLong.message}`, { field: "title" });
  const decimals: [string, string | number | null][] = [
    ["speed_weight", config.speed_weight],
    ["cost_weight", config.cost_weight],
    ["cost_budget_usdc", config.cost_budget_usdc],
    ["tolerance", config.tolerance],
  ];
  for (const [field, v] of decimals) {
    const text = v === null ? "" : String(v);
    if (text.length > PACK_LIMITS.maxDecimalLength)
      throw new PlatformError(
        "invalid_option",
        `${field} is a decimal of ${text.length} characters; the pack a verifier reads carries at most ${PACK_LIMITS.maxDecimalLength} (PACK_LIMITS.maxDecimalLength)`,
        { field, limit: "maxDecimalLength", max: PACK_LIMITS.maxDecimalLength },
      );
  }
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
 * and content). @throws PlatformError `forbidden` (not an author)
 */
export async function storeDataset(
  ctx: PlatformContext,
  owner: Principal,
  d: PreparedDataset,
): Promise<DatasetSummary> {
  assertRole(owner, "author");
  // The owner is part of the id: two authors uploading the same rows get two datasets.
  const datasetId = `ds-${keccak256Hex(`${owner.account_id}\n${d.name}\n${d.content_hash}`).slice(2, 18)}`;
  const existing = await ctx.store.datasets.get(datasetId);
  if (existing) return existing;
  const createdAt = isoMillis(ctx.clock());
  const record = {
    dataset_id: datasetId,
    owner_account_id: owner.account_id,
    name: d.name,
    content_hash: d.content_hash,
    row_count: d.rows.length,
    created_at: createdAt,
  };
  const inserted = await ctx.store.tx((t) =>
    t.datasets.insertIfAbsent(
      { ...record, description: d.description, label_policy: d.label_policy, options_json: d.options_json },
      d.rows,
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

/** The test set a publication would commit to (pure: nothing stored). */
export interface PlannedTestSet {
  rows: (TestSetRow & { row_index: number })[];
  public_count: number;
  root: Hex;
  leaf_count: number;
  /** {@link bankDigest} of the rows: label-free, what the default slug and the seeded plan seed use. */
  bank_digest: Hex;
}

/**
 * The bank order (SPEC 3 ordinals, SPEC 6.1): row indexes sorted by `prompt_hash` ascending, identical
 * prompts by their position in the uploaded dataset. Computed from prompts only: no label moves a row.
 * @param promptHashes `prompt_hash` per row, in upload order (bare lowercase hex, SPEC 3)
 */
export function bankOrder(promptHashes: readonly string[]): number[] {
  return promptHashes
    .map((_, i) => i)
    .sort((a, b) => {
      const x = promptHashes[a]!;
      const y = promptHashes[b]!;
      return x < y ? -1 : x > y ? 1 : a - b;
    });
}

/**
 * The label-free digest of a bank: `keccak256(canonical_json([prompt_hash, ...]))` over the prompt
 * hashes in bank order (0x hex). Identical prompts give the identical digest; it reveals nothing a run
 * does not serve (SPEC 6.1).
 */
export function bankDigest(promptHashesInBankOrder: readonly string[]): Hex {
  return canonicalHash([...promptHashesInBankOrder]);
}

/**
 * Renders prompts, shapes gold, sorts by prompt hash ({@link bankOrder}), splits and salts: the pure
 * part of publishing.
 * @param salts salt per ordinal
 * @throws PlatformError `missing_placeholder` / `invalid_label` / `invalid_gold` naming the lowest row
 */
export function planTestSet(
  rows: DatasetRow[],
  config: BenchmarkConfig,
  salts: (ordinal: number) => string,
): PlannedTestSet {
  const parts = parseTemplate(config.prompt_template);
  const prompts: string[] = [];
  const missing: RowIssue[] = [];
  rows.forEach((row, i) => {
    const r = renderTemplate(parts, row);
    if (typeof r === "string") prompts.push(r);
    else
      missing.push({
        row_index: i,
        field: r.missing,
        code: "missing_placeholder",
        message: `placeholder {${r.missing}} is not in this row`,
      });
  });
  throwRowIssues("missing_placeholder", missing, "prompt_template");
  const golds: JsonObject[] = [];
  const goldIssues: RowIssue[] = [];
  rows.forEach((row, i) => {
    const g = shapeGold(config.grader_type as GraderType, row, i, {
      gold_field: config.gold_field,
      ...(config.tolerance !== null ? { tolerance: config.tolerance } : {}),
      ...(config.alternatives_field !== null ? { alternatives_field: config.alternatives_field } : {}),
    });
    if ("issue" in g) goldIssues.push(g.issue);
    else golds.push(g.gold);
  });
  if (goldIssues.length > 0) {
    const code =
      goldIssues.sort((a, b) => a.row_index - b.row_index)[0]!.code === "invalid_gold"
        ? "invalid_gold"
        : "invalid_label";
    throwRowIssues(code, goldIssues, "gold");
  }
  // the template and the rows were checked well-formed: every prompt has a UTF-8 encoding
  const promptHashes = prompts.map((prompt) => promptHash(prompt));
  const order = bankOrder(promptHashes);
  const nPublic = publicCount(rows.length, config.public_fraction);
  const testSet = order.map((rowIndex, ordinal) => ({
    ordinal,
    prompt: prompts[rowIndex]!,
    gold: golds[rowIndex]!,
    salt: salts(ordinal),
    visibility: (ordinal < nPublic ? "public" : "private") as "public" | "private",
    grader_type: config.grader_type,
    row_index: rowIndex,
  }));
  const beyond = testSetLimitProblems(testSet); // the pack a verifier reads (evidence's PACK_LIMITS)
  throwRowIssues(
    "invalid_dataset",
    beyond.map((p) => ({
      row_index: p.ordinal === null ? -1 : testSet[p.ordinal]!.row_index,
      field: p.path,
      code: p.code,
      message: p.message,
    })),
    "test set",
  );
  const c = commitTestSet(testSet.map(({ row_index: _r, ...row }) => row));
  return {
    rows: testSet,
    public_count: nPublic,
    root: c.root,
    leaf_count: c.leafCount,
    bank_digest: bankDigest(order.map((i) => promptHashes[i]!)),
  };
}

/** Most tasks of one run: every private task plus `public_tasks_per_run` of the public ones (or all). */
function runTaskCount(
  config: Pick<BenchmarkConfig, "public_tasks_per_run">,
  publicCount: number,
  privateCount: number,
): number {
  const publicPerRun =
    config.public_tasks_per_run === null ? publicCount : Math.min(config.public_tasks_per_run, publicCount);
  return privateCount + publicPerRun;
}

/**
 * The benchmark's per-answer allowance (the pack budget, `pack-budget.ts`), from public figures only
 * (the pack limit, the title, the run's task count: SPEC 6.1). A benchmark whose award pack could not
 * fit the verifier's limit with every winner answering at {@link MIN_ANSWER_BYTES} is refused, as is a
 * test set over the budget's reserve for it (only under a test's lowered pack limit: at the real one the
 * reserve is evidence's `maxTestSetBytes`, checked before). Both refusals go to the author only.
 * @throws PlatformError `invalid_dataset` (`details.limit: "maxPackBytes"` and the budget's figures)
 */
function awardableAllowance(
  ctx: PlatformContext,
  plan: { rows: TestSetRow[]; public_count: number; leaf_count: number },
  title: string,
  config: BenchmarkConfig,
): number {
  const budget = answerBudget({
    maxPackBytes: packByteLimit(ctx),
    titleBytes: titlePackBytes(title),
    runTasks: runTaskCount(config, plan.public_count, plan.leaf_count - plan.public_count),
  });
  const testSetBytes = testSetPackBytes(plan.rows);
  if (budget.maxAnswerBytes < MIN_ANSWER_BYTES || testSetBytes > budget.testSetBytes)
    throw new PlatformError(
      "invalid_dataset",
      `the award's evidence pack could not fit the ${budget.maxPackBytes} bytes (PACK_LIMITS.maxPackBytes) a verifier reads: ` +
        `with ${budget.testSetBytes} bytes set aside for the test set (it takes ${testSetBytes}) and ${MAX_PLACES} winners' receipts of ${budget.runTasks} tasks ${budget.winnersBytes}, ` +
        `${budget.maxAnswerBytes} bytes are left per answer (at least ${MIN_ANSWER_BYTES} needed): use fewer or shorter rows, or set public_tasks_per_run`,
      {
        field: "test set",
        limit: "maxPackBytes",
        max_pack_bytes: budget.maxPackBytes,
        test_set_bytes: testSetBytes,
        test_set_reserve_bytes: budget.testSetBytes,
        fixed_bytes: budget.fixedBytes,
        rows_bytes: budget.rowsBytes,
        winners_bytes: budget.winnersBytes,
        run_tasks: budget.runTasks,
        places: MAX_PLACES,
        max_answer_bytes: budget.maxAnswerBytes,
        min_answer_bytes: MIN_ANSWER_BYTES,
      },
    );
  return budget.maxAnswerBytes;
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

/**
 * Publishes a benchmark from a stored dataset (see the module doc for the order of checks).
 * @throws PlatformError `unknown_dataset`, `benchmark_exists` / `slug_conflict`,
 *   `invalid_option`, `invalid_slug`, `invalid_template`, `missing_placeholder`, `invalid_label`,
 *   `invalid_gold`
 */
/**
 * How many benchmarks one account may publish per period: each publish anchors its commitment, one
 * transaction the operator pays (issue 13 re-probe: 40 operator transactions in 7 s from 2 addresses).
 */
export interface PublishQuota {
  /** Publishes per period (>= 1). */
  count: number;
  /** The period, in ms. */
  periodMs: number;
}

/** The default {@link PublishQuota}: 20 benchmarks per account per 24 hours. */
export const DEFAULT_PUBLISH_QUOTA: PublishQuota = { count: 20, periodMs: 24 * 3600 * 1000 };

/**
 * Refuses a publish past the account's {@link PublishQuota} (the operator, who pays, is not counted).
 * @throws PlatformError `publish_quota_exceeded`, `details: {limit: "publishes_per_account", count,
 *   period_seconds, retry_after_seconds}`
 */
export async function assertPublishQuota(
  ctx: PlatformContext,
  p: Principal,
  q: Tables = ctx.store,
): Promise<void> {
  const quota = ctx.publishQuota;
  if (quota === null || isOperator(p)) return;
  const now = ctx.clock();
  const recent = await q.benchmarks.createdSince(p.account_id, isoMillis(now - quota.periodMs));
  if (recent.length < quota.count) return;
  const freedAt = Date.parse(recent[recent.length - quota.count]!) + quota.periodMs;
  const retry = Math.max(1, Math.ceil((freedAt - now) / 1000));
  const period = Math.round(quota.periodMs / 1000);
  throw new PlatformError(
    "publish_quota_exceeded",
    `publish quota reached: an account may publish ${quota.count} benchmarks per ${period} s (publishes_per_account); retry in ${retry} s`,
    {
      limit: "publishes_per_account",
      count: quota.count,
      period_seconds: period,
      retry_after_seconds: retry,
    },
  );
}

export async function publishBenchmark(
  ctx: PlatformContext,
  author: Principal,
  datasetId: string,
  options: PublishOptions,
): Promise<PublishResult> {
  const config = benchmarkConfig(options);
  const ds = await getDataset(ctx, datasetId);
  assertDatasetOwner(author, ds);
  await assertPublishQuota(ctx, author);
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
    await assertPublishQuota(ctx, author, t);
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

/**
 * Reads a benchmark (through `q`: the store, or the tables of a transaction).
 * @throws PlatformError `unknown_benchmark`
 */
export async function getBenchmark(
  ctx: PlatformContext,
  slug: string,
  q: Tables = ctx.store,
  opts: { lock?: boolean } = {},
): Promise<BenchmarkRecord> {
  const b = await q.benchmarks.get(slug, opts);
  if (!b) throw new PlatformError("unknown_benchmark", `no benchmark ${slug}`, { slug });
  return b;
}

/**
 * A benchmark's per-answer allowance in canonical-JSON bytes (`config.max_answer_bytes`, see
 * `pack-budget.ts`); for a benchmark stored before the rule, derived from its public figures (the pack
 * limit in force, its title, its run's task count), never from its tasks (SPEC 6.1).
 */
export async function answerAllowanceOf(ctx: PlatformContext, b: BenchmarkRecord): Promise<number> {
  if (b.config.max_answer_bytes !== undefined) return b.config.max_answer_bytes;
  return Math.max(
    0,
    answerBudget({
      maxPackBytes: packByteLimit(ctx),
      titleBytes: titlePackBytes(b.title),
      runTasks: runTaskCount(b.config, b.public_count, b.private_count),
    }).maxAnswerBytes,
  );
}

/** All benchmarks, oldest first. */
export function listBenchmarks(ctx: PlatformContext): Promise<BenchmarkRecord[]> {
  return ctx.store.benchmarks.list();
}

/**
 * The committed test-set row of a stored task (SPEC 3: ordinal, prompt, gold, salt, visibility,
 * grader type), as `commitTestSet` and the pack's `test_set` take it.
 */
export function testSetRowOf(t: TaskRecord): TestSetRow {
  return {
    ordinal: t.ordinal,
    prompt: t.prompt,
    gold: t.gold as TestSetRow["gold"],
    salt: t.salt,
    visibility: t.visibility,
    grader_type: t.grader_type,
  };
}

/** Test sets kept in memory per store: benchmarks of at most this many tasks, this many tasks in all. */
const TASKS_CACHED_PER_BENCHMARK = 20_000;
const TASKS_CACHED_TOTAL = 200_000;
const taskCaches = new WeakMap<PlatformContext, Map<string, readonly TaskRecord[]>>();

function deepFreeze<T>(v: T): T {
  if (typeof v === "object" && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

/**
 * The test set of a benchmark in ordinal order (gold and salts included: never serve this before the
 * award). Read outside a transaction, a published test set is kept in memory (frozen, shared): it never
 * changes after publication, and start and finalize read it on every run. Bounded by
 * {@link TASKS_CACHED_TOTAL}; an unknown slug (no tasks) is never kept.
 */
export async function getTasks(
  ctx: PlatformContext,
  slug: string,
  q: Tables = ctx.store,
): Promise<TaskRecord[]> {
  if (q !== ctx.store) return q.tasks.ofBenchmark(slug);
  let cache = taskCaches.get(ctx);
  if (!cache) taskCaches.set(ctx, (cache = new Map()));
  const hit = cache.get(slug);
  if (hit) return hit as TaskRecord[];
  const tasks = await q.tasks.ofBenchmark(slug);
  if (tasks.length === 0 || tasks.length > TASKS_CACHED_PER_BENCHMARK) return tasks;
  let total = tasks.length;
  for (const t of cache.values()) total += t.length;
  if (total > TASKS_CACHED_TOTAL) cache.clear();
  cache.set(slug, deepFreeze(tasks));
  return tasks;
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

/** True while the benchmark accepts runs: published, and before the bounty's `closes_at` by the platform clock. */
export function isOpen(ctx: PlatformContext, b: BenchmarkRecord): boolean {
  if (b.status !== "published") return false;
  return b.bounty === null || ctx.clock() < b.bounty.closes_at * 1000;
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

/**
 * The `leaderboard_visibility` option (default `public`).
 * @throws PlatformError `invalid_option` naming the field for anything but `public` or `buyer_only`
 */
function visibilityOption(v: string | undefined): LeaderboardVisibility {
  if (v === undefined) return "public";
  if ((LEADERBOARD_VISIBILITIES as readonly string[]).includes(v)) return v as LeaderboardVisibility;
  throw new PlatformError(
    "invalid_option",
    `leaderboard_visibility must be one of ${LEADERBOARD_VISIBILITIES.join(", ")}, got ${JSON.stringify(v)}`,
    { field: "leaderboard_visibility" },
  );
}
