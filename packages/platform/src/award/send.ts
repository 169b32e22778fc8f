/**
 * Step 3 of the award: send it once, or adopt the one already sent; wait for it and decide (mined,
 * pending, reverted with its reason, dropped).
 */
import type { Hex } from "@bench-bounty/evidence";
import type { Address, Hash } from "viem";
import { DEFAULT_AWARD_WAIT_MS, sendOrLose, type WaitOutcome } from "../chain.js";
import type { PlatformContext } from "../context.js";
import { PlatformError } from "../errors.js";
import type { AwardRow } from "../store/awards.js";
import { type AwardProgress, type PreparedAward, chainOf } from "./state.js";
import { assertPackFits } from "./pack.js";
import { findOwnAward, adoptInflightAward } from "./recovery.js";
import { assertSendable } from "./prepare.js";
import { reanchorWhatTheChainLost } from "./chain-anchors.js";
import { attachedBountyOnChain } from "./bounty.js";
import { getBenchmark } from "../publish.js";

/**
 * Waits (until `deadline`, epoch ms: what is left of the award's `awardWaitMs`) for a sent award
 * transaction and decides: mined, the award is the
 * `Awarded` log of the award `row` prepared (its digest, winners and amounts: `findOwnAward`; its transaction
 * is recorded, whichever copy was mined);
 * pending, {@link PlatformError} `award_pending`; reverted, forgotten and reported with the contract's
 * reason (unless another copy of the award was mined: it is adopted); dropped, forgotten (null: send anew;
 * a late copy of it cannot pay twice, the contract accepts one award, and a copy mined later is adopted by
 * its log). With `lookFirst` (a hash recorded by an earlier call) the transaction's state is read
 * before waiting: only a pending one is waited for.
 * @throws PlatformError `award_pending`, `chain_error` (reverted, naming the reason; the RPC failing),
 *   `bounty_mismatch` (awarded elsewhere: `findOwnAward`)
 */
async function settleSent(
  ctx: PlatformContext,
  slug: string,
  bountyId: bigint,
  row: AwardRow,
  hash: Hash,
  deadline: number,
  lookFirst = false,
): Promise<{ txHash: string; blockNumber: number } | null> {
  const chain = chainOf(ctx);
  const waitMs = Math.max(0, deadline - Date.now());
  // a hash recorded by an earlier call is looked at first: one the node no longer knows (dropped) is
  // not waited for until the deadline, it is forgotten and the award sent anew in this call (probe26
  // C-F9: the call spent its whole budget on it, then answered server_busy "the chain answered too slowly")
  const seen = lookFirst ? await chain.transactionState(hash) : null;
  // a stop of the process ends the wait at once (its call was answered: probe29 C-F9)
  const outcome: WaitOutcome =
    seen && seen.state !== "pending"
      ? seen
      : await chain.waitWithin(hash, waitMs, "award", ctx.awardCalls.signal);
  if (outcome.state === "pending")
    throw new PlatformError(
      "award_pending",
      `the award transaction ${hash} is pending (sent, not mined within the award's wait of ${Math.round(awardWaitMs(ctx) / 1000)} s): run award again once it is mined; it is never sent twice`,
      { tx_hash: hash },
    );
  const awarded = await findOwnAward(ctx, slug, row);
  if (awarded) return awarded;
  if (outcome.state === "mined")
    throw new PlatformError(
      "chain_error",
      `the award transaction ${hash} was mined but bounty ${bountyId} shows no Awarded log: nothing is recorded; check the bounty contract's address`,
      { tx_hash: hash },
    );
  await ctx.store.awards.forgetSent(slug);
  if (outcome.state === "unknown") return null;
  const reason = await chain.revertReason(hash);
  const never = await noNewAward(ctx, slug, bountyId);
  if (never)
    throw new PlatformError(
      "award_not_allowed",
      `the award transaction ${hash} reverted: ${reason}; nothing was paid, and no award can be sent any more: ${never.message}`,
      { ...never.details, tx_hash: hash, revert: reason },
    );
  throw new PlatformError(
    "chain_error",
    `the award transaction ${hash} reverted: ${reason}; nothing was paid and it is forgotten: fix the cause, then run award again (it sends a new transaction)`,
    { tx_hash: hash, revert: reason },
  );
}

