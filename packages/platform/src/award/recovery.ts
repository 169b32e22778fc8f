/**
 * Award recovery (issue 13 item 7): finding a sent award on-chain (the `Awarded` log with its ranking
 * digest, winners and amounts) or by its calldata in the node's pool, adopting a transaction sent before a crash, and where the
 * award transaction is (`awardChainState`).
 */
import { benchmarkBountyAbi } from "@bench-bounty/contracts";
import type { Hex } from "@bench-bounty/evidence";
import { encodeFunctionData, type Address, type Hash } from "viem";
import type { PlatformContext } from "../context.js";
import type { AwardedLog, OnChainBounty } from "../chain.js";
import { attachedBountyOnChain } from "./bounty.js";
import { PlatformError } from "../errors.js";
import { fromStored } from "../json.js";
import { getBenchmark } from "../publish.js";
import type { AwardRow } from "../store/awards.js";
import { type PreparedWinner, chainOf, awardRow } from "./state.js";

/**
 * Whether `log` is the award `row` prepared (the one rule of adopting an award found on-chain, issue 13
 * item 7, probe36 C-F4): its ranking digest, its winners and their amounts, in place order, and its author
 * remainder are the frozen award's (`winners_json`, the calldata this store sends, and the rank
 * derivation's pool less their amounts, SPEC 7.3). The ranking digest does not cover the winners'
 * addresses, so a log with the prepared digest that paid other addresses (the awarder key sending it
 * outside the platform) is not this award.
 * @returns null when it is; else why not, for an error (the log's payments, and the prepared ones)
 */
function notThePreparedAward(log: AwardedLog, row: AwardRow): string | null {
  const digest = row.ranking_digest.toLowerCase();
  if (log.rankingDigest.toLowerCase() !== digest)
    return `with another ranking digest (${log.rankingDigest}) than the one prepared here (${digest})`;
  const winners = fromStored<PreparedWinner[]>(row.winners_json);
  const pool = BigInt(fromStored<{ pool_base_units: string }>(row.rank_derivation_json).pool_base_units);
  const remainder = pool - winners.reduce((sum, w) => sum + BigInt(w.amount_base_units), 0n);
  const same =
    log.winners.length === winners.length &&
    log.amounts.length === winners.length &&
    winners.every(
      (w, i) =>
        log.winners[i]!.toLowerCase() === w.withdrawal_address.toLowerCase() &&
        log.amounts[i] === BigInt(w.amount_base_units),
    ) &&
    log.authorRemainder === remainder;
  if (same) return null;
  const paid = (pairs: [string, bigint | string][], rest: bigint) =>
    `${pairs.length === 0 ? "no winner" : pairs.map(([a, n]) => `${a} ${n}`).join(", ")} (author remainder ${rest})`;
  return (
    `with the ranking digest prepared here (${digest}) but other payments than the award prepared here: ` +
    `its Awarded log pays ${paid(
      log.winners.map((a, i) => [a.toLowerCase(), log.amounts[i] ?? 0n]),
      log.authorRemainder,
    )}, the prepared award ${paid(
      winners.map((w) => [w.withdrawal_address.toLowerCase(), w.amount_base_units]),
      remainder,
    )} (base units)`
  );
}

/**
 * Finds the `Awarded` log of the bounty from block `fromBlock` and returns it when it is the award `row`
 * prepared ({@link notThePreparedAward}: recovery after a crash between send and record); `onchain` is
 * the bounty as read, known to be the attached one. Null while the bounty is not Awarded.
 * @throws PlatformError `bounty_mismatch` when the bounty is Awarded by another award (awarded elsewhere:
 *   another ranking digest, or the prepared one with other winners or amounts), `details.ranking_digest`
 *   (the prepared one) and, when its log is found, `awarded_ranking_digest` (the log's), `award_tx`,
 *   `award_block`, `awarded_winners`
 *   (`{account, amount_base_units}` in place order), `author_remainder_base_units`
 */
