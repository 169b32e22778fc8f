/**
 * The award row, its lock and the chain handle the award's steps share (SPEC 7, 8).
 */
import { BOUNTY_STATUS_NAMES } from "../chain.js";
import type { PlatformContext } from "../context.js";
import { PlatformError } from "../errors.js";
import { fromStored } from "../json.js";
import { getBenchmark } from "../publish.js";
import type { AwardRow } from "../store/awards.js";

/** A winner as the prepared award records it (`winners_json`): place 1-based, amount in base units. */
export interface PreparedWinner {
  place: number;
  agent_id: string;
  withdrawal_address: string;
  amount_base_units: string;
  run_id: string;
}

/**
 * What a prepared award froze of each ranked run, by run id: its receipt URL, its author flag (both
 * covered by the ranking digest sent on-chain) and, for a winner, the withdrawal address the award
 * transaction pays. A pack minted later carries these, never today's values (probe21 A-F11: a winner's
 * address changed between prepare and mint was paid the old one on-chain while the pack named the new
 * one, so the pack could never verify).
 */
export interface PreparedRunFacts {
  receipt_url: string | null;
  is_author_agent: boolean;
  /** Set for a winner only: the address the award pays (lower-case). */
  withdrawal_address?: string;
}

/**
 * What a prepared award froze (SPEC 7), read once from its row ({@link preparedAward}) and passed between
 * the award's steps: the send pays `winners`; the pack's size check and its minting name each ranked
 * run's frozen facts (`runs`); the award's answer reports both.
 */
export interface PreparedAward {
  /** Each ranked run's {@link PreparedRunFacts}, by run id. */
  runs: ReadonlyMap<string, PreparedRunFacts>;
  /** The winners the award pays, by place (none for a zero-winner award). */
  winners: PreparedWinner[];
  /** Why no run wins (`no_runs`, `none_at_or_above_threshold`, `only_author_agents`), or null. */
  zero_winner_reason: string | null;
}

/**
 * The {@link PreparedAward} of a prepared award row (its `rank_derivation_json` and `winners_json`).
 * @throws PlatformError `invalid_store` when a winner's run is not in the rank derivation
 */
export function preparedAward(row: AwardRow): PreparedAward {
  const derivation = fromStored<{
    rows: { run_id: string; receipt_url: string | null; is_author_agent: boolean }[];
    zero_winner_reason: string | null;
  }>(row.rank_derivation_json);
  const runs = new Map<string, PreparedRunFacts>();
  for (const r of derivation.rows)
    runs.set(r.run_id, { receipt_url: r.receipt_url, is_author_agent: r.is_author_agent });
  const winners = fromStored<PreparedWinner[]>(row.winners_json);
  for (const w of winners) {
    const f = runs.get(w.run_id);
    if (!f)
      throw new PlatformError(
        "invalid_store",
        `the prepared award's winner run ${w.run_id} is not in its rank derivation`,
        { run_id: w.run_id },
      );
    f.withdrawal_address = w.withdrawal_address;
  }
  return { runs, winners, zero_winner_reason: derivation.zero_winner_reason };
}

/**
 * Whether the award window of a bounty is over by the chain's clock (SPEC 1.1 `award`: the contract
 * refuses an award after `awardDeadline`): the one rule the award's checks (`assertSendable`), the
 * evidence door and the detail's prize line read (probe29 C-F5: the door said "not awarded yet" and the
 * prize "locked" once no award could come any more). An award lands in a block after the latest, at
 * least one second later, so with the latest block's time equal to the deadline no block to come can
 * carry one (probe31 C-F5: the door said "not awarded yet" for that last second).
 * @param awardDeadline the bounty's award deadline, unix seconds (`getBounty`)
 * @param chainTime the latest block's time, unix seconds
 * @returns the `award_not_allowed` refusal a new award gets (`details.award_deadline`, `chain_time`: unix
 *   seconds; "the author may reclaim"), or null while an award can still be mined
 */