/**
 * Why no award of `slug`'s attached bounty can be sent now (`assertSendable` on the bounty as it is:
 * past its award deadline, reclaimed, awarded, another awarder), or null when one can. For a reverted
 * award's answers (the award's and the door's, probe28 C-F5: an award mined past the deadline was
 * answered "run award again" / "the operator's next award sends a new one", which could never work).
 * A chain read that fails is null (the answer then stays the plain revert's, which guesses nothing).
 * @returns the `award_not_allowed` refusal a new award would get, or null
 */
export async function noNewAward(
  ctx: PlatformContext,
  slug: string,
  bountyId: bigint,
): Promise<PlatformError | null> {
  try {
    const onchain = await attachedBountyOnChain(ctx, await getBenchmark(ctx, slug));
    await assertSendable(ctx, bountyId, onchain, "prepared award");
    return null;
  } catch (e) {
    if (e instanceof PlatformError && e.code === "award_not_allowed") return e;
    return null;
  }
}

/**
 * 503-shaped `server_busy`: the award's deadline passed before it was sent (the chain answered slowly);
 * nothing was sent (probe16 A-F3).
 */
export function notSentInTime(slug: string): PlatformError {
  return new PlatformError(
    "server_busy",
    `the chain answered too slowly: the award of ${slug} was not ready to send by its deadline and nothing was sent; retry later`,
    { slug, retry_after_seconds: 5 },
  );
}

/** How long one award call waits in all (ms): for its lock, then for its transaction (`awardWaitMs`). */
export function awardWaitMs(ctx: PlatformContext): number {
  return chainOf(ctx).config.awardWaitMs ?? DEFAULT_AWARD_WAIT_MS;
}

/**
 * Sends the prepared award once: adopts an award already on-chain (its `Awarded` log with the prepared
 * ranking digest, winners and amounts: `findOwnAward`), or a sent transaction (recorded in the store, or found in the pool after a crash before it was recorded) by
 * waiting for it ({@link settleSent}, until `deadline`, epoch ms), or sends it and records its hash as
 * `sent` before waiting. Marks `progress` as it goes; never sends at or past `deadline`.
 * @throws PlatformError `award_pending` (in flight), `chain_error` (reverted, with its reason; dropped),
 *   `server_busy` (the deadline passed before sending: nothing sent), `award_not_allowed` (the bounty is
 *   not sendable now: `assertSendable`; or the next block leaves the award window: {@link outOfWindow}),
 *   `bounty_mismatch` (not the attached bounty; or awarded elsewhere, naming the log's winners and
 *   transaction: `findOwnAward`), `anchor_squatted` (a commitment anchor a reorg dropped
 *   was anchored first by someone else: `reanchorWhatTheChainLost`, nothing sent)
 */
