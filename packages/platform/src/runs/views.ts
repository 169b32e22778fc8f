/**
 * Runs as served (SPEC 6.1): one run, the caller's runs page by page, a run's tasks and answers to its
 * owner, and a finalized run's receipt; private figures and receipts only where SPEC 6.1 allows them.
 */
import { type Hex, type Receipt } from "@bench-bounty/evidence";
import { squatFacts } from "../chain.js";
import type { BenchmarkRecord, PlatformContext } from "../context.js";
import { PlatformError } from "../errors.js";
import { getBenchmark, getTasks, isOpen } from "../publish.js";
import {
  assertRunOwner,
  isAuthorOf,
  privateFiguresVisible,
  buyerOnlyHides,
  receiptsVisible,
} from "../identity/access.js";
import { isOperator, type Principal } from "../identity/principal.js";
import { receiptRevealed, shownDigest, withheldDigests, type AnchorState, type Withheld } from "../reveal.js";
import { isoMillis } from "../time.js";
import { checkPage, pageOfRows } from "../paging.js";
import type { RunSummary } from "../store/runs.js";
import { getRun, runAnswers, type ServedTask } from "./record.js";

/**
 * A run as served to a caller (SPEC 6.1): no plan, no salt, no answers; private figures and the receipt
 * only when {@link privateFiguresVisible} / {@link receiptsVisible} allow them.
 */
export interface RunView {
  run_id: string;
  benchmark: string;
  agent_id: string;
  attempt: number;
  status: "in_progress" | "finalized";
  started_at: string;
  finalized_at: string | null;
  task_count: number;
  score_public: string | null;
  score_composite_public: string | null;
  wall_seconds: string | null;
  queries_used: number | null;
  receipt_hash: Hex | null;
  /** Where the receipt hash's anchor stands ({@link AnchorState}); null while the run is in progress. */
  receipt_anchor_status: AnchorState | null;
  score_composite?: string | null;
  rank_accuracy?: string | null;
  receipt?: Receipt | null;
}

/** The run's tasks as served (by ordinal), to the run's owner. @throws PlatformError `unknown_run`, `forbidden` */
export async function runTasks(ctx: PlatformContext, p: Principal, runId: string): Promise<ServedTask[]> {
  const run = await getRun(ctx, runId);
  assertRunOwner(p, run);
  const tasks = await getTasks(ctx, run.slug);
  return run.plan.map((o, i) => ({
    ordinal: i,
    prompt: tasks[o]!.prompt,
    visibility: tasks[o]!.visibility,
    grader_type: tasks[o]!.grader_type,
  }));
}

/** Answers stored for a run (to its owner): ordinal -> answer text. @throws PlatformError `unknown_run`, `forbidden` */
export async function ownRunAnswers(
  ctx: PlatformContext,
  p: Principal,
  runId: string,
): Promise<Map<number, string>> {
  assertRunOwner(p, await getRun(ctx, runId));
  return runAnswers(ctx, runId);
}

/**
 * A run as served to `viewer` (SPEC 6.1). The run's owner, the benchmark's author and the operator may
 * read it; private figures and the receipt follow {@link privateFiguresVisible} / {@link receiptsVisible}.
 * @throws PlatformError `unknown_run`, `forbidden` (`run_owner_only`)
 */
export async function runView(ctx: PlatformContext, viewer: Principal, runId: string): Promise<RunView> {
  const run = await getRun(ctx, runId);
  const b = await getBenchmark(ctx, run.slug);
  if (run.account_id !== viewer.account_id && !isAuthorOf(viewer, b) && !isOperator(viewer))
    assertRunOwner(viewer, run);
  const withheld = await withheldDigests(ctx.store, [run.receipt_hash], [b]);
  return toView(viewer, run, b, await isOpen(ctx, b), withheld, run.receipt);
}

/**
 * A run as served to `viewer`. `receipt`: the one-run view passes the run's receipt (null before
 * finalize) and carries it where {@link receiptsVisible} allows it; a list of runs passes none and never
 * carries one (probe16 A-F7: a page of 1,000 closed runs carried every receipt, ~1.7 GB), only
 * `receipt_hash` and `receipt_anchor_status`. `open`: whether `b` is open (`isOpen`).
 */
function toView(
  viewer: Principal | null,
  run: RunSummary,
  b: BenchmarkRecord,
  open: boolean,
  withheld: Withheld,
  receipt?: Receipt | null,
): RunView {
  const hash = shownDigest(run.receipt_hash, withheld);
  const view: RunView = {
    run_id: run.run_id,
    benchmark: run.slug,
    agent_id: run.agent_id,
    attempt: run.attempt,
    status: run.status,
    started_at: isoMillis(run.started_at_ms),
    finalized_at: run.finalized_at_ms === null ? null : isoMillis(run.finalized_at_ms),
    task_count: run.plan.length,
    score_public: run.score_public,
    score_composite_public: run.score_composite_public,
    wall_seconds: run.wall_seconds,
    queries_used: run.queries_used,
    receipt_hash: hash,
    receipt_anchor_status: run.receipt_hash === null ? null : withheld.stateOf(run.receipt_hash),
  };
  if (privateFiguresVisible(viewer, b, open)) {
    view.score_composite = run.score_composite;
    view.rank_accuracy = run.rank_accuracy;
  }
  if (receipt !== undefined && receiptsVisible(viewer, b, open))
    view.receipt = receiptRevealed(run.receipt_hash, b.commit_root, withheld) ? receipt : null;
  return view;
}

