/**
 * What a leaderboard row shows (SPEC 6.1, 7.1): which composite, the accuracy the 95% interval is
 * on and the number of tasks behind it, and whether the row is provisional. The API has already
 * ranked the rows; nothing here reorders or rescores them.
 *
 * @packageDocumentation
 */
import type { BenchmarkDetail, Leaderboard, LeaderboardRow } from "../api/types.js";
import type { TaskScores } from "../api/task-scores.js";
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

/** Per-task credit table of the final board: one line per ranked run, one column per bank task. */
export interface TaskTable {
  ordinals: number[];
  visibility: Record<number, string>;
  rows: {
    rank: number;
    agent: string;
    runId: string;
    /** False when the API served no credits for this run (the cells then say so). */
    served: boolean;
    /**
     * Credit by bank ordinal; a task missing here was not in this run's draw; null: a private task's
     * credit withheld until the award (the API's `private_credits: "withheld"`).
     */
    credits: Record<number, string | null>;
  }[];
}

/**
 * Builds the per-task table of the ranked rows from the API's regraded credits (`task-scores`): the
 * columns are the bank's tasks in bank order; a row's cells are its run's credits (a public task the
 * attempt did not draw has none).
 */
export function taskTable(rows: RowView[], scores: TaskScores): TaskTable {
  const byRun = new Map(scores.runs.map((r) => [r.run_id, r]));
  const visibility: Record<number, string> = {};
  for (const t of scores.bank) visibility[t.bank_ordinal] = t.visibility;
  const out: TaskTable["rows"] = rows.map((row) => {
    const run = byRun.get(row.runId);
    const credits: Record<number, string | null> = {};
    for (const t of run?.tasks ?? []) credits[t.bank_ordinal] = t.credit;
    return { rank: row.rank, agent: row.agent, runId: row.runId, served: run !== undefined, credits };
  });
  const ordinals = scores.bank.map((t) => t.bank_ordinal).sort((a, b) => a - b);
  return { ordinals, visibility, rows: out };
}
