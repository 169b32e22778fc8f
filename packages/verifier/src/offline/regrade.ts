/**
 * `regrade` and `composite` (Steps 3 and 4a).
 *
 * - `regrade`: the winners' answers regraded from the revealed gold (evidence's
 *   `regradeRun`, run by `receipts.ts`) give the row's `rank_accuracy` and
 *   `score_public`, and any non-null receipt credit; when `norm` reads, in a winner's answer or in the
 *   gold of a task a winner answered, a code point not assigned in Unicode 14.0.0 (evidence
 *   `NORM_UNICODE_BASELINE`), the fact's first reason says the result depends on the Unicode version,
 *   naming them (its state is the regrade's as computed with this runtime's tables; probe34 B-F1);
 * - `composite`: every row's composite recomputed from its inputs == its
 *   `score_composite`; a row carrying (or a winner holding) its receipt agrees with
 *   it on `wall_seconds`, `queries_used`, `usdc_spent`, `score_public`, `score_composite`; a row with
 *   no receipt to agree with (none embedded, no winner's) leaves it `unverified`, naming the row (probe37 C-F1).
 * @packageDocumentation
 */
import {
  firstBeyondBaseline,
  goldNormTexts,
  NORM_UNICODE_BASELINE,
  recomputeRowComposite,
} from "@bench-bounty/evidence";
import { sameDecimal } from "../compare.js";
import { capReasons, fact, factFrom, type Fact } from "../facts.js";
import type { TestRowView } from "../pack/view.js";
import {
  awardersWord,
  problemText,
  type OfflineFacts,
  type OfflineWalk,
  type WinnerRegrade,
} from "./context.js";

/** The `regrade` fact, from the winners' regrades. */
export function regradeFacts(walk: OfflineWalk): Pick<OfflineFacts, "regrade"> {
  const { view } = walk;
  if (view.winners.length === 0) return { regrade: fact("not-required", "no winner: no answer is revealed") };
  const problems: string[] = [];
  let graded = 0;
  for (const r of walk.regrades) graded += winnerProblems(walk, r, problems);
  const regrade = factFrom(
    problems,
    `${graded} answers of ${view.winners.length} winners regraded; rank_accuracy and score_public match`,
  );
  return { regrade: withUnicodeNote(regrade, beyondBaseline(walk)) };
}

/** This runtime's Unicode version (`process.versions.unicode`), or null where there is none (a browser). */
function runtimeUnicode(): string | null {
  return (globalThis as { process?: { versions?: { unicode?: string } } }).process?.versions?.unicode ?? null;
}

/**
 * Where a winner's regrade reads through `norm` a code point not assigned in Unicode
 * `NORM_UNICODE_BASELINE` (probe34 B-F1): each answer of a task whose grader normalises (all but
 * `numeric`) and each gold string `norm` reads (evidence `goldNormTexts`) of an answered task, as
 * `<path> holds U+XXXX`. Such text is normalised by this runtime's Unicode tables: another
 * implementation's may grade it otherwise (the platform refuses it at submit and publish).
 */
function beyondBaseline(walk: OfflineWalk): string[] {
  const out: string[] = [];
  const goldsRead = new Set<number>();
  for (const { winner: w, result } of walk.regrades) {
    if (result === null) continue;
    w.answers.forEach((a, i) => {
      const row = walk.testSet.byOrdinal[a.bank_ordinal] as unknown as TestRowView | undefined;
      if (row === undefined) return;
      if (row.grader_type !== "numeric") {
        const b = firstBeyondBaseline(a.answer_text);
        if (b !== null) out.push(`${w.path}.answers[${i}].answer_text holds ${b.label}`);
      }
      if (goldsRead.has(a.bank_ordinal)) return;
      goldsRead.add(a.bank_ordinal);
      for (const t of goldNormTexts(row.grader_type, row.gold, `${row.path}.gold`)) {
        const b = firstBeyondBaseline(t.text);
        if (b !== null) out.push(`${t.path} holds ${b.label}`);
      }
    });
  }
  return out;
}

/** `f` with, when `beyond` is not empty, a first reason saying the regrade depends on the Unicode version. */
function withUnicodeNote(f: Fact, beyond: string[]): Fact {
  if (beyond.length === 0) return f;
  const unicode = runtimeUnicode();
  const note =
    `the regrade depends on the Unicode version: norm() (SPEC 5) read ${beyond.length} string(s) holding a code point ` +
    `not assigned in Unicode ${NORM_UNICODE_BASELINE} (${beyond[0]}), normalised here by ` +
    `${unicode !== null ? `this runtime's Unicode ${unicode}` : "this runtime's"} tables: an implementation with ` +
    `other tables may grade them otherwise`;
  return { state: f.state, reasons: [note, ...f.reasons, ...capReasons(beyond, 5)] };
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

/**
 * The `composite` fact; records `composites`. `unverified` (never `verified`) when a row is checked against no
 * receipt (`awardersWord`, probe37 C-F1).
 */
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
        : awardersWord(walk, factFrom(problems, `${rd.rows.length} composites recomputed and equal`)),
  };
}
