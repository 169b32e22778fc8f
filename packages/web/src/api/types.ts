/**
 * Shapes the web app reads from the bench-bounty REST API (`/api/v1`, issue 15 item 3) and the
 * indexer's REST API (`indexer/src/api/index.ts`). Only the fields the pages use are named; every
 * field the API may not send yet is optional, so a shape change is made here and in
 * {@link ./client.ts} only. Amounts are base-unit integer strings, scores SPEC 6 decimal strings.
 *
 * @packageDocumentation
 */

import type { EvidencePack, Receipt as PackReceipt, ReceiptTask } from "@bench-bounty/evidence";
import type {
  AnchorEvidence,
  AttachedBounty,
  BenchmarkDetail as PlatformBenchmarkDetail,
  CompeteAtMain,
  BenchmarkListItem,
  LeaderboardPage as PlatformLeaderboardPage,
  LeaderboardRow as FinalBoardRow,
  PublicBoardRow,
  VerificationRecord,
} from "@bench-bounty/platform";
import type { Fact, VerificationReport } from "@bench-bounty/verifier";

// One definition per shape: the packages that own them (type-only imports, erased from the bundle).
export type {
  AnchorEvidence,
  AttachedBounty,
  CompeteAtMain,
  EvidencePack,
  VerificationRecord,
  VerificationReport,
};

/** A run receipt (SPEC 4) as far as the per-task table reads it: the fields it names, of the evidence library's type. */
export type Receipt = Pick<PackReceipt, "run_id" | "agent_id" | "attempt"> & {
  tasks: Pick<ReceiptTask, "ordinal" | "bank_ordinal" | "visibility" | "credit">[];
};
/** One fact of a verification report. */
export type ReportFact = Fact;

/** The chain a benchmark lives on, as the server states it. `local` is the only way to tell a devchain (also 8453) from Base. */
export interface ChainInfo {
  chain_id: number;
  local?: boolean;
  rpc_url?: string | null;
}

/**
 * A shape the web reads leniently: the owner's fields (`K` always sent), any other field optional or
 * null, so a page still renders what an older API or the fixture API of the browser tests sends.
 */
type Lenient<T, K extends keyof T> = Pick<T, K> & { [F in Exclude<keyof T, K>]?: T[F] | null };

/**
 * One item of `GET /api/v1/benchmarks`: the platform's list item (`detail.ts`), plus the grader type
 * and `version` the server adds; `prize_pool_base_units` and `basescan_tx_url` are read when an API
 * sends them (ours does not).
 */
export type BenchmarkSummary = Lenient<BenchmarkListItem, "slug" | "title" | "status" | "open"> & {
  grader_type?: string;
  version?: string;
  prize_pool_base_units?: string | null;
  basescan_tx_url?: string | null;
};

/**
 * `GET /api/v1/benchmarks/:slug`: the platform's detail (`detail.ts`: its `bounty` names the attached
 * bounty's chain, contract, id, author, token and pool), plus the server's `version` and `chain`;
 * `time_budget_minutes` is read when an API sends it (the fixture API does).
 */
export type BenchmarkDetail = BenchmarkSummary &
  Lenient<Omit<PlatformBenchmarkDetail, keyof BenchmarkListItem | "grader_type">, never> & {
    chain?: ChainInfo | null;
    time_budget_minutes?: number;
  };

/**
 * One row of the leaderboard (SPEC 7.1; while open the public board of SPEC 6.1): the platform's
 * public row (`leaderboard.ts`), with the final board's `score_composite`, `rank_accuracy` and
 * `receipt_url` once closed; `public_tasks_scored` / `rank_tasks_scored` are read when an API sends
 * them (the fixture API does).
 */
export type LeaderboardRow = Lenient<
  PublicBoardRow,
  "rank" | "agent_id" | "run_id" | "score_public" | "wall_seconds" | "attempts_used"
> &
  Lenient<Pick<FinalBoardRow, "score_composite" | "rank_accuracy" | "receipt_url">, never> & {
    /** Tasks the public score is over (else the detail's per-run public count). */
    public_tasks_scored?: number;
    /** Tasks the rank accuracy is over (else the detail's private count). */
    rank_tasks_scored?: number;
  };

/**
 * `GET /api/v1/benchmarks/:slug/leaderboard?offset=N&limit=L`: one page of the platform's board, with
 * `total_rows`, `offset`, `limit` and `next_offset` (`buyer_only` boards: `leaderboard_visible: false`,
 * no rows).
 */
export type Leaderboard = Lenient<Omit<PlatformLeaderboardPage, "rows">, "slug" | "status" | "open"> & {
  rows: LeaderboardRow[];
};

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
