/**
 * `ordering` (Step 4b): rows in the order of SPEC 7.1 on the recomputed
 * composites (a wrong composite is `composite`'s fact), ranks 1..n, one row per
 * agent, `attempts_used` at least the receipt's attempt. Over the rows' values as stated: a row checked
 * against no receipt leaves it `unverified` (`awardersWord`, probe37 C-F1).
 * @packageDocumentation
 */
import { checkOrdering, isEvidenceError, rankOrder, type RankRow } from "@bench-bounty/evidence";
import { fact, factFrom } from "../facts.js";
import type { RankRowView } from "../pack.js";
import { awardersWord, problemText, type OfflineFacts, type OfflineWalk } from "./context.js";

/** The rows as evidence's ranking reads them, with the recomputed composites. */
function rowsWithRecomputedComposites(walk: OfflineWalk, rows: readonly RankRowView[]): RankRow[] {
  return rows.map((r) => ({
    ...(r.raw as unknown as RankRow),
    score_composite: walk.composites.get(r) ?? r.score_composite,
  }));
}

/** The `ordering` fact (`unverified` at best when a row is checked against no receipt); records `ranked`. */
export function orderingFacts(walk: OfflineWalk): Pick<OfflineFacts, "ordering"> {
  const { view } = walk;
  const rows = view.rank_derivation.rows;
  const forRanking = rowsWithRecomputedComposites(walk, rows);
  const problems: string[] = checkOrdering(forRanking, "$.rank_derivation.rows").map(problemText);
  try {
    walk.ranked = rankOrder(forRanking, "$.rank_derivation.rows").map((i) => rows[i]!);
  } catch (e) {
    // a field that breaks its format: already a problem from checkOrdering
    if (!isEvidenceError(e)) throw e;
  }
  for (const r of rows) {
    const rc = r.receipt ?? view.winners.find((w) => w.run_id === r.run_id)?.receipt ?? null;
    if (rc !== null && r.attempts_used < rc.attempt)
      problems.push(
        `${r.path}.attempts_used is ${r.attempts_used}, but its receipt is attempt ${rc.attempt}`,
      );
  }
  return {
    ordering:
      rows.length === 0
        ? fact("not-required", "no row to order")
        : awardersWord(walk, factFrom(problems, `${rows.length} rows in SPEC 7.1 order`)),
  };
}
