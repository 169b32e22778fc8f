/**
 * The indexer's head: the block it has indexed on the pack's chain, from Ponder's `GET /status`
 * (read by `../indexer-status.ts`, shared with the deploy tasks' lag warning). An honest
 * indexer whose head is below the award has not read it: what it lacks is not a disagreement (probe29
 * C-F7: one block behind the award, `indexer_agreement` was failed with 20 reasons).
 * @packageDocumentation
 */
import { fact, capReasons, type Fact } from "../facts.js";
import type { IndexerWalk } from "./context.js";
import { STATUS_ROUTE, statusHead } from "../indexer-status.js";

/**
 * Read the indexer's head on the pack's chain (`GET /status`, {@link statusHead}).
 * @returns the block number, or null when the indexer cannot say it: no `/status` (any 404), a refusal,
 *   any other failure of that read (an error status, an unreachable or oversized answer: the routes read
 *   next report it, as they did before `/status` was read), an answer that is not JSON or has no entry of
 *   `$.benchmark.chain_id`; the cross-check then runs as it did without the head
 */
export async function readIndexerHead(walk: IndexerWalk): Promise<number | null> {
  let answer;
  try {
    answer = await walk.get(STATUS_ROUTE);
  } catch {
    return null;
  }
  return answer.status === 200 ? statusHead(answer.body, walk.view.benchmark.chain_id) : null;
}

/**
 * The last block the pack states that the indexer must have read to answer every route: the award's
 * (`$.benchmark.award_block`) or, when later, the pack's anchor (`$.pack_anchor.anchor_block`).
 */
function lastStatedBlock(walk: IndexerWalk): { block: number; what: string } {
  const b = walk.view.benchmark;
  const anchor = walk.view.pack_anchor;
  if (anchor !== null && anchor.anchor_block > b.award_block)
    return { block: anchor.anchor_block, what: "the pack's anchor is in block" };
  return { block: b.award_block, what: "the award is in block" };
}

/**
 * The fact of an indexer whose head is below the last block the pack states, when its answers disagree:
 * `unverified`, naming its head and that block, the disagreements listed after (capped); null when the
 * head is unknown or has reached that block (the disagreements then stand).
 */
export function behindThePack(walk: IndexerWalk, head: number | null, reasons: string[]): Fact | null {
  if (head === null) return null;
  const { block, what } = lastStatedBlock(walk);
  if (head >= block) return null;
  const path = what.startsWith("the award") ? "$.benchmark.award_block" : "$.pack_anchor.anchor_block";
  return fact(
    "unverified",
    `the indexer has indexed chain ${walk.view.benchmark.chain_id} up to block ${head} (GET ${STATUS_ROUTE}), ${what} ${block} (${path})${NOT_READ_YET}(${reasons.length} differ from the pack, listed below)`,
    ...capReasons(reasons),
  );
}

/** What {@link behindThePack}'s first reason says after the blocks: {@link isBehindThePack} reads it. */
const NOT_READ_YET = ": it has not read it yet, so its answers are not compared ";
const BEHIND_HEAD = new RegExp(
  `^the indexer has indexed chain \\d+ up to block \\d+ \\(GET ${STATUS_ROUTE}\\), `,
);

/**
 * Whether `f` (a report's `indexer_agreement`) is `unverified` only because the indexer had not read the
 * pack's blocks yet ({@link behindThePack}: its head below the award's or the anchor's block), so a
 * later verification may find it caught up; `bench-bounty serve`'s verifier retries such a result a
 * few times before storing it (probe39 C-F2). Any other fact: false.
 */
export function isBehindThePack(f: Fact | undefined): boolean {
  const first = f?.reasons[0];
  return (
    f?.state === "unverified" &&
    first !== undefined &&
    BEHIND_HEAD.test(first) &&
    first.includes(NOT_READ_YET)
  );
}
