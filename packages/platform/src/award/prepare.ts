/**
 * Steps 1 and 2 of the award (see `award.ts`): the on-chain checks, then ranking, selection and amounts
 * recorded as `prepared` (SPEC 7).
 */
import { buildRankDerivation } from "@bench-bounty/evidence";
import type { AttachedBounty, BenchmarkRecord, PlatformContext } from "../context.js";
import type { OnChainBounty } from "../chain.js";
import { PlatformError } from "../errors.js";
import { toStored } from "../json.js";
import { anchorCommitment, getBenchmark } from "../publish.js";
import { anchorOf, anchorPending, listRuns } from "../runs.js";
import type { Principal } from "../identity/principal.js";
import type { AwardRow } from "../store/awards.js";
import { isoMillis } from "../time.js";
import {
  type PreparedWinner,
  awardWindowPassed,
  chainOf,
  signerNotAwarder,
  statusName,
  awardRow,
} from "./state.js";
import { closeToNewRuns } from "./bounty.js";
import { mintRunsToPrepare, scoringOf } from "./pack.js";

/**
 * What the award's send needs of the attached bounty as read on-chain (SPEC 1.1 `award`), checked before
 * anything is closed or prepared and again right before a prepared award is sent: Funded (a prepared
 * award whose bounty was reclaimed can never be sent: probe26 C-F4), the chain's clock within
 * `[closesAt, awardDeadline]` (the close judged by the pending block's time, the block the award lands in at
 * the earliest: probe30 C-F6; the deadline by the latest block's, and by the next block's at the send's
 * simulation, `outOfWindow` of send.ts), and the bounty's awarder the platform account that signs (probe26 C-F6:
 * another key closed the benchmark and froze the winners before the send was refused `NotAwarder`).
 * @param what `award` (before preparing) or `prepared award` (before sending one), for the messages
 * @throws PlatformError `award_not_allowed` (`details.bounty_status`; `closes_at` / `award_deadline` and
 *   `chain_time`; `signer` and `awarder`), `chain_error`
 */
export async function assertSendable(
  ctx: PlatformContext,
  bountyId: bigint,
  onchain: OnChainBounty,
  what: "award" | "prepared award",
): Promise<void> {
  const chain = chainOf(ctx);
  if (onchain.status !== 2) {
    const status = statusName(onchain.status);
    throw new PlatformError(
      "award_not_allowed",
      what === "award"
        ? `bounty ${bountyId} is ${status} on-chain, not funded`
        : `bounty ${bountyId} is ${status} on-chain, not funded: the prepared award can never be sent (nothing was sent)`,
      { bounty_status: status },
    );
  }
  const notAwarder = signerNotAwarder(bountyId, chain.address, onchain.awarder, what);
  if (notAwarder) throw notAwarder;
  const now = await chain.latestTimestamp();
  // the award lands in the next block at the earliest: the opening edge is judged by its time, as the
  // deadline edge is at the send's simulation (probe30 C-F6: at closes_at - 1 in the latest block it was
  // refused though the next block, where the award lands, was in the window)
  const landing = now < onchain.closesAt ? await chain.pendingTimestamp() : now;
  if (landing < onchain.closesAt) {
    throw new PlatformError(
      "award_not_allowed",
      `the contest closes at ${onchain.closesAt}; the next block's time is ${landing} (the chain clock ${now})`,
      {
        closes_at: Number(onchain.closesAt),
        chain_time: Number(landing),
      },
    );
  }
  const passed = awardWindowPassed(onchain.awardDeadline, now);
  if (passed) throw passed;
}

/**
 * Step 1 and 2 of the award: the on-chain checks, closing, flushing the receipt anchors, then one
 * transaction from reading the runs to recording the derivation (`prepared`). The caller checked the
 * owner rule (`award`: the operator); the close is the award's own (`closeToNewRuns`: the bounty's
 * `closesAt` has passed on the chain's clock), not `closeBenchmark`'s, which refuses a prize benchmark.
 * @param _p the caller, already checked by the caller (the operator)
 * @param onchain the attached bounty as read just before, known to be the attached one
 *   (`attachedBountyOnChain`: probe26 C-F5)
 */
export async function prepareAward(
  ctx: PlatformContext,
  _p: Principal,
  b: BenchmarkRecord,
  onchain: OnChainBounty,
): Promise<AwardRow> {
  const slug = b.slug;
  const bountyId = BigInt(b.bounty!.bounty_id);
  await assertSendable(ctx, bountyId, onchain, "award");
  if (!b.commitment_anchor) await anchorCommitment(ctx, slug);
  await closeToNewRuns(ctx, slug);
  await anchorPending(ctx, slug, "receipt");
  // The benchmark's row is locked (finalize locks it too): a run finalized concurrently either lands
  // before (and is ranked) or is refused (finalize sees the award row).
  const attached = b.bounty!;
  await ctx.store.tx(async (t) => {
    const fresh = await getBenchmark(ctx, slug, t, { lock: true });
    if ((await t.awards.get(slug)) !== null) return;
    // the agents' rows read locked: an address change lands before this or sees the award (`updateAgent`)
    const runs = await mintRunsToPrepare(ctx, slug, t);
    for (const r of await listRuns(ctx, slug, undefined, t)) {
      // never squatted: a receipt anchored first with another kind is recorded anchored with that
      // anchoring (`anchorKindServes`, probe35 C-F2), so one front-run cannot cancel the award
      if (r.status === "finalized" && !(await anchorOf(ctx, r.receipt_hash!, t))) {
        throw new PlatformError("award_not_allowed", `the receipt of run ${r.run_id} is not anchored yet`, {
          run_id: r.run_id,
        });
      }
    }
    const bounty: AttachedBounty = {
      ...attached,
      pool_base_units: onchain.pool.toString(),
      threshold_bps: onchain.thresholdBps,
      splits_bps: [...onchain.splitsBps],
    };
    const derivation = buildRankDerivation({
      scoring: scoringOf(fresh, bounty),
      pool_base_units: bounty.pool_base_units,
      runs,
    });
    const missing = derivation.winning_runs.filter((w) => !w.withdrawal_address).map((w) => w.agent_id);
    if (missing.length > 0) {
      throw new PlatformError(
        "winner_without_withdrawal_address",
        `winner(s) ${missing.join(", ")} have no withdrawal address: the whole award is blocked until they set one`,
        { agent_ids: missing },
      );
    }
    const winners: PreparedWinner[] = derivation.winning_runs.map((w, i) => ({
      place: i + 1,
      agent_id: w.agent_id,
      withdrawal_address: w.withdrawal_address!.toLowerCase(),
      amount_base_units: derivation.amounts[i]!.toString(),
      run_id: w.receipt.run_id,
    }));
    await t.awards.insertPrepared({
      slug,
      rank_derivation_json: toStored(derivation.rank_derivation),
      ranking_digest: derivation.ranking_digest,
      winners_json: toStored(winners),
      created_at: isoMillis(ctx.clock()),
    });
    await t.benchmarks.setBounty(slug, bounty);
    await t.benchmarks.bumpBoard(slug);
  });
  return (await awardRow(ctx, slug))!;
}
