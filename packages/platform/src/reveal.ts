/**
 * Digests shown only once anchored (probe14 D3-F8). The AnchorRegistry is permissionless and keeps the
 * first anchoring of a digest with its anchorer's kind (SPEC 1.2), while the verifier checks the kind
 * of the commitment and of every ranked receipt (SPEC 9). A commit root or a receipt hash the platform
 * has not anchored yet could be anchored first by anyone who saw it, with another kind, and the
 * award's pack would fail those facts forever. So every answer of the platform (publish, finalize,
 * runs, receipts, boards, the commitment, the detail, task scores) shows such a digest, and the
 * receipt it hashes, only once its anchor is recorded: while its `anchors` row is pending the digest
 * is `null` and the anchor status says `pending`, and no error text names it (an anchoring's failure
 * names its kind, never its digests, no run of 8 of their hex digits, nor the hash of a transaction
 * anchoring them: `ChainGateway.anchorMany`, probe39 A-F1, probe40 V-F1, V-F5). Both digests are unpredictable before they are
 * shown (the rows' salts and the answer salt are the platform's random values). Digests with no
 * `anchors` row (a store without a chain) are shown as they are: nobody anchors them.
 *
 * Whether a digest gets a pending row is one rule ({@link anchoredHere}): on a store some process
 * anchors for, every process records its digests pending, its own chain or not (probe26 A-F5: a
 * finalize through a `serve` without a chain on a chain store left its receipt `off_chain`, served
 * by every process; a stranger anchored it first with another kind and the prize could never be
 * awarded). A process without a chain leaves them for a process with one (its batcher's sweep,
 * `anchor <slug>`, the award).
 */
import type { AnchorSquat } from "./chain.js";
import type { BenchmarkRecord, PlatformContext } from "./context.js";
import type { Tables } from "./store.js";

/**
 * Where a digest's anchor stands: `anchored` (recorded), `pending` (recorded as pending: withheld),
 * `squatted` (a commitment root pending forever: someone else anchored it first with another kind,
 * `anchors.squat_json`; withheld; a receipt so anchored is `anchored`, `anchorKindServes`), `off_chain` (no `anchors` row: a store without a chain; shown as it is).
 */
export type AnchorState = "anchored" | "pending" | "squatted" | "off_chain";

/**
 * Whether the digests this process writes now (a publish's commit root, a finalize's receipt hash) are
 * recorded as pending anchors, withheld until anchored: when it has a chain, or when any process opened
 * the store with one (`meta.anchoring_chain_id`, `AnchorsTable.markOnChain`); else they are `off_chain`
 * and shown. Read in the write's transaction `q`.
 */
export async function anchoredHere(ctx: Pick<PlatformContext, "chain">, q: Tables): Promise<boolean> {
  return ctx.chain !== null || (await q.anchors.onChain());
}

/**
 * Why a digest written by a process without a chain on a chain store ({@link anchoredHere}) is pending:
 * the `receipt_anchor_error` / `commitment_anchor_error` of its finalize or publish.
 */
export const NO_CHAIN_HERE =
  "this service has no chain, and the store's digests are anchored on one: it stays pending (withheld) until a process with the chain anchors it (its anchor batcher, `bench-bounty anchor <slug>`, or the award)";

/** The anchor states of the digests an answer may show (read by {@link withheldDigests}). */
export class Withheld {
  /** @param rows per recorded digest: anchored or not, and its squat (null when none) */
  constructor(private readonly rows: ReadonlyMap<string, { anchored: boolean; squat: AnchorSquat | null }>) {}

  /** True while `digest` must not be shown: recorded and not anchored (pending or squatted). */
  has(digest: string): boolean {
    const row = this.rows.get(digest);
    return row !== undefined && !row.anchored;
  }

  /** The squat recorded on `digest`, or null. */
  squatOf(digest: string): AnchorSquat | null {
    return this.rows.get(digest)?.squat ?? null;
  }

  /** Where `digest`'s anchor stands ({@link AnchorState}). */
  stateOf(digest: string): AnchorState {
    const row = this.rows.get(digest);
    if (row === undefined) return "off_chain";
    if (row.anchored) return "anchored";
    return row.squat !== null ? "squatted" : "pending";
  }
}

/**
 * The anchor states of `digests` (receipt hashes; null entries are ignored) and of the roots of
 * `benchmarks`, in one query at most: a root whose `commitment_anchor` is recorded is anchored without
 * asking the `anchors` table (the hot reads: every answer about an anchored benchmark).
 */
export async function withheldDigests(
  q: Tables,
  digests: readonly (string | null | undefined)[],
  benchmarks: readonly Pick<BenchmarkRecord, "commit_root" | "commitment_anchor">[] = [],
): Promise<Withheld> {
  const anchoredRoots = benchmarks.filter((b) => b.commitment_anchor !== null).map((b) => b.commit_root);
  const asked = [
    ...digests.filter((d): d is string => typeof d === "string"),
    ...benchmarks.filter((b) => b.commitment_anchor === null).map((b) => b.commit_root),
  ];
  const rows = asked.length === 0 ? new Map() : await q.anchors.statesAmong(asked);
  for (const root of anchoredRoots) rows.set(root, { anchored: true, squat: null });
  return new Withheld(rows);
}

/** `digest`, or null while it is withheld ({@link withheldDigests}). */
export function shownDigest<T extends string>(digest: T | null, withheld: Withheld): T | null {
  return digest !== null && withheld.has(digest) ? null : digest;
}

/**
 * Whether a run's receipt may be shown (its payload names its hash's preimage and its benchmark's
 * root): both its hash and the root are anchored, or off-chain (probe15 A-F4).
 */
export function receiptRevealed(receiptHash: string | null, commitRoot: string, withheld: Withheld): boolean {
  return receiptHash !== null && !withheld.has(receiptHash) && !withheld.has(commitRoot);
}
