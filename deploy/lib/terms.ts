/**
 * The terms of a bounty (SPEC 1.1 `createBounty`): pool, threshold, times and
 * splits. {@link readTermFlags} turns the command line into terms (syntax only,
 * before the chain is read); {@link validateBountyTerms} is the one check of
 * the rules every lock path (permit, approve, existing allowance, dry run) runs
 * before anything is signed or sent. Payout rules and the splits rules are
 * those of @bench-bounty/evidence (`PAYOUT_RULES`, `validateSplits`).
 */
import type { BountyTerms as EvidenceBountyTerms, UncheckedBountyTerms } from "@bench-bounty/evidence";
import { TaskError } from "./errors";
import { describeError } from "./files";
import { isoSeconds, parseTime } from "./format";
import { evidence } from "./packages";

/** The terms as `createBounty` takes them (pool in token base units, times in unix seconds, bps). */
export type BountyTerms = EvidenceBountyTerms;

/** Terms as read from the command line, before {@link validateBountyTerms}: splits not yet checked. */
export type UncheckedTerms = UncheckedBountyTerms;

/** The flags of `bounty:lock` that carry the terms (but the pool, whose decimals are the token's), as typed. */
export interface TermFlags {
  thresholdBps: string;
  closesAt: string;
  awardDeadline: string;
  payoutRule?: string;
  splits?: string;
}

/** Splits from `--payout-rule` (a rule of evidence's PAYOUT_RULES) or `--splits 6000,4000` (not yet validated). */
function splitsOfFlags(flags: TermFlags): unknown {
  const rules = evidence().PAYOUT_RULES as Record<string, readonly number[]>;
  if ((flags.payoutRule === undefined) === (flags.splits === undefined)) {
    throw new TaskError(
      `Give exactly one of --payout-rule (${Object.keys(rules).join(" | ")}) or --splits 5000,3000,2000.`,
    );
  }
  if (flags.payoutRule !== undefined) {
    if (!Object.hasOwn(rules, flags.payoutRule)) {
      throw new TaskError(
        `--payout-rule must be one of ${Object.keys(rules).join(", ")}, got "${flags.payoutRule}".`,
      );
    }
    return [...rules[flags.payoutRule]!];
  }
  const parts = flags.splits!.split(",").map((s) => s.trim());
  if (!parts.every((p) => /^[0-9]+$/.test(p)))
    throw new TaskError(`--splits must be comma-separated bps integers, got "${flags.splits}".`);
  return parts.map(Number);
}

/**
 * The terms of the command line but the pool, parsed without reading the chain
 * (the pool is parsed in the token's decimals with `parseAmount`). Only the form
 * is checked here; the rules are {@link validateBountyTerms}'.
 * @throws TaskError naming the flag of a malformed value
 */
export function readTermFlags(flags: TermFlags): Omit<UncheckedTerms, "pool"> {
  if (!/^[0-9]+$/.test(flags.thresholdBps))
    throw new TaskError(`--threshold-bps must be an integer 0..10000, got "${flags.thresholdBps}".`);
  return {
    thresholdBps: Number(flags.thresholdBps),
    closesAt: parseTime(flags.closesAt, "--closes-at"),
    awardDeadline: parseTime(flags.awardDeadline, "--award-deadline"),
    splitsBps: splitsOfFlags(flags),
  };
}

/**
 * Checks the terms against the rules of SPEC 1.1 that `createBounty` enforces
 * (the one rule is @bench-bounty/evidence's `checkBountyTerms`): a positive
 * pool, a threshold in 0..10000 bps, `closesAt` after chain time,
 * `awardDeadline` after `closesAt`, splits of 1..8 places, each > 0,
 * non-increasing, summing to 10000 bps. Terms that pass with an award window the bench-bounty service
 * refuses to attach are warned about on stderr, not refused ({@link warnShortAwardWindow}).
 * @param now chain time (latest block), unix seconds
 * @returns the terms with validated splits
 * @throws TaskError naming the flag of the first rule broken
 */
export function validateBountyTerms(terms: UncheckedTerms, now: bigint): BountyTerms {
  const check = evidence().checkBountyTerms(terms, { now, splitsPath: "--splits" });
  if (check.ok) {
    warnShortAwardWindow(check.terms.closesAt, check.terms.awardDeadline);
    return check.terms;
  }
  const { rule, splitsError } = check.violation;
  switch (rule) {
    case "pool_not_positive":
      throw new TaskError("--pool must be more than 0.");
    case "pool_out_of_range":
      throw new TaskError(
        `--pool is ${terms.pool} base units, past the uint256 range createBounty takes (at most 2^256 - 1).`,
      );
    case "threshold_out_of_range":
      throw new TaskError(`--threshold-bps must be an integer 0..10000, got "${terms.thresholdBps}".`);
    case "closes_at_not_positive":
    case "closes_at_not_future":
      throw new TaskError(
        `--closes-at ${isoSeconds(terms.closesAt)} is in the past (chain time ${isoSeconds(now)}): pick a later time.`,
      );
    case "deadline_not_after_closes_at":
      throw new TaskError(
        `--award-deadline (${isoSeconds(terms.awardDeadline)}) must be after --closes-at (${isoSeconds(terms.closesAt)}).`,
      );
    case "bad_splits":
      throw new TaskError(
        `Bad splits: ${describeError(splitsError)} (1..8 places, each > 0, non-increasing, summing to 10000).`,
      );
  }
}

/**
 * The warning `bounty:lock` and `bounty:status` print on stderr for an award window (`awardDeadline -
 * closesAt`, seconds) under `MIN_AWARD_WINDOW_SECONDS` of @bench-bounty/evidence (3600 s): the contract
 * takes it, the bench-bounty service refuses to attach it (`award_window_too_short`, probe38 C-F1), since
 * it could not award it in time. Said, not refused: a bounty locked for another awarder may want it. The
 * lock names its options and how to lengthen the window; the status (probe38 V-N4: it said only "The lock
 * of bounty N verifies.") names the bounty's close and award deadline and that the service will not award it.
 * @param closesAt, awardDeadline unix seconds (checked terms, or the bounty's on-chain terms)
 * @param task the task printing it: `lock` (default) or `status`
 * @returns the warning printed, or null when the window is long enough
 */
export function warnShortAwardWindow(
  closesAt: bigint,
  awardDeadline: bigint,
  task: "lock" | "status" = "lock",
): string | null {
  const minimum = BigInt(evidence().MIN_AWARD_WINDOW_SECONDS);
  const window = awardDeadline - closesAt;
  if (window >= minimum) return null;
  const [from, to, advice] =
    task === "lock"
      ? [
          "--closes-at",
          "--award-deadline",
          `For a service prize, set --award-deadline at least ${minimum} s after --closes-at.`,
        ]
      : [
          "its close",
          "its award deadline",
          "A bench-bounty service will not award it; its author may reclaim the pool after the award deadline.",
        ];
  const text = `Warning: the award window (${window} s from ${from} to ${to}) is shorter than ${minimum} s: the bench-bounty service refuses to attach this bounty (award_window_too_short), since it could not award it in time. ${advice}`;
  console.warn(text);
  return text;
}
