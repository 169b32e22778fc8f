/**
 * JSON plumbing of the platform. Every value the platform stores or hashes is an evidence
 * `JsonValue` (lossless: big integers as bigint, floats as `JsonFloat` with their lexeme), written to
 * SQLite as canonical JSON text (SPEC 2) and read back with the strict parser, so nothing is lost
 * between a dataset upload, the commitment and the pack.
 */
import {
  canonicalJsonString,
  isJsonFloat,
  isJsonObject,
  parseJson,
  type JsonObject,
  type JsonValue,
} from "@bench-bounty/evidence";

export type { JsonObject, JsonValue };
export { isJsonFloat, isJsonObject };

/**
 * Sets `obj[key] = value` as an own, enumerable data member, whatever the key: a user-named key such as
 * `__proto__` is plain data, never the prototype setter (which ignores a string value, so the member
 * was silently dropped: probe27 B-F3). Every object the platform builds from user-named keys (CSV
 * columns, `bucket_fields`, ...) is written through this, so its canonical JSON (SPEC 2) carries every
 * key it was given, `__proto__`, `constructor` and `prototype` included.
 */
export function setOwn<T>(obj: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Converts a JavaScript value (as built in code: plain objects, arrays, strings, numbers, booleans, null)
 * into a lossless evidence `JsonValue`. A non-integer JS number becomes a `JsonFloat` whose lexeme is
 * JavaScript's shortest round-trip rendering. Values that are already `JsonValue`s (bigint, `JsonFloat`)
 * are kept as they are.
 *
 * @throws Error naming the JSON path for `undefined`, functions, NaN/Infinity, symbols, class instances
 */
export function toJsonValue(value: unknown, path = "$"): JsonValue {
  if (
    value === null ||
    typeof value === "string" ||
    typeof value === "boolean" ||
    typeof value === "bigint"
  ) {
    return value;
  }
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`${path}: ${value} is not a JSON number`);
    if (Number.isInteger(value)) {
      if (!Number.isSafeInteger(value))
        throw new Error(`${path}: ${value} is not a safe integer (use a bigint)`);
      return value === 0 ? 0 : value;
    }
    return parseJson(JSON.stringify(value));
  }
  if (isJsonFloat(value)) return value;
  if (Array.isArray(value)) return value.map((v, i) => toJsonValue(v, `${path}[${i}]`));
  if (typeof value === "object") {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) throw new Error(`${path}: not a plain JSON object`);
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v === undefined) continue;
      setOwn(out, k, toJsonValue(v, `${path}.${k}`));
    }
    return out;
  }
  throw new Error(`${path}: ${typeof value} is not a JSON value`);
}

/** Canonical JSON text (SPEC 2) of a value: the storage form of every JSON column. */
export function toStored(value: unknown): string {
  return canonicalJsonString(value);
}

/** Reads a JSON column back losslessly. */
export function fromStored<T = JsonValue>(text: string): T {
  return parseJson(text) as T;
}

/**
 * Follows a plain dotted path (`payload.symbol`) through nested objects.
 * @returns `{found: true, value}` or `{found: false}` when a step is missing or not an object
 */
export function getPath(
  root: JsonValue,
  dotted: string,
): { found: true; value: JsonValue } | { found: false } {
  let cur: JsonValue = root;
  for (const seg of dotted.split(".")) {
    if (!isJsonObject(cur) || !Object.prototype.hasOwnProperty.call(cur, seg)) return { found: false };
    cur = cur[seg] as JsonValue;
  }
  return { found: true, value: cur };
}

/** Type of a JSON value in words, for error messages. */
export function jsonTypeName(v: JsonValue): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (isJsonFloat(v)) return "number";
  if (typeof v === "bigint") return "number";
  if (isJsonObject(v)) return "object";
  return typeof v;
}
