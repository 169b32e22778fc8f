/**
 * The demo's prize terms and account roles (one place for both: the phases, the report and the tests
 * read them from here).
 */

/** Seconds between the lock and `closesAt` (the contest window on the chain clock). */
export const CONTEST_SECONDS = 3600;
/** Seconds between `closesAt` and `awardDeadline`. */
export const AWARD_WINDOW_SECONDS = 7 * 24 * 3600;
/** Composite threshold of the prize, in bps (composite >= 0.6000 to win). */
export const THRESHOLD_BPS = 6000;
/** SPEC 7.2 splits of `top_n_split`. */
export const TOP_N_SPLIT = [5000, 3000, 2000] as const;

/**
 * Account roles on the devchain (Hardhat's 20 funded accounts): 0 deployed the contracts and owns the test
 * USDC; 1 is the platform (anchors, awarder); 2 the benchmark author; agent owners start at 3; the first
 * winner claims to {@link COLD_WALLET_INDEX}.
 */
export const PLATFORM_INDEX = 1;
export const AUTHOR_INDEX = 2;
export const FIRST_OWNER_INDEX = 3;
export const COLD_WALLET_INDEX = 19;

/**
 * How each demo agent reaches the service (issue: every channel a stranger's agent has): the byte-static
 * script for one, MCP for one, the remote runner over REST for the others.
 */
export const CHANNEL_OF: Readonly<Record<string, "runner" | "script" | "mcp">> = {
  "always-sun": "script",
  "seasonal-rule": "mcp",
  "precipitation-rule": "runner",
  "precip-temp-snow": "runner",
  "author-baseline": "runner",
};
