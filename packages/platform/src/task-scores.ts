/**
 * Per-task credit of every finalized run of a benchmark: the per-task score tables of the leaderboard
 * and the GAOS `taskScores` (RFC-015 section 6), issue 17.
 *
 * Why it is computed rather than read: a receipt of a run finalized while its benchmark was open
 * carries `credit: null` on every task (SPEC 4), and its hash was anchored at finalize, so it never
 * changes. Once the benchmark is closed, SPEC 6.1 lets everyone see figures computed from private
 * tasks. So the credits are regraded from the stored gold and answers with the graders of SPEC 5 and
 * the run's scores recomputed from them ({@link gradePlan} and {@link scoreGraded}, the functions
 * finalize scored the run with): the credits served are the ones behind the stored `score_public`,
 * `rank_accuracy` and `score_composite`, and a run whose recomputation disagrees with what is stored
 * is refused (`invalid_store`) rather than served.
 *
 * Who sees what, by stage (who may read the answer at all is {@link receiptsVisible}, served when
 * receipts are; which private credits it carries is {@link privateCreditsVisible}):
 * - **open**: the author only. Everyone else is refused `task_scores_withheld` (`details.reason`
 *   `withheld_live_contest`): private credits are computed from private tasks (SPEC 6.1), and a
 *   run's public per-task correctness reaches its own agent only once its attempts are used up (the
 *   compete seed, finalize), which a table of everyone's public credits would undo;
 * - **closed** (not awarded: the award window running, its deadline passed, the prize reclaimed, or no
 *   bounty): everyone gets every public task's credit; a private task's `credit` is null
 *   (`private_credits: "withheld"`) for everyone but the author (probe36 C-F2: a constant answer's
 *   credit on a private task is its label, and an unawarded prize never reveals its test set, SPEC 1.1
 *   `reclaim`);
 * - **awarded**: everyone, every task, public and private: the award pack reveals the test set anyway
 *   (SPEC 8). Credits reveal neither the gold nor the answers, which leave the store only in the pack;
 * - a `buyer_only` benchmark: its author only, at every stage (`forbidden`, rule `benchmark_author_only`),
 *   as its leaderboard.
 */
import type { PreparedGold } from "@bench-bounty/evidence";
import type { Hex } from "@bench-bounty/evidence";
import type { BenchmarkRecord, PlatformContext, TaskRecord } from "./context.js";
import { PlatformError } from "./errors.js";
import { gradePlanSliced, scoreGraded, type RunScores } from "./grading.js";
import { forbid, isAuthorOf, privateCreditsVisible, receiptsVisible } from "./identity/access.js";
import type { Principal } from "./identity/principal.js";
import { checkPage, pageOfRows, type PageRequest } from "./paging.js";
import { getTasks, isOpen } from "./publish.js";
import { deepFreeze } from "./publish/reads.js";
import { checkRunId, type RunRecord } from "./runs.js";
import { shownDigest, withheldDigests } from "./reveal.js";
import { isoMillis } from "./time.js";

/** The credit of one task of a run. */
export interface TaskCredit {
  /** Position in the run (the receipt's `ordinal`). */
  ordinal: number;
  /** Bank ordinal (SPEC 3; the receipt's `bank_ordinal`, the GAOS `taskScores` key). */
  bank_ordinal: number;
  visibility: "public" | "private";
  /**
   * SPEC 6 credit, a reduced fraction string (`"1/1"`, `"0/1"`, `"2/3"`); an unanswered task is `"0/1"`.
   * Null on a private task while its credit is withheld (`TaskScores.private_credits`, {@link privateCreditsVisible}).
   */
  credit: string | null;
}

