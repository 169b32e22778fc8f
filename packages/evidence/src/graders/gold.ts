/**
 * SPEC 5 gold validation at publish time: each grader type's gold shape, prepared once for grading
 * ({@link prepareGold}); a bad gold throws `EvidenceError` naming its JSON path.
 * @packageDocumentation
 */
import { EvidenceError, appendPath } from "../errors.js";
import { addDecimals, decimalKey, integerDecimal, parseExactDecimal, type ExactDecimal } from "../decimal.js";
import {
  JsonFloat,
  canonicalJsonString,
  isJsonObject,
  pyFloatRepr,
  type JsonObject,
  type JsonValue,
} from "../json/index.js";
import { GRADER_TYPE_NAMES, isGraderType } from "./names.js";
import { norm, NUMERIC_ANSWER_RE } from "./norm.js";
import { beyondBaselineText, firstBeyondBaseline } from "./unicode-baseline.js";
import { firstLongNonStarterRun, nonStarterRunText } from "./stream-safe.js";
import { firstUnstableFinalSigma, unstableFinalSigmaText } from "./final-sigma.js";

function bad(path: string, message: string): never {
  throw new EvidenceError("malformed_gold", path, message);
}

function onlyKeys(gold: JsonObject, allowed: readonly string[], path: string, grader: string): void {
  for (const k of Object.keys(gold)) {
    if (!allowed.includes(k))
      bad(
        appendPath(path, k),
        `unknown key ${JSON.stringify(k)} in ${grader} gold (allowed: ${allowed.join(", ")})`,
      );
  }
}

/** Exact value of a gold number: a JSON integer, a decimal string, or a JSON float read as the exact decimal of its canonical rendering. */
function goldNumber(v: unknown, path: string, what: string): ExactDecimal {
  if (typeof v === "number") {
    if (Number.isSafeInteger(v)) return integerDecimal(BigInt(v));
    if (Number.isFinite(v)) return parseExactDecimal(pyFloatRepr(v), path, true);
    bad(path, `${what} must be a finite number`);
  }
  if (typeof v === "bigint") return integerDecimal(v);
  if (v instanceof JsonFloat) return parseExactDecimal(pyFloatRepr(v.value), path, true);
  if (typeof v === "string") {
    if (!NUMERIC_ANSWER_RE.test(v))
      bad(
        path,
        `${what} must be a number or a plain decimal string (no exponent, no spaces), got ${JSON.stringify(v.slice(0, 80))}`,
      );
    return parseExactDecimal(v, path);
  }
  bad(
    path,
    `${what} must be a number or a decimal string, got ${v === null ? "null" : Array.isArray(v) ? "an array" : typeof v}`,
  );
}

interface ExactGold {
  kind: "exact";
  targets: Set<string>;
}
interface NumericGold {
  kind: "numeric";
  value: ExactDecimal;
  tolerance: ExactDecimal;
  /**
   * Digits of the integer part of `|value| + tolerance` (0 when it is below 1). At most
   * {@link NUMERIC_GOLD_MAX_INT_DIGITS} for any gold {@link validateGold} accepts; grading reads it only
   * through that bound (`max(bound, maxIntDigits)`), so its work never depends on a published gold.
   */
  maxIntDigits: number;
}
interface ContainsAllGold {
  kind: "contains_all";
  terms: string[];
}
interface JsonFieldsGold {
  kind: "json_fields";
  fields: [string, FieldExpectation][];
}
type FieldExpectation =
  | { t: "string"; norm: string }
  /** `key`: the expected value's {@link decimalKey} (equal keys, equal values) */
  | { t: "number"; key: string }
  | { t: "canonical"; text: string };
/** Gold prepared for grading (validated, normalised once). */
export type PreparedGold = ExactGold | NumericGold | ContainsAllGold | JsonFieldsGold;

/**
 * The most integer digits `|value| + tolerance` of a `numeric` gold may have at publish
 * ({@link validateGold}; SPEC 5 sets no bound, the vectors' largest has 20). Grading gives 0 without
 * parsing to an answer whose integer part has more digits than this (leading zeros aside): such an
 * answer is beyond every published gold +- tolerance, and the bound is the same for every gold, so the
 * grader's work tells nothing of a private gold's magnitude (probe28 A-F6: the gold's own digit count
 * was the bound, and finalize's latency gave it away while open; probe27 A-F1 for the unparsed 0).
 */
