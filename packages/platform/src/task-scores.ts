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
 * Who sees what, by stage (the rule is {@link receiptsVisible}: per-task credit is what a graded
 * receipt carries, so it is served exactly when receipts are):
 * - **open**: the author only. Everyone else is refused `task_scores_withheld` (`details.reason`
 *   `withheld_live_contest`): private credits are computed from private tasks (SPEC 6.1), and a
 *   run's public per-task correctness reaches its own agent only once its attempts are used up (the
 *   compete seed, finalize), which a table of everyone's public credits would undo;
 * - **closed** and **awarded**: everyone, every task, public and private (SPEC 6.1; the compete seed:
 *   private correctness is shown once the benchmark is closed). Credits reveal neither the gold nor the
 *   answers, which leave the store only in the award pack (SPEC 8; never for a reclaimed prize);
 * - a `buyer_only` benchmark: its author only, at every stage (`forbidden`, rule `benchmark_author_only`),
 *   as its leaderboard.
 */
import type { PreparedGold } from "@bench-bounty/evidence";
import type { Hex } from "@bench-bounty/evidence";
import type { BenchmarkRecord, PlatformContext } from "./context.js";
import { PlatformError } from "./errors.js";
import { gradePlan, scoreGraded } from "./grading.js";
import { forbid, isAuthorOf, receiptsVisible } from "./identity/access.js";
import type { Principal } from "./identity/principal.js";
import { getTasks, isOpen } from "./publish.js";
import type { RunRecord } from "./runs.js";
import { shownDigest, withheldDigests } from "./reveal.js";
import { isoMillis } from "./time.js";

/** The credit of one task of a run. */
export interface TaskCredit {
  /** Position in the run (the receipt's `ordinal`). */
  ordinal: number;
  /** Bank ordinal (SPEC 3; the receipt's `bank_ordinal`, the GAOS `taskScores` key). */
  bank_ordinal: number;
  visibility: "public" | "private";
  /** SPEC 6 credit, a reduced fraction string (`"1/1"`, `"0/1"`, `"2/3"`); an unanswered task is `"0/1"`. */
  credit: string;
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
  /** What is revealed at this stage and what is not (plain text, for the tables). */
  note: string;
  /** The bank's tasks by bank ordinal: the columns of a per-task table. */
  bank: { bank_ordinal: number; visibility: "public" | "private"; grader_type: string }[];
  /** Every finalized run, in start order. */
  runs: RunTaskScores[];
}

const NOTES = {
  open:
    "Served to the benchmark's author only while it is open. Everyone else sees per-task credits once " +
    "it closes (SPEC 6.1).",
  closed:
    "Every task's credit, public and private, regraded from the stored answers (SPEC 5, 6.1). The gold " +
    "and the answers stay sealed until the award pack reveals the test set (SPEC 8).",
  awarded:
    "Every task's credit, public and private, regraded from the stored answers (SPEC 5, 6.1). The award " +
    "pack carries the test set and the winners' answers: regrade them with `bench-bounty-verify` (SPEC 9).",
} as const;

interface CacheEntry {
  version: number;
  open: boolean;
  status: string;
  scores: TaskScores;
}
const caches = new WeakMap<PlatformContext, Map<string, CacheEntry>>();

/**
 * The per-task credits of every finalized run of `slug`, as `viewer` may see them (see the module doc).
 * Cached per process until the board changes (finalize, close and award bump `board_version`).
 * @throws PlatformError `unknown_benchmark` (404); `forbidden` (`benchmark_author_only`) on a
 *   `buyer_only` benchmark for anyone but its author; `task_scores_withheld` (reason
 *   `withheld_live_contest`) while open for anyone but its author; `invalid_store` when a regrade
 *   disagrees with the stored scores
 */
export async function taskScores(
  ctx: PlatformContext,
  viewer: Principal | null,
  slug: string,
): Promise<TaskScores> {
  const versioned = await ctx.store.benchmarks.getVersioned(slug);
  if (!versioned) throw new PlatformError("unknown_benchmark", `no benchmark ${slug}`, { slug });
  const { record: b, board_version: version } = versioned;
  const open = isOpen(ctx, b);
  if ((b.config.leaderboard_visibility ?? "public") === "buyer_only" && !isAuthorOf(viewer, b))
    forbid("benchmark_author_only", `the per-task scores of ${slug} are for its buyer only`, { slug });
  if (!receiptsVisible(viewer, b, open))
    throw new PlatformError(
      "task_scores_withheld",
      `per-task scores of ${slug} are served once it closes (SPEC 6.1)`,
      { reason: "withheld_live_contest", slug },
    );
  let cache = caches.get(ctx);
  if (!cache) caches.set(ctx, (cache = new Map()));
  const hit = cache.get(slug);
  if (hit && hit.version === version && hit.open === open && hit.status === b.status) return hit.scores;
  const scores = deepFreeze(await buildScores(ctx, b, open));
  cache.set(slug, { version, open, status: b.status, scores });
  return scores;
}

async function buildScores(ctx: PlatformContext, b: BenchmarkRecord, open: boolean): Promise<TaskScores> {
  const tasks = await getTasks(ctx, b.slug);
  const prepared = new Map<number, PreparedGold>();
  const runs: RunTaskScores[] = [];
  // Runs first, then their answers: a run finalized in between is still in progress in the first read
  // (skipped), and a finalized run's answers never change (submit refuses after finalize).
  const finalized = (await ctx.store.runs.ofBenchmark(b.slug)).filter((r) => r.status === "finalized");
  const answers = await ctx.store.answers.ofFinalizedRuns(b.slug);
  const none = new Map<number, string>();
  const withheld = await withheldDigests(
    ctx.store,
    finalized.map((r) => r.receipt_hash),
  );
  for (const run of finalized) {
    const graded = gradePlan(run.plan, tasks, answers.get(run.run_id) ?? none, prepared);
    const s = scoreGraded(b, graded, run.wall_seconds!, run.usdc_spent!);
    assertMatchesStored(run, s);
    runs.push({
      run_id: run.run_id,
      agent_id: run.agent_id,
      attempt: run.attempt,
      finalized_at: isoMillis(run.finalized_at_ms!),
      receipt_hash: shownDigest(run.receipt_hash, withheld),
      score_public: s.publicScore,
      rank_accuracy: s.accuracyValue,
      score_composite: s.compositeScore,
      tasks: graded.map((g, i) => ({
        ordinal: i,
        bank_ordinal: g.bankOrdinal,
        visibility: g.t.visibility,
        credit: g.credit,
      })),
    });
  }
  const stage = open ? "open" : b.status === "awarded" ? "awarded" : "closed";
  return {
    slug: b.slug,
    status: b.status,
    open,
    stage,
    served_to: open ? "author" : "everyone",
    note: NOTES[stage],
    bank: tasks.map((t) => ({
      bank_ordinal: t.ordinal,
      visibility: t.visibility,
      grader_type: t.grader_type,
    })),
    runs,
  };
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

function deepFreeze<T>(v: T): T {
  if (typeof v === "object" && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

/**
 * The GAOS `taskScores` of one run (RFC-015 `LeaderboardEntry.taskScores`): credit as a number in
 * [0, 1] keyed by bank ordinal. Display only: the exact credit is the fraction string.
 */
export function gaosTaskScores(run: Pick<RunTaskScores, "tasks">): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of run.tasks) {
    const [n, d] = t.credit.split("/");
    out[String(t.bank_ordinal)] = Number(n) / Number(d);
  }
  return out;
}
