/**
 * `spec/SPEC.md` section 6: accuracy, `score_public` and the composite, in exact rational
 * arithmetic with one final 4-dp ROUND_HALF_UP rounding. No binary floats.
 * @packageDocumentation
 */
import { EvidenceError, appendPath } from "./errors.js";
import { Fraction, decimalToFraction, parseFixedDecimal, parseFraction, roundHalfUp } from "./fraction.js";

/** A credit as a {@link Fraction} or its string form (`"2/3"`). */
export type CreditLike = Fraction | string;

function toCredit(c: CreditLike, path: string): Fraction {
  return c instanceof Fraction ? c : parseFraction(c, path);
}

/**
 * Round an exact rational (or a fraction string `"87/160"`) to 4 decimal
 * places, ROUND_HALF_UP, rendered with exactly 4 places (`"0.5438"`).
 */
export function roundHalfUp4(x: CreditLike): string {
  return roundHalfUp(toCredit(x, "$"), 4);
}

/**
 * Exact mean of credits: `sum(credit) / n`.
 * @throws EvidenceError `malformed` for an empty list
 */
export function accuracyExact(credits: readonly CreditLike[]): Fraction {
  if (credits.length === 0)
    throw new EvidenceError("malformed", "$", "accuracy over zero tasks is undefined");
  // whole credits (0/1, 1/1: most of a run) are summed as integers, the rest as fractions;
  // the exact sum is the same, without a reduced fraction per task
  let whole = 0n;
  let rest = Fraction.ZERO;
  for (let i = 0; i < credits.length; i++) {
    const x = credits[i] as CreditLike;
    const c = x instanceof Fraction ? x : parseFraction(x, appendPath("$", i));
    if (c.den === 1n) whole += c.num;
    else rest = rest.add(c);
  }
  return rest.add(new Fraction(whole)).div(new Fraction(BigInt(credits.length)));
}

/**
 * Accuracy (SPEC 6): `sum(credit) / n`, computed exactly and rounded once to
 * 4 dp ROUND_HALF_UP (`"0.5556"`).
 * @throws EvidenceError `malformed` for an empty list, `schema` for a bad credit string
 */
export function accuracy(credits: readonly CreditLike[]): string {
  return roundHalfUp(accuracyExact(credits), 4);
}

/** A graded task of a run: its visibility and credit (null credit or a null answer count as 0). */
export interface GradedTask {
  visibility: "public" | "private";
  /** credit; `null` (unanswered) scores 0 */
  credit: CreditLike | null;
}

function over(tasks: readonly GradedTask[], vis: "public" | "private"): Fraction[] {
  const out: Fraction[] = [];
  tasks.forEach((t, i) => {
    if (t.visibility === vis)
      out.push(t.credit === null ? Fraction.ZERO : toCredit(t.credit, `$[${i}].credit`));
  });
  return out;
}

/**
 * `rank_accuracy` (SPEC 6): accuracy over the run's PRIVATE tasks when the
 * bank has any private task, else over its public tasks.
 * @param bankHasPrivate whether the test set (not just this run) has a private task
 * @throws EvidenceError `malformed` when the run has no task of the counted visibility
 */
export function rankAccuracy(tasks: readonly GradedTask[], bankHasPrivate: boolean): string {
  const credits = over(tasks, bankHasPrivate ? "private" : "public");
  if (credits.length === 0)
    throw new EvidenceError(
      "malformed",
      "$",
      `the run has no ${bankHasPrivate ? "private" : "public"} task to score`,
    );
  return accuracy(credits);
}

/**
 * `score_public` (SPEC 6): accuracy over the run's public tasks, 4 dp.
 * A run with no public task scores `"0.0000"` (documented choice: the SPEC
 * is silent; nothing public was answered).
 */
export function scorePublic(tasks: readonly GradedTask[]): string {
  const credits = over(tasks, "public");
  return credits.length === 0 ? "0.0000" : accuracy(credits);
}

