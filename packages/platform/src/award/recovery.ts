/**
 * Award recovery (issue 13 item 7): finding a sent award on-chain by its ranking digest (the `Awarded`
 * log) or by its calldata in the node's pool, adopting a transaction sent before a crash, and where the
 * award transaction is (`awardChainState`).
 */
import { benchmarkBountyAbi } from "@bench-bounty/contracts";
import type { Hex } from "@bench-bounty/evidence";
import { encodeFunctionData, type Address, type Hash } from "viem";
import type { PlatformContext } from "../context.js";
import type { OnChainBounty } from "../chain.js";
import { attachedBountyOnChain } from "./bounty.js";
import { PlatformError } from "../errors.js";
import { fromStored } from "../json.js";
import { getBenchmark } from "../publish.js";
import type { AwardRow } from "../store/awards.js";
import { type PreparedWinner, chainOf, awardRow } from "./state.js";

/**
 * Finds an `Awarded` log of the bounty carrying `digest` from block `fromBlock` (recovery after a crash
 * between send and record); `onchain` is the bounty as read, known to be the attached one.
 */
async function findAwardTx(
  ctx: PlatformContext,
  onchain: OnChainBounty,
  digest: Hex,
  fromBlock: bigint,
): Promise<{ txHash: Hex; blockNumber: number } | null> {
  const bountyId = onchain.bountyId;
  if (onchain.status !== 3) return null;
  const log = await chainOf(ctx).findAwardedLog(bountyId, fromBlock);
  if (log === null || log.rankingDigest.toLowerCase() !== digest) {
    throw new PlatformError(
      "bounty_mismatch",
      `bounty ${bountyId} was awarded on-chain with another ranking digest than the one recorded here`,
      { ranking_digest: digest },
    );
  }
  return { txHash: log.txHash, blockNumber: log.blockNumber };
}

/**
 * {@link findAwardTx} from the block of the benchmark's commitment anchor (the bounty was created after it),
 * on the attached bounty only (`attachedBountyOnChain`: a process configured with another chain or
 * contract adopts nothing, probe26 C-F5).
 * @throws PlatformError `bounty_mismatch` (another bounty, or awarded with another digest), `chain_error`
 */
export async function findOwnAward(ctx: PlatformContext, slug: string, digest: Hex) {
  const b = await getBenchmark(ctx, slug);
  const onchain = await attachedBountyOnChain(ctx, b);
  return findAwardTx(ctx, onchain, digest, BigInt(b.commitment_anchor?.anchor_block ?? 0));
}

/**
 * Whether the award of `slug`, recorded `prepared` or `sent` (not confirmed), may still pay the winners it
 * froze (`winners_json`), read from the chain, the truth (probe24 C-F1). False, for good (a bounty's final
 * state never changes back), when its bounty is Reclaimed; Awarded with another ranking digest than the
 * prepared one (awarded elsewhere: this award never will be); or still Funded with the chain's clock past
 * its award deadline (SPEC 1.1: `award` needs `block.timestamp <= awardDeadline`, so nothing sent or
 * pending can pay any more). False too when no award of `slug` is prepared or sent. True otherwise: the
 * award may still be sent (the next `award` pays the frozen winners), is in flight, or is mined with the
 * prepared digest and not recorded yet; and without a chain, where nothing tells (never guessed).
 * @throws PlatformError `chain_error` when the RPC fails, `bounty_mismatch` when the configured chain or
 *   contract is not the attached bounty's (`attachedBountyOnChain`)
 */
export async function awardMayStillPay(ctx: PlatformContext, slug: string): Promise<boolean> {
  const row = await awardRow(ctx, slug);
  if (!row || (row.status !== "prepared" && row.status !== "sent")) return false;
  if (!ctx.chain) return true;
  const b = await getBenchmark(ctx, slug);
  if (!b.bounty) return true;
  // the attached bounty only: another contract's bounty of the same id says nothing of this award
  const onchain = await attachedBountyOnChain(ctx, b);
  if (onchain.status === 4) return false; // Reclaimed
  if (onchain.status === 3) {
    try {
      await findOwnAward(ctx, slug, row.ranking_digest as Hex);
      return true; // mined with the prepared digest: recorded by the next award or door read
    } catch (e) {
      if (e instanceof PlatformError && e.code === "bounty_mismatch") return false;
      throw e;
    }
  }
  if (onchain.status === 2) return (await ctx.chain.latestTimestamp()) <= onchain.awardDeadline;
  return true;
}

