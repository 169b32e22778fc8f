/**
 * `payouts` (Step 4d): splits valid and matching `payout_rule`, the two pools
 * equal, place amounts == SPEC 7.3 for the pack's winner count, each winner's
 * amount == its place's, `zero_winner_reason` as derived. Who should have won is
 * `selection`'s fact.
 * @packageDocumentation
 */
import { payoutAmounts, payoutRuleProblem } from "@bench-bounty/evidence";
import { factFrom } from "../facts.js";
import type { OfflineFacts, OfflineWalk } from "./context.js";

/** The `payouts` fact; records `placeAmounts` (for the selected winners). */
export function payoutFacts(walk: OfflineWalk): Pick<OfflineFacts, "payouts"> {
  const { view, splits } = walk;
  const rd = view.rank_derivation;
  const problems: string[] = [];
  let placeAmounts: bigint[] | null = null;
  if (rd.pool_base_units !== view.benchmark.pool_base_units)
    problems.push(
      `$.rank_derivation.pool_base_units is ${rd.pool_base_units}, $.benchmark.pool_base_units is ${view.benchmark.pool_base_units}`,
    );
  if (splits === null) problems.push("$.rank_derivation.splits_bps are not valid splits");
  else {
    const mismatch = payoutRuleProblem({ payout_rule: rd.payout_rule, splits_bps: splits });
    if (mismatch !== null) problems.push(`${mismatch.path}: ${mismatch.message}`);
    const k = view.winners.length;
    if (k > splits.length) problems.push(`$.winners has ${k} places, the splits have ${splits.length}`);
    else {
      placeAmounts = payoutAmounts(rd.pool_base_units, splits, k);
      problems.push(...amountProblems(walk, placeAmounts));
    }
    if (walk.winners !== null)
      walk.placeAmounts = payoutAmounts(rd.pool_base_units, splits, walk.winners.length);
  }
  if (walk.winners === null) problems.push("zero_winner_reason cannot be derived: the selection failed");
  else if (rd.zero_winner_reason !== walk.zeroWinnerReason)
    problems.push(
      `$.rank_derivation.zero_winner_reason is ${JSON.stringify(rd.zero_winner_reason)}, the rows give ${JSON.stringify(walk.zeroWinnerReason)}`,
    );
  return {
    payouts: factFrom(
      problems,
      placeAmounts === null || placeAmounts.length === 0
        ? `no winner: the pool ${rd.pool_base_units} returns to the author (${walk.zeroWinnerReason})`
        : `place amounts [${placeAmounts.join(", ")}] split pool ${rd.pool_base_units} by [${rd.splits_bps.join(", ")}]`,
    ),
  };
}

/** The pack's place amounts and winner amounts against SPEC 7.3's. */
function amountProblems(walk: OfflineWalk, pa: readonly bigint[]): string[] {
  const problems: string[] = [];
  const claimed = walk.view.rank_derivation.place_amounts_base_units;
  if (claimed.length !== pa.length || claimed.some((a, i) => a !== pa[i]))
    problems.push(
      `$.rank_derivation.place_amounts_base_units is [${claimed.join(", ")}], SPEC 7.3 gives [${pa.join(", ")}] for ${pa.length} winners`,
    );
  walk.view.winners.forEach((w, i) => {
    if (pa[i] !== undefined && w.amount_base_units !== pa[i])
      problems.push(`${w.path}.amount_base_units is ${w.amount_base_units}, place ${i + 1} is ${pa[i]}`);
  });
  return problems;
}
