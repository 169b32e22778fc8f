/**
 * `pack_hash` and `ranking_digest` (Step 5): keccak256 of the canonical JSON
 * of the four hashed blocks, and of `rank_derivation` (the `award()` argument).
 * One serialization (or the served canonical bytes) gives both, and the hashes of
 * the carried receipts (recorded for `receipts.ts`).
 * @packageDocumentation
 */
import { packHashes, rankingDigest } from "@bench-bounty/evidence";
import { errorText, rethrowUnexpected, sameHex } from "../compare.js";
import { fact, type Fact } from "../facts.js";
import type { OfflineFacts, OfflineWalk } from "./context.js";

/** The `pack_hash` and `ranking_digest` facts; records `hashes`, `packHash` and `rankingDigest`. */
export function packHashFacts(walk: OfflineWalk): Pick<OfflineFacts, "pack_hash" | "ranking_digest"> {
  const { view } = walk;
  const units = view.test_set.length;
  let packHashFact: Fact;
  try {
    walk.onProgress?.({ phase: "pack hash", done: 0, total: units });
    walk.hashes = packHashes(view.raw as never, view.canonical);
    walk.packHash = walk.hashes.pack_hash;
    walk.onProgress?.({ phase: "pack hash", done: units, total: units });
    packHashFact = sameHex(walk.packHash, view.pack_hash)
      ? fact("verified", `the four hashed blocks hash to ${walk.packHash}`)
      : fact("failed", `$.pack_hash is ${view.pack_hash}, the hashed blocks hash to ${walk.packHash}`);
  } catch (e) {
    rethrowUnexpected(e);
    packHashFact = fact("failed", `the hashed blocks have no canonical JSON: ${errorText(e)}`);
  }

  let rankingDigestFact: Fact;
  const stated = view.benchmark.ranking_digest;
  try {
    walk.rankingDigest = walk.hashes?.ranking_digest ?? rankingDigest(view.raw.rank_derivation as never);
    rankingDigestFact = sameHex(walk.rankingDigest, stated)
      ? fact("verified", `keccak256(canonical_json(rank_derivation)) is ${walk.rankingDigest}`)
      : fact(
          "failed",
          `$.benchmark.ranking_digest is ${stated}, rank_derivation hashes to ${walk.rankingDigest}`,
        );
  } catch (e) {
    rethrowUnexpected(e);
    rankingDigestFact = fact("failed", `rank_derivation has no canonical JSON: ${errorText(e)}`);
  }
  return { pack_hash: packHashFact, ranking_digest: rankingDigestFact };
}
