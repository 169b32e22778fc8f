/** The store's key of an attached bounty (migration 0011). */
import type { AttachedBounty } from "../context.js";

/**
 * What names one on-chain bounty in a store: `<chain id>:<BenchmarkBounty contract, lower-case>:<bounty
 * id in decimal>` (SPEC 1.1: a bounty id names a prize only on its contract and chain). The value of
 * `benchmarks.bounty_key`, unique: a bounty is attached to at most one benchmark (probe27 A-F2).
 */
export function bountyKey(b: Pick<AttachedBounty, "chain_id" | "bounty_contract" | "bounty_id">): string {
  return `${b.chain_id}:${b.bounty_contract.toLowerCase()}:${b.bounty_id}`;
}
