/**
 * Reading a parsed evidence pack into the typed view the verifier walks.
 *
 * Two levels, on purpose:
 * - **readable** (this module): every key the walk needs is present with a
 *   JSON type it can read (an object where an object is due, an array where an
 *   array is due, a string or a number where a scalar is due, an integer in
 *   range where an index or count is due), no string longer than the limit.
 *   A pack that is not readable cannot be verified: {@link VerifierInputError}
 *   naming the JSON path, exit code 2.
 * - **format** (the `schema` fact, `@bench-bounty/evidence`'s pack schema):
 *   the exact formats of SPEC 2-8 (lowercase digests, 4-dp scores, decimal
 *   strings where strings are due). A readable pack that breaks a format rule
 *   is still walked: its `schema` fact fails, the other facts are recomputed
 *   and values are compared by value.
 *
 * The raw parsed blocks are kept alongside the view: every hash is taken over
 * the raw values as served, never over this view.
 *
 * @packageDocumentation
 */
import {
  appendPath,
  isJsonFloat,
  isJsonObject,
  PACK_LIMITS,
  type CanonicalSource,
  type JsonObject,
  type JsonValue,
} from "@bench-bounty/evidence";
import { VerifierInputError } from "./errors.js";

/** Limits of what the verifier reads (bad input beyond them, exit code 2). */
export interface InputLimits {
  /** Longest string value or key, in UTF-16 code units (default {@link DEFAULT_MAX_STRING_LENGTH}). */
  maxStringLength: number;
}

/**
 * Default longest string: 4 Mi code units (a prompt, gold or answer longer than that is refused);
 * evidence's `PACK_LIMITS.maxStringLength`, the limit the platform publishes within.
 */
export const DEFAULT_MAX_STRING_LENGTH = PACK_LIMITS.maxStringLength;

/** The largest integer the verifier reads where a count, index, block or time is due (2^53-1). */
const MAX_INT = PACK_LIMITS.maxSafeInteger;
/** An amount or integer string: 1 to 78 digits (uint256). */
const UINT_DIGITS = new RegExp(`^[0-9]{1,${PACK_LIMITS.maxIntegerDigits}}$`);
/** A credit the walk can read: `n/d` (1 to 78 digits each, `d` not zero); reduced or not is the schema fact's. */
const READABLE_FRACTION = new RegExp(
  `^[0-9]{1,${PACK_LIMITS.maxIntegerDigits}}/(?!0+$)[0-9]{1,${PACK_LIMITS.maxIntegerDigits}}$`,
);

/** A `commitment_anchor` or `pack_anchor` block. */
export interface AnchorRef {
  registry_address: string;
  tx_hash: string;
  anchor_block: number;
}

/** The `benchmark` block. */
export interface BenchmarkView {
  slug: string;
  title: string;
  commit_root: string;
  leaf_count: number;
  chain_id: number;
  bounty_contract: string;
  /** Integer string (a JSON integer is read as its decimal text). */
  bounty_id: string;
  token: string;
  author: string;
  awarder: string;
  /** Base units. */
  pool_base_units: bigint;
  /** Unix seconds. */
  closes_at: number;
  award_tx: string;
  award_block: number;
  ranking_digest: string;
  commitment_anchor: AnchorRef | null;
}

/** One receipt task (SPEC 4). */
export interface ReceiptTaskView {
  ordinal: number;
  bank_ordinal: number;
  prompt_hash: string;
  visibility: string;
  answer_digest: string | null;
  credit: string | null;
}

/** A run receipt (SPEC 4): the raw payload (hashed as served) and the fields the walk reads. */
export interface ReceiptView {
  /** The payload exactly as parsed (hash input). */
  raw: JsonObject;
  /** JSON path of the payload in the pack. */
  path: string;
  run_id: string;
  benchmark_slug: string;
  commit_root: string;
  agent_id: string;
  attempt: number;
  /** Decimal strings as written (a JSON number is read as its text). */
  wall_seconds: string;
  queries_used: number;
  usdc_spent: string;
  score_public: string;
  score_composite: string;
  finalized_at: string;
  tasks: ReceiptTaskView[];
}

