/**
 * SPEC 5 grading: the credit (0..1, an exact fraction) of an answer against a prepared gold.
 * @packageDocumentation
 */
import { EvidenceError } from "../errors.js";
import {
  compareDecimals,
  integerDecimal,
  parseExactDecimal,
  withinTolerance,
  type ExactDecimal,
} from "../decimal.js";
import { Fraction, type Credit } from "../fraction.js";
import { JsonFloat, canonicalJsonString, isJsonObject, parseJson, type JsonValue } from "../json/index.js";
import { isAscii, norm, normKeepsNonAscii, trimWhiteSpace, NUMERIC_ANSWER_RE } from "./norm.js";
import { type PreparedGold, prepareGold } from "./gold.js";

const ONE = new Fraction(1n);
const ZERO = new Fraction(0n);

/** Exact value of a number in a parsed json_fields answer: the exact decimal of its own JSON text. */
function answerNumber(v: JsonValue): ExactDecimal | null {
  if (typeof v === "number") return Number.isSafeInteger(v) ? integerDecimal(BigInt(v)) : null;
  if (typeof v === "bigint") return integerDecimal(v);
  if (v instanceof JsonFloat) {
    try {
      return parseExactDecimal(v.lexeme, "$", true);
    } catch (e) {
      // An exponent beyond +-100000 (e.g. 1e-200000): no gold value can equal it.
      if (e instanceof EvidenceError) return null;
      throw e;
    }
  }
  return null;
}

/**
 * Digits of the integer part of a numeric answer `t` (matching `NUMERIC_ANSWER_RE`), leading zeros
 * aside: with `L` of them `|a| >= 10^(L-1)`; the gold's `maxIntDigits` `D` bounds
 * `|value| + tolerance < 10^D`, so `L > D` gives `|a - value| >= |a| - |value| > tolerance`: a 0
 * without parsing the answer (the same credit the exact comparison gives, in time linear in its length).
 */
function answerIntDigits(t: string): number {
  let i = t.charCodeAt(0) === 0x2b || t.charCodeAt(0) === 0x2d ? 1 : 0; // + or -
  while (i < t.length && t.charCodeAt(i) === 0x30) i++; // leading zeros
  const dot = t.indexOf(".", i);
  return (dot === -1 ? t.length : dot) - i;
}

/**
 * Grade one answer with prepared gold (see {@link prepareGold}).
 * @param answer the answer text; `null` (no answer) scores 0
 */
export function gradePrepared(gold: PreparedGold, answer: string | null): Credit {
  if (answer === null) return ZERO;
  switch (gold.kind) {
    case "exact":
      // an answer that keeps a non-ASCII character under norm matches no all-ASCII target (probe27 A-F6)
      if (gold.asciiTargets && normKeepsNonAscii(answer)) return ZERO;
      return gold.targets.has(norm(answer)) ? ONE : ZERO;
    case "numeric": {
      const t = trimWhiteSpace(answer);
      if (!NUMERIC_ANSWER_RE.test(t)) return ZERO;
      if (answerIntDigits(t) > gold.maxIntDigits) return ZERO;
      return withinTolerance(parseExactDecimal(t), gold.value, gold.tolerance) ? ONE : ZERO;
    }
    case "contains_all": {
      const na = norm(answer);
      return gold.terms.every((term) => na.includes(term)) ? ONE : ZERO;
    }
    case "json_fields": {
      let parsed: JsonValue;
      try {
        parsed = parseJson(answer);
      } catch (e) {
        if (e instanceof EvidenceError) return ZERO;
        throw e;
      }
      if (!isJsonObject(parsed)) return ZERO;
      let hits = 0;
      for (const [name, exp] of gold.fields) {
        if (!Object.prototype.hasOwnProperty.call(parsed, name)) continue;
        const got = parsed[name] as JsonValue;
        if (exp.t === "string") {
          if (
            typeof got === "string" &&
            !(isAscii(exp.norm) && normKeepsNonAscii(got)) &&
            norm(got) === exp.norm
          )
            hits++;
        } else if (exp.t === "number") {
          const g = answerNumber(got);
          if (g !== null && compareDecimals(g, exp.value) === 0) hits++;
        } else if (canonicalJsonString(got) === exp.text) {
          hits++;
        }
      }
      return new Fraction(BigInt(hits), BigInt(gold.fields.length));
    }
  }
}

/**
 * Grade one answer (SPEC 5).
 *
 * @param graderType `exact` | `numeric` | `contains_all` | `json_fields`
 * @param gold the task's gold (validated first)
 * @param answer the answer text, or `null` for an unanswered task (scores 0)
 * @returns the credit, a reduced fraction (`toString()` -> `"1/1"`, `"0/1"`, `"2/3"`)
 * @throws EvidenceError `malformed_gold` / `unknown_grader` for bad gold (never a silent 0)
 */
export function grade(graderType: string, gold: unknown, answer: string | null): Credit {
  return gradePrepared(prepareGold(graderType, gold), answer);
}
