/**
 * The off-chain walk's shared context: the pack view and what each step has
 * derived so far, read by the steps after it (SPEC 9, award-evidence-pack Steps 1-5).
 *
 * Each step of {@link ./index.ts} is a function from this context to its facts;
 * a step writes only the fields documented as its own, and reads only those of
 * the steps before it in the table.
 *
 * @packageDocumentation
 */
import type { PackHashes, Problem, RegradeResult, TestSetRow } from "@bench-bounty/evidence";
import { capReasons, type Fact, type FactName, type VerificationValues } from "../facts.js";
import type { PackView, RankRowView, WinnerView } from "../pack.js";
import type { ProgressCallback } from "../progress.js";

/** The facts the pack alone decides. */
export type OfflineFactName =
  | "schema"
  | "pack_hash"
  | "commitment_root"
  | "leaf_count"
  | "ranking_digest"
  | "digest_chain"
  | "receipt_hashes"
  | "regrade"
  | "composite"
  | "ordering"
  | "selection"
  | "payouts";

/** The off-chain facts, by name. */
export type OfflineFacts = Pick<Record<FactName, Fact>, OfflineFactName>;

/** The test set indexed by each row's `ordinal` field (SPEC 3: `bank_ordinal` means the row's ordinal). */
export interface TestSetIndex {
  /** `byOrdinal[o]` is the row whose ordinal is `o` (the row views serve as `TestSetRow`s). */
  byOrdinal: TestSetRow[];
  /** Bare prompt hash of `byOrdinal[o]` (`""` when its prompt cannot be hashed). */
  promptHashByOrdinal: string[];
  /** True when the ordinals are exactly 0..n-1 (in any order): receipts can be bound to rows. */
  bindable: boolean;
}

/** One winner's regrade (evidence's `regradeRun`), kept for the `regrade` fact. */
export interface WinnerRegrade {
  winner: WinnerView;
  /** The winner's row in `rank_derivation.rows` (by run id), if any. */
  row: RankRowView | undefined;
  /** The regrade, or null when the test set is not bindable (nothing can be regraded). */
  result: RegradeResult | null;
  /** The result's problems that are not the digest chain's (grading, scores). */
  problems: Problem[];
}

/** The shared context of the off-chain walk. */
export interface OfflineWalk {
  readonly view: PackView;
  readonly onProgress: ProgressCallback | undefined;
  /** First row of `rank_derivation.rows` per run id. */
  readonly rowByRun: ReadonlyMap<string, RankRowView>;
  /** `pack-hash.ts`: the digests of one serialization (pack, ranking digest, carried receipts), or null. */
  hashes: PackHashes | null;
  /** `pack-hash.ts`: the recomputed pack hash, or null when the blocks have no canonical JSON. */
  packHash: string | null;
  /** `pack-hash.ts`: the recomputed ranking digest, or null. */
  rankingDigest: string | null;
  /** `commitment.ts`: the rebuilt commitment root, or null (no rows, or a row cannot be hashed). */
  commitRoot: string | null;
  /** `commitment.ts`: the test set by ordinal. */
  testSet: TestSetIndex;
  /** `receipts.ts`: recomputed receipt hash per run id (winners first, then rows carrying a receipt). */
  receiptHashByRun: Map<string, string>;
  /** `receipts.ts`: where a row disagrees with its receipt's scores and usage (the `composite` fact's). */
  receiptAgreement: string[];
  /**
   * `receipts.ts`: the rows checked against no receipt, in row order: a row that embeds none (SPEC 8 makes it
   * optional) and is no winner's (a winner's row is checked against the winner's receipt). Their values are
   * the awarder's word (probe37 C-F1): the facts standing on them are at best `unverified`
   * ({@link awardersWord}).
   */
  rowsWithoutReceipt: RankRowView[];
  /** `receipts.ts`: every winner's regrade, in winner order. */
  regrades: WinnerRegrade[];
  /** `regrade.ts` (composite): the recomputed composite per row. */
  composites: Map<RankRowView, string>;
  /** `ordering.ts`: the rows in SPEC 7.1 order on the recomputed composites, or null when they cannot be ranked. */
  ranked: RankRowView[] | null;
  /** `selection.ts`: the valid `splits_bps`, or null. */
  splits: number[] | null;
  /** `selection.ts`: the winners SPEC 7.2 selects, in place order, or null when selection failed. */
  winners: RankRowView[] | null;
  /** `selection.ts`: the derived zero-winner reason (null when there are winners or selection failed). */
  zeroWinnerReason: string | null;
  /** `payouts.ts`: SPEC 7.3 place amounts for the selected winners (base units). */
  placeAmounts: bigint[];
}

