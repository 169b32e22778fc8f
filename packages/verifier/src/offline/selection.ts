/**
 * `selection` (Step 4c, SPEC 7.2 on the re-ranked rows): the winners block ==
 * the first `len(splits_bps)` eligible rows (threshold, author agents excluded),
 * in place order, and no winner paid at `benchmark.author` (the bounty author's own wallet is an
 * author agent's, whatever the row's flag: probe34 C-F1). Over the rows' values as stated: a row checked
 * against no receipt leaves it `unverified` (`awardersWord`, probe37 C-F1).
 * @packageDocumentation
 */
import {
  AUTHOR_TAKES_NO_PRIZE,
  paysAuthor,
  selectWinners,
  validateSplits,
  type RankRow,
} from "@bench-bounty/evidence";
import { errorText, rethrowUnexpected } from "../compare.js";
import { factFrom } from "../facts.js";
import type { RankRowView } from "../pack.js";
import { awardersWord, type OfflineFacts, type OfflineWalk } from "./context.js";

/**
 * The `selection` fact (`unverified` at best when a row is checked against no receipt); records `splits`,
 * `winners` and `zeroWinnerReason`.
 */
export function selectionFacts(walk: OfflineWalk): Pick<OfflineFacts, "selection"> {
  const rd = walk.view.rank_derivation;
  const problems: string[] = [];
  try {
    walk.splits = validateSplits(rd.splits_bps, "$.rank_derivation.splits_bps");
  } catch (e) {
    rethrowUnexpected(e);
    problems.push(errorText(e));
  }
  if (walk.ranked === null) problems.push("the rows cannot be ranked, so the winners cannot be selected");
  else if (walk.splits !== null) {
    try {
      const sel = selectWinners({
        rows: walk.ranked.map((r) => ({
          ...(r.raw as unknown as RankRow),
          score_composite: walk.composites.get(r) ?? r.score_composite,
          view: r,
        })),
        threshold_bps: rd.threshold_bps,
        splits_bps: walk.splits,
        pool_base_units: rd.pool_base_units,
      });
      walk.winners = sel.winners.map((x) => x.view);
      walk.zeroWinnerReason = sel.zero_winner_reason;
    } catch (e) {
      rethrowUnexpected(e);
      problems.push(`the winners cannot be selected: ${errorText(e)}`);
    }
  }
  const winners = walk.winners;
  if (winners !== null) problems.push(...placeProblems(walk, winners));
  return {
    selection: awardersWord(
      walk,
      factFrom(
        problems,
        winners === null
          ? ""
          : winners.length === 0
            ? `no winner: ${walk.zeroWinnerReason}`
            : `${winners.map((w) => w.agent_id).join(", ")} are the first eligible rows (threshold ${rd.threshold_bps} bps, author agents excluded)`,
      ),
    ),
  };
}

/** Where the pack's winners block differs from the selected winners, place by place. */
function placeProblems(walk: OfflineWalk, expected: readonly RankRowView[]): string[] {
  const problems: string[] = [];
  const winners = walk.view.winners;
  const max = Math.max(expected.length, winners.length);
  for (let i = 0; i < max; i++) {
    const want = expected[i];
    const got = winners[i];
    if (got !== undefined && got.place !== i + 1)
      problems.push(`${got.path}.place is ${got.place}, expected ${i + 1}`);
    if (want === undefined && got !== undefined)
      problems.push(`${got.path} pays ${JSON.stringify(got.agent_id)}, who is not a winner by SPEC 7.2`);
    else if (want !== undefined && got === undefined)
      problems.push(
        `place ${i + 1} belongs to ${JSON.stringify(want.agent_id)} (${want.path}), $.winners has no place ${i + 1}`,
      );
    else if (
      want !== undefined &&
      got !== undefined &&
      (want.run_id !== got.run_id || want.agent_id !== got.agent_id)
    )
      problems.push(
        `${got.path} is ${JSON.stringify(got.agent_id)} (run ${got.run_id}), SPEC 7.2 selects ${JSON.stringify(want.agent_id)} (run ${want.run_id})`,
      );
  }
  // SPEC 7.2 by the money's destination (probe34 C-F1): a winner paid at the address that locked the
  // bounty pays the author, whatever its row's is_author_agent says
  const author = walk.view.benchmark.author.toLowerCase();
  for (const w of winners) {
    if (paysAuthor(w.withdrawal_address, author))
      problems.push(
        `${w.path}.withdrawal_address pays ${JSON.stringify(w.agent_id)} at $.benchmark.author ${author}: ${AUTHOR_TAKES_NO_PRIZE}`,
      );
    const row = walk.rowByRun.get(w.run_id);
    if (row === undefined)
      problems.push(`${w.path}: run ${JSON.stringify(w.run_id)} has no row in $.rank_derivation.rows`);
    else if (row.is_author_agent)
      problems.push(
        `${w.path} pays ${JSON.stringify(w.agent_id)}, an author agent (${row.path}.is_author_agent)`,
      );
  }
  return problems;
}
