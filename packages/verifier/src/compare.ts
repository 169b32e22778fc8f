/**
 * Comparing what the verifier recomputed with what a pack, the chain or the
 * indexer says: digests by value, decimals by value, and errors as one line.
 * @packageDocumentation
 */
import { compareDecimals, isEvidenceError, parseExactDecimal } from "@bench-bounty/evidence";
import { describeError } from "./errors.js";

/** Compare two digests by value (case-insensitive hex). */
export function sameHex(a: string | null | undefined, b: string | null | undefined): boolean {
  return typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();
}

/** Compare two decimals by value (`"0.50"` == `"0.5"`); false when either is not a decimal. */
export function sameDecimal(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return compareDecimals(parseExactDecimal(a, "$", true), parseExactDecimal(b, "$", true)) === 0;
  } catch (e) {
    if (isEvidenceError(e)) return false; // not a decimal: not the same value
    throw e;
  }
}

/** The message of an evidence error (it names its JSON path), else a one-line description. */
export function errorText(e: unknown): string {
  return isEvidenceError(e) ? e.message : describeError(e);
}

/**
 * Let an unexpected error through: a computation over pack values may fail with an
 * evidence error (a value breaks a rule; it names the JSON path) or a `RangeError` (a value
 * too large to compute with); anything else is a bug and is rethrown.
 * @throws the error itself when it is neither
 */
export function rethrowUnexpected(e: unknown): void {
  if (!isEvidenceError(e) && !(e instanceof RangeError)) throw e;
}
