/**
 * Digests shown only once anchored (probe14 D3-F8). The AnchorRegistry is permissionless and keeps the
 * first anchoring of a digest with its anchorer's kind (SPEC 1.2), while the verifier checks the kind
 * of the commitment and of every ranked receipt (SPEC 9). A commit root or a receipt hash the platform
 * has not anchored yet could be anchored first by anyone who saw it, with another kind, and the
 * award's pack would fail those facts forever. So every answer of the platform (publish, finalize,
 * runs, receipts, boards, the commitment, the detail, task scores) shows such a digest, and the
 * receipt it hashes, only once its anchor is recorded: while its `anchors` row is pending the digest
 * is `null` and the anchor status says `pending`. Both digests are unpredictable before they are
 * shown (the rows' salts and the answer salt are the platform's random values). Digests with no
 * `anchors` row (a store without a chain) are shown as they are: nobody anchors them.
 */
import type { Tables } from "./store.js";

/**
 * The subset of `digests` that must not be shown yet: recorded as pending anchors (squatted ones
 * included). Null entries are ignored.
 */
export async function withheldDigests(
  q: Tables,
  digests: readonly (string | null | undefined)[],
): Promise<ReadonlySet<string>> {
  const known = digests.filter((d): d is string => typeof d === "string");
  if (known.length === 0) return new Set();
  return q.anchors.unanchoredAmong(known);
}

/** `digest`, or null while it is withheld ({@link withheldDigests}). */
export function shownDigest<T extends string>(digest: T | null, withheld: ReadonlySet<string>): T | null {
  return digest !== null && withheld.has(digest) ? null : digest;
}