export const NUMERIC_GOLD_MAX_INT_DIGITS = 100;

/**
 * The most fractional digits, as written, a `numeric` gold's value or tolerance may have at publish
 * ({@link validateGold}; SPEC 5 sets no bound). Grading aligns the answer and the gold to the larger
 * scale, so a gold's scale sets part of the grader's work: bounded, it tells nothing an answer's own
 * digits would not (probe28 A-F6, the fractional half of the integer-digit bound).
 */
export const NUMERIC_GOLD_MAX_FRAC_DIGITS = 100;

/** Digits of the integer part of `|value| + tolerance` (`tolerance >= 0`), 0 when it is below 1. */
function intDigits(value: ExactDecimal, tolerance: ExactDecimal): number {
  const sum = addDecimals(
    { coef: value.coef < 0n ? -value.coef : value.coef, scale: value.scale },
    tolerance,
  );
  const int = sum.coef / 10n ** BigInt(sum.scale);
  return int === 0n ? 0 : int.toString().length;
}

/**
 * Validate gold for a grader and prepare it for grading (SPEC 5; shapes of
 * `seeds/publish-benchmark-from-data.txt`). Gold that a grader could never
 * match (an empty or blank `exact` value or alternative, no usable
 * `contains_all` terms, no `json_fields` fields), a wrong type, an exponent
 * or text in a numeric value, a negative tolerance, or an unknown key is
 * refused.
 *
 * @param path JSON path of the gold (for error messages), e.g. `$.test_set[3].gold`
 * @throws EvidenceError `malformed_gold` (or `unknown_grader`) naming the path
 */
export function prepareGold(graderType: string, gold: unknown, path = "$"): PreparedGold {
  if (!isGraderType(graderType))
    throw new EvidenceError(
      "unknown_grader",
      path,
      `unknown grader_type ${JSON.stringify(graderType)} (known: ${GRADER_TYPE_NAMES.join(", ")})`,
    );
  if (!isJsonObject(gold)) bad(path, `${graderType} gold must be a JSON object`);
  switch (graderType) {
    case "exact": {
      onlyKeys(gold, ["value", "alternatives"], path, "exact");
      const value = gold["value"];
      if (typeof value !== "string") bad(appendPath(path, "value"), "exact gold value must be a string");
      const targets = new Set<string>();
      const nv = norm(value);
      if (nv === "")
        bad(
          appendPath(path, "value"),
          "exact gold value is empty after normalisation (no answer could match it)",
        );
      targets.add(nv);
      if ("alternatives" in gold) {
        const alts = gold["alternatives"];
        const ap = appendPath(path, "alternatives");
        if (!Array.isArray(alts)) bad(ap, "alternatives must be an array of strings");
        alts.forEach((a, i) => {
          if (typeof a !== "string") bad(appendPath(ap, i), "an alternative must be a string");
          const na = norm(a);
          if (na === "") bad(appendPath(ap, i), "an alternative is empty after normalisation");
          targets.add(na);
        });
      }
      return { kind: "exact", targets };
    }
    case "numeric": {
      onlyKeys(gold, ["value", "tolerance"], path, "numeric");
      if (!("value" in gold)) bad(path, "numeric gold needs a value");
      const value = goldNumber(gold["value"], appendPath(path, "value"), "numeric gold value");
      let tolerance = integerDecimal(0n);
      if ("tolerance" in gold) {
        tolerance = goldNumber(gold["tolerance"], appendPath(path, "tolerance"), "tolerance");
        if (tolerance.coef < 0n) bad(appendPath(path, "tolerance"), "tolerance must be >= 0");
      }
      return { kind: "numeric", value, tolerance, maxIntDigits: intDigits(value, tolerance) };
    }
    case "contains_all": {
      onlyKeys(gold, ["terms"], path, "contains_all");
      const terms = gold["terms"];
      const tp = appendPath(path, "terms");
      if (!Array.isArray(terms)) bad(tp, "terms must be an array of strings");
      if (terms.length === 0) bad(tp, "terms is empty (no usable terms)");
      const out = terms.map((t, i) => {
        if (typeof t !== "string") bad(appendPath(tp, i), "a term must be a string");
        const nt = norm(t);
        if (nt === "") bad(appendPath(tp, i), "a term is empty after normalisation");
        return nt;
      });
      return { kind: "contains_all", terms: out };
    }
    case "json_fields": {
      onlyKeys(gold, ["fields"], path, "json_fields");
      const fields = gold["fields"];
      const fp = appendPath(path, "fields");
      if (!isJsonObject(fields)) bad(fp, "fields must be a JSON object {name: expected}");
      const names = Object.keys(fields);
      if (names.length === 0) bad(fp, "fields is empty (nothing to grade)");
      return {
        kind: "json_fields",
        fields: names.map((name) => {
          const exp = fields[name] as JsonValue;
          const p = appendPath(fp, name);
          if (typeof exp === "string") return [name, { t: "string", norm: norm(exp) }];
          if (typeof exp === "number" || typeof exp === "bigint" || exp instanceof JsonFloat)
            return [name, { t: "number", key: decimalKey(goldNumber(exp, p, "expected value")) }];
          let text: string;
          try {
            text = canonicalJsonString(exp);
          } catch (e) {
            bad(p, `expected value is not canonical JSON: ${(e as Error).message}`);
          }
          return [name, { t: "canonical", text }];
        }),
      };
    }
  }
}

