/**
 * `spec/SPEC.md` section 1.1 (`createBounty`): the one rule of what bounty terms a lock may send.
 * Every lock path (the deploy tasks' `bounty:lock`, the platform's `lockBounty`) asks
 * {@link checkBountyTerms} before anything is signed or sent, and words the answer in its own error
 * type and field names.
 * @packageDocumentation
 */
import { EvidenceError } from "./errors.js";
import { validateSplits } from "./payouts.js";

/** Bounty terms as `createBounty` takes them: pool in token base units, times in unix seconds, bps. */
export interface BountyTerms {
  pool: bigint;
  thresholdBps: number;
  closesAt: bigint;
  awardDeadline: bigint;
  splitsBps: number[];
}

/** Terms before {@link checkBountyTerms}: the splits may be anything (a parsed JSON value, flags). */
export type UncheckedBountyTerms = Omit<BountyTerms, "splitsBps"> & { splitsBps: unknown };

/** The largest pool `createBounty` takes: its `uint256` (2^256 - 1 base units). */
export const MAX_POOL_BASE_UNITS = 2n ** 256n - 1n;

/**
 * The shortest award window (`awardDeadline - closesAt`, seconds) the bench-bounty service locks or
 * attaches: one hour (probe38 C-F1). The service awards after the close (the final board, the evidence
 * pack, the `award` transaction and its confirmation); with a shorter window a bounty would show
 * competitors a locked prize the service could never award, and its author would reclaim the pool after
 * every run was graded on the private set. Not a contract rule: `createBounty` takes any window after
 * `closesAt` ({@link checkBountyTerms} does not ask this); the platform refuses a shorter one
 * (`award_window_too_short`) and the deploy task `bounty:lock` warns that the service will refuse it.
 */
export const MIN_AWARD_WINDOW_SECONDS = 3600;

/** Which rule a term breaks, in the order {@link checkBountyTerms} checks them. */
export type BountyTermsRule =
  /** `pool` is 0 or less. */
  | "pool_not_positive"
  /** `pool` is above {@link MAX_POOL_BASE_UNITS}: `createBounty` cannot even encode it (probe30 C-F5). */
  | "pool_out_of_range"
  /** `thresholdBps` is not an integer in 0..10000. */
  | "threshold_out_of_range"
  /** `closesAt` is 0 or less. */
  | "closes_at_not_positive"
  /** `awardDeadline` is not after `closesAt`. */
  | "deadline_not_after_closes_at"
  /** `closesAt` is not after chain time (only when the caller gave chain time). */
  | "closes_at_not_future"
  /** `splitsBps` breaks the splits rule (evidence's {@link validateSplits}). */
  | "bad_splits";

/** The first broken rule: the field (as {@link BountyTerms} names it), the rule, and for splits the reason. */
export interface BountyTermsViolation {
  field: keyof BountyTerms;
  rule: BountyTermsRule;
  /** For `bad_splits`: validateSplits' error (its message names the place). */
  splitsError?: EvidenceError;
}

/** The answer of {@link checkBountyTerms}: the terms with checked splits, or the first broken rule. */
export type BountyTermsCheck =
  | { ok: true; terms: BountyTerms }
  | { ok: false; violation: BountyTermsViolation };

/**
 * Checks bounty terms against SPEC 1.1's `createBounty` rules, in this order: a positive pool, at
 * most {@link MAX_POOL_BASE_UNITS} (the `uint256` it is sent as), a threshold integer in 0..10000 bps, a positive `closesAt`, `awardDeadline` after `closesAt`,
 * `closesAt` after `now` (skipped when `now` is not given, so a caller may check the rest before it
 * reads the chain), then splits of 1..8 places, each > 0, non-increasing, summing to 10000 bps.
 * Never throws on bad terms.
 * @param opts.now chain time (latest block), unix seconds
 * @param opts.splitsPath how the caller names the splits in the splits error (default `splitsBps`)
 */
export function checkBountyTerms(
  terms: UncheckedBountyTerms,
  opts: { now?: bigint; splitsPath?: string } = {},
): BountyTermsCheck {
  const { now, splitsPath = "splitsBps" } = opts;
  const refuse = (field: keyof BountyTerms, rule: BountyTermsRule): BountyTermsCheck => ({
    ok: false,
    violation: { field, rule },
  });
  if (terms.pool <= 0n) return refuse("pool", "pool_not_positive");
  if (terms.pool > MAX_POOL_BASE_UNITS) return refuse("pool", "pool_out_of_range");
  if (!Number.isSafeInteger(terms.thresholdBps) || terms.thresholdBps < 0 || terms.thresholdBps > 10000)
    return refuse("thresholdBps", "threshold_out_of_range");
  if (terms.closesAt <= 0n) return refuse("closesAt", "closes_at_not_positive");
  if (terms.awardDeadline <= terms.closesAt) return refuse("awardDeadline", "deadline_not_after_closes_at");
  if (now !== undefined && terms.closesAt <= now) return refuse("closesAt", "closes_at_not_future");
  try {
    return { ok: true, terms: { ...terms, splitsBps: validateSplits(terms.splitsBps, splitsPath) } };
  } catch (e) {
    // validateSplits throws only EvidenceError for bad splits; anything else is a bug and goes on.
    if (!(e instanceof EvidenceError)) throw e;
    return { ok: false, violation: { field: "splitsBps", rule: "bad_splits", splitsError: e } };
  }
}
