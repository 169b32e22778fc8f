/**
 * The platform's wording of the one bounty-terms rule (`checkBountyTerms` of `@bench-bounty/evidence`,
 * SPEC 1.1 `createBounty`): a broken term becomes PlatformError `invalid_option` naming the field as
 * the platform's API does (`pool`, `threshold_bps`, `closes_at`, `award_deadline`, `splits_bps`).
 */
import {
  checkBountyTerms,
  MAX_POOL_BASE_UNITS,
  MIN_AWARD_WINDOW_SECONDS,
  type BountyTerms,
  type UncheckedBountyTerms,
} from "@bench-bounty/evidence";
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
    case "pool_out_of_range":
      return refuse(
        "pool",
        `pool must be at most ${MAX_POOL_BASE_UNITS} base units (createBounty's uint256), got ${terms.pool}`,
      );
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

/**
 * The platform's award-window rule (probe38 C-F1): a bounty's window (`award_deadline - closes_at`) of at
 * least `MIN_AWARD_WINDOW_SECONDS` of `@bench-bounty/evidence` (3600 s), the time the service needs to
 * award after the close; checked by a lock before anything
 * is sent and by an attach before anything is stored. Times in unix seconds.
 * @param what the bounty the message names (`lock`, `bounty 7`)
 * @throws PlatformError `award_window_too_short` with `details: {award_window_seconds, minimum_seconds,
 *   closes_at, award_deadline}` (numbers when they fit exactly, else decimal strings)
 */
export function assertAwardWindow(closesAt: bigint, awardDeadline: bigint, what: string): void {
  const window = awardDeadline - closesAt;
  if (window >= BigInt(MIN_AWARD_WINDOW_SECONDS)) return;
  const shown = (v: bigint): number | string =>
    v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
  throw new PlatformError(
    "award_window_too_short",
    `${what}: the award window (award_deadline ${awardDeadline} - closes_at ${closesAt}) is ${window} s, shorter than the ${MIN_AWARD_WINDOW_SECONDS} s the service needs to award after the close: no award could be made and the author could reclaim the pool`,
    {
      award_window_seconds: shown(window),
      minimum_seconds: MIN_AWARD_WINDOW_SECONDS,
      closes_at: shown(closesAt),
      award_deadline: shown(awardDeadline),
    },
  );
}

/** What the service accepts as an attached bounty's token and awarder (the chain configuration). */
export interface ServiceBountyParties {
  /** The configured USDC of the chain (`contracts.usdc`: the address book's, or `--usdc`), or null when none is configured. */
  usdc: string | null;
  /** The service's awarder signer: the platform account, which sends `award`. */
  awarder: string;
}

/** The on-chain facts of a bounty that {@link assertAttachableBounty} checks (SPEC 1.1 `getBounty`). */
export interface AttachableBountyFacts {
  token: string;
  awarder: string;
  pool: bigint;
  closesAt: bigint;
  awardDeadline: bigint;
  thresholdBps: number;
  splitsBps: readonly number[];
}

/**
 * The token and awarder a bounty must name for the service to show and award it: the configured USDC
 * (a second token, e.g. a worthless TestUSDC the author deployed, would render "Prize: 100 USDC") and
 * the service's own awarder (any other awarder means the service could never award).
 * @throws PlatformError `invalid_bounty` with `details: {field, expected, actual}` (`token` or `awarder`)
 */
export function assertServiceParties(
  parties: ServiceBountyParties,
  bounty: { token: string; awarder: string },
  what: string,
): void {
  if (parties.usdc === null)
    throw new PlatformError(
      "invalid_bounty",
      `${what}: no USDC is configured for this chain (contracts.usdc, --usdc), so no token can be accepted`,
      { field: "token", expected: null, actual: bounty.token.toLowerCase() },
    );
  for (const [field, expected, actual] of [
    ["token", parties.usdc, bounty.token],
    ["awarder", parties.awarder, bounty.awarder],
  ] as const) {
    if (expected.toLowerCase() !== actual.toLowerCase())
      throw new PlatformError(
        "invalid_bounty",
        `${what}: ${field} is ${actual.toLowerCase()}, expected ${expected.toLowerCase()} (${field === "token" ? "the configured USDC of the chain" : "the service's awarder"})`,
        { field, expected: expected.toLowerCase(), actual: actual.toLowerCase() },
      );
  }
}

/**
 * Checks a bounty read on-chain before it is attached (SPEC 1.1): token and awarder per
 * {@link assertServiceParties}; its terms by the one terms rule ({@link assertBountyTerms}, without
 * chain time: an attach may be retried after the close); times the detail can show exactly
 * (unix seconds up to 2^53 - 1); and an award window the service can award in ({@link assertAwardWindow}).
 * @throws PlatformError `invalid_bounty` with `details: {field, expected?, actual}`;
 *   `award_window_too_short` ({@link assertAwardWindow})
 */
export function assertAttachableBounty(
  parties: ServiceBountyParties,
  bountyId: bigint,
  b: AttachableBountyFacts,
): void {
  const what = `bounty ${bountyId}`;
  assertServiceParties(parties, b, what);
  try {
    assertBountyTerms({
      pool: b.pool,
      thresholdBps: b.thresholdBps,
      closesAt: b.closesAt,
      awardDeadline: b.awardDeadline,
      splitsBps: [...b.splitsBps],
    });
  } catch (e) {
    if (!(e instanceof PlatformError && e.code === "invalid_option")) throw e;
    const field = String(e.details.field);
    throw new PlatformError("invalid_bounty", `${what}: ${e.message}`, {
      field,
      actual: onChainTerm(b, field),
    });
  }
  for (const [field, v] of [
    ["closes_at", b.closesAt],
    ["award_deadline", b.awardDeadline],
  ] as const)
    if (v > BigInt(Number.MAX_SAFE_INTEGER))
      throw new PlatformError(
        "invalid_bounty",
        `${what}: ${field} ${v} is beyond ${Number.MAX_SAFE_INTEGER} unix seconds, which the detail cannot show exactly`,
        { field, expected: `at most ${Number.MAX_SAFE_INTEGER}`, actual: v.toString() },
      );
  assertAwardWindow(b.closesAt, b.awardDeadline, what);
}

function onChainTerm(b: AttachableBountyFacts, field: string): unknown {
  switch (field) {
    case "pool":
      return b.pool.toString();
    case "threshold_bps":
      return b.thresholdBps;
    case "closes_at":
      return b.closesAt.toString();
    case "award_deadline":
      return b.awardDeadline.toString();
    default:
      return [...b.splitsBps];
  }
}
