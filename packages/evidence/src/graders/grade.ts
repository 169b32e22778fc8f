/**
 * SPEC 5 grading: the credit (0..1, an exact fraction) of an answer against a prepared gold.
 * @packageDocumentation
 */
import { EvidenceError } from "../errors.js";
import {
  decimalKey,
  decimalLexemeKey,
  integerDecimal,
  parseExactDecimal,
  withinTolerance,
  type ExactDecimal,
} from "../decimal.js";
import { Fraction, type Credit } from "../fraction.js";
import {
  JsonFloat,
  appendPath,
  canonicalJsonString,
  isJsonObject,
  parseJson,
  type JsonValue,
} from "../json/index.js";
import { firstLongNonStarterRun, type NonStarterRun } from "./stream-safe.js";
import { firstUnstableFinalSigma, type UnstableFinalSigma } from "./final-sigma.js";
import { norm, trimWhiteSpace, NUMERIC_ANSWER_RE } from "./norm.js";
import {
  NUMERIC_GOLD_MAX_FRAC_DIGITS,
  NUMERIC_GOLD_MAX_INT_DIGITS,
  type PreparedGold,
  prepareGold,
} from "./gold.js";

const ONE = new Fraction(1n);
const ZERO = new Fraction(0n);

/**
 * The value key ({@link decimalLexemeKey}) of a number in a parsed json_fields answer: the exact decimal of
 * its own JSON text, compared with the gold's key without expanding an exponent (probe36 V-F10); `null`
 * (equal to no gold) for a JSON number read as an unsafe binary64 or an exponent past 15 digits.
 */
function answerNumberKey(v: JsonValue): string | null {
  if (typeof v === "number") return Number.isSafeInteger(v) ? decimalKey(integerDecimal(BigInt(v))) : null;
  if (typeof v === "bigint") return decimalKey(integerDecimal(v));
  if (v instanceof JsonFloat) return decimalLexemeKey(v.lexeme, "$");
  return null;
}

/** A json_fields answer value as it is compared: a string's `norm`, a number's value, else canonical JSON. */
type AnswerSide =
  | { t: "string"; norm: string }
  | { t: "number"; key: string | null }
  | { t: "canonical"; text: string };

/** The comparable side of one json_fields answer value (SPEC 5), computed from the value alone. */
function answerSide(v: JsonValue): AnswerSide {
  if (typeof v === "string") return { t: "string", norm: norm(v) };
  if (typeof v === "number" || typeof v === "bigint" || v instanceof JsonFloat)
    return { t: "number", key: answerNumberKey(v) };
  return { t: "canonical", text: canonicalJsonString(v) };
}

/**
 * The strings `norm` reads of an answer besides its text as written (probe36 V-F2): for a json_fields
 * answer that parses (SPEC 2) as a JSON object, the decoded value of each top-level string member (every
 * one is normalised, named by the gold or not: see {@link answerSide}), with its JSON path in the answer
 * (`$.v`, `$["a b"]`). None for another grader, or for an answer that does not parse (it scores 0 with no
 * text normalised). Linear in the answer's length.
 */
export function answerMemberNormTexts(graderType: string, answer: string): { path: string; text: string }[] {
  if (graderType !== "json_fields") return [];
  let parsed: JsonValue;
  try {
    parsed = parseJson(answer);
  } catch (e) {
    if (e instanceof EvidenceError) return [];
    throw e;
  }
  if (!isJsonObject(parsed)) return [];
  const out: { path: string; text: string }[] = [];
  for (const name of Object.keys(parsed)) {
    const v = parsed[name];
    if (typeof v === "string") out.push({ path: appendPath("$", name), text: v });
  }
  return out;
}

/** A run of more than `MAX_NON_STARTER_RUN` non-starters in what `norm` reads of an answer. */
export interface AnswerNonStarterRun extends NonStarterRun {
  /**
   * null when the run is in the answer's text as written (`offset` in it); else the JSON path (`$.v`) of
   * the json_fields answer's string member holding it, `offset` in that decoded string
   */
  member: string | null;
}

/**
 * The UAX #15 Stream-Safe rule (probe36 A-F9, V-F2) over every text `norm` reads of an answer to a task
 * of `graderType`: the answer's text as written, then the decoded strings of a json_fields answer
 * ({@link answerMemberNormTexts}: a member `"\u0301\u0316..."` is a run of marks once decoded). The one
 * rule of the submit (platform `combining_run_too_long`) and of a pack's regrade (`regradeRun`; the same
 * in `demo/independent/check_pack.py`). Linear in the answer's length.
 * @returns the first run of more than `MAX_NON_STARTER_RUN` non-starters, or null
 */
export function answerLongNonStarterRun(graderType: string, answer: string): AnswerNonStarterRun | null {
  const raw = firstLongNonStarterRun(answer);
  if (raw !== null) return { ...raw, member: null };
  for (const t of answerMemberNormTexts(graderType, answer)) {
    const r = firstLongNonStarterRun(t.text);
    if (r !== null) return { ...r, member: t.path };
  }
  return null;
}

/** A capital sigma of unstable Final_Sigma context in what `norm` reads of an answer. */
export interface AnswerUnstableFinalSigma extends UnstableFinalSigma {
  /**
   * null when it is in the answer's text as written (the offsets in its NFKC form); else the JSON path
   * (`$.v`) of the json_fields answer's string member holding it, the offsets in that decoded string's
   * NFKC form
   */
  member: string | null;
}

