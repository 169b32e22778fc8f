/**
 * `spec/SPEC.md` section 5: graders (`exact`, `numeric`, `contains_all`, `json_fields`), the
 * normalisation `norm`, gold validation at publish time, and the pack's
 * `grader_types` description block.
 * @packageDocumentation
 */
import { EvidenceError, appendPath } from "./errors.js";
import { Fraction, decimalToFraction, type Credit } from "./fraction.js";
import {
  JsonFloat,
  canonicalJsonString,
  isJsonObject,
  parseJson,
  pyFloatRepr,
  type JsonObject,
  type JsonValue,
} from "./json/index.js";

/** The grader types of SPEC 5. */
export const GRADER_TYPE_NAMES = ["exact", "numeric", "contains_all", "json_fields"] as const;
/** A grader type name. */
export type GraderType = (typeof GRADER_TYPE_NAMES)[number];

/** True for a known grader type. */
export function isGraderType(v: unknown): v is GraderType {
  return typeof v === "string" && (GRADER_TYPE_NAMES as readonly string[]).includes(v);
}

/** Runs of characters with the Unicode White_Space property (SPEC 5 list). */
const WHITE_SPACE_RUN =
  /[\u0009-\u000d\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;
const WHITE_SPACE_EDGES =
  /^[\u0009-\u000d\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\u0009-\u000d\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

/**
 * SPEC 5 normalisation: Unicode NFKC; every maximal run of White_Space
 * characters becomes one U+0020; leading/trailing spaces removed; full
 * Unicode lower-casing without locale.
 */
export function norm(s: string): string {
  // ASCII fast path, same result: NFKC leaves ASCII unchanged, the only White_Space
  // characters in ASCII are U+0009..U+000D and U+0020, and lower-casing ASCII maps A-Z only
  const n = s.length;
  let plain = true; // no upper-case letter, no White_Space but single inner spaces
  let i = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) break;
    if (
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x09 && c <= 0x0d) ||
      (c === 0x20 && (i === 0 || i === n - 1 || s.charCodeAt(i + 1) === 0x20))
    )
      plain = false;
  }
  if (i === n) {
    if (plain) return s;
    let t = s.replace(WHITE_SPACE_RUN, " ");
    if (t.charCodeAt(0) === 0x20) t = t.slice(1);
    if (t.charCodeAt(t.length - 1) === 0x20) t = t.slice(0, -1);
    return t.toLowerCase();
  }
  let t = s.normalize("NFKC").replace(WHITE_SPACE_RUN, " ");
  if (t.charCodeAt(0) === 0x20) t = t.slice(1);
  if (t.charCodeAt(t.length - 1) === 0x20) t = t.slice(0, -1);
  return t.toLowerCase();
}

/** Remove leading and trailing White_Space characters (no other change). */
export function trimWhiteSpace(s: string): string {
  return s.replace(WHITE_SPACE_EDGES, "");
}

/** SPEC 5 numeric answer syntax (after trimming White_Space). */
export const NUMERIC_ANSWER_RE = /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)$/;

