/**
 * Errors of the evidence library.
 *
 * Every failure caused by input (a malformed JSON document, a pack that breaks
 * a format rule, gold that no answer could ever match) is an
 * {@link EvidenceError}: a machine-readable `code`, the JSON `path` of the
 * offending value (`$` is the document root, e.g.
 * `$.winners[2].receipt.tasks[0].ordinal`) and a one-line human `message`.
 * Callers print `message` and never need the stack trace.
 *
 * @packageDocumentation
 */

/**
 * Machine-readable error codes.
 *
 * The first five are the error names of `spec/vectors/canonical-json.json`
 * (SPEC 2); the others are this library's own.
 */
export type EvidenceErrorCode =
  /** SPEC 2: an object repeats a key (compared after unescaping). */
  | "duplicate_key"
  /** SPEC 2: a `NaN` literal, or NaN handed to the serializer. */
  | "nan"
  /** SPEC 2: an `Infinity` literal, or a number that overflows binary64. */
  | "infinity"
  /** SPEC 2: a UTF-16 surrogate without its pair (escaped or raw). */
  | "lone_surrogate"
  /** SPEC 2: anything else that is not strict JSON (RFC 8259). */
  | "invalid_json"
  /** SPEC 2: an integer literal with more than 78 digits (beyond uint256). */
  | "integer_too_large"
  /** A document or canonical text beyond what a JavaScript string can hold (~512 MiB). */
  | "too_large"
  /** Nesting deeper than the documented limit ({@link MAX_JSON_DEPTH}). */
  | "nesting_too_deep"
  /** An object with more members than the parser's `maxMembers` option (request bodies). */
  | "too_many_members"
  /** An array with more items than the parser's `maxItems` option (request bodies). */
  | "too_many_items"
  /** A document with more values (members and items in all) than the parser's `maxValues` option. */
  | "too_many_values"
  /** A document with more distinct member names than the parser's `maxKeyNames` option. */
  | "too_many_key_names"
  /** The serializer met a value JSON cannot carry (undefined, a function, a Map, an unsafe JS number...). */
  | "unsupported_value"
  /** A value breaks a format rule of the SPEC (schema fact). */
  | "schema"
  /** SPEC 5: gold that the grader could never match, refused at publish time. */
  | "malformed_gold"
  /** SPEC 5: unknown `grader_type`. */
  | "unknown_grader"
  /** SPEC 6: scoring configuration out of range (weights, budgets). */
  | "malformed"
  /** SPEC 7.3 / 1.1: splits not 1..8 positive, non-increasing integers summing to 10000. */
  | "bad_splits"
  /** SPEC 3: test-set rows not in ordinal order, zero leaves, a bad salt... */
  | "bad_test_set"
  /** SPEC 3: Merkle proof request out of range. */
  | "bad_proof"
  /** SPEC 4: a receipt or its answers do not fit together. */
  | "bad_receipt"
  /** SPEC 7: ranking/selection input is inconsistent. */
  | "bad_rows"
  /** SPEC 8: minting inputs are inconsistent. */
  | "bad_pack_inputs";

/** Maximum nesting depth accepted by the parser and the serializer (arrays + objects). */
export const MAX_JSON_DEPTH = 10_000;

/**
 * An input error with a code and the JSON path of the offending value.
 *
 * @example
 * try { parseJson('{"a":1,"a":2}') } catch (e) {
 *   if (e instanceof EvidenceError) console.error(e.code, e.path, e.message);
 * }
 */
export class EvidenceError extends Error {
  /** Machine-readable reason. */
  readonly code: EvidenceErrorCode;
  /** JSONPath-like location (`$`, `$.a[3].b`, `$["key with space"]`). */
  readonly path: string;

  constructor(code: EvidenceErrorCode, path: string, message: string) {
    // the message names the path shortened (deep nesting: 10,000 `[0]`s), `path` keeps it whole
    super(path && path !== "$" ? `${shortenPath(path)}: ${message}` : message);
    this.name = "EvidenceError";
    this.code = code;
    this.path = path;
  }
}

/**
 * A JSON path short enough for a message: a path longer than `max` characters (deep nesting) keeps its
 * first and last 60 characters around the count of its segments, `$.a[0][0]...(10000 levels)...[0][0]`
 * (probe32 B-F3: a dataset's nesting error printed a path of 30 KB). The one rule of every message that
 * names a JSON path (the evidence's errors, the verifier's, the platform's dataset reader through them).
 * @param path a JSON path (`$.a[3].b`)
 * @param max the longest path shown whole, in characters (default 160)
 * @returns `path`, or its head and tail around `...(<segments> levels)...`
 */
export function shortenPath(path: string, max = 160): string {
  if (path.length <= max) return path;
  const head = path.slice(0, 60);
  const tail = path.slice(-60);
  const segments = (path.match(/\[|\./g) ?? []).length;
  return `${head}...(${segments} levels)...${tail}`;
}

/** True for an {@link EvidenceError} (also across duplicated module copies). */
export function isEvidenceError(e: unknown): e is EvidenceError {
  return (
    e instanceof EvidenceError ||
    (typeof e === "object" && e !== null && (e as { name?: unknown }).name === "EvidenceError")
  );
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** One step of a JSON path: an object key or an array index. */
export type PathSegment = string | number;

/**
 * Render a path from segments: `["winners", 2, "receipt"]` -> `$.winners[2].receipt`.
 * Keys that are not identifiers are quoted: `$["a b"]`.
 */
export function formatPath(segments: readonly PathSegment[], root = "$"): string {
  let out = root;
  for (const s of segments) out = appendPath(out, s);
  return out;
}

/** Append one segment to a rendered path. */
export function appendPath(path: string, segment: PathSegment): string {
  if (typeof segment === "number") return `${path}[${segment}]`;
  return IDENT.test(segment) ? `${path}.${segment}` : `${path}[${JSON.stringify(segment)}]`;
}

/**
 * A short description of an unexpected input value for error messages:
 * `the string "12"`, `the integer 5`, `the float 1.5`, `null`, `an array`, `an object` (a `Map`: `a Map object`), `undefined`, `a function`.
 */
export function describeValue(v: unknown): string {
  if (v === null) return "null";
  if (v === undefined) return "undefined";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object" && "lexeme" in v) return `the float ${(v as { lexeme: string }).lexeme}`;
  if (typeof v === "bigint") return `the integer ${v}`;
  if (typeof v === "string")
    return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + "..." : v)}`;
  if (typeof v === "number")
    return Number.isInteger(v) ? `the number ${v}` : `the ${Number.isFinite(v) ? "float" : "number"} ${v}`;
  if (typeof v === "function") return "a function";
  if (typeof v === "object") {
    // a plain (JSON) object is "an object", never "Object object" (probe35 B-N1); another class by its name
    const name = (v.constructor as { name?: string } | undefined)?.name;
    return name === undefined || name === "" || name === "Object" ? "an object" : `a ${name} object`;
  }
  return `${typeof v} ${String(v)}`;
}
