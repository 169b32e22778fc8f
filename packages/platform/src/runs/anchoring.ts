/**
 * Anchoring a benchmark's pending digests (issue 13 item 9): its commitment and its receipts, what is
 * still pending and what was squatted (anchored first by someone else with another kind).
 */
import { type Hex } from "@bench-bounty/evidence";
import { anchorDigests, DEFAULT_ANCHOR_BATCH } from "../anchor-batch.js";
import { squatFacts, type AnchorEvidence, type SquatFacts } from "../chain.js";
import type { PlatformContext } from "../context.js";
import { PlatformError } from "../errors.js";
import type { Tables } from "../store.js";
import { anchorCommitment, getBenchmark } from "../publish.js";
import { isoMillis } from "../time.js";
import { listRuns } from "./record.js";

/**
 * Anchors every pending digest of a kind for a benchmark, one `anchorMany` (or `anchor` for one) per
 * batch of the batcher's size ({@link DEFAULT_ANCHOR_BATCH} without a batcher), and records the evidence
 * of each batch as it is mined. One transaction of every pending digest could exceed the block's gas
 * limit (probe35 C-F6: 2,600 receipts of one account's free runs, ~25,000 gas each, "ran out of gas" on
 * every retry, so the award could never be sent). For receipts, the receipts of runs finalized while
 * the store had no chain (`receipt_anchor_status: "off_chain"`: no pending row) are queued first, so
 * `anchor` and the award anchor them once a chain is configured (probe12 P2: a bounty attached later
 * could never be awarded).
 * @returns evidence by digest (the newly anchored ones)
 * @throws PlatformError `no_chain`, `chain_error` (the batches before it stay recorded), `anchor_squatted`
 *   (the first squat found, after every batch was sent: the others are recorded)
 */
export async function anchorPending(
  ctx: PlatformContext,
  slug: string,
  kind: "receipt" | "commitment" | "pack",
): Promise<Record<string, AnchorEvidence>> {
  if (!ctx.chain) throw new PlatformError("no_chain", "no chain configured", {});
  if (kind === "receipt") await queueOffChainReceipts(ctx, slug);
  const digests = (await ctx.store.anchors.pending(slug, kind)).map((r) => r.digest);
  const size = ctx.anchorBatcher?.batchSize ?? DEFAULT_ANCHOR_BATCH;
  const out: Record<string, AnchorEvidence> = {};
  let squatted: PlatformError | null = null;
  for (let i = 0; i < digests.length; i += size) {
    const batch = digests.slice(i, i + size);
    try {
      const evs = await anchorDigests(ctx, batch, kind);
      batch.forEach((d, j) => (out[d] = evs[j]!));
    } catch (e) {
      if (!(e instanceof PlatformError && e.code === "anchor_squatted")) throw e;
      squatted ??= e; // recorded with the rest of its batch; the next batches still go
    }
  }
  if (squatted !== null) throw squatted;
  return out;
}

/** What {@link anchorBenchmark} did: the digests pending before, what it anchored, what is left. */
export interface BenchmarkAnchoring {
  pending: PendingAnchor[];
  /** The commitment's anchor, or null when it is squatted. */
  commitment: AnchorEvidence | null;
  /** The receipts anchored now, by hash (empty when a squat was found among them: see `still_pending`). */
  receipts: Record<string, AnchorEvidence>;
  still_pending: PendingAnchor[];
  squatted: SquattedAnchor[];
}

/**
 * Anchors what is pending for a benchmark (`bench-bounty anchor SLUG`): its commitment, then its
 * receipts (one `anchorMany`). A squat does not stop the rest (probe15 A-F6): a commitment known to
 * be squatted is not sent again, and a squat found now is recorded and named in `squatted`, the
 * receipts still anchored.
 * @throws PlatformError `unknown_benchmark`, `no_chain`, `chain_error`
 */
export async function anchorBenchmark(ctx: PlatformContext, slug: string): Promise<BenchmarkAnchoring> {
  const pending = await pendingAnchors(ctx, slug);
  const squatFree = async <T>(fallback: T, send: () => Promise<T>): Promise<T> => {
    try {
      return await send();
    } catch (e) {
      if (!(e instanceof PlatformError && e.code === "anchor_squatted")) throw e;
      return fallback; // recorded: listed in `squatted` below
    }
  };
  const rootSquatted = (await squattedAnchors(ctx, slug)).some((a) => a.kind === "commitment");
  const commitment = rootSquatted ? null : await squatFree(null, () => anchorCommitment(ctx, slug));
  const receipts = await squatFree({}, () => anchorPending(ctx, slug, "receipt"));
  return {
    pending,
    commitment,
    receipts,
    still_pending: await pendingAnchors(ctx, slug),
    squatted: await squattedAnchors(ctx, slug),
  };
}

/** Queues (as pending) the receipt of every finalized run of a benchmark that has no anchor row yet. */
async function queueOffChainReceipts(ctx: PlatformContext, slug: string): Promise<void> {
  const at = isoMillis(ctx.clock());
  for (const r of await listRuns(ctx, slug))
    if (r.status === "finalized" && r.receipt_hash && !(await anchorOf(ctx, r.receipt_hash)))
      await ctx.store.anchors.addPending(r.receipt_hash, "receipt", slug, at);
}

/** A digest waiting to be anchored (a chain outage, batched anchoring): `anchor` retries these. */
export interface PendingAnchor {
  digest: Hex;
  kind: "commitment" | "receipt" | "pack";
  created_at: string;
}

/** The digests of a benchmark still waiting for their anchor, oldest first (issue 13 item 9). */
export async function pendingAnchors(ctx: PlatformContext, slug: string): Promise<PendingAnchor[]> {
  await getBenchmark(ctx, slug);
  return ctx.store.anchors.pending(slug);
}

/** A digest of a benchmark someone else anchored first with another kind: pending forever, never sent again. */
export interface SquattedAnchor extends SquatFacts {
  digest: Hex;
  /** The kind it was meant to be anchored with. */
  kind: "commitment" | "receipt" | "pack";
}

/**
 * The squatted digests of a benchmark, oldest first (probe15 B-F10: `pendingAnchors` no longer lists
 * them, and the award is refused while one is a ranked receipt or the commitment).
 * @throws PlatformError `unknown_benchmark`
 */
export async function squattedAnchors(ctx: PlatformContext, slug: string): Promise<SquattedAnchor[]> {
  await getBenchmark(ctx, slug);
  return (await ctx.store.anchors.squatted(slug)).map((r) => ({
    digest: r.digest,
    kind: r.kind,
    ...squatFacts(r.squat),
  }));
}

/** The recorded anchor of a digest, or null when pending or unknown. */
export function anchorOf(
  ctx: PlatformContext,
  digest: string,
  q: Tables = ctx.store,
): Promise<AnchorEvidence | null> {
  return q.anchors.evidence(digest);
}