/** The per-task credits of one finalized run, with the scores recomputed from them. */
export interface RunTaskScores {
  run_id: string;
  agent_id: string;
  attempt: number;
  finalized_at: string;
  /** Null while its anchor is pending (`reveal.ts`). */
  receipt_hash: Hex | null;
  /** Recomputed from `tasks` (SPEC 6); equal to the stored and served figure. */
  score_public: string;
  /** Recomputed from `tasks`: SPEC 6 `accuracy` (private tasks when the bank has any). */
  rank_accuracy: string;
  /** Recomputed from `tasks` with the run's wall clock and spend: the ranking composite. */
  score_composite: string;
  /** In run order. */
  tasks: TaskCredit[];
}

/** The per-task credits of a benchmark's finalized runs. */
export interface TaskScores {
  slug: string;
  status: BenchmarkRecord["status"];
  open: boolean;
  /** `open` (served to the author only), `closed` or `awarded` (served to everyone the board is for). */
  stage: "open" | "closed" | "awarded";
  /** Who this answer may be served to at this stage. */
  served_to: "author" | "everyone";
  /**
   * Whether private tasks' credits are in this answer (`shown`) or null (`withheld`: closed but not
   * awarded, to anyone but the author; {@link privateCreditsVisible}).
   */
  private_credits: "shown" | "withheld";
  /** What is revealed at this stage and what is not (plain text, for the tables). */
  note: string;
  /** The bank's tasks by bank ordinal: the columns of a per-task table. */
  bank: { bank_ordinal: number; visibility: "public" | "private"; grader_type: string }[];
  /** This page's finalized runs, in start order (then run id); asked by id: in the order asked. */
  runs: RunTaskScores[];
  /** The 0-based position of the page's first run among the benchmark's finalized runs (asked by id: 0). */
  offset: number;
  /**
   * The runs this page may hold: the asked limit (asked by id: the number of ids), lowered so that runs
   * x bank tasks <= {@link MAX_TASK_SCORE_CELLS}.
   */
  limit: number;
  /** The offset of the next page (asked by id: of the first id not covered), null on the last one. */
  next_offset: number | null;
}

/** Runs per page of {@link taskScores} by default. */
export const TASK_SCORES_PAGE_SIZE = 100;
/** Most runs a page of {@link taskScores} may ask for. */
export const TASK_SCORES_PAGE_MAX = 1000;
/**
 * Most run-task cells (runs x bank tasks) of one page of per-task credits, here and in the GAOS
 * entries (probe16 A-F8: every run x every task was one answer, 8.2 MB for 9 runs of 10,010 tasks). A
 * cell is about 70 bytes of JSON, so a page of runs is at most about 1.4 MB, plus the bank's columns.
 */
export const MAX_TASK_SCORE_CELLS = 20_000;

/**
 * How many runs one page of per-task credits holds: `limit`, lowered so that runs x `bankSize` stays
 * within {@link MAX_TASK_SCORE_CELLS}, and at least one run (a bank is at most the publish limit of tasks).
 */
export function taskScoresPageRuns(limit: number, bankSize: number): number {
  return Math.max(1, Math.min(limit, Math.floor(MAX_TASK_SCORE_CELLS / Math.max(1, bankSize))));
}

const NOTES = {
  open:
    "Served to the benchmark's author only while it is open. Everyone else sees per-task credits once " +
    "it closes (SPEC 6.1).",
  closed:
    "Every task's credit, public and private, regraded from the stored answers (SPEC 5, 6.1); served so to " +
    "the benchmark's author. The gold and the answers stay sealed until the award pack reveals the test " +
    "set (SPEC 8).",
  closed_withheld:
    "Public tasks' credit, regraded from the stored answers (SPEC 5, 6.1). Private tasks' credit is shown " +
    "once the award reveals the test set, never for a reclaimed prize (SPEC 1.1, 8); the runs' private " +
    "scores are public from the close (SPEC 6.1), so a closed test set is spent: never lock a new prize on it.",
  awarded:
    "Every task's credit, public and private, regraded from the stored answers (SPEC 5, 6.1). The award " +
    "pack carries the test set and the winners' answers: regrade them with `bench-bounty-verify` (SPEC 9).",
} as const;

