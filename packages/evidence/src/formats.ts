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

/**
 * The last unix second a four-digit-year date-time names (`9999-12-31T23:59:59Z`): the latest close time,
 * award deadline or claim deadline the project's tools lock or sign (`bench-bounty lock`, `hardhat
 * bounty:lock`, `bounty:claim --deadline`), so every such time prints as an ISO date. The contracts take any
 * uint64; a stranger's bounty attached from the chain keeps what the chain holds (probe25 B-F7).
 */
export const MAX_LOCK_UNIX_SECONDS = 253_402_300_799;

/** The fields of a written date and time of day (in UTC, or local to the `offset`), as numbers. */
export interface DateTimeFields {
  /** 0-9999 (four digits as written). */
  year: number;
  /** 1-12. */
  month: number;
  /** 1 to the month's last day. */
  day: number;
  /** 0-23 (default 0). */
  hour?: number;
  /** 0-59 (default 0). */
  minute?: number;
  /** 0-59 (default 0): no leap second. */
  second?: number;
  /** Hours of a `±HH:MM` zone offset, 0-23 (default 0). */
  offsetHours?: number;
  /** Minutes of a `±HH:MM` zone offset, 0-59 (default 0). */
  offsetMinutes?: number;
}

/** Days in `month` (1-12) of `year`, proleptic Gregorian (computed, not by `Date`: years 0-99 are not 19xx). */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Whether written date and time fields name a moment that exists: a month of 1-12, a day within its
 * month (leap years counted), hours 0-23, minutes and seconds 0-59 (no `24:00`, no leap second `:60`),
 * a zone offset of at most 23:59. `Date.parse` and `Date.UTC` roll the others over
 * (`2027-02-30` to March 2, `T24:00:00Z` to the next day) instead of refusing them, so every parser of
 * a written date checks its fields here first: the platform's dataset timestamps, the Hardhat tasks'
 * `--closes-at`, `--award-deadline` and `--deadline` (probe24 B-F2). Non-integers are not fields.
 */
export function isExistingDateTime(f: DateTimeFields): boolean {
  const { year, month, day, hour = 0, minute = 0, second = 0, offsetHours = 0, offsetMinutes = 0 } = f;
  const within = (v: number, lo: number, hi: number) => Number.isInteger(v) && v >= lo && v <= hi;
  return (
    within(year, 0, 9999) &&
    within(month, 1, 12) &&
    within(day, 1, daysInMonth(year, month)) &&
    within(hour, 0, 23) &&
    within(minute, 0, 59) &&
    within(second, 0, 59) &&
    within(offsetHours, 0, 23) &&
    within(offsetMinutes, 0, 59)
  );
}

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
