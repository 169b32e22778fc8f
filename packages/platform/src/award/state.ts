/**
 * The award row, its lock and the chain handle the award's steps share (SPEC 7, 8).
 */
import { BOUNTY_STATUS_NAMES } from "../chain.js";
import type { PlatformContext } from "../context.js";
import { PlatformError } from "../errors.js";
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

/** The configured chain. @throws PlatformError `no_chain` when the platform runs without one */
export function chainOf(ctx: PlatformContext) {
  if (!ctx.chain)
    throw new PlatformError("no_chain", "no chain configured (pass --rpc-url, contracts and a key)", {});
  return ctx.chain;
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

/** Records a mined award transaction: the award `confirmed`, the benchmark's bounty `awarded` (one transaction). */
export async function recordConfirmed(
  ctx: PlatformContext,
  slug: string,
  txHash: string,
  block: number,
): Promise<void> {
  await ctx.store.tx(async (t) => {
    await t.awards.markConfirmed(slug, txHash, block);
    const bounty = { ...(await getBenchmark(ctx, slug, t)).bounty!, status: "awarded" };
    await t.benchmarks.setBounty(slug, bounty);
  });
}

/**
 * How far an award call got (its steps move it on: `award.ts`, `send.ts`), read when its deadline passes to say
 * what was done: `lock` (waiting for another award's lock), `prepare` (the checks and the chain reads
 * before sending: nothing sent), `sending` (the send began: it may be in flight), `sent` (a transaction,
 * `tx_hash`, exists: waiting for it, recording it, minting the pack).
 */
export interface AwardProgress {
  step: "lock" | "prepare" | "sending" | "sent";
  tx_hash?: string;
}