export function awardWindowPassed(awardDeadline: bigint, chainTime: bigint): PlatformError | null {
  if (chainTime < awardDeadline) return null;
  return new PlatformError(
    "award_not_allowed",
    chainTime === awardDeadline
      ? `the award deadline ${awardDeadline} is the latest block's time: every block to come is past it; the author may reclaim`
      : `the award deadline ${awardDeadline} has passed (chain clock ${chainTime}); the author may reclaim`,
    { award_deadline: Number(awardDeadline), chain_time: Number(chainTime) },
  );
}

/** A place of an award as mined: 1-based, and the base units it credited (`winners_json`). */
export interface AwardedPlace {
  place: number;
  amount_base_units: string;
}

/**
 * The places `address` (a withdrawal address, any case) holds in `slug`'s award as this store recorded it
 * mined (`confirmed` or `packed`: its Awarded log found with this store's ranking digest), each with the
 * amount the contract credited (SPEC 6: a small pool's split may round a place down to 0 base units).
 * For a relayed claim's `no_credit` reason (probe29 C-F4: a winner credited 0 was told "never won").
 * @returns the places (none: no award mined here, or `address` won none)
 */
export async function awardedPlaces(
  ctx: PlatformContext,
  slug: string,
  address: string,
): Promise<AwardedPlace[]> {
  const row = await awardRow(ctx, slug);
  if (row === null || (row.status !== "confirmed" && row.status !== "packed")) return [];
  const lower = address.toLowerCase();
  return fromStored<PreparedWinner[]>(row.winners_json)
    .filter((w) => w.withdrawal_address.toLowerCase() === lower)
    .map((w) => ({ place: w.place, amount_base_units: w.amount_base_units }));
}

/** The configured chain. @throws PlatformError `no_chain` when the platform runs without one */
export function chainOf(ctx: PlatformContext) {
  if (!ctx.chain)
    throw new PlatformError("no_chain", "no chain configured (pass --rpc-url, contracts and a key)", {});
  return ctx.chain;
}

/**
 * The one rule of who signs for a bounty's award: only its awarder (`getBounty(id).awarder` read on-chain,
 * SPEC 1.1 `award`), for the award's send (probe26 C-F6: another key closed the benchmark and froze the
 * winners before the send was refused `NotAwarder`) and for its evidence pack's anchor (probe36 C-F1: the
 * registry keeps a digest's first anchoring for good, and only the awarder's binds the pack's text, so a
 * pack anchored by another key could never meet the verifier's `full` policy).
 * @param signer the address the process signs with (`ChainGateway.address`, lowercase)
 * @param awarder the bounty's awarder as read on-chain (any case)
 * @param what `award` (before closing or preparing), `prepared award` (before sending one) or `pack`
 *   (before anchoring a confirmed award's pack), for the message
 * @returns null when `signer` is the awarder, else the `award_not_allowed` refusal (`details.signer`,
 *   `details.awarder`, both lowercase; `details.reason` `signer_not_awarder`): nothing was sent
 */
export function signerNotAwarder(
  bountyId: bigint,
  signer: string,
  awarder: string,
  what: "award" | "prepared award" | "pack",
): PlatformError | null {
  const a = awarder.toLowerCase();
  const s = signer.toLowerCase();
  if (a === s) return null;
  return new PlatformError(
    "award_not_allowed",
    what === "pack"
      ? `the evidence pack of bounty ${bountyId}'s award can be anchored only by its awarder ${a} (the registry keeps a digest's first anchoring for good, and only the awarder's binds the pack), and this process signs as ${s} (BENCH_BOUNTY_PRIVATE_KEY): nothing was sent and no pack is stored; run award (or evidence) with the awarder's key`
      : `bounty ${bountyId} can be awarded only by its awarder ${a}, and this process signs as ${s} (BENCH_BOUNTY_PRIVATE_KEY): nothing was closed, prepared or sent; run award with the awarder's key`,
    { reason: "signer_not_awarder", signer: s, awarder: a },
  );
}

/** True when `e` is the refusal of {@link signerNotAwarder}: a process signing with another key than the awarder's. */
export function isSignerNotAwarder(e: unknown): e is PlatformError {
  return (
    e instanceof PlatformError && e.code === "award_not_allowed" && e.details.reason === "signer_not_awarder"
  );
}