async function findAwardTx(
  ctx: PlatformContext,
  onchain: OnChainBounty,
  row: AwardRow,
  fromBlock: bigint,
): Promise<{ txHash: Hex; blockNumber: number } | null> {
  const bountyId = onchain.bountyId;
  if (onchain.status !== 3) return null;
  const log = await chainOf(ctx).findAwardedLog(bountyId, fromBlock);
  const digest = row.ranking_digest.toLowerCase();
  if (log === null)
    throw new PlatformError(
      "bounty_mismatch",
      `bounty ${bountyId} is Awarded on-chain but no Awarded log of it carries the ranking digest prepared here (${digest})`,
      { ranking_digest: digest },
    );
  const why = notThePreparedAward(log, row);
  if (why !== null)
    throw new PlatformError(
      "bounty_mismatch",
      `bounty ${bountyId} was awarded on-chain by transaction ${log.txHash} (block ${log.blockNumber}) ${why}`,
      {
        ranking_digest: digest,
        awarded_ranking_digest: log.rankingDigest.toLowerCase(),
        award_tx: log.txHash,
        award_block: log.blockNumber,
        awarded_winners: log.winners.map((a, i) => ({
          account: a.toLowerCase(),
          amount_base_units: String(log.amounts[i] ?? ""),
        })),
        author_remainder_base_units: log.authorRemainder.toString(),
      },
    );
  return { txHash: log.txHash, blockNumber: log.blockNumber };
}

/**
 * {@link findAwardTx} from the block of the benchmark's commitment anchor (the bounty was created after it),
 * on the attached bounty only (`attachedBountyOnChain`: a process configured with another chain or
 * contract adopts nothing, probe26 C-F5). Every adoption of an award found on-chain (the `award` rerun and
 * its sends, the evidence door, `awardMayStillPay`) asks this.
 * @param row the award as prepared (its ranking digest, `winners_json`, rank derivation)
 * @throws PlatformError `bounty_mismatch` (another bounty, or awarded elsewhere: see {@link findAwardTx}),
 *   `chain_error`
 */
export async function findOwnAward(ctx: PlatformContext, slug: string, row: AwardRow) {
  const b = await getBenchmark(ctx, slug);
  const onchain = await attachedBountyOnChain(ctx, b);
  return findAwardTx(ctx, onchain, row, BigInt(b.commitment_anchor?.anchor_block ?? 0));
}

/**
 * Whether the award of `slug`, recorded `prepared` or `sent` (not confirmed), may still pay the winners it
 * froze (`winners_json`), read from the chain, the truth (probe24 C-F1). False, for good (a bounty's final
 * state never changes back), when its bounty is Reclaimed; Awarded by another award than the prepared
 * one (awarded elsewhere, another ranking digest or other winners or amounts: {@link findOwnAward}; this
 * award never will be); or still Funded with the chain's clock past
 * its award deadline (SPEC 1.1: `award` needs `block.timestamp <= awardDeadline`, so nothing sent or
 * pending can pay any more). False too when no award of `slug` is prepared or sent. True otherwise: the
 * award may still be sent (the next `award` pays the frozen winners), is in flight, or is mined (the prepared
 * award's log: {@link findOwnAward}) and not recorded yet; and without a chain, where nothing tells (never guessed).
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
      await findOwnAward(ctx, slug, row);
      return true; // the prepared award, mined: recorded by the next award or door read
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
 * award prepared, or sent but not confirmed): `none` (not prepared, or not sent: the bounty is not Awarded
 * and no award of the platform account waits in the node's pool), `pending`
 * (sent, not mined: recorded as sent, or found in the pool after a crash before it was recorded),
 * `mined` (mined, not yet recorded: the next `award` or door read records it), `reverted` or `dropped`
 * (the next `award` sends again), `confirmed` (recorded). Read only on the attached bounty's chain and
 * contract (`attachedBountyOnChain`).
 * @throws PlatformError `unknown_benchmark`, `chain_error` when the RPC fails, `bounty_mismatch` (another
 *   chain or contract configured; `details.field`), or awarded elsewhere (another digest, or the prepared
 *   one with other winners or amounts: {@link findOwnAward}; `details.ranking_digest`)
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
    // A crash between sending and recording `sent` leaves no hash here: the Awarded log of the prepared
    // award (its digest, winners and amounts) is the award, mined and not yet recorded; the same call waiting in the pool is it, pending.
    if (!ctx.chain) return { state: "none", tx_hash: null, block: null };
    const bountyId = BigInt(b.bounty!.bounty_id);
    const found = await findOwnAward(ctx, slug, row);
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
    const found = await findOwnAward(ctx, slug, row);
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
