/**
 * The platform's wording of the one bounty-terms rule (`checkBountyTerms` of `@bench-bounty/evidence`,
 * SPEC 1.1 `createBounty`): a broken term becomes PlatformError `invalid_option` naming the field as
 * the platform's API does (`pool`, `threshold_bps`, `closes_at`, `award_deadline`, `splits_bps`).
 */
import { checkBountyTerms, type BountyTerms, type UncheckedBountyTerms } from "@bench-bounty/evidence";
import { PlatformError } from "./errors.js";

/**
 * Checks bounty terms (pool in base units, times in unix seconds, bps) before anything is signed or
 * sent. Without `now` every rule but "closes in the future" is checked (so a caller can refuse bad
 * terms before it reads the chain); with `now` (chain time, unix seconds) that one too.
 * @returns the terms with checked splits
 * @throws PlatformError `invalid_option` with `details.field` naming the first broken term
 */
export function assertBountyTerms(terms: UncheckedBountyTerms, now?: bigint): BountyTerms {
  const check = checkBountyTerms(terms, { ...(now !== undefined ? { now } : {}), splitsPath: "splits_bps" });
  if (check.ok) return check.terms;
  const refuse = (field: string, message: string): never => {
    throw new PlatformError("invalid_option", message, { field });
  };
  const { rule, splitsError } = check.violation;
  switch (rule) {
    case "pool_not_positive":
      return refuse("pool", `pool must be more than 0 base units, got ${terms.pool}`);
    case "threshold_out_of_range":
      return refuse(
        "threshold_bps",
        `threshold_bps must be an integer in 0..10000, got ${terms.thresholdBps}`,
      );
    case "closes_at_not_positive":
      return refuse(
        "closes_at",
        `closes_at must be a positive integer of unix seconds, got ${terms.closesAt}`,
      );
    case "deadline_not_after_closes_at":
      return refuse(
        "award_deadline",
        `award_deadline (${terms.awardDeadline}) must be after closes_at (${terms.closesAt})`,
      );
    case "closes_at_not_future":
      return refuse("closes_at", `closes_at ${terms.closesAt} is not in the future (chain time ${now})`);
    case "bad_splits":
      return refuse("splits_bps", splitsError?.message ?? "bad splits_bps");
  }
}
