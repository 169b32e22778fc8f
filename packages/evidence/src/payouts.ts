/**
 * `spec/SPEC.md` sections 7.3 / 1.1: payout splits and per-place amounts, identical to
 * `BenchmarkBounty.payoutAmounts` (the contract tests share
 * `spec/vectors/payouts.json` with this library's tests).
 * @packageDocumentation
 */
import { EvidenceError, appendPath } from "./errors.js";

/** Named payout rules (SPEC 1.1): splits in basis points, place order. */
export const PAYOUT_RULES = Object.freeze({
  winner_take_all: Object.freeze([10000]) as readonly number[],
  top_n_split: Object.freeze([5000, 3000, 2000]) as readonly number[],
});

/** Name of a payout rule. */
export type PayoutRule = keyof typeof PAYOUT_RULES;

/** Maximum number of paid places (SPEC 1.1). */
export const MAX_PLACES = 8;

/**
 * Check splits (SPEC 1.1): 1..8 places, each an integer > 0, non-increasing
 * (equal places allowed), summing to 10000 bps.
 *
 * @param splits anything (a parsed JSON value is fine: a JSON float such as
 *   `5000.0` is refused)
 * @returns the splits as plain numbers
 * @throws EvidenceError `bad_splits` naming the offending place
 */
export function validateSplits(splits: unknown, path = "$"): number[] {
  if (!Array.isArray(splits))
    throw new EvidenceError("bad_splits", path, "splits_bps must be an array of integers");
  if (splits.length < 1 || splits.length > MAX_PLACES)
    throw new EvidenceError(
      "bad_splits",
      path,
      `splits_bps must have 1..${MAX_PLACES} places, got ${splits.length}`,
    );
  const out: number[] = [];
  let sum = 0;
  for (let i = 0; i < splits.length; i++) {
    const s: unknown = splits[i];
    const p = appendPath(path, i);
    if (typeof s !== "number" || !Number.isSafeInteger(s))
      throw new EvidenceError(
        "bad_splits",
        p,
        `a split must be an integer number of bps, got ${describe(s)}`,
      );
    if (s <= 0) throw new EvidenceError("bad_splits", p, `a split must be > 0 bps, got ${s}`);
    if (s > 10000) throw new EvidenceError("bad_splits", p, `a split must be <= 10000 bps, got ${s}`);
    const prev = out[i - 1];
    if (prev !== undefined && s > prev)
      throw new EvidenceError("bad_splits", p, `splits must be non-increasing (${prev} then ${s})`);
    sum += s;
    out.push(s);
  }
  if (sum !== 10000) throw new EvidenceError("bad_splits", path, `splits must sum to 10000 bps, got ${sum}`);
  return out;
}

function describe(v: unknown): string {
  if (typeof v === "object" && v !== null && "lexeme" in v)
    return `the float ${(v as { lexeme: string }).lexeme}`;
  if (typeof v === "bigint") return `${v}`;
  return JSON.stringify(v) ?? String(v);
}

/**
 * Per-place amounts for `k` winners (SPEC 7.3), in token base units:
 * `S = sum(splitsBps[0..k-1])`, `amount_i = floor(pool * splitsBps[i] / S)`,
 * and the dust `pool - sum(amount_i)` goes to place 1. `k = 0` gives `[]`
 * (the whole pool returns to the author).
 *
 * @param pool prize pool in base units (>= 0)
 * @param splitsBps valid splits ({@link validateSplits})
 * @param k number of winners, `0 <= k <= splitsBps.length`
 * @throws EvidenceError `bad_splits` for invalid splits, a negative pool or k out of range
 */
export function payoutAmounts(pool: bigint, splitsBps: readonly number[], k: number): bigint[] {
  const splits = validateSplits(splitsBps, "$.splits_bps");
  if (typeof pool !== "bigint" || pool < 0n)
    throw new EvidenceError("bad_splits", "$.pool", "pool must be a non-negative bigint (base units)");
  if (!Number.isSafeInteger(k) || k < 0 || k > splits.length)
    throw new EvidenceError("bad_splits", "$.k", `k must be an integer in 0..${splits.length}, got ${k}`);
  if (k === 0) return [];
  let S = 0n;
  for (let i = 0; i < k; i++) S += BigInt(splits[i] as number);
  const amounts: bigint[] = [];
  let total = 0n;
  for (let i = 0; i < k; i++) {
    const a = (pool * BigInt(splits[i] as number)) / S;
    amounts.push(a);
    total += a;
  }
  amounts[0] = (amounts[0] as bigint) + (pool - total);
  return amounts;
}

/** The splits of a named rule (a copy). */
export function splitsOfRule(rule: PayoutRule): number[] {
  return [...PAYOUT_RULES[rule]];
}

/** The name of the rule whose splits these are, or null for custom splits. */
export function ruleOfSplits(splits: readonly number[]): PayoutRule | null {
  for (const [name, s] of Object.entries(PAYOUT_RULES) as [PayoutRule, readonly number[]][]) {
    if (s.length === splits.length && s.every((v, i) => v === splits[i])) return name;
  }
  return null;
}
