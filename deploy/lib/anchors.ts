/**
 * What an AnchorRegistry record (SPEC 1.2) means for the anchor a task wants: the one wording of a
 * digest anchored first with another kind (a squat, the platform's `anchor_squatted`) and of what that
 * costs, used by `anchor` and by `bounty:lock` (probe34 C-F3). The registry is permissionless and keeps
 * the first anchoring, with its anchorer's kind, for good.
 */
import { contracts } from "./packages";

type KindName = import("@bench-bounty/contracts").AnchorKindName;

/** An `AnchorRegistry.anchorOf` record as the tasks read it (ethers). */
export interface AnchorRecordRead {
  anchorer: string;
  kind: string;
  blockNumber: bigint;
}

/** What a digest that can never carry the kind `wanted` costs, per kind (the SPEC 9 facts that read it). */
const SQUAT_COST: Record<KindName, string> = {
  commitment:
    "a bounty on this root fails its commitment_anchor fact (SPEC 9) for good, so its pack never meets onchain; publish the test set anew with another seed or salts (a new root) and lock on that",
  receipt:
    "an award naming this receipt fails its receipt_anchors fact (SPEC 9) for good, so its pack never meets onchain",
  pack: "the pack's pack_anchor fact (SPEC 9) can never verify",
  "compute-receipt": "nothing can ever anchor it as a compute-receipt",
};

/** The SPEC 1.2 name of an anchor kind, else `unknown kind <bytes32>`. */
export function anchorKindText(kind: string): string {
  return contracts().anchorKindName(kind) ?? `unknown kind ${kind}`;
}

/**
 * The refusal text of a digest anchored with another kind than `wanted`: `<digest> was anchored first by
 * <anchorer> in block N with kind K, not <wanted>: the registry keeps the first anchoring, so it can never
 * be anchored as a <wanted>; <what it costs>` (the words of the platform's `squattedError`,
 * packages/platform/src/chain.ts, and the SPEC 9 fact it costs). A caller that signs says "squatted: "
 * in front when the anchorer is someone else.
 * @param record the registry's record of `digest` (anchored: `anchorer` is not the zero address)
 * @param wanted the kind the caller needs
 * @returns null when `record` has the kind `wanted` (nothing wrong with the kind)
 */
export function wrongKindText(digest: string, record: AnchorRecordRead, wanted: KindName): string | null {
  const wantedHash = (contracts().ANCHOR_KINDS as Record<KindName, string>)[wanted];
  if (record.kind.toLowerCase() === wantedHash.toLowerCase()) return null;
  return (
    `${digest} was anchored first by ${record.anchorer} in block ${record.blockNumber} with kind ${anchorKindText(record.kind)}, not ${wanted}: ` +
    `the registry keeps the first anchoring, so it can never be anchored as a ${wanted}; ${SQUAT_COST[wanted]}`
  );
}

/** `squatted: ` when `anchorer` is not `self` (someone else took the digest first), else nothing. */
export function squatPrefix(anchorer: string, self: string): string {
  return anchorer.toLowerCase() === self.toLowerCase() ? "" : "squatted: ";
}

/** How many `anchorOf` reads {@link unanchoredDigests} keeps in flight at most. */
export const ANCHOR_READS_IN_FLIGHT = 16;

/**
 * The digests of `digests` that AnchorRegistry holds no record of at the latest block (`anchorOf(d)`'s
 * anchorer is the zero address), read with at most {@link ANCHOR_READS_IN_FLIGHT} calls in flight (a
 * pack may name thousands). A digest anchored with any kind counts as anchored: this is existence at a
 * block, not the kind. A failed read is not swallowed: the first one rejects.
 * @param registry the network's AnchorRegistry (its `anchorOf`)
 * @param digests `0x` + 64 hex each
 * @returns the indexes in `digests` of the ones not anchored, ascending
 */
export async function unanchoredDigests(
  registry: { anchorOf(digest: string): Promise<{ anchorer: string }> },
  digests: readonly string[],
): Promise<number[]> {
  const missing: number[] = [];
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < digests.length) {
      const i = next++;
      try {
        const rec = await registry.anchorOf(digests[i]!);
        if (/^0x0{40}$/i.test(rec.anchorer)) missing.push(i);
      } catch (e) {
        failed = true; // the other workers stop reading; the first failure is the answer
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(ANCHOR_READS_IN_FLIGHT, digests.length) }, worker));
  return missing.sort((a, b) => a - b);
}
