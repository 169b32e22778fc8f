/**
 * What a leaderboard row shows (SPEC 6.1, 7.1): which composite, the accuracy the 95% interval is
 * on and the number of tasks behind it, and whether the row is provisional. The API has already
 * ranked the rows; nothing here reorders or rescores them.
 *
 * @packageDocumentation
 */
import type { BenchmarkDetail, Leaderboard, LeaderboardRow, Receipt } from "../api/types.js";
import { wilsonInterval, type Interval } from "./wilson.js";

/** One row as displayed. */
export interface RowView {
  rank: number;
  agent: string;
  isAuthorAgent: boolean;
  runId: string;
  composite: string;
  scorePublic: string;
  attempts: number;
  wallSeconds: string;
  /** The accuracy the interval is on (`score_public` on the open board, `rank_accuracy` once closed). */
  accuracy: string;
  /** Tasks behind {@link accuracy}, or null when unknown. */
  tasks: number | null;
  interval: Interval | null;
  /** Fewer scored tasks than the minimum (or unknown): the interval is wide, the rank may move. */
  provisional: boolean;
}

/** Which board is shown and what its accuracy column means. */
export interface BoardView {
  final: boolean;
  compositeLabel: string;
  accuracyLabel: string;
  rows: RowView[];
}

/**
 * @param minTasks rows over fewer tasks are provisional
 */
export function boardView(board: Leaderboard, detail: BenchmarkDetail, minTasks: number): BoardView {
  const final = !board.open;
  const hasPrivate = (detail.private_tasks ?? 0) > 0;
  const publicPerRun = detail.public_tasks_per_run ?? detail.public_tasks ?? null;
  const rows = board.rows.map((r: LeaderboardRow): RowView => {
    const usePrivate = final && hasPrivate && typeof r.rank_accuracy === "string";
    const accuracy = usePrivate ? r.rank_accuracy! : r.score_public;
    const tasks = usePrivate
      ? (r.rank_tasks_scored ?? detail.private_tasks ?? null)
      : (r.public_tasks_scored ?? publicPerRun);
    const composite =
      (final ? r.score_composite : (r.score_composite_public ?? (hasPrivate ? null : r.score_composite))) ??
      "--";
    return {
      rank: r.rank,
      agent: r.agent_id,
      isAuthorAgent: r.is_author_agent === true,
      runId: r.run_id,
      composite,
      scorePublic: r.score_public,
      attempts: r.attempts_used,
      wallSeconds: r.wall_seconds,
      accuracy,
      tasks,
      interval: tasks === null ? null : wilsonInterval(accuracy, tasks),
      provisional: tasks === null || tasks < minTasks,
    };
  });
  return {
    final,
    compositeLabel: final || !hasPrivate ? "Composite" : "Composite (public tasks)",
    accuracyLabel: final && hasPrivate ? "private accuracy" : "public accuracy",
    rows,
  };
}

/** Per-task credit table of the final board: one line per ranked run, one column per bank ordinal. */
export interface TaskTable {
  ordinals: number[];
  visibility: Record<number, string>;
  rows: { rank: number; agent: string; runId: string; credits: Record<number, string | null> }[];
}

/** Builds the per-task table from the receipts of the ranked runs (a run without a receipt is left out). */
export function taskTable(rows: RowView[], receipts: Receipt[]): TaskTable {
  const byRun = new Map(receipts.map((r) => [r.run_id, r]));
  const ordinals = new Set<number>();
  const visibility: Record<number, string> = {};
  const out: TaskTable["rows"] = [];
  for (const row of rows) {
    const receipt = byRun.get(row.runId);
    if (!receipt) continue;
    const credits: Record<number, string | null> = {};
    for (const t of receipt.tasks) {
      ordinals.add(t.bank_ordinal);
      visibility[t.bank_ordinal] = t.visibility;
      credits[t.bank_ordinal] = t.credit;
    }
    out.push({ rank: row.rank, agent: row.agent, runId: row.runId, credits });
  }
  return { ordinals: [...ordinals].sort((a, b) => a - b), visibility, rows: out };
}