// ---------------------------------------------------------------------------
// Gold validation
// ---------------------------------------------------------------------------

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
function goldNumber(v: unknown, path: string, what: string): Fraction {
  if (typeof v === "number") {
    if (Number.isSafeInteger(v)) return new Fraction(BigInt(v));
    if (Number.isFinite(v)) return decimalToFraction(pyFloatRepr(v), path, true);
    bad(path, `${what} must be a finite number`);
  }
  if (typeof v === "bigint") return new Fraction(v);
  if (v instanceof JsonFloat) return decimalToFraction(pyFloatRepr(v.value), path, true);
  if (typeof v === "string") {
    if (!NUMERIC_ANSWER_RE.test(v))
      bad(
        path,
        `${what} must be a number or a plain decimal string (no exponent, no spaces), got ${JSON.stringify(v.slice(0, 80))}`,
      );
    return decimalToFraction(v, path);
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
  value: Fraction;
  tolerance: Fraction;
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
  | { t: "number"; value: Fraction }
  | { t: "canonical"; text: string };
/** Gold prepared for grading (validated, normalised once). */
export type PreparedGold = ExactGold | NumericGold | ContainsAllGold | JsonFieldsGold;

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
      let tolerance = Fraction.ZERO;
      if ("tolerance" in gold) {
        tolerance = goldNumber(gold["tolerance"], appendPath(path, "tolerance"), "tolerance");
        if (tolerance.num < 0n) bad(appendPath(path, "tolerance"), "tolerance must be >= 0");
      }
      return { kind: "numeric", value, tolerance };
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
            return [name, { t: "number", value: goldNumber(exp, p, "expected value") }];
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
 * Validate gold at publish time (SPEC 5).
 * @throws EvidenceError `malformed_gold` / `unknown_grader` naming the path
 */
export function validateGold(graderType: string, gold: unknown, path = "$"): void {
  prepareGold(graderType, gold, path);
}

// ---------------------------------------------------------------------------
// Grading
// ---------------------------------------------------------------------------

const ONE = new Fraction(1n);
const ZERO = new Fraction(0n);

/** Exact value of a number in a parsed json_fields answer: the exact decimal of its own JSON text. */
function answerNumber(v: JsonValue): Fraction | null {
  if (typeof v === "number") return Number.isSafeInteger(v) ? new Fraction(BigInt(v)) : null;
  if (typeof v === "bigint") return new Fraction(v);
  if (v instanceof JsonFloat) {
    try {
      return decimalToFraction(v.lexeme, "$", true);
    } catch (e) {
      // An exponent beyond +-100000 (e.g. 1e-200000): no gold value can equal it.
      if (e instanceof EvidenceError) return null;
      throw e;
    }
  }
  return null;
}

/**
 * Grade one answer with prepared gold (see {@link prepareGold}).
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
      const a = decimalToFraction(t);
      return a.sub(gold.value).abs().cmp(gold.tolerance) <= 0 ? ONE : ZERO;
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
          if (typeof got === "string" && norm(got) === exp.norm) hits++;
        } else if (exp.t === "number") {
          const g = answerNumber(got);
          if (g !== null && g.eq(exp.value)) hits++;
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

// ---------------------------------------------------------------------------
// grader_types block (SPEC 8 benchmark.grader_types)
// ---------------------------------------------------------------------------

const GRADER_TYPES_JSON = String.raw`{
  "exact": {
    "gold_shape": "{\"value\": str, \"alternatives\"?: [str]}",
    "semantics": "1 if norm(answer) equals norm(value) or norm of an alternative, else 0. norm(s): Unicode NFKC; every run of White_Space characters becomes one space; trim; full Unicode lower-casing (str.lower / toLowerCase).",
    "examples": [
      {"gold": {"value": "\uff34\uff2f\uff2b\uff39\uff2f\u3000\uff34\uff4f\uff57\uff45\uff52"}, "answer": "  tokyo tower\n", "credit": "1/1"},
      {"gold": {"value": "Paris"}, "answer": "Paris, France", "credit": "0/1"}
    ]
  },
  "numeric": {
    "gold_shape": "{\"value\": number|decimal string, \"tolerance\"?: number|decimal string}",
    "semantics": "The trimmed answer must match ^[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)$ (no exponent, no separators); 1 if |answer - value| <= tolerance (default 0) in exact decimal arithmetic; a JSON float in gold is the exact decimal of its canonical rendering.",
    "examples": [
      {"gold": {"value": "0.7", "tolerance": "0.3"}, "answer": "1.0", "credit": "1/1"},
      {"gold": {"value": 1e-07}, "answer": "1e-7", "credit": "0/1"},
      {"gold": {"value": 9007199254740993}, "answer": "9007199254740992", "credit": "0/1"}
    ]
  },
  "contains_all": {
    "gold_shape": "{\"terms\": [str]}",
    "semantics": "1 if every norm(term) is a substring of norm(answer), else 0.",
    "examples": [
      {"gold": {"terms": ["\ufb01nal", "\uff35\uff33\uff24\uff23"]}, "answer": "The FINAL usdc answer", "credit": "1/1"}
    ]
  },
  "json_fields": {
    "gold_shape": "{\"fields\": {name: expected}}",
    "semantics": "The answer must parse as a JSON object; credit = fields equal / fields (strings by norm, numbers by exact decimal value, other types by canonical JSON).",
    "examples": [
      {"gold": {"fields": {"city": "Tokyo", "count": 3, "ok": true}}, "answer": "{\"city\": \"TOKYO\", \"count\": 3.0, \"ok\": false}", "credit": "2/3"}
    ]
  }
}`;

function deepFreeze<T>(v: T): T {
  if (typeof v === "object" && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  }
  return v;
}

/** One documented example of a grader: grading `answer` against `gold` gives `credit`. */
export interface GraderExample {
  gold: JsonObject;
  answer: string;
  credit: string;
}
/** Description of one grader in the pack (`gold_shape`, `semantics`, `examples`). */
export interface GraderTypeDescription {
  gold_shape: string;
  semantics: string;
  examples: GraderExample[];
}

/**
 * The pack's `benchmark.grader_types` block (SPEC 8): for every grader its
 * gold shape, semantics and worked examples. Deep-frozen; canonically
 * identical to the block in `spec/vectors/packs/small.json`.
 */
export const GRADER_TYPES: Readonly<Record<GraderType, GraderTypeDescription>> = deepFreeze(
  parseJson(GRADER_TYPES_JSON) as unknown as Record<GraderType, GraderTypeDescription>,
);