/**
 * The benchmark of `slug` if `viewer` may read its per-task credits (see the module doc).
 * @throws PlatformError as {@link taskScores}
 */
async function readableBenchmark(
  ctx: PlatformContext,
  viewer: Principal | null,
  slug: string,
): Promise<{ b: BenchmarkRecord; open: boolean; version: number; showPrivate: boolean }> {
  const versioned = await ctx.store.benchmarks.getVersioned(slug);
  if (!versioned) throw new PlatformError("unknown_benchmark", `no benchmark ${slug}`, { slug });
  const { record: b, board_version: version } = versioned;
  const open = await isOpen(ctx, b);
  if ((b.config.leaderboard_visibility ?? "public") === "buyer_only" && !isAuthorOf(viewer, b))
    forbid("benchmark_author_only", `the per-task scores of ${slug} are for its buyer only`, { slug });
  if (!receiptsVisible(viewer, b, open))
    throw new PlatformError(
      "task_scores_withheld",
      `per-task scores of ${slug} are served once it closes (SPEC 6.1)`,
      { reason: "withheld_live_contest", slug },
    );
  return { b, open, version, showPrivate: privateCreditsVisible(viewer, b) };
}

/**
 * One page of the per-task credits of the finalized runs of `slug` (start order, then run id), as
 * `viewer` may see them (see the module doc). Paged over runs (SQL `LIMIT`/`OFFSET`; only the page's
 * runs are read, and the answers of those not graded yet: each finalized run is graded once and kept,
 * {@link GRADED_CELLS_KEPT}): `limit` runs at most (default {@link TASK_SCORES_PAGE_SIZE},
 * at most {@link TASK_SCORES_PAGE_MAX}), lowered so that runs x bank tasks stays within
 * {@link MAX_TASK_SCORE_CELLS} (the answer's `limit` says how many); `next_offset` continues it.
 * The answer is frozen and the same object until the benchmark's `board_version` moves (finalize,
 * close, award, an anchor; {@link PAGE_CELLS_KEPT}), so the edge serialises and hashes it once.
 * @throws PlatformError `invalid_option` naming `offset` or `limit`; `unknown_benchmark` (404);
 *   `forbidden` (`benchmark_author_only`) on a `buyer_only` benchmark for anyone but its author;
 *   `task_scores_withheld` (reason `withheld_live_contest`) while open for anyone but its author;
 *   `invalid_store` when a regrade disagrees with the stored scores
 */
export async function taskScores(
  ctx: PlatformContext,
  viewer: Principal | null,
  slug: string,
  page: { offset: unknown; limit: unknown } = { offset: 0, limit: TASK_SCORES_PAGE_SIZE },
): Promise<TaskScores> {
  const asked = checkPage(page, TASK_SCORES_PAGE_MAX);
  const { b, open, version, showPrivate } = await readableBenchmark(ctx, viewer, slug);
  const tasks = await getTasks(ctx, b.slug);
  const request: PageRequest = { offset: asked.offset, limit: taskScoresPageRuns(asked.limit, tasks.length) };
  // The page is the same until the board's version moves (finalize, close, award, a receipt anchor):
  // who may read it was checked above, and the answer itself names no viewer.
  const key = `${b.slug}|${version}|${open}|${b.status}|${showPrivate}|${request.offset}|${request.limit}`;
  const pages = cacheOf(pageCaches, ctx, PAGE_CELLS_KEPT);
  const hit = pages.get(key);
  if (hit) return hit;
  // Runs first, then their answers: a run finalized in between is not on this page's read, and a
  // finalized run's answers never change (submit refuses after finalize).
  const read = await ctx.store.runs.finalizedOfBenchmark(b.slug, {
    offset: request.offset,
    limit: request.limit + 1,
  });
  const { rows, next_offset } = pageOfRows(read, request);
  const runs = await regrade(ctx, b, tasks, rows, showPrivate);
  const answer = answerOf(b, open, showPrivate, tasks, runs, {
    offset: request.offset,
    limit: request.limit,
    next_offset,
  });
  pages.set(key, answer, Math.max(1, rows.length * tasks.length));
  return answer;
}

