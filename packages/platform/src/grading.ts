/**
 * Grading a run (SPEC 5 and 6), in one place: finalize grades a run with these to score it and build
 * its receipt, and the per-task tables after close (`task-scores.ts`) regrade every finalized run with
 * the same two functions, so the credits they serve are exactly the ones behind the stored scores.
 *
 * Grading is written once, in steps ({@link gradePlanSteps}, one per answer), and run either at once
 * ({@link gradePlan}) or in slices that give the event loop a turn every `ctx.gradeSliceMs` of work
 * ({@link gradePlanSliced}): a run of 140 answers of U+FDFA (NFKC expands it 18x, ~130 ms each) held
 * `serve` 6.7 s at finalize and again in the regrades after close (probe27 A-F6).
 */
import {
  composite,
  gradePrepared,
  prepareGold,
  rankAccuracy,
  runSteps,
  runStepsSliced,
  scorePublic,
  type PreparedGold,
  type Steps,
} from "@bench-bounty/evidence";
import type { BenchmarkRecord, TaskRecord } from "./context.js";

/** One graded task of a run, at run position `ordinal`. */
export interface GradedPlanTask {
  /** The bank task. */
  t: TaskRecord;
  /** Bank ordinal of the task (SPEC 3 `ordinal`, the receipt's `bank_ordinal`). */
  bankOrdinal: number;
  /** The stored answer, or null when the run did not answer it (scores 0, SPEC 4). */
  answer: string | null;
  /** SPEC 6 credit as a reduced fraction string (`"1/1"`, `"0/1"`, `"2/3"`). */
  credit: string;
}

/**
 * Grades each task of a run's plan (position `i` of the plan is run ordinal `i`) against its gold
 * with the SPEC 5 grader of its `grader_type`, at once (see {@link gradePlanSliced} for `serve`).
 * @param plan bank ordinals in run order
 * @param tasks the bank, by bank ordinal
 * @param answers run ordinal -> answer text
 * @param prepared gold prepared once per bank ordinal (optional: regrading many runs of one bank)
 * @param known credits already graded, by run ordinal, with the answer they were graded for: reused
 *   when the answer is the same (finalize grades before its transaction and reuses them in it)
 * @throws EvidenceError on malformed gold (refused at publish, so never met on a stored bank)
 */
export function gradePlan(
  plan: readonly number[],
  tasks: readonly TaskRecord[],
  answers: ReadonlyMap<number, string>,
  prepared?: Map<number, PreparedGold>,
  known?: readonly GradedPlanTask[],
): GradedPlanTask[] {
  return runSteps(gradePlanSteps(plan, tasks, answers, prepared, known));
}

/**
 * {@link gradePlan} in slices of `ctx.gradeSliceMs` of work, giving the event loop a turn between them
 * (probe27 A-F6): the same credits. Never called while a transaction is open (a slice boundary would
 * hold it across other requests' work).
 * @param sliceMs milliseconds of grading per slice (`PlatformContext.gradeSliceMs`)
 */
export function gradePlanSliced(
  sliceMs: number,
  plan: readonly number[],
  tasks: readonly TaskRecord[],
  answers: ReadonlyMap<number, string>,
  prepared?: Map<number, PreparedGold>,
  known?: readonly GradedPlanTask[],
): Promise<GradedPlanTask[]> {
  return runStepsSliced(gradePlanSteps(plan, tasks, answers, prepared, known), { sliceMs });
}

/** The grading of {@link gradePlan} in steps: one per graded answer (a reused or unanswered task is no step). */
function* gradePlanSteps(
  plan: readonly number[],
  tasks: readonly TaskRecord[],
  answers: ReadonlyMap<number, string>,
  prepared?: Map<number, PreparedGold>,
  known?: readonly GradedPlanTask[],
): Steps<GradedPlanTask[]> {
  const out: GradedPlanTask[] = [];
  for (const [i, bankOrdinal] of plan.entries()) {
    const t = tasks[bankOrdinal]!;
    const answer = answers.get(i) ?? null;
    const before = known?.[i];
    if (before !== undefined && before.bankOrdinal === bankOrdinal && before.answer === answer) {
      out.push({ t, bankOrdinal, answer, credit: before.credit });
      continue;
    }
    let gold = prepared?.get(bankOrdinal);
    if (gold === undefined) {
      gold = prepareGold(t.grader_type, t.gold);
      prepared?.set(bankOrdinal, gold);
    }
    out.push({ t, bankOrdinal, answer, credit: gradePrepared(gold, answer).toString() });
    if (answer !== null) yield;
  }
  return out;
}

/** The scores of a graded run (SPEC 6 and 6.1), as stored on the run and its receipt. */
export interface RunScores {
  /** SPEC 6 `accuracy` (private tasks when the bank has any), 4 dp. */
  accuracyValue: string;
  /** `score_public`, 4 dp. */
  publicScore: string;
  /** The ranking `score_composite`, 4 dp. */
  compositeScore: string;
  /** SPEC 6.1 `score_composite_public`: the composite over the public accuracy, 4 dp. */
  compositePublic: string;
}

/**
 * Scores a graded run with the benchmark's weights and budgets (SPEC 6, 6.1).
 * @param wall `wall_seconds`, 3 dp
 * @param spent `usdc_spent`, 6 dp
 * @throws EvidenceError `malformed` when the run has no task to score on the ranking set
 */
export function scoreGraded(
  b: Pick<BenchmarkRecord, "private_count" | "config">,
  graded: readonly GradedPlanTask[],
  wall: string,
  spent: string,
): RunScores {
  const tasks = graded.map((g) => ({ visibility: g.t.visibility, credit: g.credit }));
  const accuracyValue = rankAccuracy(tasks, b.private_count > 0);
  const publicScore = scorePublic(tasks);
  const weights = {
    wall_seconds: wall,
    usdc_spent: spent,
    speed_weight: b.config.speed_weight,
    cost_weight: b.config.cost_weight,
    time_budget_seconds: b.config.time_budget_seconds,
    cost_budget_usdc: b.config.cost_budget_usdc,
  };
  return {
    accuracyValue,
    publicScore,
    compositeScore: composite({ ...weights, rank_accuracy: accuracyValue }),
    compositePublic: composite({ ...weights, rank_accuracy: publicScore }),
  };
}