/**
 * The Final_Sigma rule (probe39 B-F2, `firstUnstableFinalSigma`) over every text `norm` reads of an
 * answer to a task of `graderType`: the answer's text as written, then the decoded strings of a
 * json_fields answer ({@link answerMemberNormTexts}). The one rule of the submit (platform
 * `unstable_final_sigma`) and of a pack's regrade (`regradeRun`). Linear in the answer's length; call it
 * on an answer {@link answerLongNonStarterRun} finds no run in (it normalises the texts).
 * @returns the first capital sigma whose Final_Sigma context meets a code point whose class differs
 *   between Unicode 14.0.0 and this runtime's tables, or null
 */
export function answerUnstableFinalSigma(
  graderType: string,
  answer: string,
): AnswerUnstableFinalSigma | null {
  const raw = firstUnstableFinalSigma(answer);
  if (raw !== null) return { ...raw, member: null };
  for (const t of answerMemberNormTexts(graderType, answer)) {
    const u = firstUnstableFinalSigma(t.text);
    if (u !== null) return { ...u, member: t.path };
  }
  return null;
}

/**
 * Digits of the integer part of a numeric answer `t` (matching `NUMERIC_ANSWER_RE`), leading zeros
 * aside: with `L` of them `|a| >= 10^(L-1)`; with `D = max(NUMERIC_GOLD_MAX_INT_DIGITS, maxIntDigits)`,
 * `|value| + tolerance < 10^D`, so `L > D` gives `|a - value| >= |a| - |value| > tolerance`: a 0
 * without parsing the answer (the same credit the exact comparison gives, in time linear in its length).
 * For every gold `validateGold` accepts `D` is the constant, so whether an answer is parsed depends on
 * the answer alone (probe28 A-F6).
 */
function answerIntDigits(t: string): number {
  let i = t.charCodeAt(0) === 0x2b || t.charCodeAt(0) === 0x2d ? 1 : 0; // + or -
  while (i < t.length && t.charCodeAt(i) === 0x30) i++; // leading zeros
  const dot = t.indexOf(".", i);
  return (dot === -1 ? t.length : dot) - i;
}

/**
 * Whether a numeric answer (SPEC 5 syntax, trimmed) is within the gold's tolerance, exactly, in time
 * linear in the answer (probe36 V-F10): fraction digits past `S = max(NUMERIC_GOLD_MAX_FRAC_DIGITS, the
 * gold's and the tolerance's scales)` are not parsed. `[value - tolerance, value + tolerance]` has its ends
 * on the grid of step `10^-S`; an answer whose digits past `S` are not all zero lies strictly between
 * two neighbours of that grid (its digits to `S`, and one step further from zero), so it is within exactly
 * when both are. For every gold `validateGold` accepts, `S` is the constant, so the work depends on the
 * answer alone (SPEC 6.1; probe28 A-F6).
 */
function numericAnswerWithin(t: string, gold: Extract<PreparedGold, { kind: "numeric" }>): boolean {
  const within = (a: ExactDecimal): boolean => withinTolerance(a, gold.value, gold.tolerance);
  const dot = t.indexOf(".");
  const s = Math.max(NUMERIC_GOLD_MAX_FRAC_DIGITS, gold.value.scale, gold.tolerance.scale);
  if (dot === -1 || t.length - dot - 1 <= s) return within(parseExactDecimal(t));
  const head = parseExactDecimal(t.slice(0, dot + 1 + s)); // scale s
  let rest = false;
  for (let i = dot + 1 + s; i < t.length && !rest; i++) rest = t.charCodeAt(i) !== 0x30;
  if (!rest) return within(head);
  const away = { coef: head.coef + (t.charCodeAt(0) === 0x2d ? -1n : 1n), scale: s };
  return within(head) && within(away);
}

/**
 * Grade one answer with prepared gold (see {@link prepareGold}). Which work is done (parsing a numeric
 * answer, normalising a text) is decided from the answer alone, never from a published gold, so a
 * grading's duration tells nothing of a private task's gold while the benchmark is open (SPEC 6.1;
 * probe28 A-F6): a numeric answer with more than {@link NUMERIC_GOLD_MAX_INT_DIGITS} integer digits is 0
 * unparsed, an ASCII text takes `norm`'s ASCII path and any other is normalised whatever the targets.
 * @param answer the answer text; `null` (no answer) scores 0
 */
export function gradePrepared(gold: PreparedGold, answer: string | null): Credit {
  if (answer === null) return ZERO;
  switch (gold.kind) {
    case "exact":
      return gold.targets.has(norm(answer)) ? ONE : ZERO;
    case "numeric": {
      const t = trimWhiteSpace(answer);
      if (!NUMERIC_ANSWER_RE.test(t)) return ZERO;
      if (answerIntDigits(t) > Math.max(NUMERIC_GOLD_MAX_INT_DIGITS, gold.maxIntDigits)) return ZERO;
      return numericAnswerWithin(t, gold) ? ONE : ZERO;
    }
    case "contains_all": {
      const na = norm(answer);
      // every term is looked for, also after a missing one: how many searches ran tells nothing
      let all = true;
      for (const term of gold.terms) all = na.includes(term) && all;
      return all ? ONE : ZERO;
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
      // every member of the answer is read by its own type, named by the gold or not, and whatever the
      // expected value's type (which fields a private gold names, and their types, would otherwise be
      // told by the time taken: probe28 A-F6)
      const got = new Map<string, AnswerSide>();
      for (const name of Object.keys(parsed)) got.set(name, answerSide(parsed[name] as JsonValue));
      let hits = 0;
      for (const [name, exp] of gold.fields) {
        const g = got.get(name);
        if (g === undefined) continue;
        if (exp.t === "string") {
          if (g.t === "string" && g.norm === exp.norm) hits++;
        } else if (exp.t === "number") {
          if (g.t === "number" && g.key === exp.key) hits++;
        } else if (g.t === "canonical" && g.text === exp.text) {
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
