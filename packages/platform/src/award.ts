/**
 * Bounty, award and evidence (seed "Compete on Benchmarks" section 8, "Verify a Benchmark Award
 * Yourself"; SPEC 1.1, 7, 8).
 *
 * The award is a resumable state machine stored in the `awards` table, so a crash at any step loses
 * nothing and never pays twice:
 * 1. checks: a bounty is attached and Funded on-chain, the chain clock is within
 *    `[closesAt, awardDeadline]`, the commitment is anchored; the benchmark is closed to new runs;
 *    pending receipt anchors are flushed (`anchorMany`), since every ranked receipt must be anchored
 *    before the award;
 * 2. `prepared`: the evidence library ranks every finalized run, selects winners and amounts
 *    (`buildRankDerivation`, with the on-chain threshold, splits and pool) and computes the ranking
 *    digest; a winner without a withdrawal address refuses the whole award
 *    (`winner_without_withdrawal_address`, nothing is sent);
 * 3. `confirmed`: `award(bountyId, winners, rankingDigest)` is sent and mined. After a crash between
 *    sending and recording, the `Awarded` log of the bounty is found on-chain and adopted when its
 *    ranking digest matches;
 * 4. `packed`: the pack is minted by the evidence library (`mintEvidencePack`; its ranking digest must
 *    equal the one sent on-chain), its hash anchored (kind `pack`), and its canonical bytes stored in
 *    the `packs` table in the transaction that marks the award packed. The door then serves exactly
 *    those bytes forever, from any process on the store.
 *
 * The whole award of a benchmark runs under the store's lock `award:<slug>` (a PostgreSQL advisory
 * lock across `serve` processes), so two operators awarding at once send one transaction and mint one
 * pack; the preparation also locks the benchmark's row, which finalize takes too.
 *
 * The steps live in `award/`: `bounty.ts` (lock, attach, close), `prepare.ts` (steps 1 and 2),
 * `send.ts` (step 3), `recovery.ts` (finding and adopting a sent award after a crash), `pack.ts`
 * (step 4), `door.ts` (the evidence door), `state.ts` (the award row and lock they share).
 */
import type { Hex } from "@bench-bounty/evidence";
import type { AnchorEvidence } from "./chain.js";
import type { PlatformContext } from "./context.js";
import { PlatformError } from "./errors.js";
import { fromStored } from "./json.js";
import { getBenchmark } from "./publish.js";
import { assertOperator } from "./identity/access.js";
import type { Principal } from "./identity/principal.js";
import { ensurePack } from "./award/pack.js";
import { prepareAward } from "./award/prepare.js";
import { awardWaitMs, sendOrAdoptAward } from "./award/send.js";
import { LockWaitExpired } from "./store.js";
import { awardLock, awardRow, chainOf, recordConfirmed, type PreparedWinner } from "./award/state.js";

export {
  attachBounty,
  closeBenchmark,
  lockBounty,
  parseBountyId,
  serviceParties,
  type AttachExpectations,
  type LockOptions,
} from "./award/bounty.js";
export { awardEvidence, type AwardEvidenceReason, type AwardEvidenceResult } from "./award/door.js";
export { awardChainState } from "./award/recovery.js";

/** What {@link awardBenchmark} returns. */
export interface AwardResult {
  slug: string;
  bounty_id: string;
  award_tx: string;
  award_block: number;
  ranking_digest: Hex;
  winners: {
    place: number;
    agent_id: string;
    withdrawal_address: string;
    amount_base_units: string;
    run_id: string;
  }[];
  zero_winner_reason: string | null;
  pack_hash: Hex;
  pack_anchor: AnchorEvidence | null;
  /** Size of the stored pack in bytes (the door serves them: `awardEvidence`). */
  pack_size: number;
}

/**
 * Settles the award of a benchmark (see the module doc). Idempotent: once packed it returns the record.
 * Runs under the store's lock `award:<slug>`: a second caller (another process on PostgreSQL) waits,
 * then finds the award done. The call waits at most the chain's `awardWaitMs` in all (for the lock, then
 * for its transaction).
 * @throws PlatformError `award_in_progress` (another caller held the lock all that time), `award_pending`
 *   (the transaction is not mined in time), `no_chain`, `no_bounty`, `no_commitment`-like `award_not_allowed`,
 *   `winner_without_withdrawal_address`, `chain_error`
 */
export async function awardBenchmark(ctx: PlatformContext, p: Principal, slug: string): Promise<AwardResult> {
  assertOperator(p, "award");
  chainOf(ctx);
  const b = await getBenchmark(ctx, slug);
  if (!b.bounty)
    throw new PlatformError(
      "no_bounty",
      `benchmark ${slug} has no bounty attached (lock or attach one first)`,
      {
        slug,
      },
    );
  // one wait for the whole call (probe14 D3-F7): a second award waiting on the lock, then on its
  // transaction, must not outlive serve's request limit either
  const waitMs = awardWaitMs(ctx);
  const deadline = Date.now() + waitMs;
  try {
    return await ctx.store.withLock(awardLock(slug), () => settleAward(ctx, p, slug, deadline), { waitMs });
  } catch (e) {
    if (!(e instanceof LockWaitExpired)) throw e;
    throw new PlatformError(
      "award_in_progress",
      `another award of ${slug} is in progress (it held the award's lock for more than ${Math.round(waitMs / 1000)} s): run award again in a moment; it is never sent twice`,
      { slug },
    );
  }
}

/** The award's steps, under its lock: prepare (once), send or adopt, record, mint the pack. */
async function settleAward(
  ctx: PlatformContext,
  p: Principal,
  slug: string,
  deadline: number,
): Promise<AwardResult> {
  let b = await getBenchmark(ctx, slug);
  const bountyId = BigInt(b.bounty!.bounty_id);
  let row = await awardRow(ctx, slug);
  if (!row) row = await prepareAward(ctx, p, b);
  if (row.status === "prepared" || row.status === "sent") {
    const sent = await sendOrAdoptAward(ctx, slug, bountyId, row, deadline);
    ctx.faults.awardBeforeRecord?.(slug);
    await recordConfirmed(ctx, slug, sent.txHash, sent.blockNumber);
    row = (await awardRow(ctx, slug))!;
  }
  ctx.faults.awardBeforeMint?.(slug);
  b = await getBenchmark(ctx, slug);
  const packed = await ensurePack(ctx, b, row);
  const winners = fromStored<PreparedWinner[]>(row.winners_json);
  const rd = fromStored<{ zero_winner_reason: string | null }>(row.rank_derivation_json);
  return {
    slug,
    bounty_id: b.bounty!.bounty_id,
    award_tx: row.award_tx!,
    award_block: row.award_block!,
    ranking_digest: row.ranking_digest as Hex,
    winners,
    zero_winner_reason: rd.zero_winner_reason,
    pack_hash: packed.pack_hash,
    pack_anchor: packed.pack_anchor,
    pack_size: packed.bytes.length,
  };
}
