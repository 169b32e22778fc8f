/**
 * `root_burned` (SPEC 9, v1.1): the award burned the root for this bounty's
 * author: `rootBurned(benchmark.author, commit_root)` is true, and the bounty's
 * author on chain (`getBounty(bounty_id).author`) is the pack's `benchmark.author`
 * (otherwise the burn read would be another author's).
 * @packageDocumentation
 */
import { sameHex } from "../compare.js";
import { fact, type Fact } from "../facts.js";
import { addr, type ChainFacts, type ChainWalk } from "./context.js";

/** The `root_burned` fact. */
export async function rootBurnedFacts(walk: ChainWalk): Promise<Pick<ChainFacts, "root_burned">> {
  return { root_burned: await rootBurned(walk) };
}

async function rootBurned(walk: ChainWalk): Promise<Fact> {
  if ("unreadable" in walk.bounty) return walk.bounty.unreadable;
  const { address } = walk.bounty;
  const b = walk.view.benchmark;
  const root = walk.root;
  if (root === null) return fact("failed", `$.benchmark.commit_root ${b.commit_root} is not a bytes32`);
  const author = addr(b.author);
  if (author === null) return fact("failed", `$.benchmark.author ${b.author} is not an address`);
  const [record, burned] = await Promise.all([
    walk.bountyRecord(address),
    walk.readBounty<boolean>(address, "rootBurned", [author, root]),
  ]);
  const problems: string[] = [];
  if (!sameHex(record.author, author))
    problems.push(
      `getBounty(${walk.bountyId}).author is ${record.author.toLowerCase()}, $.benchmark.author is ${b.author}: the root would be burned for another author`,
    );
  if (!burned)
    problems.push(`rootBurned(${author}, ${root}) is false: no terminal award authorised this reveal`);
  return problems.length === 0
    ? fact(
        "verified",
        `rootBurned(${author}, ${root}) is true, and ${author} is getBounty(${walk.bountyId}).author`,
      )
    : { state: "failed", reasons: problems };
}
