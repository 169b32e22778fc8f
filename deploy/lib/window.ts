/** The award window of a bounty as the tasks describe it (SPEC 1.1: `award` from `closesAt` to `awardDeadline`). */
import { isoSeconds, relative } from "./format";

/**
 * The "next" line of a Funded bounty, judged by the time of the block an award or a reclaim would land
 * in (`landing`: the pending block's, `pendingNow`), as the contract judges it (probe31 C-F5: with the
 * latest block at the award deadline it said "the awarder may award", though no block to come can carry
 * an award; at closesAt - 1, "the award window opens in 1s" though the next block is in it).
 * @param closesAt, awardDeadline, landing unix seconds
 */
export function fundedNext(closesAt: bigint, awardDeadline: bigint, landing: bigint): string {
  if (landing < closesAt)
    return `Funded: competition open; the award window opens ${relative(closesAt, landing)}.`;
  if (landing <= awardDeadline)
    return `Funded: closed; the awarder may award until ${isoSeconds(awardDeadline)}.`;
  return "Funded, but the award deadline has passed: the author can take the pool back (bounty:reclaim).";
}