/** A step of the walk: reads the context, records what it derives, returns its facts. */
export type OfflineStep = (walk: OfflineWalk) => Partial<OfflineFacts>;

/** What the off-chain walk derived, for the on-chain and indexer checks. */
export interface OfflineDerived {
  /** Recomputed commitment root, or null. */
  commitRoot: string | null;
  /** Recomputed pack hash, or null. */
  packHash: string | null;
  /** Recomputed ranking digest, or null. */
  rankingDigest: string | null;
  /** Every receipt hash the pack names (winners' and rows'), unique, lowercase. */
  receiptHashes: string[];
}

/** Result of `verifyOffline`. */
export interface OfflineResult {
  facts: OfflineFacts;
  values: VerificationValues;
  derived: OfflineDerived;
}

/** A fresh context for a pack view (nothing derived yet). */
export function startWalk(view: PackView, onProgress?: ProgressCallback): OfflineWalk {
  const rowByRun = new Map<string, RankRowView>();
  for (const r of view.rank_derivation.rows) if (!rowByRun.has(r.run_id)) rowByRun.set(r.run_id, r);
  return {
    view,
    onProgress,
    rowByRun,
    hashes: null,
    packHash: null,
    rankingDigest: null,
    commitRoot: null,
    testSet: { byOrdinal: [], promptHashByOrdinal: [], bindable: false },
    receiptHashByRun: new Map(),
    receiptAgreement: [],
    rowsWithoutReceipt: [],
    regrades: [],
    composites: new Map(),
    ranked: null,
    splits: null,
    winners: null,
    zeroWinnerReason: null,
    placeAmounts: [],
  };
}

/** `path: message` of an evidence problem. */
export function problemText(p: Problem): string {
  return `${p.path}: ${p.message}`;
}

/** The row values no receipt binds when the row carries none (SPEC 8 row fields not in its receipt's stead). */
const UNBOUND_ROW_VALUES =
  "rank_accuracy, score_public, score_composite, wall_seconds, queries_used, usdc_spent, achieved_at and attempts_used";

/**
 * A fact that stands on the rows' values (`composite`, `ordering`, `selection`), made honest about the rows
 * checked against no receipt (`walk.rowsWithoutReceipt`, probe37 C-F1): SPEC 8 makes a row's embedded
 * receipt optional, and a row without one (and no winner's) states its scores and usage on the awarder's word
 * alone: an awarder can lower a competitor's row below the threshold, re-rank, re-select and re-hash, and
 * every recomputation agrees. So such a fact is never `verified`: `verified` becomes `unverified`, its first
 * reason naming the rows (JSON paths, at most 20), its summary kept after it; `failed` stays `failed`, with
 * that reason added last; any other state is returned as is.
 * @param f the fact as computed over the rows as stated
 * @returns `f` itself when every row is checked against a receipt
 */
export function awardersWord(walk: OfflineWalk, f: Fact): Fact {
  const rows = walk.rowsWithoutReceipt;
  if (rows.length === 0 || (f.state !== "verified" && f.state !== "failed")) return f;
  const paths = capReasons(
    rows.map((r) => r.path),
    20,
  ).join(", ");
  const note =
    `${rows.length} row${rows.length === 1 ? "" : "s"} of $.rank_derivation.rows carr${rows.length === 1 ? "ies" : "y"} no receipt ` +
    `and ${rows.length === 1 ? "is" : "are"} no winner's (${paths}): ${rows.length === 1 ? "its" : "their"} ${UNBOUND_ROW_VALUES} ` +
    `are the awarder's word, checked against no receipt (SPEC 8 makes a row's receipt optional; the run's receipt_url serves it)`;
  return f.state === "verified"
    ? { state: "unverified", reasons: [note, `over the rows as stated: ${f.reasons.join("; ")}`] }
    : { state: "failed", reasons: [...f.reasons, note] };
}