/** Inputs of the composite (SPEC 6), as served/stored strings. */
export interface CompositeInput {
  /** 4-dp rounded accuracy, e.g. `"0.5625"` */
  rank_accuracy: string;
  /** seconds, exactly 3 dp, e.g. `"450.000"` */
  wall_seconds: string;
  /** USDC, exactly 6 dp, e.g. `"0.012075"` */
  usdc_spent: string;
  /** plain decimal string as configured, e.g. `"0.3"` */
  speed_weight: string;
  /** plain decimal string as configured, e.g. `"0"` */
  cost_weight: string;
  /** integer seconds > 0 */
  time_budget_seconds: number | bigint;
  /** USDC with exactly 6 dp, or null (no cost term) */
  cost_budget_usdc: string | null;
}

const PLAIN_DECIMAL_RE = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;

function weight(v: unknown, path: string): Fraction {
  if (typeof v !== "string" || !PLAIN_DECIMAL_RE.test(v))
    throw new EvidenceError(
      "malformed",
      path,
      `must be a plain decimal string such as "0.3", got ${JSON.stringify(v)}`,
    );
  return decimalToFraction(v, path);
}

function asMalformed<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof EvidenceError && e.code === "schema")
      throw new EvidenceError("malformed", e.path, e.message.replace(/^\$[^:]*: /, ""));
    throw e;
  }
}

/**
 * Exact composite (SPEC 6), before rounding:
 * ```
 * clamp((1-sw-cw)*acc + sw*clamp(1 - wall/time_budget, 0, 1) + cw*clamp(1 - usdc/cost_budget, 0, 1), 0, 1)
 * ```
 * `cw` is taken as 0 when `cost_budget_usdc` is null.
 * @throws EvidenceError `malformed` for weights outside `0 <= sw, cw; sw + cw <= 1`,
 *   a non-positive time budget, a zero cost budget with `cw > 0`, or a value breaking its format
 */
export function compositeExact(input: CompositeInput): Fraction {
  return asMalformed(() => {
    const acc = parseFixedDecimal(input.rank_accuracy, 4, "$.rank_accuracy", "rank_accuracy");
    if (acc.cmp(Fraction.ONE) > 0)
      throw new EvidenceError("malformed", "$.rank_accuracy", "rank_accuracy must be <= 1");
    const wall = parseFixedDecimal(input.wall_seconds, 3, "$.wall_seconds", "wall_seconds");
    const usdc = parseFixedDecimal(input.usdc_spent, 6, "$.usdc_spent", "usdc_spent");
    const sw = weight(input.speed_weight, "$.speed_weight");
    let cw = weight(input.cost_weight, "$.cost_weight");
    const tb = input.time_budget_seconds;
    if (!((typeof tb === "number" && Number.isSafeInteger(tb)) || typeof tb === "bigint"))
      throw new EvidenceError("malformed", "$.time_budget_seconds", "time_budget_seconds must be an integer");
    const time = new Fraction(BigInt(tb));
    if (time.num <= 0n)
      throw new EvidenceError("malformed", "$.time_budget_seconds", "time_budget_seconds must be > 0");
    let budget: Fraction | null = null;
    if (input.cost_budget_usdc === null) cw = Fraction.ZERO;
    else budget = parseFixedDecimal(input.cost_budget_usdc, 6, "$.cost_budget_usdc", "cost_budget_usdc");
    if (sw.add(cw).cmp(Fraction.ONE) > 0)
      throw new EvidenceError("malformed", "$", "speed_weight + cost_weight must be <= 1");
    if (budget !== null && budget.isZero() && !cw.isZero())
      throw new EvidenceError(
        "malformed",
        "$.cost_budget_usdc",
        "a cost budget of 0 with cost_weight > 0 is malformed",
      );
    const one = Fraction.ONE;
    const zero = Fraction.ZERO;
    let total = one.sub(sw).sub(cw).mul(acc);
    total = total.add(sw.mul(one.sub(wall.div(time)).clamp(zero, one)));
    if (!cw.isZero() && budget !== null)
      total = total.add(cw.mul(one.sub(usdc.div(budget)).clamp(zero, one)));
    return total.clamp(zero, one);
  });
}

/**
 * Composite score (SPEC 6): {@link compositeExact} rounded once to 4 dp
 * ROUND_HALF_UP (`"0.5438"`).
 * @throws EvidenceError `malformed` (see {@link compositeExact})
 */
export function composite(input: CompositeInput): string {
  return roundHalfUp(compositeExact(input), 4);
}