/** One answer of a winner. */
export interface AnswerView {
  ordinal: number;
  bank_ordinal: number;
  answer_text: string;
}

/** One entry of `winners`. */
export interface WinnerView {
  path: string;
  place: number;
  agent_id: string;
  withdrawal_address: string;
  amount_base_units: bigint;
  run_id: string;
  receipt: ReceiptView;
  receipt_hash: string;
  answer_salt: string;
  answers: AnswerView[];
}

/** One row of `rank_derivation.rows`. */
export interface RankRowView {
  path: string;
  rank: number;
  agent_id: string;
  is_author_agent: boolean;
  run_id: string;
  receipt_hash: string;
  receipt_url: string | null;
  receipt: ReceiptView | null;
  achieved_at: string;
  attempts_used: number;
  rank_accuracy: string;
  score_public: string;
  score_composite: string;
  wall_seconds: string;
  queries_used: number;
  usdc_spent: string;
  /** The row exactly as parsed. */
  raw: JsonObject;
}

/** The `rank_derivation` block. */
export interface RankDerivationView {
  speed_weight: string;
  cost_weight: string;
  /** Integer seconds. */
  time_budget_seconds: number;
  cost_budget_usdc: string | null;
  threshold_bps: number;
  payout_rule: string;
  splits_bps: number[];
  pool_base_units: bigint;
  place_amounts_base_units: bigint[];
  zero_winner_reason: string | null;
  rows: RankRowView[];
}

/** One test-set row as the walk reads it (the raw row is hashed). */
export interface TestRowView {
  path: string;
  ordinal: number;
  prompt: string;
  gold: JsonValue;
  salt: string;
  visibility: string;
  grader_type: string;
}

/**
 * A readable test-set row (the common case): its fields as parsed, and its path built only
 * when a message names it (100,000s of rows, few messages).
 */
class TestRow implements TestRowView {
  constructor(
    private readonly index: number,
    readonly ordinal: number,
    readonly prompt: string,
    readonly gold: JsonValue,
    readonly salt: string,
    readonly visibility: string,
    readonly grader_type: string,
  ) {}

  get path(): string {
    return appendPath("$.test_set", this.index);
  }
}

/** The typed view of a readable pack, with the raw parsed document. */
export interface PackView {
  /** The whole parsed document. */
  raw: JsonObject;
  benchmark: BenchmarkView;
  test_set: TestRowView[];
  winners: WinnerView[];
  rank_derivation: RankDerivationView;
  pack_hash: string;
  pack_anchor: AnchorRef | null;
  /**
   * The bytes the pack was parsed from and the parser's canonical spans (evidence's
   * `CanonicalSource`): blocks and receipts served as canonical JSON are hashed from these
   * bytes. Absent when the view was built from a parsed value only (then they are serialized).
   */
  canonical?: CanonicalSource;
}

/** The keys of SPEC 8, in order. */
export const PACK_KEYS = [
  "benchmark",
  "test_set",
  "winners",
  "rank_derivation",
  "pack_hash",
  "pack_anchor",
  "verify_hints",
] as const;

// ---------------------------------------------------------------------------
// field readers
// ---------------------------------------------------------------------------

function bad(code: string, path: string, message: string): never {
  throw new VerifierInputError(code, path, message);
}

function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (isJsonFloat(v)) return `the number ${v.lexeme.length > 40 ? v.lexeme.slice(0, 40) + "..." : v.lexeme}`;
  if (typeof v === "bigint") return `the integer ${shortInt(v)}`;
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return "a string";
  if (typeof v === "number") return `the number ${v}`;
  return typeof v;
}

function shortInt(v: bigint): string {
  const s = v.toString();
  return s.length > 24 ? `${s.slice(0, 12)}...(${s.length} digits)` : s;
}

function get(obj: JsonObject, key: string, path: string): JsonValue {
  if (!Object.prototype.hasOwnProperty.call(obj, key))
    bad("missing_key", appendPath(path, key), `missing key "${key}"`);
  return obj[key] as JsonValue;
}

