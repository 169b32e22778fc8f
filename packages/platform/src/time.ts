/**
 * Instants: strict ISO-8601 parsing for dataset timestamps, the SPEC 4 millisecond rendering, the
 * `wall_seconds` rendering (SPEC 6: exactly 3 decimals) and the injectable clock.
 */

import { isExistingDateTime } from "@bench-bounty/evidence";

/** A clock returning the current instant in unix milliseconds (injectable for tests and the demo). */
export type Clock = () => number;

/**
 * The longest delay a Node timer takes, in ms (2^31-1, about 24.8 days): `setTimeout` clamps a longer
 * one to 1 ms (with a `TimeoutOverflowWarning`), so every option that becomes a timer is bounded by it
 * (probe16 B-F13).
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The system clock. */
export const systemClock: Clock = () => Date.now();

/**
 * The instant form {@link parseInstant} takes, in words for a refusal's message: the platform README's
 * `decision_ts` rule.
 */
export const INSTANT_FORM =
  "YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS[.fff]] with Z or ±HH:MM, at most 3 fraction digits (milliseconds)";

// a fraction has 1 to 3 digits: an instant is kept in milliseconds, and a 4th digit would be dropped
// without a word (probe30 B-F7: a knowable_at 0.9 ms after decision_ts passed as at it)
const ISO_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * Parses a strict ISO-8601 instant ({@link INSTANT_FORM}): `YYYY-MM-DD` (midnight UTC) or
 * `YYYY-MM-DDTHH:MM[:SS[.fff]]` followed by `Z` or a `±HH:MM` offset, a fraction of 1 to 3 digits (a
 * finer one is refused, never rounded). A time without a zone is ambiguous and refused, and so is a date or time
 * that does not exist (`isExistingDateTime` of @bench-bounty/evidence: `2026-02-30`, `24:00`, `:60`)
 * and an instant (after its offset) before year 100 or after 9999.
 * @returns unix milliseconds, or `null` when the text is not such an instant
 */
export function parseInstant(text: string): number | null {
  const m = ISO_RE.exec(text);
  if (m === null) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  if (h !== undefined && zone === undefined) return null;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = h === undefined ? 0 : Number(h);
  const minute = mi === undefined ? 0 : Number(mi);
  const second = s === undefined ? 0 : Number(s);
  const offset = zone !== undefined && zone !== "Z" ? zone : null;
  const offsetHours = offset === null ? 0 : Number(offset.slice(1, 3));
  const offsetMinutes = offset === null ? 0 : Number(offset.slice(4, 6));
  if (!isExistingDateTime({ year, month, day, hour, minute, second, offsetHours, offsetMinutes }))
    return null;
  // Date.UTC reads the years 0-99 as 1900-1999: such a year is not taken
  if (year < 100) return null;
  const ms = frac === undefined ? 0 : Math.floor(Number(`0.${frac}`) * 1000 + 1e-9);
  const t = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const sign = offset?.[0] === "-" ? -1 : 1;
  const instant = t - sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  // the year rule holds for the instant too: an offset may move it to year 99 or 10000 (probe25 B-F1:
  // `0100-01-01T00:30:00+01:00` bucketed to 1999, `9999-12-31T23:59:59-23:59` to +010000)
  const instantYear = new Date(instant).getUTCFullYear();
  return instantYear < 100 || instantYear > 9999 ? null : instant;
}

/** SPEC 4 rendering of an instant: ISO-8601 UTC with millisecond precision and `Z`. */
export function isoMillis(ms: number): string {
  return new Date(ms).toISOString();
}

/** SPEC 6 `wall_seconds`: a non-negative millisecond duration as a decimal string with exactly 3 decimals. */
export function wallSeconds(durationMs: number): string {
  if (!Number.isSafeInteger(durationMs) || durationMs < 0) throw new Error(`bad duration ${durationMs} ms`);
  return `${Math.floor(durationMs / 1000)}.${String(durationMs % 1000).padStart(3, "0")}`;
}

/** The time units of `bucket_fields`. */
export const BUCKET_UNITS = ["minute", "hour", "day", "month"] as const;
/** A time unit of `bucket_fields`. */
export type BucketUnit = (typeof BUCKET_UNITS)[number];

/** Floors an instant to the start of its UTC minute/hour/day/month; renders `YYYY-MM-DDTHH:MM:SSZ`. */
export function bucketInstant(ms: number, unit: BucketUnit): string {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const mo = d.getUTCMonth();
  const day = unit === "month" ? 1 : d.getUTCDate();
  const h = unit === "month" || unit === "day" ? 0 : d.getUTCHours();
  const mi = unit === "minute" ? d.getUTCMinutes() : 0;
  return new Date(Date.UTC(y, mo, day, h, mi, 0, 0)).toISOString().replace(".000Z", "Z");
}