export async function sendOrAdoptAward(
  ctx: PlatformContext,
  slug: string,
  bountyId: bigint,
  row: AwardRow,
  prepared: PreparedAward,
  deadline: number,
  progress: AwardProgress,
): Promise<{ txHash: string; blockNumber: number }> {
  const chain = chainOf(ctx);
  const digest = row.ranking_digest as Hex;
  const adopted = await findOwnAward(ctx, slug, row);
  if (adopted) return adopted;
  const inflight =
    row.status === "sent" && row.award_tx
      ? (row.award_tx as Hash)
      : await adoptInflightAward(ctx, slug, bountyId, row);
  if (inflight) {
    Object.assign(progress, { step: "sent", tx_hash: inflight });
    progress.onWaiting?.(inflight, true, deadline, "award");
    const settled = await settleSent(ctx, slug, bountyId, row, inflight, deadline, true);
    if (settled) return settled;
    progress.step = "prepare"; // dropped and forgotten: nothing in flight
    progress.onLetGo?.(inflight);
  }
  // the bounty as it is now, the attached one (probe26 C-F5): reclaimed, past its deadline, or awarded
  // by another key is answered as such before the send (probe26 C-F4, C-F6), never as a revert
  await assertSendable(
    ctx,
    bountyId,
    await attachedBountyOnChain(ctx, await getBenchmark(ctx, slug)),
    "prepared award",
  );
  await assertPackFits(ctx, slug, prepared);
  // the anchors the pack names, as the chain holds them now (a reorg may have dropped one the store
  // recorded): anchored again before the money moves (probe30 C-F10)
  await reanchorWhatTheChainLost(ctx, slug);
  const winners = prepared.winners;
  // the one irreversible step: never begun past the deadline (the caller was answered that nothing was
  // sent, probe16 A-F3), checked right before the send, after the reads it needs (probe19 A-F2: checked
  // before them, the award went out 49 s after the answer); the check and the step's mark are one
  // synchronous stretch
  const refuseLate = (): void => {
    // the process stopping is a deadline too: its caller was answered that nothing was sent (probe29 C-F9)
    if (Date.now() >= deadline || ctx.awardCalls.stopped) throw notSentInTime(slug);
  };
  refuseLate(); // before the reads too: they may take the RPC's timeout each
  const hash = await sendAwardOrLose(() =>
    chain.sendAward(
      bountyId,
      winners.map((w) => w.withdrawal_address as Address),
      digest,
      {
        beforeSend: () => {
          refuseLate();
          progress.step = "sending";
        },
      },
    ),
  );
  Object.assign(progress, { step: "sent", tx_hash: hash });
  ctx.faults.awardBeforeMarkSent?.(slug);
  await ctx.store.awards.markSent(slug, hash);
  ctx.faults.awardAfterSend?.(slug);
  progress.onWaiting?.(hash, false, deadline, "award");
  // an RPC failure from here on is answered `award_pending` by the caller (`lateAward`): it is recorded as
  // sent, and a rerun adopts it (probe16 B-F12)
  const settled = await settleSent(ctx, slug, bountyId, row, hash, deadline);
  if (settled) return settled;
  throw new PlatformError(
    "chain_error",
    `the award transaction ${hash} was dropped before it was mined (the node no longer knows it); it is forgotten: run award again to send it anew (the contract accepts one award, so a late copy cannot pay twice)`,
    { tx_hash: hash },
  );
}

/**
 * Sends the award; when the node's answer to the send is lost (`details.may_be_sent`: the RPC failed
 * after the signed transaction left, probe16 B-F12), the award may be on its way: its hash (signed
 * here) is returned as if the send had answered (the gateway's {@link sendOrLose}, the one rule), so
 * that it is recorded as sent and looked for.
 * @throws PlatformError from the send otherwise (a revert in the simulation, a refusal, no gas), the
 *   award window's refusal as `award_not_allowed` ({@link outOfWindow})
 */
async function sendAwardOrLose(send: () => Promise<Hash>): Promise<Hash> {
  try {
    return await sendOrLose(send);
  } catch (e) {
    throw outOfWindow(e) ?? e;
  }
}

/**
 * The send's simulation runs in the next block, whose time may leave `[closesAt, awardDeadline]` though
 * the latest block's was in it (`assertSendable`): at the deadline's last second it reverts
 * `AwardAfterDeadline(awardDeadline, timestamp)`. That is the award window closing, answered as
 * `assertSendable` answers it (409 `award_not_allowed` with `award_deadline` / `closes_at` and the next
 * block's `chain_time`), never as a chain failure (probe26 C-F1, the award half). Nothing was sent.
 * @returns the refusal, or null for any other error
 */
function outOfWindow(e: unknown): PlatformError | null {
  if (!(e instanceof PlatformError) || e.code !== "chain_error") return null;
  const [bound, time] = Array.isArray(e.details.args) ? (e.details.args as string[]) : [];
  if (bound === undefined || time === undefined) return null;
  if (e.details.revert === "AwardAfterDeadline")
    return new PlatformError(
      "award_not_allowed",
      `the award deadline ${bound} passes before the award can be mined (the next block's time is ${time}); nothing was sent: the author may reclaim`,
      { award_deadline: Number(bound), chain_time: Number(time), revert: e.details.revert },
    );
  if (e.details.revert === "AwardBeforeClose")
    return new PlatformError(
      "award_not_allowed",
      `the contest closes at ${bound}; the next block's time is ${time}: nothing was sent`,
      { closes_at: Number(bound), chain_time: Number(time), revert: e.details.revert },
    );
  return null;
}
