/**
 * The off-chain walk (award-evidence-pack Steps 1-5): every fact that the
 * pack alone decides, one module per fact family, run in the order of
 * {@link OFFLINE_STEPS} over one shared {@link OfflineWalk}. Every hash, grade,
 * score, order, selection and amount is computed by `@bench-bounty/evidence`;
 * these modules only walk the pack, compare and explain.
 *
 * Fact boundaries (each tampering is caught by the fact it breaks), one file each:
 * - `schema.ts`: `schema`;
 * - `pack-hash.ts`: `pack_hash` and `ranking_digest`;
 * - `commitment.ts`: `commitment_root` and `leaf_count`;
 * - `receipts.ts`: `digest_chain` and `receipt_hashes`;
 * - `regrade.ts`: `regrade` and `composite`;
 * - `ordering.ts`: `ordering`;
 * - `selection.ts`: `selection`;
 * - `payouts.ts`: `payouts`.
 *
 * @packageDocumentation
 */
import type { VerificationValues } from "../facts.js";
import type { PackView } from "../pack.js";
import type { ProgressCallback } from "../progress.js";
import { commitmentFacts } from "./commitment.js";
import {
  startWalk,
  type OfflineFacts,
  type OfflineResult,
  type OfflineStep,
  type OfflineWalk,
} from "./context.js";
import { orderingFacts } from "./ordering.js";
import { packHashFacts } from "./pack-hash.js";
import { payoutFacts } from "./payouts.js";
import { receiptFacts } from "./receipts.js";
import { compositeFacts, regradeFacts } from "./regrade.js";
import { schemaFacts } from "./schema.js";
import { selectionFacts } from "./selection.js";

export type { OfflineDerived, OfflineFactName, OfflineFacts, OfflineResult, OfflineWalk } from "./context.js";

/** The steps of the off-chain walk, in order: each reads what the steps before it derived. */
export const OFFLINE_STEPS: readonly OfflineStep[] = [
  schemaFacts,
  packHashFacts,
  commitmentFacts,
  receiptFacts,
  regradeFacts,
  compositeFacts,
  orderingFacts,
  selectionFacts,
  payoutFacts,
];

/**
 * Walk the pack off-chain and decide the pack facts.
 * Never throws for a wrong award (that is a failed fact).
 * @param overdue throws once the verification's total deadline has passed (`withinDeadline`)
 * @throws what `overdue` throws
 */
export function verifyOffline(
  view: PackView,
  onProgress?: ProgressCallback,
  overdue: () => void = () => undefined,
): OfflineResult {
  // the deadline is checked before each step and at each progress point within one (a long walk
  // computes without yielding, so no timer can end it)
  const walk = startWalk(view, (p) => {
    overdue();
    onProgress?.(p);
  });
  const facts = {} as OfflineFacts;
  for (const step of OFFLINE_STEPS) {
    overdue();
    Object.assign(facts, step(walk));
  }
  return { facts, values: recomputedValues(walk), derived: derivedForChecks(walk) };
}

/** The recomputed figures of the report. */
function recomputedValues(walk: OfflineWalk): VerificationValues {
  const order = walk.ranked ?? walk.view.rank_derivation.rows;
  return {
    pack_hash: walk.packHash,
    commit_root: walk.commitRoot,
    leaf_count: walk.view.test_set.length,
    ranking_digest: walk.rankingDigest,
    ranked_agents: order.map((r) => r.agent_id),
    score_composites: order.map((r) => walk.composites.get(r) ?? r.score_composite),
    winners: (walk.winners ?? []).map((r) => r.agent_id),
    place_amounts_base_units: walk.placeAmounts.map(String),
    zero_winner_reason: walk.zeroWinnerReason,
    receipt_hashes: order.map((r) => walk.receiptHashByRun.get(r.run_id) ?? r.receipt_hash.toLowerCase()),
  };
}

/** What the chain and indexer checks need from the walk. */
function derivedForChecks(walk: OfflineWalk): OfflineResult["derived"] {
  const all = new Set<string>();
  for (const w of walk.view.winners) all.add(w.receipt_hash.toLowerCase());
  for (const r of walk.view.rank_derivation.rows) all.add(r.receipt_hash.toLowerCase());
  return {
    commitRoot: walk.commitRoot,
    packHash: walk.packHash,
    rankingDigest: walk.rankingDigest,
    receiptHashes: [...all],
  };
}