function object(v: JsonValue, path: string): JsonObject {
  if (!isJsonObject(v)) bad("wrong_type", path, `expected an object, found ${typeName(v)}`);
  return v;
}

function array(v: JsonValue, path: string): JsonValue[] {
  if (!Array.isArray(v)) bad("wrong_type", path, `expected an array, found ${typeName(v)}`);
  return v;
}

function objField(o: JsonObject, key: string, path: string): JsonObject {
  return object(get(o, key, path), appendPath(path, key));
}

function arrField(o: JsonObject, key: string, path: string): JsonValue[] {
  return array(get(o, key, path), appendPath(path, key));
}

/**
 * Most entries of a per-place array the verifier reads (`splits_bps`, `place_amounts_base_units`). SPEC 1
 * allows 1..8 places, and a list of 9..64 is read and fails the payouts fact; past 64 it is bad input
 * (probe14 D2-F18: 200,000 entries, a 437 KB pack, took 3.7 s of CPU, ~100x a normal pack per byte).
 */
const MAX_PLACES_READ = 64;

function placesField(o: JsonObject, key: string, path: string): JsonValue[] {
  const a = arrField(o, key, path);
  if (a.length > MAX_PLACES_READ)
    bad(
      "out_of_range",
      appendPath(path, key),
      `${a.length} places; SPEC 1 allows 1..8 (at most ${MAX_PLACES_READ} are read)`,
    );
  return a;
}

// The field readers build a field's path only when they report a problem there: a pack's
// test set alone has 600,000 fields per 100,000 rows.

function strField(o: JsonObject, key: string, path: string): string {
  const v = get(o, key, path);
  if (typeof v !== "string")
    bad("wrong_type", appendPath(path, key), `expected a string, found ${typeName(v)}`);
  return v;
}

function nullableStrField(o: JsonObject, key: string, path: string): string | null {
  const v = get(o, key, path);
  if (v === null) return null;
  if (typeof v !== "string")
    bad("wrong_type", appendPath(path, key), `expected a string or null, found ${typeName(v)}`);
  return v;
}

/** An integer in [min, MAX_INT]; an integer string is read too (the schema fact judges the format). */
function intValue(v: JsonValue, path: string, min = 0): number {
  let n: number | null = null;
  if (typeof v === "number" && Number.isInteger(v)) n = v;
  else if (typeof v === "string" && /^-?[0-9]{1,16}$/.test(v)) n = Number(v);
  else if (typeof v === "bigint" || (typeof v === "string" && /^-?[0-9]+$/.test(v)))
    bad(
      "out_of_range",
      path,
      `integer ${typeof v === "bigint" ? shortInt(v) : shortInt(BigInt(v))} is out of range (at most ${MAX_INT})`,
    );
  else bad("wrong_type", path, `expected an integer, found ${typeName(v)}`);
  if (n === null || !Number.isSafeInteger(n))
    bad("out_of_range", path, `integer is out of range (at most ${MAX_INT})`);
  if (n < min) bad("out_of_range", path, `integer ${n} is below ${min}`);
  return n;
}

function intField(o: JsonObject, key: string, path: string, min = 0): number {
  const v = get(o, key, path);
  // what intValue returns for a safe integer >= min, without the path it would need otherwise
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= min) return v;
  return intValue(v, appendPath(path, key), min);
}

/**
 * A uint256 (an amount in base units, SPEC 6, or an id): an integer string or a JSON integer in [0, 2^256 - 1].
 * `noun` names it in the refusal ("amount", "bounty id"); `expected` says what was wanted.
 */
function uint256Value(v: JsonValue, path: string, noun: string, expected: string): bigint {
  let b: bigint;
  if (typeof v === "string" && UINT_DIGITS.test(v)) b = BigInt(v);
  else if (typeof v === "string" && /^[0-9]+$/.test(v))
    bad("out_of_range", path, `${noun} of ${v.length} digits is outside uint256`);
  else if (typeof v === "number" && Number.isSafeInteger(v)) b = BigInt(v);
  else if (typeof v === "bigint") b = v;
  else
    bad(
      "wrong_type",
      path,
      `expected ${expected}, found ${typeof v === "string" ? JSON.stringify(v.slice(0, 40)) : typeName(v)}`,
    );
  if (b < 0n || b >= 1n << 256n) bad("out_of_range", path, `${noun} ${shortInt(b)} is outside uint256`);
  return b;
}