/** The frozen {@link TaskScores} answer of `runs` (graded) at `b`'s stage, with its paging fields. */
function answerOf(
  b: BenchmarkRecord,
  open: boolean,
  showPrivate: boolean,
  tasks: TaskRecord[],
  runs: RunTaskScores[],
  paging: Pick<TaskScores, "offset" | "limit" | "next_offset">,
): TaskScores {
  const stage = open ? "open" : b.status === "awarded" ? "awarded" : "closed";
  return deepFreeze({
    slug: b.slug,
    status: b.status,
    open,
    stage,
    served_to: open ? "author" : "everyone",
    private_credits: showPrivate ? "shown" : "withheld",
    note: NOTES[stage === "closed" && !showPrivate ? "closed_withheld" : stage],
    bank: tasks.map((t) => ({
      bank_ordinal: t.ordinal,
      visibility: t.visibility,
      grader_type: t.grader_type,
    })),
    runs,
    ...paging,
  } satisfies TaskScores);
}

/** Most run ids one {@link taskScoresOfIds} request may name: a page of the leaderboard's rows. */
export const TASK_SCORES_IDS_MAX = 100;

/**
 * The per-task credits of the runs `runIds` of `slug` (the rows of a leaderboard page, so a board shows
 * the credits of exactly the rows it shows, probe20 F1), as {@link taskScores} serves them, in the order
 * asked; an id that is not a finalized run of `slug` is absent. The answer covers the first `limit` ids
 * asked, `limit` lowered so that runs x bank tasks stays within {@link MAX_TASK_SCORE_CELLS}; `offset` is
 * 0 and `next_offset` the position in `runIds` of the first id not covered (ask again from there), null
 * when all are.
 * @param runIds 1 to {@link TASK_SCORES_IDS_MAX} distinct run ids (`run-` and 16 hex digits)
 * @throws PlatformError `invalid_option` naming `run_ids` or `run_ids[i]`; the rest as {@link taskScores}
 */
export async function taskScoresOfIds(
  ctx: PlatformContext,
  viewer: Principal | null,
  slug: string,
  runIds: unknown,
): Promise<TaskScores> {
  const ids = checkRunIds(runIds);
  const { b, open, showPrivate } = await readableBenchmark(ctx, viewer, slug);
  const tasks = await getTasks(ctx, b.slug);
  const limit = taskScoresPageRuns(ids.length, tasks.length);
  const asked = ids.slice(0, limit);
  const found = new Map((await ctx.store.runs.finalizedByIds(b.slug, asked)).map((r) => [r.run_id, r]));
  const rows = asked.flatMap((id) => found.get(id) ?? []);
  const runs = await regrade(ctx, b, tasks, rows, showPrivate);
  return answerOf(b, open, showPrivate, tasks, runs, {
    offset: 0,
    limit,
    next_offset: limit < ids.length ? limit : null,
  });
}

/** `runIds` as {@link taskScoresOfIds} takes them. @throws PlatformError `invalid_option` naming the field */
function checkRunIds(runIds: unknown): string[] {
  if (!Array.isArray(runIds) || runIds.length < 1 || runIds.length > TASK_SCORES_IDS_MAX)
    throw new PlatformError(
      "invalid_option",
      `run_ids must be a list of 1 to ${TASK_SCORES_IDS_MAX} run ids`,
      { field: "run_ids" },
    );
  const seen = new Set<string>();
  runIds.forEach((id, i) => {
    checkRunId(id, `run_ids[${i}]`);
    if (seen.has(id))
      throw new PlatformError("invalid_option", `run_ids[${i}] names ${id} twice`, {
        field: `run_ids[${i}]`,
      });
    seen.add(id);
  });
  return [...seen];
}

