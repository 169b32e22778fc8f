/**
 * The limits of what the verifier reads (the longest string value or key): refused as bad input
 * naming the JSON path, exit code 2. Lengths are UTF-16 code units (JavaScript's `length`, as the
 * platform's `PACK_LIMITS` counts them): an emoji outside the BMP is two, and every message says so
 * (probe36 B-N1: 200 emoji were "a string of 400 characters").
 * @packageDocumentation
 */
import { appendPath, isJsonFloat, isJsonObject, PACK_LIMITS, type JsonValue } from "@bench-bounty/evidence";
import { bad } from "./fields.js";

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

/**
 * Refuse strings (values and keys) longer than the limit (UTF-16 code units), naming the path and the
 * length in UTF-16 code units.
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
        bad(
          "too_large",
          resolve(path),
          `string of ${v.length} UTF-16 code units exceeds the limit of ${max}`,
        );
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
          bad(
            "too_large",
            resolve(path),
            `a key of ${k.length} UTF-16 code units exceeds the limit of ${max}`,
          );
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
 * True when no string or key under `root` is longer than `max` UTF-16 code units (no paths kept).
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