/** The name of an on-chain bounty status (`BOUNTY_STATUS_NAMES`), `unknown(n)` for any other. */
export function statusName(n: number): string {
  return BOUNTY_STATUS_NAMES[n] ?? `unknown(${n})`;
}

/** The stored award of a benchmark, or null before it is prepared. */
export function awardRow(ctx: PlatformContext, slug: string): Promise<AwardRow | null> {
  return ctx.store.awards.get(slug);
}

/** The name of the store lock a benchmark's award holds. */
export const awardLock = (slug: string) => `bench-bounty.award:${slug}`;

/**
 * The award confirmation depth (blocks, 1..1000) every award on the store waits for: the store's
 * (`meta.award_confirmations`, written by the last process that set {@link ChainConfig.awardConfirmations},
 * `Platform.open`), else this process's setting, else 1 (store28 R-F2: the depth is the store's, not the
 * process's, so a CLI `award` beside a `serve --award-confirmations 12` waits as long).
 */
export async function awardDepth(ctx: PlatformContext): Promise<number> {
  return (await ctx.store.awards.recordedAwardConfirmations()) ?? ctx.chain?.config.awardConfirmations ?? 1;
}

/**
 * Records a mined award transaction: the award `confirmed`, the benchmark's bounty `awarded` (one
 * transaction), once its block is as deep as the store's award confirmation depth ({@link awardDepth})
 * (probe26 C-F10: recorded on its first block, a reorg that dropped it left the store awarded and the
 * test set revealed).
 * @throws PlatformError `award_pending` (mined in `block`, not deep enough yet: nothing recorded;
 *   `details.tx_hash`, `award_block`, `confirmations`, `confirmations_required`), `chain_error`
 */
export async function recordConfirmed(
  ctx: PlatformContext,
  slug: string,
  txHash: string,
  block: number,
): Promise<void> {
  const required = await awardDepth(ctx);
  if (required > 1) {
    const depth = (await ctx.chain!.latestBlockNumber()) - block + 1;
    if (depth < required)
      throw new PlatformError(
        "award_pending",
        `the award transaction ${txHash} is mined in block ${block} with ${depth} of the ${required} confirmations this service waits for: run award again once ${required - depth} more block(s) are on top of it (it is never sent twice)`,
        {
          tx_hash: txHash,
          award_block: block,
          confirmations: depth,
          confirmations_required: required,
        },
      );
  }
  await ctx.store.tx(async (t) => {
    await t.awards.markConfirmed(slug, txHash, block);
    const bounty = { ...(await getBenchmark(ctx, slug, t)).bounty!, status: "awarded" };
    await t.benchmarks.setBounty(slug, bounty);
  });
}

/** What an award call waits for ({@link AwardProgress.onWaiting}): its award transaction, or its pack's anchor. */
export type AwardWaitingFor = "award" | "pack_anchor";

/**
 * How far an award call got (its steps move it on: `award.ts`, `send.ts`), read when its deadline passes to say
 * what was done: `lock` (waiting for another award's lock), `prepare` (the checks and the chain reads
 * before sending: nothing sent), `sending` (the send began: it may be in flight), `sent` (a transaction,
 * `tx_hash`, exists: waiting for it, recording it), `pack` (the award is confirmed, `tx_hash` in block
 * `award_block`: the prize is paid; minting, anchoring, storing its pack, `anchor_tx` once its anchor's
 * transaction is waited for).
 */
export interface AwardProgress {
  step: "lock" | "prepare" | "sending" | "sent" | "pack";
  tx_hash?: string;
  /** The confirmed award's block (step `pack`). */
  award_block?: number;
  /** The pack's anchor transaction being waited for (step `pack`). */
  anchor_tx?: string;
  /**
   * Told once a transaction is waited for ({@link AwardHow.onWaiting}): the award's, or (`pack_anchor`)
   * its pack's anchor's.
   */
  onWaiting?: (txHash: string, adopted: boolean, until: number, waitingFor: AwardWaitingFor) => void;
  /** Told when an award transaction found sent before is let go ({@link AwardHow.onLetGo}). */
  onLetGo?: (txHash: string) => void;
}