/**
 * Where the award transaction is (issue 13 item 7), read from the chain when the store is not sure (the
 * award prepared, or sent but not confirmed): `none` (not prepared, or not sent: no Awarded log carries the
 * prepared ranking digest and no award of the platform account waits in the node's pool), `pending`
 * (sent, not mined: recorded as sent, or found in the pool after a crash before it was recorded),
 * `mined` (mined, not yet recorded: the next `award` or door read records it), `reverted` or `dropped`
 * (the next `award` sends again), `confirmed` (recorded). Read only on the attached bounty's chain and
 * contract (`attachedBountyOnChain`).
 * @throws PlatformError `unknown_benchmark`, `chain_error` when the RPC fails, `bounty_mismatch` (another
 *   chain or contract configured; `details.field`), or awarded with another digest (`details.ranking_digest`)
 */
export async function awardChainState(
  ctx: PlatformContext,
  slug: string,
): Promise<{
  state: "none" | "pending" | "mined" | "reverted" | "dropped" | "confirmed";
  tx_hash: string | null;
  block: number | null;
}> {
  const b = await getBenchmark(ctx, slug);
  const row = await awardRow(ctx, slug);
  if (!row) return { state: "none", tx_hash: null, block: null };
  if (row.status === "prepared") {
    // A crash between sending and recording `sent` leaves no hash here: an Awarded log with the prepared
    // ranking digest is the award, mined and not yet recorded; the same call waiting in the pool is it, pending.
    if (!ctx.chain) return { state: "none", tx_hash: null, block: null };
    const bountyId = BigInt(b.bounty!.bounty_id);
    const found = await findOwnAward(ctx, slug, row.ranking_digest as Hex);
    if (found) return { state: "mined", tx_hash: found.txHash, block: found.blockNumber };
    const inflight = await pendingAwardCall(ctx, bountyId, row);
    return inflight
      ? { state: "pending", tx_hash: inflight, block: null }
      : { state: "none", tx_hash: null, block: null };
  }
  if (row.status !== "sent") return { state: "confirmed", tx_hash: row.award_tx, block: row.award_block };
  // a sent award is read, and adopted, only where its bounty is attached (probe26 C-F5)
  await attachedBountyOnChain(ctx, b);
  const t = await chainOf(ctx).transactionState(row.award_tx as Hash);
  if (t.state === "mined") return { state: "mined", tx_hash: row.award_tx, block: t.block };
  if (t.state !== "pending") {
    // reverted or dropped, but another copy of the award (sent before a crash) may have been mined
    const found = await findOwnAward(ctx, slug, row.ranking_digest as Hex);
    if (found) return { state: "mined", tx_hash: found.txHash, block: found.blockNumber };
  }
  return { state: t.state === "unknown" ? "dropped" : t.state, tx_hash: row.award_tx, block: null };
}

/** The calldata of the prepared award: `award(bountyId, winners, rankingDigest)`. */
function awardCalldata(bountyId: bigint, row: AwardRow): Hex {
  const winners = fromStored<PreparedWinner[]>(row.winners_json);
  return encodeFunctionData({
    abi: benchmarkBountyAbi,
    functionName: "award",
    args: [bountyId, winners.map((w) => w.withdrawal_address as Address), row.ranking_digest as Hex],
  });
}

/** The hash of the prepared award's call from the platform account waiting in the node's pool, or null. */
async function pendingAwardCall(ctx: PlatformContext, bountyId: bigint, row: AwardRow): Promise<Hash | null> {
  const chain = chainOf(ctx);
  const data = awardCalldata(bountyId, row).toLowerCase();
  const pool = await chain.pendingTransactionsTo(chain.config.contracts.benchmarkBounty);
  return pool?.find((t) => t.input.toLowerCase() === data)?.hash ?? null;
}

/**
 * Before the first send of a prepared award: an award of this store sent but not recorded (a crash
 * between sending and `markSent`) may be waiting in the pool. Found there, it is recorded as sent and
 * returned (it is waited for, never sent twice). Any other unmined transaction of the platform account
 * is refused: it may be that award (a node without a pending block does not show it), so nothing is sent.
 * @throws PlatformError `award_pending` when the account has unmined transactions that are not the award
 */
export async function adoptInflightAward(
  ctx: PlatformContext,
  slug: string,
  bountyId: bigint,
  row: AwardRow,
): Promise<Hash | null> {
  const chain = chainOf(ctx);
  const unmined = await chain.unminedCount();
  if (unmined === 0) return null;
  const hash = await pendingAwardCall(ctx, bountyId, row);
  if (hash) {
    await ctx.store.awards.markSent(slug, hash);
    return hash;
  }
  throw new PlatformError(
    "award_pending",
    `the platform account ${chain.address} has ${unmined} transaction(s) sent but not mined, not recorded here as the award; one may be this award (sent just before a crash), so nothing is sent: wait until they are mined or dropped, then run award again`,
    { account: chain.address, unmined },
  );
}
