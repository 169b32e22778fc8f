/**
 * Prize facts of a benchmark payload (seed "Compete on Benchmarks", section 8): the three renders of
 * `prize`. Added by the server helper as a thin domain function (the HTTP edge needs it and may not
 * decide it):
 * - `"<pool> USDC, locked at <bounty contract>"`: only when THIS read checked on-chain that the bounty
 *   is Funded with the declared pool, token and author (the detail payload only);
 * - `"<pool> USDC"`: a declared pool this read did not verify (the list never verifies);
 * - `"--"`: no pool at all.
 */
import type { BenchmarkRecord, PlatformContext } from "./context.js";

/** The prize fields of a benchmark payload. Amounts: `prize_pool_usdc` is a plain decimal USDC string. */
export interface PrizeFacts {
  prize_pool_usdc: string | null;
  prize: string;
  bounty_status: string | null;
  /** Unix seconds. */
  prize_closes_at: number | null;
  prize_contract: string | null;
  /** True only when this read checked the pool on-chain and it matched. */
  prize_verified: boolean;
}

/** Base units (6 decimals) as a plain decimal USDC string: `50000000` -> `50`, `12500000` -> `12.5`. */
export function usdcOfBaseUnits(baseUnits: string): string {
  const n = BigInt(baseUnits);
  const frac = (n % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  return frac ? `${n / 1_000_000n}.${frac}` : `${n / 1_000_000n}`;
}

/**
 * The prize facts; with `verify` (the detail), reads `getBounty` and renders "locked at" only when the
 * bounty is Funded (status 2) with the declared pool, token and author. A chain error propagates
 * (`chain_error`): the detail never claims a lock it could not check.
 */
export async function prizeFacts(ctx: PlatformContext, b: BenchmarkRecord, verify: boolean): Promise<PrizeFacts> {
  const bounty = b.bounty;
  if (!bounty)
    return { prize_pool_usdc: null, prize: "--", bounty_status: null, prize_closes_at: null, prize_contract: null, prize_verified: false };
  const declared = `${usdcOfBaseUnits(bounty.pool_base_units)} USDC`;
  let verified = false;
  if (verify && ctx.chain) {
    const onChain = await ctx.chain.getBounty(BigInt(bounty.bounty_id));
    verified =
      onChain.status === 2 &&
      onChain.pool.toString() === bounty.pool_base_units &&
      onChain.token.toLowerCase() === bounty.token.toLowerCase() &&
      onChain.author.toLowerCase() === bounty.author.toLowerCase();
  }
  return {
    prize_pool_usdc: usdcOfBaseUnits(bounty.pool_base_units),
    prize: verified ? `${declared}, locked at ${bounty.bounty_contract}` : declared,
    bounty_status: bounty.status,
    prize_closes_at: bounty.closes_at,
    prize_contract: bounty.bounty_contract,
    prize_verified: verified,
  };
}