/** A uint256 amount in base units: an integer string (SPEC 6) or a JSON integer. */
function amountValue(v: JsonValue, path: string): bigint {
  return uint256Value(v, path, "amount", "base units (an integer string)");
}

function amountField(o: JsonObject, key: string, path: string): bigint {
  return amountValue(get(o, key, path), appendPath(path, key));
}

/** A decimal as text: a string as written, or the text of a JSON number (the schema fact judges the format). */
function decimalValue(v: JsonValue, path: string): string {
  if (typeof v === "string") {
    if (
      !/^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(v) ||
      v.length > PACK_LIMITS.maxDecimalLength
    )
      bad("wrong_type", path, `expected a decimal string, found ${JSON.stringify(v.slice(0, 40))}`);
    return v;
  }
  if (typeof v === "number") return String(v);
  if (isJsonFloat(v)) {
    if (v.lexeme.length > PACK_LIMITS.maxDecimalLength)
      bad("out_of_range", path, `number ${v.lexeme.slice(0, 40)}... is too long`);
    return v.lexeme;
  }
  if (typeof v === "bigint") bad("out_of_range", path, `number ${shortInt(v)} is out of range`);
  bad("wrong_type", path, `expected a decimal string, found ${typeName(v)}`);
}

function decimalField(o: JsonObject, key: string, path: string): string {
  return decimalValue(get(o, key, path), appendPath(path, key));
}

/** A receipt task's `credit`: null or a fraction string `n/d` (the schema fact judges whether it is reduced). */
function creditField(o: JsonObject, key: string, path: string): string | null {
  const v = get(o, key, path);
  if (v === null || (typeof v === "string" && READABLE_FRACTION.test(v))) return v;
  bad(
    "wrong_type",
    appendPath(path, key),
    `expected a fraction string such as "2/3" or null, found ${typeof v === "string" ? JSON.stringify(v.slice(0, 40)) : typeName(v)}`,
  );
}

function boolField(o: JsonObject, key: string, path: string): boolean {
  const v = get(o, key, path);
  if (typeof v !== "boolean")
    bad("wrong_type", appendPath(path, key), `expected true or false, found ${typeName(v)}`);
  return v;
}

/** A uint256 id (`bounty_id`) as its decimal text: an integer string or a JSON integer (probe13 B2). */
function uint256StringField(o: JsonObject, key: string, path: string): string {
  return uint256Value(get(o, key, path), appendPath(path, key), "bounty id", "an integer string").toString();
}

function anchorRef(v: JsonValue, path: string): AnchorRef | null {
  if (v === null) return null;
  const o = object(v, path);
  return {
    registry_address: strField(o, "registry_address", path),
    tx_hash: strField(o, "tx_hash", path),
    anchor_block: intField(o, "anchor_block", path),
  };
}

// ---------------------------------------------------------------------------
// limits
// ---------------------------------------------------------------------------

/**
 * Refuse strings (values and keys) longer than the limit, naming the path.
 * Iterative: depth is already bounded by the parser.
 * @throws VerifierInputError `too_large`
 */