/**
 * The strings of a gold that `norm` reads when grading (SPEC 5), each with its JSON path: an `exact`
 * gold's value and alternatives, a `contains_all` gold's terms, a `json_fields` gold's string expected
 * values (other expected values compare by exact value or canonical JSON; a `numeric` gold has none).
 * Strings of the wrong shape are skipped ({@link prepareGold} refuses them).
 * @param path JSON path of the gold, e.g. `$.test_set[3].gold`
 */
export function goldNormTexts(
  graderType: string,
  gold: unknown,
  path = "$",
): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  if (!isJsonObject(gold)) return out;
  const strings = (v: unknown, p: string): void => {
    if (Array.isArray(v))
      v.forEach((s, i) => {
        if (typeof s === "string") out.push({ path: appendPath(p, i), text: s });
      });
  };
  if (graderType === "exact") {
    if (typeof gold["value"] === "string") out.push({ path: appendPath(path, "value"), text: gold["value"] });
    strings(gold["alternatives"], appendPath(path, "alternatives"));
  } else if (graderType === "contains_all") strings(gold["terms"], appendPath(path, "terms"));
  else if (graderType === "json_fields") {
    const fields = gold["fields"];
    if (isJsonObject(fields))
      for (const [name, v] of Object.entries(fields))
        if (typeof v === "string") out.push({ path: appendPath(appendPath(path, "fields"), name), text: v });
  }
  return out;
}

/** Digits of a numeric gold decimal string read without making a number of it (the service's number bound too). */
const LONG_DECIMAL_DIGITS = 1_000;

/**
 * A numeric gold's `value` and `tolerance` written as decimal strings, read by a linear count of their
 * digits before {@link prepareGold} makes a BigInt of them (probe36 V-F8: a 4,000,000-digit string cost
 * the dataset worker seconds per cell before the 100-digit bounds refused it): more than
 * {@link LONG_DECIMAL_DIGITS} fractional or significant integer digits, far past the bounds the exact checks
 * after it apply (so they are what refuses a string near them, with their own words), is refused at once.
 */