/**
 * The per-task credits of the finalized runs `runIds` of `slug` (the rows of a page of GAOS entries:
 * at most {@link MAX_TASK_SCORE_CELLS} cells, the caller's bound), by run id; a run that is not a
 * finalized run of `slug` is absent.
 * @throws PlatformError as {@link taskScores}
 */
export async function taskScoresOfRuns(
  ctx: PlatformContext,
  viewer: Principal | null,
  slug: string,
  runIds: readonly string[],
): Promise<Map<string, RunTaskScores>> {
  const { b, showPrivate } = await readableBenchmark(ctx, viewer, slug);
  const tasks = await getTasks(ctx, b.slug);
  const runs = await ctx.store.runs.finalizedByIds(b.slug, runIds);
  return new Map((await regrade(ctx, b, tasks, runs, showPrivate)).map((r) => [r.run_id, r]));
}

/**
 * Most run-task credits kept graded per platform (probe19 A-F10): a finalized run's grading never
 * changes (its answers are frozen at finalize, the gold at publish), so each run is graded once and its
 * credits kept, least recently used dropped first. A credit is a pointer to a short string, about 40
 * bytes kept, so this is about 20 MB: 100 runs of a 5,000-task bank.
 */
export const GRADED_CELLS_KEPT = 500_000;
/**
 * Most run-task cells of the {@link taskScores} pages kept per platform (whole frozen answers, so a
 * repeated page, and its ETag at the edge, costs no rebuild): five pages of {@link MAX_TASK_SCORE_CELLS},
 * about 7 MB of JSON, least recently used dropped first; a page of a moved board version is never hit.
 */
export const PAGE_CELLS_KEPT = 5 * MAX_TASK_SCORE_CELLS;

/** A finalized run's grading as kept: its credits in run order and the scores recomputed from them. */
interface GradedRun {
  credits: readonly string[];
  scores: RunScores;
}

/** A map bounded by the total `cells` of its values, least recently used dropped first. */
class CellBoundedCache<V> {
  private readonly entries = new Map<string, { value: V; cells: number }>();
  private cells = 0;
  constructor(private readonly maxCells: number) {}

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.value;
  }

  set(key: string, value: V, cells: number): void {
    if (cells > this.maxCells) return;
    const old = this.entries.get(key);
    if (old) this.cells -= old.cells;
    this.entries.delete(key);
    for (const [k, e] of this.entries) {
      if (this.cells + cells <= this.maxCells) break;
      this.entries.delete(k);
      this.cells -= e.cells;
    }
    this.entries.set(key, { value, cells });
    this.cells += cells;
  }
}

const gradedCaches = new WeakMap<PlatformContext, CellBoundedCache<GradedRun>>();
const pageCaches = new WeakMap<PlatformContext, CellBoundedCache<TaskScores>>();

function cacheOf<V>(
  caches: WeakMap<PlatformContext, CellBoundedCache<V>>,
  ctx: PlatformContext,
  maxCells: number,
): CellBoundedCache<V> {
  let cache = caches.get(ctx);
  if (!cache) caches.set(ctx, (cache = new CellBoundedCache<V>(maxCells)));
  return cache;
}

/**
 * Drops what {@link taskScores} keeps for `ctx`: every kept page and, unless `what` is `"pages"`, every
 * kept grading (tests and the bench: the cold path to compare the cached one with).
 */
export function forgetTaskScores(ctx: PlatformContext, what: "all" | "pages" = "all"): void {
  if (what === "all") gradedCaches.delete(ctx);
  pageCaches.delete(ctx);
}

/**
 * The grading of `runs` (finalized runs of `b`): kept ones as kept, the others graded from their
 * stored answers (read for those runs only), in slices that give the event loop a turn
 * (`gradePlanSliced`), and kept.
 */
