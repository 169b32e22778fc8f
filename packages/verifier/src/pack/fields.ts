/**
 * Field readers of the readable level (see `pack.ts`): each reads one key with the JSON type the walk
 * needs, or throws {@link VerifierInputError} naming its JSON path (exit code 2).
 * @packageDocumentation
 */
import {
  appendPath,
  isJsonFloat,
  isJsonObject,
  PACK_LIMITS,
  type JsonObject,
  type JsonValue,
} from "@bench-bounty/evidence";
import { VerifierInputError } from "../errors.js";
import { type AnchorRef } from "./view.js";

/** The largest integer the verifier reads where a count, index, block or time is due (2^53-1). */
const MAX_INT = PACK_LIMITS.maxSafeInteger;
/** An amount or integer string: 1 to 78 digits (uint256). */
const UINT_DIGITS = new RegExp(`^[0-9]{1,${PACK_LIMITS.maxIntegerDigits}}$`);
/** A credit the walk can read: `n/d` (1 to 78 digits each, `d` not zero); reduced or not is the schema fact's. */
export const READABLE_FRACTION = new RegExp(
  `^[0-9]{1,${PACK_LIMITS.maxIntegerDigits}}/(?!0+$)[0-9]{1,${PACK_LIMITS.maxIntegerDigits}}$`,
);
export function bad(code: string, path: string, message: string): never {
  throw new VerifierInputError(code, path, message);
}

/** How a wrong-typed JSON value is named in a message (`an array`, `the number 1.5`), never in full. */
export function typeName(v: unknown): string {
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

export function get(obj: JsonObject, key: string, path: string): JsonValue {
  if (!Object.prototype.hasOwnProperty.call(obj, key))
    bad("missing_key", appendPath(path, key), `missing key "${key}"`);
  return obj[key] as JsonValue;
}

export function object(v: JsonValue, path: string): JsonObject {
  if (!isJsonObject(v)) bad("wrong_type", path, `expected an object, found ${typeName(v)}`);
  return v;
}

function array(v: JsonValue, path: string): JsonValue[] {
  if (!Array.isArray(v)) bad("wrong_type", path, `expected an array, found ${typeName(v)}`);
  return v;
}

export function objField(o: JsonObject, key: string, path: string): JsonObject {
  return object(get(o, key, path), appendPath(path, key));
}

export function arrField(o: JsonObject, key: string, path: string): JsonValue[] {
  return array(get(o, key, path), appendPath(path, key));
}

/**
 * Most entries of a per-place array the verifier reads (`splits_bps`, `place_amounts_base_units`). SPEC 1
 * allows 1..8 places, and a list of 9..64 is read and fails the payouts fact; past 64 it is bad input
 * (probe14 D2-F18: 200,000 entries, a 437 KB pack, took 3.7 s of CPU, ~100x a normal pack per byte).
 */
const MAX_PLACES_READ = 64;

export function placesField(o: JsonObject, key: string, path: string): JsonValue[] {
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

export function strField(o: JsonObject, key: string, path: string): string {
  const v = get(o, key, path);
  if (typeof v !== "string")
    bad("wrong_type", appendPath(path, key), `expected a string, found ${typeName(v)}`);
  return v;
}

export function nullableStrField(o: JsonObject, key: string, path: string): string | null {
  const v = get(o, key, path);
  if (v === null) return null;
  if (typeof v !== "string")
    bad("wrong_type", appendPath(path, key), `expected a string or null, found ${typeName(v)}`);
  return v;
}

/** An integer in [min, MAX_INT]; an integer string is read too (the schema fact judges the format). */
export function intValue(v: JsonValue, path: string, min = 0): number {
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

export function intField(o: JsonObject, key: string, path: string, min = 0): number {
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
export function amountValue(v: JsonValue, path: string): bigint {
  return uint256Value(v, path, "amount", "base units (an integer string)");
}

export function amountField(o: JsonObject, key: string, path: string): bigint {
  return amountValue(get(o, key, path), appendPath(path, key));
}

/** A decimal as text: a string as written, or the text of a JSON number (the schema fact judges the format). */
export function decimalValue(v: JsonValue, path: string): string {
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

export function decimalField(o: JsonObject, key: string, path: string): string {
  return decimalValue(get(o, key, path), appendPath(path, key));
}

/** A receipt task's `credit`: null or a fraction string `n/d` (the schema fact judges whether it is reduced). */
export function creditField(o: JsonObject, key: string, path: string): string | null {
  const v = get(o, key, path);
  if (v === null || (typeof v === "string" && READABLE_FRACTION.test(v))) return v;
  bad(
    "wrong_type",
    appendPath(path, key),
    `expected a fraction string such as "2/3" or null, found ${typeof v === "string" ? JSON.stringify(v.slice(0, 40)) : typeName(v)}`,
  );
}

export function boolField(o: JsonObject, key: string, path: string): boolean {
  const v = get(o, key, path);
  if (typeof v !== "boolean")
    bad("wrong_type", appendPath(path, key), `expected true or false, found ${typeName(v)}`);
  return v;
}

/**
 * A bounty id (`bounty_id`) as its decimal text: an integer string or a JSON integer (probe13 B2) from 1 to
 * 2^256 - 1. No bounty has id 0 (`BenchmarkBounty` numbers them from 1, `++_bountyCount`): 0 is refused here,
 * in every mode, rather than read as a bounty the chain and the indexer are asked about (probe29 C-F3:
 * `verify --indexer` asked `GET /bounties/0` and blamed the `--indexer` URL for the indexer's 400).
 * @throws VerifierInputError `out_of_range` / `wrong_type` naming the field's JSON path
 */
export function uint256StringField(o: JsonObject, key: string, path: string): string {
  const at = appendPath(path, key);
  const id = uint256Value(get(o, key, path), at, "bounty id", "an integer string");
  if (id === 0n)
    bad("out_of_range", at, "bounty id 0 names no bounty (BenchmarkBounty numbers its bounties from 1)");
  return id.toString();
}

export function anchorRef(v: JsonValue, path: string): AnchorRef | null {
  if (v === null) return null;
  const o = object(v, path);
  return {
    registry_address: strField(o, "registry_address", path),
    tx_hash: strField(o, "tx_hash", path),
    anchor_block: intField(o, "anchor_block", path),
  };
}