export function checkLimits(root: JsonValue, limits: InputLimits, rootPath = "$"): void {
  // Most packs are within the limits: walk once without building paths, and
  // walk again with paths only to name the offending value.
  if (withinStringLimit(root, limits.maxStringLength)) return;
  const max = limits.maxStringLength;
  const stack: { v: JsonValue; path: string | (() => string) }[] = [{ v: root, path: rootPath }];
  const resolve = (p: string | (() => string)): string => (typeof p === "string" ? p : p());
  while (stack.length > 0) {
    const { v, path } = stack.pop() as { v: JsonValue; path: string | (() => string) };
    if (typeof v === "string") {
      if (v.length > max)
        bad("too_large", resolve(path), `string of ${v.length} characters exceeds the limit of ${max}`);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        const item = v[i] as JsonValue;
        if (typeof item === "object" && item !== null && !isJsonFloat(item))
          stack.push({ v: item, path: () => appendPath(resolve(path), i) });
        else if (typeof item === "string" && item.length > max)
          stack.push({ v: item, path: () => appendPath(resolve(path), i) });
      }
    } else if (isJsonObject(v)) {
      for (const k of Object.keys(v)) {
        if (k.length > max)
          bad("too_large", resolve(path), `a key of ${k.length} characters exceeds the limit of ${max}`);
        const item = v[k] as JsonValue;
        if (typeof item === "object" && item !== null && !isJsonFloat(item))
          stack.push({ v: item, path: () => appendPath(resolve(path), k) });
        else if (typeof item === "string" && item.length > max)
          stack.push({ v: item, path: () => appendPath(resolve(path), k) });
      }
    }
  }
}

/**
 * True when no string or key under `root` is longer than `max` characters (no paths kept).
 * Keys are read with `for...in` (no key array per object: parsed objects are plain, with
 * no enumerable inherited keys), and only containers are pushed.
 */
function withinStringLimit(root: JsonValue, max: number): boolean {
  if (typeof root === "string") return root.length <= max;
  const stack: JsonValue[] = [root];
  while (stack.length > 0) {
    const v = stack.pop() as JsonValue;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const item = v[i] as JsonValue;
        if (typeof item === "string") {
          if (item.length > max) return false;
        } else if (typeof item === "object" && item !== null) stack.push(item);
      }
    } else if (isJsonObject(v)) {
      for (const k in v) {
        if (k.length > max) return false;
        const item = v[k] as JsonValue;
        if (typeof item === "string") {
          if (item.length > max) return false;
        } else if (typeof item === "object" && item !== null) stack.push(item);
      }
    }
  }
  return true;
}

// ---------------------------------------------------------------------------
// pack
// ---------------------------------------------------------------------------

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
const isIndex = (v: unknown): boolean => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
const isNullableString = (v: unknown): boolean => v === null || typeof v === "string";

/**
 * True when a parsed receipt task can serve as its own view: every field the walk reads is
 * an own key holding the view's type (what `intField`, `strField`, `nullableStrField` would
 * return unchanged). Such tasks are used as they are, without a copy or a path per task;
 * any other task is read field by field (and a bad one named by its path).
 */
function isTaskView(t: JsonValue): t is JsonObject & ReceiptTaskView {
  return (
    isJsonObject(t) &&
    hasOwn(t, "ordinal") &&
    isIndex(t.ordinal) &&
    hasOwn(t, "bank_ordinal") &&
    isIndex(t.bank_ordinal) &&
    hasOwn(t, "prompt_hash") &&
    typeof t.prompt_hash === "string" &&
    hasOwn(t, "visibility") &&
    typeof t.visibility === "string" &&
    hasOwn(t, "answer_digest") &&
    isNullableString(t.answer_digest) &&
    hasOwn(t, "credit") &&
    (t.credit === null || (typeof t.credit === "string" && READABLE_FRACTION.test(t.credit)))
  );
}

/** As {@link isTaskView}, for a revealed answer. */
function isAnswerView(a: JsonValue): a is JsonObject & AnswerView {
  return (
    isJsonObject(a) &&
    hasOwn(a, "ordinal") &&
    isIndex(a.ordinal) &&
    hasOwn(a, "bank_ordinal") &&
    isIndex(a.bank_ordinal) &&
    hasOwn(a, "answer_text") &&
    typeof a.answer_text === "string"
  );
}

/**
 * Read a receipt payload (SPEC 4) at `path`.
 * @throws VerifierInputError naming the JSON path
 */
