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
 *    ranking digest, winners and amounts are the prepared ones (`findOwnAward`);
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
import { getBenchmark } from "./publish.js";
import { assertOperator } from "./identity/access.js";
import type { Principal } from "./identity/principal.js";
import { ensurePack } from "./award/pack.js";
import { prepareAward } from "./award/prepare.js";
import { attachedBountyOnChain } from "./award/bounty.js";
import { awardWaitMs, notSentInTime, sendOrAdoptAward } from "./award/send.js";
import { LockWaitExpired } from "./store.js";
import { byDeadline } from "./deadline.js";
import {
  awardLock,
  awardRow,
  chainOf,
  preparedAward,
  recordConfirmed,
  type AwardProgress,
  type AwardWaitingFor,
} from "./award/state.js";

export {
  attachBounty,
  closeBenchmark,
  LOCK_CLOSE_LEAD_SECONDS,
  lockBounty,
  parseBountyId,
  serviceParties,
  type AttachExpectations,
  type LockOptions,
} from "./award/bounty.js";
export {
  awardEvidence,
  awardEvidenceBytes,
  awardEvidenceChunks,
  PACK_CHUNK_BYTES,
  PACK_CACHE_BYTES,
  awardEvidenceHead,
  type AwardEvidenceHead,
  type AwardEvidenceReason,
  type AwardEvidenceResult,
  type AwardEvidenceUnavailable,
} from "./award/door.js";
export { awardChainState } from "./award/recovery.js";
export type { AwardProgress, AwardedPlace, AwardWaitingFor } from "./award/state.js";

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

/** How an award call runs ({@link awardBenchmark}). */
export interface AwardHow {
  /**
   * The latest moment (unix ms) the call answers, the chain's latency included (probe16 A-F3): the
   * server passes its request's deadline for an award. Default: the chain's `awardWaitMs` after the call.
   */
  answerBy?: number;
  /**
   * Told when the call begins to wait for a transaction: its hash, whether it was found sent before (a
   * pending one adopted, never sent twice), the moment (unix ms) the wait ends (the call's deadline) and
   * what it is (`waitingFor`): the award's transaction, or once the award is confirmed its pack's anchor
   * (`pack_anchor`, sent here or found in the node's pool); the CLI prints it (probe32 C-F3, probe33
   * C-F1: nothing was printed for up to 180 s).
   */
  onWaiting?: (txHash: string, adopted: boolean, until: number, waitingFor: AwardWaitingFor) => void;
  /**
   * Told when an award transaction found sent before is let go: the node no longer knows it (dropped, or
   * its nonce taken by another transaction), so it can never be mined and the call sends the award anew
   * (the contract takes one award: a copy cannot pay twice). The CLI prints it (probe40 C-N1: the log
   * showed two award transactions, each "never sent twice", and not that the first was let go).
   */
  onLetGo?: (txHash: string) => void;
}

/**
 * Settles the award of a benchmark (see the module doc). Idempotent: once packed it returns the record.
 * Runs under the store's lock `award:<slug>`: a second caller (another process on PostgreSQL) waits,
 * then finds the award done. The whole call (the wait for the lock, the chain reads before the
 * transaction, its wait, the pack minting after) answers by one deadline: the chain's `awardWaitMs`
 * after the call, or `how.answerBy` if sooner (probe14 D3-F7, probe16 A-F3); its work past it goes on
 * under the lock but never sends once past it.
 * @throws PlatformError `award_in_progress` (another caller held the lock all that time), `server_busy`
 *   (the deadline passed before sending: nothing was sent; `details.retry_after_seconds`), `award_pending`
 *   (it passed after: the transaction may be pending, or the pack is being minted; a rerun adopts it),
 *   `no_chain`, `no_bounty`, `no_commitment`-like `award_not_allowed`, `winner_without_withdrawal_address`,
 *   `chain_error`
 */
