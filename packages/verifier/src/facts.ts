/**
 * The verification facts of SPEC 9 and the report that carries them.
 *
 * There is no single verdict: each fact is recomputed independently and has
 * one of five states. A CLI exit code is a named policy over the facts
 * ({@link ./policy.ts}), never a fact itself.
 *
 * @packageDocumentation
 */

/**
 * State of one fact.
 * - `verified`: recomputed and equal to what the pack (and chain, indexer) says;
 * - `failed`: recomputed and different, or the evidence contradicts itself;
 * - `unverified`: could be observed but the evidence needed is absent (e.g. a pack
 *   without a pack anchor and no anchor found on chain);
 * - `not-required`: nothing to check (e.g. regrade of an award with no winner);
 * - `not-observed`: the check could not run (no `--rpc`, no `--indexer`). Never `verified`.
 */
export type FactState = "verified" | "unverified" | "failed" | "not-required" | "not-observed";

/** All fact states, for validation and docs. */
export const FACT_STATES: readonly FactState[] = [
  "verified",
  "unverified",
  "failed",
  "not-required",
  "not-observed",
];

/**
 * The facts, in report order (snake_case names of `spec/vectors/packs/*.expected.json`):
 * SPEC 9's list plus `schema` (SPEC 2 format rules) and `ranking_digest`
 * (`benchmark.ranking_digest` against keccak256 of `canonical_json(rank_derivation)`).
 */
export const FACT_NAMES = [
  "schema",
  "pack_hash",
  "commitment_root",
  "leaf_count",
  "onchain_root",
  "onchain_leaf_count",
  "root_burned",
  "award_log",
  "ranking_digest",
  "commitment_anchor",
  "digest_chain",
  "receipt_hashes",
  "receipt_anchors",
  "regrade",
  "composite",
  "ordering",
  "selection",
  "payouts",
  "pack_anchor",
  "indexer_agreement",
] as const;

/** Name of one fact. */
export type FactName = (typeof FACT_NAMES)[number];

/** Which facts are computed from the pack alone, from the chain, or from the indexer. */
export const FACT_SOURCES: Readonly<Record<FactName, "pack" | "chain" | "indexer">> = Object.freeze({
  schema: "pack",
  pack_hash: "pack",
  commitment_root: "pack",
  leaf_count: "pack",
  onchain_root: "chain",
  onchain_leaf_count: "chain",
  root_burned: "chain",
  award_log: "chain",
  ranking_digest: "pack",
  commitment_anchor: "chain",
  digest_chain: "pack",
  receipt_hashes: "pack",
  receipt_anchors: "chain",
  regrade: "pack",
  composite: "pack",
  ordering: "pack",
  selection: "pack",
  payouts: "pack",
  pack_anchor: "chain",
  indexer_agreement: "indexer",
});

/** One-line description of what each fact recomputes (table output and README). */
export const FACT_DESCRIPTIONS: Readonly<Record<FactName, string>> = Object.freeze({
  schema: "the hashed blocks follow the format rules of SPEC 2-8 (evidence pack schema)",
  pack_hash: "keccak256(canonical_json({benchmark, test_set, winners, rank_derivation})) == pack_hash",
  commitment_root: "test_set rows in ordinal order rebuild the Merkle root == benchmark.commit_root",
  leaf_count: "number of test_set rows == benchmark.leaf_count",
  onchain_root: "testSetRoots(bounty_id) on bounty_contract == commit_root (chain id checked)",
  onchain_leaf_count: "leafCountOf(bounty_id) == leaf_count",
  root_burned:
    "rootBurned(benchmark.author, commit_root) is true, and getBounty(bounty_id).author == benchmark.author",
  award_log:
    "Awarded log of award_tx: bounty id, root, winners, amounts, remainder, ranking digest; bounty pool, splits, threshold",
  ranking_digest: "keccak256(canonical_json(rank_derivation)) == benchmark.ranking_digest",
  commitment_anchor:
    "AnchorRegistry.anchorOf(commit_root): kind commitment, block and tx of benchmark.commitment_anchor",
  digest_chain:
    "answer digests of every winner answer; receipts bound to the test set (commit_root, bank_ordinal, prompt_hash)",
  receipt_hashes:
    "keccak256(canonical_json(receipt)) == receipt_hash for winners and rows carrying a receipt",
  receipt_anchors:
    "every receipt hash anchored at or before award_block (with kind receipt, or first by anyone with another kind, named)",
  regrade: "winner answers regraded from the revealed gold give the row's rank_accuracy",
  composite: "every row's composite recomputed == score_composite; rows agree with their receipts",
  ordering: "rows in the order and ranks of SPEC 7.1, best row per agent, attempts_used",
  selection:
    "winners == first len(splits_bps) eligible rows (threshold, author agents excluded); no winner paid at benchmark.author",
  payouts: "place amounts (SPEC 7.3), winner amounts, pool and zero_winner_reason",
  pack_anchor: "AnchorRegistry.anchorOf(pack_hash): kind pack, block and tx of pack_anchor",
  indexer_agreement:
    "the indexer's bounty, award, winners, amounts and anchors agree with the pack and chain",
});

