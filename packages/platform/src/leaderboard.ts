/**
 * Leaderboard (seed "Compete on Benchmarks", step 7; SPEC 7.1): every finalized run ranked by the
 * evidence library's `rankRows` (`-score_composite, -score_public, queries_used, wall_seconds,
 * achieved_at, run_id`), best run per agent, `attempts_used` per agent.
 *
 * The composite is the private-set composite when the bank has private tasks (public otherwise), and
 * it is what the board ranks on while the benchmark is open. While open the private accuracy
 * (`rank_accuracy`) is withheld (null); it is served once the benchmark is closed.
 */
import { rankRows, type Hex, type RankedRow, type RunRow } from "@bench-bounty/evidence";
import type { PlatformContext } from "./context.js";
import { getBenchmark, isOpen } from "./publish.js";
import { getAgent, listRuns } from "./runs.js";
import { isoMillis } from "./time.js";

/** One ranked row (one per agent). */
export interface LeaderboardRow extends RunRow {
  rank: number;
  attempts_used: number;
  /** Private-set accuracy; null while the benchmark is open. */
  rank_accuracy: string | null;
  usdc_spent: string;
  receipt_hash: Hex;
  receipt_url: string;
}

/** The leaderboard of a benchmark. */
export interface Leaderboard {
  slug: string;
  status: string;
  open: boolean;
  /** `private_composite` when the bank has private tasks, else `public_composite`. */
  ranked_on: "private_composite" | "public_composite";
  rows: LeaderboardRow[];
}

/** URL of a run's receipt at the evidence door (SPEC 8 `receipt_url`). */
export function receiptUrl(ctx: PlatformContext, slug: string, runId: string): string {
  return `${ctx.publicBaseUrl.replace(/\/+$/, "")}/api/v1/benchmarks/${slug}/runs/${runId}/receipt`;
}

/** Ranked rows with every field (rank_accuracy included): the input of the award. */
export function rankedRuns(
  ctx: PlatformContext,
  slug: string,
): RankedRow<LeaderboardRow & { rank_accuracy: string }>[] {
  const runs = listRuns(ctx, slug).filter((r) => r.status === "finalized");
  const rows = runs.map((r) => ({
    agent_id: r.agent_id,
    is_author_agent: getAgent(ctx, r.agent_id)?.is_author_agent ?? false,
    run_id: r.run_id,
    score_composite: r.score_composite!,
    score_public: r.score_public!,
    queries_used: r.queries_used!,
    wall_seconds: r.wall_seconds!,
    achieved_at: isoMillis(r.finalized_at_ms!),
    rank_accuracy: r.rank_accuracy!,
    usdc_spent: r.usdc_spent!,
    receipt_hash: r.receipt_hash!,
    receipt_url: receiptUrl(ctx, slug, r.run_id),
    rank: 0,
    attempts_used: 0,
  }));
  // attempts_used (from rankRows) counts the agent's finalized attempts.
  return rankRows(rows);
}

/** The public leaderboard. @throws PlatformError `unknown_benchmark` (404) */
export function leaderboard(ctx: PlatformContext, slug: string): Leaderboard {
  const b = getBenchmark(ctx, slug);
  const open = isOpen(ctx, b);
  const rows = rankedRuns(ctx, slug).map((r) => ({ ...r, rank_accuracy: open ? null : r.rank_accuracy }));
  return {
    slug,
    status: b.status,
    open,
    ranked_on: b.private_count > 0 ? "private_composite" : "public_composite",
    rows,
  };
}