export async function awardBenchmark(
  ctx: PlatformContext,
  p: Principal,
  slug: string,
  how: AwardHow = {},
): Promise<AwardResult> {
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
  // one deadline for the whole call (probe14 D3-F7, probe16 A-F3): a second award waiting on the
  // lock, then on its chain reads and its transaction, must not outlive serve's request limit either
  // a process that is stopping begins no award (probe29 C-F9)
  if (ctx.awardCalls.stopped) throw stoppingRefusal(slug);
  const startedAt = Date.now();
  const deadline = Math.min(startedAt + awardWaitMs(ctx), how.answerBy ?? Number.POSITIVE_INFINITY);
  const waitMs = deadline - startedAt;
  const progress: AwardProgress = {
    step: "lock",
    ...(how.onWaiting ? { onWaiting: how.onWaiting } : {}),
    ...(how.onLetGo ? { onLetGo: how.onLetGo } : {}),
  };
  const work = ctx.store
    .withLock(awardLock(slug), () => settleAward(ctx, p, slug, deadline, progress), {
      waitMs: Math.max(0, deadline - Date.now()),
    })
    .catch((e: unknown) => {
      if (e instanceof LockWaitExpired) throw awardInProgress(slug, waitMs);
      // the RPC failing once the award is sent says nothing of it: it is in flight. A failure during the
      // send is the node's refusal (a lost answer is taken as sent: `sendOrLose`): nothing was sent, and
      // the refusal is the answer, never "being sent" (probe29 C-F11: a nonce another process took)
      // (its words are the answer's reason, never "did not answer in time": probe32 A-F3)
      if (isRpcFailure(e) && progress.step === "sent")
        throw lateAward(slug, progress, waitMs, false, e as PlatformError);
      throw e;
    });
  ctx.awardCalls.track(work);
  // the steps bounded by the deadline themselves (the lock's wait, the transaction's, the send's check)
  // answer at it with their own reason; the timer, a moment later, answers for the chain's reads; a stop
  // of the process answers at once, from how far the call got (probe29 C-F9)
  return byDeadline(
    work,
    deadline + AWARD_ANSWER_GRACE_MS,
    () => {
      throw lateAward(slug, progress, waitMs, ctx.awardCalls.stopped);
    },
    ctx.awardCalls.signal,
  );
}

/**
 * 503-shaped `server_busy`: this process is stopping, and the award of `slug` was not sent by this call
 * (`retry_after_seconds`): run it again once the server is back, or on another on the store.
 */
function stoppingRefusal(slug: string): PlatformError {
  return new PlatformError(
    "server_busy",
    `this server is stopping: the award of ${slug} was not sent by this call (nothing was sent); run award again once it is back, or on another server of the store`,
    { slug, stopping: true, retry_after_seconds: 5 },
  );
}

/**
 * How long (ms) after its deadline an award call whose work has not answered is answered from its
 * {@link AwardProgress}: the steps that end at the deadline by themselves answer first, with their
 * own reason (`serve`: 45 s + 1 s, within its 60 s request limit).
 */
export const AWARD_ANSWER_GRACE_MS = 1_000;

/** 409 `award_in_progress`: another award held the lock for the whole wait. */
function awardInProgress(slug: string, waitMs: number): PlatformError {
  return new PlatformError(
    "award_in_progress",
    `another award of ${slug} is in progress (it held the award's lock for more than ${Math.round(waitMs / 1000)} s): run award again in a moment; it is never sent twice`,
    { slug },
  );
}

/** A `chain_error` of the RPC itself (unreachable, timed out: `details.call`), not a contract's answer. */
function isRpcFailure(e: unknown): boolean {
  return e instanceof PlatformError && e.code === "chain_error" && e.details.call !== undefined;
}

/**
 * What an award call answers when its deadline passes at `progress` ({@link AwardProgress}), when the
 * RPC fails after the award was sent (`rpcFailure`, its `chain_error`), or (`stopping`) when the process
 * stops (probe29 C-F9): before the send, nothing was sent by this call (`server_busy`); from the send
 * on, `award_pending` naming its transaction (`details.tx_hash`, null while the send has not answered)
 * and why it answers now: the RPC's failure in its own words, with its `details.call` (and
 * `rpc_error_code`) when it failed (probe32 A-F3: an RPC with no receipt for the mined transaction was
 * answered "the chain did not answer in time to finish by the deadline" a second after the send).
 */
function lateAward(
  slug: string,
  progress: AwardProgress,
  waitMs: number,
  stopping = false,
  rpcFailure?: PlatformError,
): PlatformError {
  if (stopping && (progress.step === "lock" || progress.step === "prepare")) return stoppingRefusal(slug);
  if (progress.step === "lock") return awardInProgress(slug, waitMs);
  if (progress.step === "prepare") return notSentInTime(slug);
  if (progress.step === "pack") {
    // confirmed: the prize is paid, never "under way" (probe33 C-F2)
    const award = { award_tx: progress.tx_hash ?? null, award_block: progress.award_block ?? null };
    const anchor = progress.anchor_tx;
    const why = stopping
      ? "this server is stopping, so it answers now: run award again (it mints the pack; the award is never sent twice)"
      : anchor
        ? `its anchor transaction ${anchor} was not seen mined and the pack stored by this call's deadline: run award again in a moment (it adopts that transaction; neither the award nor the anchor is sent twice)`
        : "it was still being minted at this call's deadline: run award again in a moment (the award is never sent twice)";
    return packPending(slug, award, why, { ...(anchor ? { tx_hash: anchor } : {}), retry_after_seconds: 10 });
  }
  const tx = progress.tx_hash ?? null;
  const why = stopping
    ? "this server is stopping, so it answers now"
    : rpcFailure
      ? `the chain RPC failed after the send: ${rpcFailure.message}`
      : "the chain did not answer in time to finish by the deadline";
  const { call, rpc_error_code } = rpcFailure?.details ?? {};
  return new PlatformError(
    "award_pending",
    `the award of ${slug} is under way (${tx ? `transaction ${tx}` : "its transaction is being sent"}; ${why}): run award again in a moment; it adopts the transaction and is never sent twice`,
    {
      slug,
      tx_hash: tx,
      ...(call === undefined ? {} : { call }),
      ...(rpc_error_code === undefined ? {} : { rpc_error_code }),
    },
  );
}

