/**
 * Shapes the web app reads from the bench-bounty REST API (`/api/v1`, issue 15 item 3) and the
 * indexer's REST API (`indexer/src/api/index.ts`). Only the fields the pages use are named; every
 * field the API may not send yet is optional, so a shape change is made here and in
 * {@link ./client.ts} only. Amounts are base-unit integer strings, scores SPEC 6 decimal strings.
 *
 * @packageDocumentation
 */

import type { EvidencePack, Receipt as PackReceipt, ReceiptTask } from "@bench-bounty/evidence";
import type { AnchorEvidence, AttachedBounty, VerificationRecord } from "@bench-bounty/platform";
import type { Fact, VerificationReport } from "@bench-bounty/verifier";

// One definition per shape: the packages that own them (type-only imports, erased from the bundle).
export type { AnchorEvidence, AttachedBounty, EvidencePack, VerificationRecord, VerificationReport };

/** A run receipt (SPEC 4) as far as the per-task table reads it: the fields it names, of the evidence library's type. */
export type Receipt = Pick<PackReceipt, "run_id" | "agent_id" | "attempt"> & {
  tasks: Pick<ReceiptTask, "ordinal" | "bank_ordinal" | "visibility" | "credit">[];
};
/** One fact of a verification report. */
export type ReportFact = Fact;

/** The chain a benchmark lives on, as the API states it. `local` is the only way to tell a devchain (also 8453) from Base. */
export interface ChainInfo {
  chain_id: number;
  local?: boolean;
  rpc_url?: string | null;
}

/** One item of `GET /api/v1/benchmarks`. */
export interface BenchmarkSummary {
  slug: string;
  title: string;
  /** `published`, `closed`, `awarded`. */
  status: string;
  open: boolean;
  public_tasks?: number;
  private_tasks?: number;
  grader_type?: string;
  /** Benchmark version, when the API gives one. */
  version?: string;
  /** The compete seed's prize facts. */
  prize?: string | AttachedBounty | null;
  prize_pool_usdc?: string | null;
  prize_pool_base_units?: string | null;
  bounty_status?: string | null;
  prize_closes_at?: number | string | null;
  prize_contract?: string | null;
  basescan_tx_url?: string | null;
}

/** `GET /api/v1/benchmarks/:slug`. */
export interface BenchmarkDetail extends BenchmarkSummary {
  created_at?: string;
  max_attempts?: number;
  public_tasks_per_run?: number | null;
  speed_weight?: string;
  cost_weight?: string;
  time_budget_seconds?: number;
  time_budget_minutes?: number;
  cost_budget_usdc?: string | null;
  commitment?: { commit_root: string; leaf_count: number; anchor: AnchorEvidence | null };
  bounty?: AttachedBounty | null;
  chain?: ChainInfo | null;
  grader_types?: Record<string, { gold_shape?: string; semantics?: string }>;
  how_to_compete?: string;
}

/** One row of the leaderboard (SPEC 7.1; while open the public board of SPEC 6.1). */
export interface LeaderboardRow {
  rank: number;
  agent_id: string;
  is_author_agent?: boolean;
  run_id: string;
  /** The private composite: only on the final board (closed), SPEC 6.1. */
  score_composite?: string | null;
  /** The composite on public accuracy: the open board's order, SPEC 6.1. */
  score_composite_public?: string | null;
  score_public: string;
  /** Private accuracy; null while open. */
  rank_accuracy?: string | null;
  wall_seconds: string;
  queries_used?: number;
  attempts_used: number;
  achieved_at?: string;
  receipt_hash?: string;
  /** Tasks the public score is over, when the API says (else the detail's per-run public count). */
  public_tasks_scored?: number;
  /** Tasks the rank accuracy is over, when the API says (else the detail's private count). */
  rank_tasks_scored?: number;
}

/** `GET /api/v1/benchmarks/:slug/leaderboard`. */
export interface Leaderboard {
  slug: string;
  status: string;
  open: boolean;
  ranked_on?: string;
  /** `buyer_only` boards answer `leaderboard_visible: false` and no rows. */
  leaderboard_visible?: boolean;
  rows: LeaderboardRow[];
}

/** `GET {indexer}/bounties/:id` (indexer REST). Amounts and blocks are decimal strings. */
export interface IndexedBounty {
  bounty: {
    id: string;
    status: string;
    pool: string;
    token: string;
    author: string;
    awardedTx?: string | null;
    claimedTotal?: string;
    reclaimedTx?: string | null;
  };
  winners: {
    place: number;
    account: string;
    amount: string;
    claimedAmount: string;
    outstanding: string;
    awardedTx: string;
    claimTx: string | null;
  }[];
  credits: {
    account: string;
    credited: string;
    claimed: string;
    outstanding: string;
    places: number[];
    lastClaimTx: string | null;
  }[];
  claims: { account?: string; amount?: string; txHash?: string }[];
}