/**
 * Facts reported only when asked for, beside SPEC 9's (never in a vector's expected file):
 * `receipt_inclusion` (`verify --receipt FILE`, probe34 C-F2) judges a competitor's own receipts
 * against the award's rows, which no SPEC 9 fact can (receipts are anchored by digest alone).
 */
export const OPTIONAL_FACT_NAMES = ["receipt_inclusion"] as const;

/** Name of one optional fact. */
export type OptionalFactName = (typeof OPTIONAL_FACT_NAMES)[number];

/** Name of any fact a report may carry. */
export type ReportFactName = FactName | OptionalFactName;

/** One-line description of each optional fact (table output and README). */
export const OPTIONAL_FACT_DESCRIPTIONS: Readonly<Record<OptionalFactName, string>> = Object.freeze({
  receipt_inclusion:
    "with --receipt: each given receipt's hash is a row stating its values, or a worse run of an agent whose row ranks before it (SPEC 7.1)",
});

/** One fact of the report. */
export interface Fact {
  /** The state of the fact. */
  state: FactState;
  /**
   * Why the fact has this state: for `failed`, each contradiction found
   * (with the JSON path or on-chain call); for `not-observed`/`not-required`, why
   * not; for `verified`, a short summary of what was checked.
   */
  reasons: string[];
}

/** Figures derived by the verifier (recomputed, not copied from the pack). */
export interface VerificationValues {
  /** Recomputed pack hash (`0x` + 64 hex), or null when the hashed blocks cannot be serialized. */
  pack_hash: string | null;
  /** Recomputed commitment root. */
  commit_root: string | null;
  /** Number of test_set rows (the rebuilt leaf count). */
  leaf_count: number;
  /** Recomputed keccak256 of canonical_json(rank_derivation). */
  ranking_digest: string | null;
  /** agent_id of the rows in the recomputed rank order. */
  ranked_agents: string[];
  /** Recomputed composites, in the recomputed rank order. */
  score_composites: string[];
  /** agent_id of the winners recomputed from the selection rule, in place order. */
  winners: string[];
  /** Recomputed place amounts (base units, integer strings). */
  place_amounts_base_units: string[];
  /** Recomputed zero-winner reason, or null when there are winners. */
  zero_winner_reason: string | null;
  /** Receipt hash per row in the recomputed rank order: recomputed from the receipt when the pack carries it, else the row's claim. */
  receipt_hashes: string[];
}

/** Where the verifier looked. */
export interface ObservedSources {
  /** What the pack was read from (`file ...`, `stdin`, `url ...`, `bytes`). */
  pack: string;
  /** Number of bytes of the pack as served. */
  pack_bytes: number;
  /** The RPC URL used for the on-chain checks, or null. */
  rpc: string | null;
  /** Chain id the RPC reported, or null. */
  rpc_chain_id: number | null;
  /** The indexer URL, or null. */
  indexer: string | null;
}

/** The verification report (`bench-bounty.verification.v1`). */
export interface VerificationReport {
  /** Schema id of this report: `bench-bounty.verification.v1`. */
  schema: "bench-bounty.verification.v1";
  /** The named policy applied (printed, decides the exit code). */
  policy: PolicyName;
  /** Whether every fact the policy requires is in an accepted state. */
  policy_met: boolean;
  /** The facts the policy requires and the states it accepts for each (an optional fact when reported). */
  policy_requires: Partial<Record<ReportFactName, FactState[]>>;
  /** The facts that keep the policy from being met (empty when met). */
  policy_unmet: ReportFactName[];
  /** Benchmark slug and bounty id as the pack states them (for display). */
  subject: { slug: string; bounty_id: string; chain_id: number; bounty_contract: string };
  /**
   * Every fact of {@link FACT_NAMES}, in that order, then each optional fact asked for
   * ({@link OPTIONAL_FACT_NAMES}: `receipt_inclusion` with `--receipt`).
   */
  facts: Record<FactName, Fact> & Partial<Record<OptionalFactName, Fact>>;
  /** Recomputed figures. */
  values: VerificationValues;
  /** Where the verifier looked. */
  observed: ObservedSources;
  /** Verifier package name and version. */
  verifier: { name: string; version: string };
}

/** Names of the policies. */
export type PolicyName = "offline" | "onchain" | "full";

/** Report schema id. */
export const REPORT_SCHEMA = "bench-bounty.verification.v1" as const;

/** Build a fact. */
export function fact(state: FactState, ...reasons: string[]): Fact {
  return { state, reasons };
}

/** A fact that is `verified` when `problems` is empty, else `failed` with the problems as reasons. */
export function factFrom(problems: string[], okReason: string): Fact {
  return problems.length === 0
    ? fact("verified", okReason)
    : { state: "failed", reasons: capReasons(problems) };
}

/** Keep at most `max` reasons, summarising the rest (a 100 000-row pack can have many). */
export function capReasons(reasons: string[], max = 20): string[] {
  if (reasons.length <= max) return reasons;
  return [...reasons.slice(0, max), `... and ${reasons.length - max} more`];
}