/**
 * `pack_pending` for a confirmed award (the prize paid) whose pack is not stored: the award's facts first
 * (`award_tx`, `award_block`, `awarded`), then `why` the pack waits, `more` added to the details. The one
 * wording of that state for an award call (its refusal, {@link packNotMinted}, and its deadline's answer,
 * {@link lateAward}).
 */
function packPending(
  slug: string,
  award: { award_tx: string | null; award_block: number | null },
  why: string,
  more: Record<string, unknown>,
  code: PlatformError["code"] = "pack_pending",
): PlatformError {
  return new PlatformError(
    code,
    `the award of ${slug} is confirmed (transaction ${award.award_tx}, block ${award.award_block}): the prize is paid; its evidence pack is not minted yet: ${why}`,
    { ...more, slug, award_tx: award.award_tx, award_block: award.award_block, awarded: true },
  );
}

/**
 * The refusal of an award call whose award is confirmed (the prize paid) but whose pack could not be
 * minted or anchored (probe26 C-F11: the answer was a bare `chain_error` "... (nothing was sent)",
 * without the award): the award's facts first (`award_tx`, `award_block`), then why the pack waits. A
 * chain that failed is `pack_pending` (run award again, or let a door read mint it); another refusal
 * (the pack's anchor transaction not mined by the deadline, a squatted pack hash) keeps its code, the
 * award's facts added to its details. Anything else (a bug) is rethrown as is.
 */
function packNotMinted(
  slug: string,
  row: { award_tx: string | null; award_block: number | null },
  e: unknown,
): unknown {
  if (!(e instanceof PlatformError)) return e;
  return e.code === "chain_error"
    ? packPending(
        slug,
        row,
        `${e.message}. Run award again once that is mended (it mints the pack and never sends the award twice)`,
        { cause: { code: e.code, details: e.details }, retry_after_seconds: 10 },
      )
    : packPending(slug, row, e.message, e.details, e.code);
}

/** The award's steps, under its lock: prepare (once), send or adopt, record, mint the pack. */
async function settleAward(
  ctx: PlatformContext,
  p: Principal,
  slug: string,
  deadline: number,
  progress: AwardProgress,
): Promise<AwardResult> {
  progress.step = "prepare";
  let b = await getBenchmark(ctx, slug);
  const bountyId = BigInt(b.bounty!.bounty_id);
  let row = await awardRow(ctx, slug);
  // before anything is closed, prepared or sent: the configured chain and contract hold the attached
  // bounty (probe26 C-F5)
  const onchain =
    !row || row.status === "prepared" || row.status === "sent" ? await attachedBountyOnChain(ctx, b) : null;
  if (!row) row = await prepareAward(ctx, p, b, onchain!);
  // what the preparation froze, read once: the send pays its winners, the pack names its runs' facts
  const prepared = preparedAward(row);
  if (row.status === "prepared" || row.status === "sent") {
    const sent = await sendOrAdoptAward(ctx, slug, bountyId, row, prepared, deadline, progress);
    ctx.faults.awardBeforeRecord?.(slug);
    await recordConfirmed(ctx, slug, sent.txHash, sent.blockNumber);
    row = (await awardRow(ctx, slug))!;
  }
  ctx.faults.awardBeforeMint?.(slug);
  // confirmed (just now, or before): the prize is paid, what is left is the pack
  progress.step = "pack";
  progress.tx_hash = row.award_tx ?? undefined;
  progress.award_block = row.award_block ?? undefined;
  b = await getBenchmark(ctx, slug);
  // the anchor's transaction is waited for by this call's deadline, and told as the award's is (probe33
  // C-F1/C-F2: viem's 180 s wait ran past the deadline in silence)
  const packed = await ensurePack(ctx, b, row, prepared, {
    until: deadline,
    stop: ctx.awardCalls.signal,
    onWaiting: (tx, adopted, until) => {
      progress.anchor_tx = tx;
      progress.onWaiting?.(tx, adopted, until, "pack_anchor");
    },
  }).catch((e: unknown) => {
    throw packNotMinted(slug, row!, e);
  });
  return {
    slug,
    bounty_id: b.bounty!.bounty_id,
    award_tx: row.award_tx!,
    award_block: row.award_block!,
    ranking_digest: row.ranking_digest as Hex,
    winners: prepared.winners,
    zero_winner_reason: prepared.zero_winner_reason,
    pack_hash: packed.pack_hash,
    pack_anchor: packed.pack_anchor,
    pack_size: packed.bytes.length,
  };
}
