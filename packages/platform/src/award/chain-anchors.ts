/**
 * Right before the award is sent: the anchors its pack will name are read on the AnchorRegistry, not in
 * the store (probe30 C-F10). A reorg can drop an anchor transaction the store recorded (the store
 * records an anchor at its first block), and a pack naming it would fail `commitment_anchor` or
 * `receipt_anchors` for good while the prize is paid.
 */
import { anchorKindServes } from "@bench-bounty/contracts";
import type { Hex } from "@bench-bounty/evidence";
import { anchorDigests, DEFAULT_ANCHOR_BATCH } from "../anchor-batch.js";
import type { AnchorEvidence } from "../chain.js";
import type { PlatformContext } from "../context.js";
import { getBenchmark } from "../publish.js";
import { anchorOf, listRuns } from "../runs.js";
import { chainOf } from "./state.js";

/**
 * Reads `anchorOf` on the AnchorRegistry for the benchmark's commitment and for the receipt of every
 * finalized run (the receipts the pack names: SPEC 8 `commitment_anchor`, SPEC 9 receipt anchors), in
 * bounded batches (`ChainGateway.anchorBlocks`). A digest the chain no longer holds as the store
 * recorded it (not anchored: its transaction dropped by a reorg; or in another block: re-included) is
 * anchored again, or its new anchoring looked up, and the store's evidence replaced (the benchmark's
 * `commitment_anchor` included), so the pack minted after the award verifies. The re-anchors are the
 * platform account's transactions before the award's, so the award's confirmation depth covers them.
 * Each re-anchored digest is named in the operator's log.
 * @returns the digests anchored again or found elsewhere (empty when the chain holds all as recorded)
 * @throws PlatformError `chain_error` (a read or a re-anchor failed: nothing sent of the award),
 *   `anchor_squatted` (someone else anchored a dropped commitment first with another kind: the award
 *   is refused, the squat recorded; a receipt so anchored takes that anchoring as its evidence,
 *   `anchorKindServes`)
 */
export async function reanchorWhatTheChainLost(ctx: PlatformContext, slug: string): Promise<Hex[]> {
  const chain = chainOf(ctx);
  const b = await getBenchmark(ctx, slug);
  const receipts: Hex[] = [];
  const recorded: (AnchorEvidence | null)[] = [b.commitment_anchor];
  for (const r of await listRuns(ctx, slug)) {
    if (r.status !== "finalized") continue;
    receipts.push(r.receipt_hash as Hex);
    recorded.push(await anchorOf(ctx, r.receipt_hash!));
  }
  const digests = [b.commit_root, ...receipts];
  const onChain = await chain.anchorBlocks(digests);
  const lost = (i: number, kind: "commitment" | "receipt"): boolean =>
    onChain[i]!.block === 0 ||
    !anchorKindServes(kind, onChain[i]!.kind) ||
    onChain[i]!.block !== recorded[i]?.anchor_block;
  const log = chain.config.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const redone: Hex[] = [];
  if (lost(0, "commitment")) {
    const [ev] = (await anchorDigests(ctx, [b.commit_root], "commitment")) as [AnchorEvidence];
    await ctx.store.benchmarks.setCommitmentAnchor(slug, ev);
    redone.push(b.commit_root);
  }
  const lostReceipts = receipts.filter((_, i) => lost(i + 1, "receipt"));
  for (let i = 0; i < lostReceipts.length; i += DEFAULT_ANCHOR_BATCH)
    await anchorDigests(ctx, lostReceipts.slice(i, i + DEFAULT_ANCHOR_BATCH), "receipt");
  redone.push(...lostReceipts);
  for (const d of redone)
    log(
      `bench-bounty: award ${slug}: ${d === b.commit_root ? "the commitment" : "receipt"} ${d} was not on the AnchorRegistry as recorded (a reorg): anchored again before the award`,
    );
  return redone;
}
