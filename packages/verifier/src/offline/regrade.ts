/**
 * `regrade` and `composite` (Steps 3 and 4a).
 *
 * - `regrade`: the winners' answers regraded from the revealed gold (evidence's
 *   `regradeRun`, run by `receipts.ts`) give the row's `rank_accuracy` and
 *   `score_public`, and any non-null receipt credit;
 * - `composite`: every row's composite recomputed from its inputs == its
 *   `score_composite`; a row carrying (or a winner holding) its receipt agrees with
 *   it on `wall_seconds`, `queries_used`, `usdc_spent`, `score_public`, `score_composite`.
 * @packageDocumentation
 */
import { recomputeRowComposite } from "@bench-bounty/evidence";
import { sameDecimal } from "../compare.js";
import { fact, factFrom } from "../facts.js";
import { problemText, type OfflineFacts, type OfflineWalk, type WinnerRegrade } from "./context.js";

/** The `regrade` fact, from the winners' regrades. */
export function regradeFacts(walk: OfflineWalk): Pick<OfflineFacts, "regrade"> {
  const { view } = walk;
  if (view.winners.length === 0) return { regrade: fact("not-required", "no winner: no answer is revealed") };
  const problems: string[] = [];
  let graded = 0;
  for (const r of walk.regrades) graded += winnerProblems(walk, r, problems);
  return {
    regrade: factFrom(
      problems,
      `${graded} answers of ${view.winners.length} winners regraded; rank_accuracy and score_public match`,
    ),
  };
}

/** A winner's regrade problems (appended to `out`). @returns the number of answers graded */
function winnerProblems(
  walk: OfflineWalk,
  { winner: w, row, result, problems }: WinnerRegrade,
  out: string[],
): number {
  if (result === null) {
    out.push(
      `${w.path}: the test set ordinals are not 0..${walk.view.test_set.length - 1}, the answers cannot be regraded`,
    );
    return 0;
  }
  for (const p of problems) out.push(problemText(p));
  let graded = 0;
  result.tasks.forEach((t, i) => {
    if (t.answer_text !== null) graded++;
    const claimed = w.receipt.tasks[i]?.credit ?? null;
    if (claimed !== null && t.credit !== null && claimed !== t.credit.toString())
      out.push(`${w.receipt.path}.tasks[${i}].credit is ${claimed}, regrading gives ${t.credit.toString()}`);
  });
  if (row === undefined) {
    out.push(
      `${w.path}: run ${JSON.stringify(w.run_id)} has no row in $.rank_derivation.rows to compare rank_accuracy with`,
    );
    return graded;
  }
  if (result.rank_accuracy === null)
    out.push(`${w.path}: rank_accuracy cannot be recomputed (see the problems above)`);
  else if (!sameDecimal(result.rank_accuracy, row.rank_accuracy))
    out.push(
      `${row.path}.rank_accuracy is ${row.rank_accuracy}, regrading ${JSON.stringify(w.agent_id)}'s answers gives ${result.rank_accuracy}`,
    );
  if (result.score_public !== null && !sameDecimal(result.score_public, row.score_public))
    out.push(`${row.path}.score_public is ${row.score_public}, regrading gives ${result.score_public}`);
  return graded;
}

/** The `composite` fact; records `composites`. */
export function compositeFacts(walk: OfflineWalk): Pick<OfflineFacts, "composite"> {
  const rd = walk.view.rank_derivation;
  const problems = [...walk.receiptAgreement];
  const scoring = {
    speed_weight: rd.speed_weight,
    cost_weight: rd.cost_weight,
    time_budget_seconds: rd.time_budget_seconds,
    cost_budget_usdc: rd.cost_budget_usdc,
  };
  for (const r of rd.rows) {
    const c = recomputeRowComposite(r, scoring, r.path);
    if (c.problem !== null) problems.push(problemText(c.problem));
    else if (c.score_composite !== null) {
      walk.composites.set(r, c.score_composite);
      if (!sameDecimal(c.score_composite, r.score_composite))
        problems.push(
          `${r.path}.score_composite is ${r.score_composite}, its inputs give ${c.score_composite}`,
        );
    }
  }
  return {
    composite:
      rd.rows.length === 0
        ? fact("not-required", "no row to score")
        : factFrom(problems, `${rd.rows.length} composites recomputed and equal`),
  };
}