export function readReceipt(v: JsonValue, path: string): ReceiptView {
  const o = object(v, path);
  const tasksPath = appendPath(path, "tasks");
  const tasks = arrField(o, "tasks", path).map((t, i): ReceiptTaskView => {
    // the common case: the parsed task already has the view's fields and types
    if (isTaskView(t)) return t;
    const tp = appendPath(tasksPath, i);
    const to = object(t, tp);
    return {
      ordinal: intField(to, "ordinal", tp),
      bank_ordinal: intField(to, "bank_ordinal", tp),
      prompt_hash: strField(to, "prompt_hash", tp),
      visibility: strField(to, "visibility", tp),
      answer_digest: nullableStrField(to, "answer_digest", tp),
      credit: creditField(to, "credit", tp),
    };
  });
  return {
    raw: o,
    path,
    run_id: strField(o, "run_id", path),
    benchmark_slug: strField(o, "benchmark_slug", path),
    commit_root: strField(o, "commit_root", path),
    agent_id: strField(o, "agent_id", path),
    attempt: intField(o, "attempt", path),
    wall_seconds: decimalField(o, "wall_seconds", path),
    queries_used: intField(o, "queries_used", path),
    usdc_spent: decimalField(o, "usdc_spent", path),
    score_public: decimalField(o, "score_public", path),
    score_composite: decimalField(o, "score_composite", path),
    finalized_at: strField(o, "finalized_at", path),
    tasks,
  };
}

/** Options of {@link readPack}. */
export interface ReadPackOptions {
  limits?: Partial<InputLimits>;
}

/**
 * Read a parsed document as an evidence pack (the readable level, see the module doc).
 * @throws VerifierInputError `wrong_type`, `missing_key`, `out_of_range`, `too_large`, naming the JSON path
 */
