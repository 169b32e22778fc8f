/** What the demo records as it runs: the result its caller gets and the report is written from. */
import type { DevChain } from "@bench-bounty/devchain";
import type { AwardResult, LeaderboardRow } from "@bench-bounty/platform";
import type { VerificationReport } from "@bench-bounty/verifier";
import type { Address } from "viem";
import type { IndependentCheck } from "./independent.js";
import type { PhaseResult } from "./phase-runner.js";
import type { ProcessRegistry } from "./processes.js";

export type { DevChain };

/** One claim as made and checked by the demo. */
export interface ClaimRecord {
  place: number;
  agent_id: string;
  /** Submitted by a relayer with the winner's EIP-712 signature (`claimWithSig`). */
  relayed: boolean;
  /** The winner's withdrawal address (the claimer). */
  account: string;
  /** Where the USDC went. */
  to: string;
  /** Base units. */
  amount: string;
  tx_hash: string;
  /** `to`'s USDC balance before and after (base units). */
  balance_before: string;
  balance_after: string;
  /** The claimer's remaining credit after the claim (base units; must be 0). */
  credit_after: string;
}

/** The chain's `Awarded` log of the bounty (what the indexer must agree with). */
export interface ChainAward {
  bounty_id: string;
  tx_hash: string;
  block: number;
  winners: string[];
  amounts: string[];
  author_remainder: string;
  ranking_digest: string;
}

/** One award as the indexer's `GET /awards` serves it (fields used by the demo). */
export interface IndexerAward {
  bountyId: string;
  pool: string;
  authorRemainder: string;
  rankingDigest: string;
  awardedBlock: number | string;
  awardedTx: string;
  winners: { place: number; account: string; amount: string; claimedAmount: string; outstanding: string }[];
}

/** What {@link runDemo} returns. */
export interface DemoResult {
  /** True when every phase succeeded. */
  ok: boolean;
  phases: PhaseResult[];
  totalMs: number;
  /** Output files written (absolute paths); a file is absent when its phase did not run. */
  files: { pack?: string; verification?: string; report?: string };
  rpcUrl?: string;
  indexerUrl?: string;
  /** Base URL of `bench-bounty serve` (REST, MCP, the evidence door, the web leaderboard). */
  serviceUrl?: string;
  slug?: string;
  bountyId?: string;
  contracts?: { benchmarkBounty: Address; anchorRegistry: Address; usdc: Address };
  leaderboard?: LeaderboardRow[];
  award?: AwardResult;
  chainAward?: ChainAward;
  indexerAward?: IndexerAward;
  claims?: ClaimRecord[];
  verification?: VerificationReport;
  /** The independent Python check of the pack (`demo/independent/check_pack.py`), when python3 exists. */
  independent?: IndependentCheck;
  /** Stops every process the demo started (idempotent). */
  stop(): Promise<void>;
}

/** How {@link runDemo} talks to its caller. */
export interface DemoIo {
  /** Prints one line (default `console.log`). */
  log?: (line: string) => void;
  /**
   * Leave the chain, indexer and door running and let the caller stop them with `result.stop()`
   * (the CLI's `--keep-running`, and the end-to-end test). Default false: everything is stopped
   * before `runDemo` returns.
   */
  hold?: boolean;
  /** The registry to put children in (the CLI passes the one its signal handlers stop). */
  registry?: ProcessRegistry;
}