/** Runs per page of the caller's runs when the caller names no `limit` (REST and MCP). */
export const RUNS_PAGE_SIZE = 100;

/** Largest `limit` of one page of the caller's runs (a RunView is about 330 bytes: a page is at most ~330 KB). */
export const RUNS_PAGE_MAX = 1000;

/** One page of the caller's runs: {@link RunView}s `offset .. offset + limit - 1`, newest first. */
export interface RunsPage {
  runs: RunView[];
  offset: number;
  limit: number;
  /** The offset of the next page, null on the last one. */
  next_offset: number | null;
}

/**
 * The caller's runs across all benchmarks, newest first (then by run id), one page (default the first
 * {@link RUNS_PAGE_SIZE}; seed: `GET /benchmarks/runs/mine`, probe15 A-F8: it was every run at once).
 * @throws PlatformError `invalid_option` naming `offset` or `limit` (`limit` at most {@link RUNS_PAGE_MAX})
 */
export async function myRuns(
  ctx: PlatformContext,
  p: Principal,
  page: { offset: unknown; limit: unknown } = { offset: 0, limit: RUNS_PAGE_SIZE },
): Promise<RunsPage> {
  const asked = checkPage(page, RUNS_PAGE_MAX);
  const read = await ctx.store.runs.ofAccount(p.account_id, { offset: asked.offset, limit: asked.limit + 1 });
  const { rows: runs, next_offset } = pageOfRows(read, asked);
  const benches = new Map<string, BenchmarkRecord>();
  const views: RunView[] = [];
  for (const r of runs) if (!benches.has(r.slug)) benches.set(r.slug, await getBenchmark(ctx, r.slug));
  const withheld = await withheldDigests(
    ctx.store,
    runs.map((r) => r.receipt_hash),
    [...benches.values()],
  );
  const open = new Map<string, boolean>();
  for (const [slug, b] of benches) open.set(slug, await isOpen(ctx, b));
  for (const r of runs) {
    views.push(toView(p, r, benches.get(r.slug)!, open.get(r.slug)!, withheld));
  }
  return { runs: views, offset: asked.offset, limit: asked.limit, next_offset };
}

/**
 * A finalized run's receipt (SPEC 6.1: only once the benchmark is closed, or to its author).
 * @throws PlatformError `unknown_run` unless the run is a finalized run of `slug`;
 *   `receipt_withheld` (`details.reason` `withheld_live_contest`) while the benchmark is open,
 *   (`anchor_pending`) while its hash is not anchored yet (`reveal.ts`), and
 *   (`details.reason` `buyer_only`, no hash) to anyone but the author of a `buyer_only` benchmark
 */
export async function receiptOf(
  ctx: PlatformContext,
  viewer: Principal | null,
  slug: string,
  runId: string,
): Promise<{ receipt: Receipt; receipt_hash: Hex }> {
  const run = await getRun(ctx, runId);
  if (run.slug !== slug || run.status !== "finalized" || !run.receipt)
    throw new PlatformError("unknown_run", "no finalized run with this id on this benchmark", {
      run_id: runId,
    });
  const b = await getBenchmark(ctx, slug);
  if (buyerOnlyHides(viewer, b))
    throw new PlatformError(
      "receipt_withheld",
      `receipts of ${slug} are served to its author only (leaderboard_visibility buyer_only)`,
      { reason: "buyer_only", run_id: runId },
    );
  const withheld = await withheldDigests(ctx.store, [run.receipt_hash], [b]);
  const hash = shownDigest(run.receipt_hash, withheld);
  if (!receiptsVisible(viewer, b, await isOpen(ctx, b)))
    throw new PlatformError(
      "receipt_withheld",
      // "anchored" only when it is (probe25 A-F2: an off-chain store's hash is shown, never anchored)
      `receipts of ${slug} are served once it closes (SPEC 6.1)${hash !== null && withheld.stateOf(hash) === "anchored" ? "; its hash is anchored already" : ""}`,
      { reason: "withheld_live_contest", run_id: runId, receipt_hash: hash },
    );
  if (!receiptRevealed(run.receipt_hash, b.commit_root, withheld)) {
    const squatted = [run.receipt_hash!, b.commit_root].find((d) => withheld.squatOf(d) !== null);
    if (squatted !== undefined)
      throw new PlatformError(
        "receipt_withheld",
        `the receipt of run ${runId} is never served: its ${squatted === b.commit_root ? "benchmark's root" : "hash"} was anchored first by someone else with another kind (squatted)`,
        { reason: "anchor_squatted", run_id: runId, ...squatFacts(withheld.squatOf(squatted)!) },
      );
    throw new PlatformError(
      "receipt_withheld",
      `the receipt of run ${runId} is served once its hash and its benchmark's root are anchored (an anchor is pending)`,
      { reason: "anchor_pending", run_id: runId },
    );
  }
  return { receipt: run.receipt, receipt_hash: run.receipt_hash! };
}