async function gradingOf(
  ctx: PlatformContext,
  b: BenchmarkRecord,
  tasks: TaskRecord[],
  runs: RunRecord[],
): Promise<GradedRun[]> {
  const kept = cacheOf(gradedCaches, ctx, GRADED_CELLS_KEPT);
  const out = runs.map((run) => kept.get(`${b.slug}|${run.run_id}`));
  const missing = runs.filter((_r, i) => out[i] === undefined);
  if (missing.length === 0) return out as GradedRun[];
  const prepared = new Map<number, PreparedGold>();
  const answers = await ctx.store.answers.ofRuns(missing.map((r) => r.run_id));
  const none = new Map<number, string>();
  const result: GradedRun[] = [];
  for (const [i, run] of runs.entries()) {
    const had = out[i];
    if (had !== undefined) {
      result.push(had);
      continue;
    }
    // in slices: the first read after close regrades every run (probe27 A-F6: 8.9 s on the event loop)
    const graded = await gradePlanSliced(
      ctx.gradeSliceMs,
      run.plan,
      tasks,
      answers.get(run.run_id) ?? none,
      prepared,
    );
    const fresh: GradedRun = {
      credits: graded.map((g) => g.credit),
      scores: scoreGraded(b, graded, run.wall_seconds!, run.usdc_spent!),
    };
    kept.set(`${b.slug}|${run.run_id}`, fresh, Math.max(1, fresh.credits.length));
    result.push(fresh);
  }
  return result;
}

/**
 * The per-task credits of `runs` (finalized runs of `b`), each checked against its stored scores
 * (graded once per run: {@link gradingOf}); a private task's credit null unless `showPrivate`
 * ({@link privateCreditsVisible}).
 */
async function regrade(
  ctx: PlatformContext,
  b: BenchmarkRecord,
  tasks: TaskRecord[],
  runs: RunRecord[],
  showPrivate: boolean,
): Promise<RunTaskScores[]> {
  const grading = await gradingOf(ctx, b, tasks, runs);
  const withheld = await withheldDigests(
    ctx.store,
    runs.map((r) => r.receipt_hash),
  );
  return runs.map((run, k) => {
    const { credits, scores: s } = grading[k]!;
    assertMatchesStored(run, s);
    return {
      run_id: run.run_id,
      agent_id: run.agent_id,
      attempt: run.attempt,
      finalized_at: isoMillis(run.finalized_at_ms!),
      receipt_hash: shownDigest(run.receipt_hash, withheld),
      score_public: s.publicScore,
      rank_accuracy: s.accuracyValue,
      score_composite: s.compositeScore,
      tasks: run.plan.map((bankOrdinal, i) => {
        const visibility = tasks[bankOrdinal]!.visibility;
        return {
          ordinal: i,
          bank_ordinal: bankOrdinal,
          visibility,
          credit: visibility === "public" || showPrivate ? credits[i]! : null,
        };
      }),
    };
  });
}

/** A regrade that disagrees with the stored scores is a damaged store, never served. */
function assertMatchesStored(run: RunRecord, s: ReturnType<typeof scoreGraded>): void {
  const pairs = [
    ["score_public", run.score_public, s.publicScore],
    ["rank_accuracy", run.rank_accuracy, s.accuracyValue],
    ["score_composite", run.score_composite, s.compositeScore],
  ] as const;
  for (const [field, stored, again] of pairs)
    if (stored !== again)
      throw new PlatformError(
        "invalid_store",
        `run ${run.run_id}: the regraded ${field} differs from the stored one`,
        {
          run_id: run.run_id,
          field,
          stored,
          regraded: again,
        },
      );
}

/**
 * The GAOS `taskScores` of one run (RFC-015 `LeaderboardEntry.taskScores`): credit as a number in
 * [0, 1] keyed by bank ordinal; a task whose credit is withheld (null) is left out. Display only: the
 * exact credit is the fraction string.
 */
export function gaosTaskScores(run: Pick<RunTaskScores, "tasks">): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of run.tasks) {
    if (t.credit === null) continue;
    const [n, d] = t.credit.split("/");
    out[String(t.bank_ordinal)] = Number(n) / Number(d);
  }
  return out;
}