export function readPack(doc: JsonValue, options: ReadPackOptions = {}): PackView {
  const limits: InputLimits = {
    maxStringLength: options.limits?.maxStringLength ?? DEFAULT_MAX_STRING_LENGTH,
  };
  const root = object(doc, "$");
  checkLimits(root, limits);
  for (const k of PACK_KEYS) get(root, k, "$");

  const bp = "$.benchmark";
  const b = objField(root, "benchmark", "$");
  const benchmark: BenchmarkView = {
    slug: strField(b, "slug", bp),
    title: strField(b, "title", bp),
    commit_root: strField(b, "commit_root", bp),
    leaf_count: intField(b, "leaf_count", bp),
    chain_id: intField(b, "chain_id", bp),
    bounty_contract: strField(b, "bounty_contract", bp),
    bounty_id: uint256StringField(b, "bounty_id", bp),
    token: strField(b, "token", bp),
    author: strField(b, "author", bp),
    awarder: strField(b, "awarder", bp),
    pool_base_units: amountField(b, "pool_base_units", bp),
    closes_at: intField(b, "closes_at", bp),
    award_tx: strField(b, "award_tx", bp),
    award_block: intField(b, "award_block", bp),
    ranking_digest: strField(b, "ranking_digest", bp),
    commitment_anchor: anchorRef(get(b, "commitment_anchor", bp), appendPath(bp, "commitment_anchor")),
  };
  get(b, "grader_types", bp);

  const tp = "$.test_set";
  const test_set = arrField(root, "test_set", "$").map((r, i): TestRowView => {
    if (isJsonObject(r)) {
      const { ordinal, prompt, gold, salt, visibility, grader_type } = r;
      if (
        typeof ordinal === "number" &&
        Number.isSafeInteger(ordinal) &&
        ordinal >= 0 &&
        typeof prompt === "string" &&
        hasOwn(r, "gold") &&
        typeof salt === "string" &&
        typeof visibility === "string" &&
        typeof grader_type === "string"
      )
        // the common case: what the readers below return, without the row's path string
        return new TestRow(i, ordinal, prompt, gold as JsonValue, salt, visibility, grader_type);
    }
    const p = appendPath(tp, i);
    const o = object(r, p);
    return {
      path: p,
      ordinal: intField(o, "ordinal", p),
      prompt: strField(o, "prompt", p),
      gold: get(o, "gold", p),
      salt: strField(o, "salt", p),
      visibility: strField(o, "visibility", p),
      grader_type: strField(o, "grader_type", p),
    };
  });

  const wp = "$.winners";
  const winners = arrField(root, "winners", "$").map((w, i): WinnerView => {
    const p = appendPath(wp, i);
    const o = object(w, p);
    const ap = appendPath(p, "answers");
    return {
      path: p,
      place: intField(o, "place", p, 1),
      agent_id: strField(o, "agent_id", p),
      withdrawal_address: strField(o, "withdrawal_address", p),
      amount_base_units: amountField(o, "amount_base_units", p),
      run_id: strField(o, "run_id", p),
      receipt: readReceipt(get(o, "receipt", p), appendPath(p, "receipt")),
      receipt_hash: strField(o, "receipt_hash", p),
      answer_salt: strField(o, "answer_salt", p),
      answers: arrField(o, "answers", p).map((a, j): AnswerView => {
        // the common case: the parsed answer already has the view's fields and types
        if (isAnswerView(a)) return a;
        const aap = appendPath(ap, j);
        const ao = object(a, aap);
        return {
          ordinal: intField(ao, "ordinal", aap),
          bank_ordinal: intField(ao, "bank_ordinal", aap),
          answer_text: strField(ao, "answer_text", aap),
        };
      }),
    };
  });

  const rp = "$.rank_derivation";
  const rd = objField(root, "rank_derivation", "$");
  const rowsPath = appendPath(rp, "rows");
  const costBudget = get(rd, "cost_budget_usdc", rp);
  const rank_derivation: RankDerivationView = {
    speed_weight: decimalField(rd, "speed_weight", rp),
    cost_weight: decimalField(rd, "cost_weight", rp),
    time_budget_seconds: intField(rd, "time_budget_seconds", rp, 1),
    cost_budget_usdc:
      costBudget === null ? null : decimalValue(costBudget, appendPath(rp, "cost_budget_usdc")),
    threshold_bps: intField(rd, "threshold_bps", rp),
    payout_rule: strField(rd, "payout_rule", rp),
    splits_bps: placesField(rd, "splits_bps", rp).map((s, i) =>
      intValue(s, appendPath(appendPath(rp, "splits_bps"), i)),
    ),
    pool_base_units: amountField(rd, "pool_base_units", rp),
    place_amounts_base_units: placesField(rd, "place_amounts_base_units", rp).map((a, i) =>
      amountValue(a, appendPath(appendPath(rp, "place_amounts_base_units"), i)),
    ),
    zero_winner_reason: nullableStrField(rd, "zero_winner_reason", rp),
    rows: arrField(rd, "rows", rp).map((r, i): RankRowView => {
      const p = appendPath(rowsPath, i);
      const o = object(r, p);
      const hasReceipt = Object.prototype.hasOwnProperty.call(o, "receipt") && o.receipt !== null;
      const url = Object.prototype.hasOwnProperty.call(o, "receipt_url")
        ? nullableStrField(o, "receipt_url", p)
        : null;
      return {
        path: p,
        rank: intField(o, "rank", p, 1),
        agent_id: strField(o, "agent_id", p),
        is_author_agent: boolField(o, "is_author_agent", p),
        run_id: strField(o, "run_id", p),
        receipt_hash: strField(o, "receipt_hash", p),
        receipt_url: url,
        receipt: hasReceipt ? readReceipt(o.receipt as JsonValue, appendPath(p, "receipt")) : null,
        achieved_at: strField(o, "achieved_at", p),
        attempts_used: intField(o, "attempts_used", p),
        rank_accuracy: decimalField(o, "rank_accuracy", p),
        score_public: decimalField(o, "score_public", p),
        score_composite: decimalField(o, "score_composite", p),
        wall_seconds: decimalField(o, "wall_seconds", p),
        queries_used: intField(o, "queries_used", p),
        usdc_spent: decimalField(o, "usdc_spent", p),
        raw: o,
      };
    }),
  };

  return {
    raw: root,
    benchmark,
    test_set,
    winners,
    rank_derivation,
    pack_hash: strField(root, "pack_hash", "$"),
    pack_anchor: anchorRef(get(root, "pack_anchor", "$"), "$.pack_anchor"),
  };
}
