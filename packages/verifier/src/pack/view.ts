/**
 * The typed view of an evidence pack the verifier walks (SPEC 8's blocks: benchmark, test set,
 * winners, rank derivation, anchors), and the pack's keys in order.
 * @packageDocumentation
 */
import { appendPath, type CanonicalSource, type JsonObject, type JsonValue } from "@bench-bounty/evidence";

/** A `commitment_anchor` or `pack_anchor` block. */
export interface AnchorRef {
  registry_address: string;
  tx_hash: string;
  anchor_block: number;
}

/** The `benchmark` block. */
export interface BenchmarkView {
  slug: string;
  title: string;
  commit_root: string;
  leaf_count: number;
  chain_id: number;
  bounty_contract: string;
  /** Integer string (a JSON integer is read as its decimal text). */
  bounty_id: string;
  token: string;
  author: string;
  awarder: string;
  /** Base units. */
  pool_base_units: bigint;
  /** Unix seconds. */
  closes_at: number;
  award_tx: string;
  award_block: number;
  ranking_digest: string;
  commitment_anchor: AnchorRef | null;
}

/** One receipt task (SPEC 4). */
export interface ReceiptTaskView {
  ordinal: number;
  bank_ordinal: number;
  prompt_hash: string;
  visibility: string;
  answer_digest: string | null;
  credit: string | null;
}

/** A run receipt (SPEC 4): the raw payload (hashed as served) and the fields the walk reads. */
export interface ReceiptView {
  /** The payload exactly as parsed (hash input). */
  raw: JsonObject;
  /** JSON path of the payload in the pack. */
  path: string;
  run_id: string;
  benchmark_slug: string;
  commit_root: string;
  agent_id: string;
  attempt: number;
  /** Decimal strings as written (a JSON number is read as its text). */
  wall_seconds: string;
  queries_used: number;
  usdc_spent: string;
  score_public: string;
  score_composite: string;
  finalized_at: string;
  tasks: ReceiptTaskView[];
}

/** One answer of a winner. */
export interface AnswerView {
  ordinal: number;
  bank_ordinal: number;
  answer_text: string;
}

/** One entry of `winners`. */
export interface WinnerView {
  path: string;
  place: number;
  agent_id: string;
  withdrawal_address: string;
  amount_base_units: bigint;
  run_id: string;
  receipt: ReceiptView;
  receipt_hash: string;
  answer_salt: string;
  answers: AnswerView[];
}

/** One row of `rank_derivation.rows`. */
export interface RankRowView {
  path: string;
  rank: number;
  agent_id: string;
  is_author_agent: boolean;
  run_id: string;
  receipt_hash: string;
  receipt_url: string | null;
  receipt: ReceiptView | null;
  achieved_at: string;
  attempts_used: number;
  rank_accuracy: string;
  score_public: string;
  score_composite: string;
  wall_seconds: string;
  queries_used: number;
  usdc_spent: string;
  /** The row exactly as parsed. */
  raw: JsonObject;
}

/** The `rank_derivation` block. */
export interface RankDerivationView {
  speed_weight: string;
  cost_weight: string;
  /** Integer seconds. */
  time_budget_seconds: number;
  cost_budget_usdc: string | null;
  threshold_bps: number;
  payout_rule: string;
  splits_bps: number[];
  pool_base_units: bigint;
  place_amounts_base_units: bigint[];
  zero_winner_reason: string | null;
  rows: RankRowView[];
}

/** One test-set row as the walk reads it (the raw row is hashed). */
export interface TestRowView {
  path: string;
  ordinal: number;
  prompt: string;
  gold: JsonValue;
  salt: string;
  visibility: string;
  grader_type: string;
}

/**
 * A readable test-set row (the common case): its fields as parsed, and its path built only
 * when a message names it (100,000s of rows, few messages).
 */
export class TestRow implements TestRowView {
  constructor(
    private readonly index: number,
    readonly ordinal: number,
    readonly prompt: string,
    readonly gold: JsonValue,
    readonly salt: string,
    readonly visibility: string,
    readonly grader_type: string,
  ) {}

  get path(): string {
    return appendPath("$.test_set", this.index);
  }
}

/** The typed view of a readable pack, with the raw parsed document. */
export interface PackView {
  /** The whole parsed document. */
  raw: JsonObject;
  benchmark: BenchmarkView;
  test_set: TestRowView[];
  winners: WinnerView[];
  rank_derivation: RankDerivationView;
  pack_hash: string;
  pack_anchor: AnchorRef | null;
  /**
   * The bytes the pack was parsed from and the parser's canonical spans (evidence's
   * `CanonicalSource`): blocks and receipts served as canonical JSON are hashed from these
   * bytes. Absent when the view was built from a parsed value only (then they are serialized).
   */
  canonical?: CanonicalSource;
}

/**
 * Where the pack states a receipt hash: the JSON path of the first winner's, else the first rank row's,
 * `receipt_hash` equal to `digest` (either case), and the value as written there; null when none does.
 * @param digest a receipt hash, lower case (as `receiptHashes` of the walk holds them)
 */
export function receiptHashStatedAt(
  view: Pick<PackView, "winners" | "rank_derivation">,
  digest: string,
): { path: string; value: string } | null {
  const stating = [...view.winners, ...view.rank_derivation.rows].find(
    (x) => x.receipt_hash.toLowerCase() === digest,
  );
  return stating === undefined
    ? null
    : { path: appendPath(stating.path, "receipt_hash"), value: stating.receipt_hash };
}

/** The keys of SPEC 8, in order. */
export const PACK_KEYS = [
  "benchmark",
  "test_set",
  "winners",
  "rank_derivation",
  "pack_hash",
  "pack_anchor",
  "verify_hints",
] as const;