function refuseLongDecimalStrings(gold: unknown, path: string): void {
  if (!isJsonObject(gold)) return;
  for (const field of ["value", "tolerance"] as const) {
    const text = gold[field];
    if (typeof text !== "string") continue;
    const point = text.indexOf(".");
    const frac = point < 0 ? 0 : text.length - point - 1;
    let start = text.startsWith("-") || text.startsWith("+") ? 1 : 0;
    const intEnd = point < 0 ? text.length : point;
    while (start < intEnd && text.charCodeAt(start) === 48) start++; // leading zeros
    const int = intEnd - start;
    if (frac > LONG_DECIMAL_DIGITS)
      bad(
        appendPath(path, field),
        `numeric gold ${field} has ${frac} fractional digits, more than the ${NUMERIC_GOLD_MAX_FRAC_DIGITS} a published gold may have`,
      );
    if (int > LONG_DECIMAL_DIGITS)
      bad(
        appendPath(path, field),
        `numeric gold ${field} has ${int} integer digits, more than the ${NUMERIC_GOLD_MAX_INT_DIGITS} a published gold may have`,
      );
  }
}

/**
 * Validate gold at publish time (SPEC 5): {@link prepareGold}'s rules, and a `numeric` gold whose
 * `|value| + tolerance` has at most {@link NUMERIC_GOLD_MAX_INT_DIGITS} integer digits, and whose value and
 * tolerance have at most {@link NUMERIC_GOLD_MAX_FRAC_DIGITS} fractional digits each, as written, and no
 * string `norm` reads ({@link goldNormTexts}) holding a code point not assigned in Unicode
 * `NORM_UNICODE_BASELINE` (14.0.0: its `norm` depends on the Unicode version of each verifier's tables;
 * probe34 B-F1) or a run of more than `MAX_NON_STARTER_RUN` non-starters (`firstLongNonStarterRun`: NFKC
 * sorts it in quadratic time; probe36 A-F9) or a capital sigma whose Final_Sigma context meets a code point
 * whose case class differs between Unicode 14.0.0 and this runtime (`firstUnstableFinalSigma`: its
 * lower-casing depends on the Unicode version; probe39 B-F2) (publish rules, not SPEC 5 ones: `prepareGold`,
 * which grades and verifies packs, accepts more).
 * @throws EvidenceError `malformed_gold` / `unknown_grader` naming the path (`$.tolerance` when the
 *   tolerance alone is over a bound, else `$.value`; the string's path, e.g. `$.alternatives[1]`, for a
 *   code point beyond the baseline, the message naming it as `U+XXXX`; for a long run of non-starters, the
 *   message naming its offset and the limit; for an unstable Final_Sigma context, the message naming the
 *   code point and the offsets in the string's NFKC form)
 */
export function validateGold(graderType: string, gold: unknown, path = "$"): void {
  // the strings' input rules first: prepareGold normalises them (NFKC), quadratic in a long run of marks
  for (const t of goldNormTexts(graderType, gold, path)) {
    const beyond = firstBeyondBaseline(t.text);
    if (beyond !== null) bad(t.path, `the gold string ${beyondBaselineText(beyond)}`);
    const long = firstLongNonStarterRun(t.text);
    if (long !== null) bad(t.path, `the gold string ${nonStarterRunText(long)}`);
    const sigma = firstUnstableFinalSigma(t.text);
    if (sigma !== null) bad(t.path, `the gold string ${unstableFinalSigmaText(sigma)}`);
  }
  if (graderType === "numeric") refuseLongDecimalStrings(gold, path);
  const g = prepareGold(graderType, gold, path);
  if (g.kind === "numeric")
    for (const [field, d] of [
      ["value", g.value],
      ["tolerance", g.tolerance],
    ] as const)
      if (d.scale > NUMERIC_GOLD_MAX_FRAC_DIGITS)
        bad(
          appendPath(path, field),
          `numeric gold ${field} has ${d.scale} fractional digits, more than the ${NUMERIC_GOLD_MAX_FRAC_DIGITS} a published gold may have`,
        );
  if (g.kind === "numeric" && g.maxIntDigits > NUMERIC_GOLD_MAX_INT_DIGITS) {
    const field =
      intDigits(integerDecimal(0n), g.tolerance) > NUMERIC_GOLD_MAX_INT_DIGITS ? "tolerance" : "value";
    bad(
      appendPath(path, field),
      `numeric gold |value| + tolerance has ${g.maxIntDigits} integer digits, more than the ${NUMERIC_GOLD_MAX_INT_DIGITS} a published gold may have`,
    );
  }
}
