/**
 * Format rules of `spec/SPEC.md` (sections 2, 4, 6, 8) as predicates, shared by the zod
 * schemas, the receipt builder and the ranking code.
 * @packageDocumentation
 */
import { EvidenceError } from "./errors.js";

/** `0x` + 64 lowercase hex (digests, SPEC 2). */
export const DIGEST = /^0x[0-9a-f]{64}$/;
/** 64 lowercase hex, no prefix (`prompt_hash`, `gold_leaf`, `salt`, `answer_salt`). */
export const BARE_HEX64 = /^[0-9a-f]{64}$/;
/** Lowercase `0x` address (SPEC 8). */
export const ADDRESS = /^0x[0-9a-f]{40}$/;
/** A computed score: exactly 4 decimal places (`"0.5000"`), SPEC 6. */
export const SCORE4 = /^(0|[1-9][0-9]*)\.[0-9]{4}$/;
/** `wall_seconds`: exactly 3 decimal places (`"12.345"`), SPEC 6. */
export const SECONDS3 = /^(0|[1-9][0-9]*)\.[0-9]{3}$/;
/** A USDC amount: exactly 6 decimal places (`"0.012075"`), SPEC 6. */
export const USDC6 = /^(0|[1-9][0-9]*)\.[0-9]{6}$/;
/** A configured decimal (`speed_weight`, `cost_weight`): plain notation as configured (`"0.3"`, `"0"`). */
export const PLAIN_DECIMAL = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;
/** A non-negative integer as a decimal string (base units, `bounty_id`). */
export const UINT_STRING = /^(0|[1-9][0-9]*)$/;
/** A graded credit: a fraction string (reducedness is checked separately). */
export const FRACTION_STRING = /^(0|[1-9][0-9]*)\/([1-9][0-9]*)$/;
/** ISO-8601 UTC with millisecond precision and `Z` (SPEC 4). */
export const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** True for a real instant written as `YYYY-MM-DDTHH:MM:SS.mmmZ`. */
export function isIsoMsZ(s: unknown): s is string {
  if (typeof s !== "string" || !ISO_MS_Z.test(s)) return false;
  const t = Date.parse(s);
  return Number.isFinite(t) && new Date(t).toISOString() === s;
}

/**
 * Milliseconds since the epoch of an ISO-8601 `...mmmZ` instant.
 * @throws EvidenceError `schema` naming `path`
 */
export function instantMs(s: unknown, path: string): number {
  if (!isIsoMsZ(s))
    throw new EvidenceError(
      "schema",
      path,
      `must be an ISO-8601 UTC instant with milliseconds and "Z", got ${JSON.stringify(s)}`,
    );
  return Date.parse(s);
}

/** Largest uint256 (values compared with the chain). */
export const UINT256_MAX = (1n << 256n) - 1n;
