/**
 * `onchain_root` and `onchain_leaf_count`: the bounty contract pins the pack's
 * test set: `testSetRoots(bounty_id)` == `benchmark.commit_root` and
 * `leafCountOf(bounty_id)` == `benchmark.leaf_count`.
 * @packageDocumentation
 */
import type { Hex } from "viem";
import { sameHex } from "../compare.js";
import { fact } from "../facts.js";
import type { ChainFacts, ChainWalk } from "./context.js";

/** The `onchain_root` and `onchain_leaf_count` facts. */
export async function pinnedRootFacts(
  walk: ChainWalk,
): Promise<Pick<ChainFacts, "onchain_root" | "onchain_leaf_count">> {
  if ("unreadable" in walk.bounty)
    return { onchain_root: walk.bounty.unreadable, onchain_leaf_count: walk.bounty.unreadable };
  const { address } = walk.bounty;
  const b = walk.view.benchmark;
  const id = walk.bountyId;
  const [root, leafCount] = await Promise.all([
    walk.readBounty<Hex>(address, "testSetRoots", [id]),
    walk.readBounty<number>(address, "leafCountOf", [id]),
  ]);
  return {
    onchain_root: sameHex(root, b.commit_root)
      ? fact("verified", `testSetRoots(${id}) is ${root}`)
      : fact("failed", `testSetRoots(${id}) is ${root}, $.benchmark.commit_root is ${b.commit_root}`),
    onchain_leaf_count:
      Number(leafCount) === b.leaf_count
        ? fact("verified", `leafCountOf(${id}) is ${leafCount}`)
        : fact("failed", `leafCountOf(${id}) is ${leafCount}, $.benchmark.leaf_count is ${b.leaf_count}`),
  };
}
