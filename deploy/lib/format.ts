/** Parsing and printing of amounts, times and addresses for the tasks (no floats anywhere). */
import { TaskError } from "./errors";
import { evidence } from "./packages";
import { isoSeconds } from "./time";

export { isoSeconds };

/** USDC has 6 decimals. */
export const USDC_DECIMALS = 6;

/**
 * A decimal token amount ("100", "12.5", "0.000001") -> base units.
 * @throws TaskError naming the flag on a malformed amount or more decimals than the token has
 */
export function parseAmount(text: string, flag: string, decimals = USDC_DECIMALS): bigint {
  const m = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/.exec(text.trim());
  if (!m) throw new TaskError(`${flag} must be a plain decimal amount like 100 or 12.5, got "${text}".`);
  const frac = m[2] ?? "";
  if (frac.length > decimals) throw new TaskError(`${flag} has more than ${decimals} decimals: "${text}".`);
  return BigInt(m[1]!) * 10n ** BigInt(decimals) + BigInt(frac.padEnd(decimals, "0") || "0");
}

/** Base units -> "12.500000 USDC" (exact). */
export function formatAmount(baseUnits: bigint, symbol = "USDC", decimals = USDC_DECIMALS): string {
  const neg = baseUnits < 0n;
  const v = neg ? -baseUnits : baseUnits;
  const d = 10n ** BigInt(decimals);
  return `${neg ? "-" : ""}${v / d}.${(v % d).toString().padStart(decimals, "0")} ${symbol}`;
}

/** An amount in base units as words: "1 base unit", "0 base units", "5000000 base units". */
export function baseUnits(v: bigint): string {
  return `${v} base unit${v === 1n ? "" : "s"}`;
}

/**
 * Unix seconds ("1767225600") or ISO-8601 with a zone ("2026-01-01T00:00:00Z") -> unix seconds, at most
 * `MAX_LOCK_UNIX_SECONDS` of @bench-bounty/evidence (9999-12-31T23:59:59Z: the bound `bench-bounty lock`
 * holds too, far inside the contracts' uint64 and uint256). A date or time that does not exist
 * (`2027-02-30`, `T24:00:00Z`: `isExistingDateTime`) is refused, never rolled over to the next day as
 * `Date.parse` would.
 * @throws TaskError naming the flag, for a malformed time, one that does not exist, or one past the bound
 */
export function parseTime(text: string, flag: string): bigint {
  const s = parseSeconds(text, flag);
  const max = BigInt(evidence().MAX_LOCK_UNIX_SECONDS);
  if (s > max) {
    const t = text.trim();
    throw new TaskError(
      `${flag} must be at most ${max} (unix seconds of ${isoSeconds(max)}), got ${t.length > 40 ? `a ${t.length}-character time` : `"${t}"`}.`,
    );
  }
  return s;
}

/** {@link parseTime} before its bound. */
function parseSeconds(text: string, flag: string): bigint {
  const t = text.trim();
  if (/^[0-9]+$/.test(t)) return BigInt(t);
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):(\d{2}))$/.exec(
    t,
  );
  if (m) {
    const n = m.slice(1).map((g) => Number(g ?? 0)); // an absent second or offset is 0
    const fields = {
      year: n[0]!,
      month: n[1]!,
      day: n[2]!,
      hour: n[3]!,
      minute: n[4]!,
      second: n[5]!,
      offsetHours: n[6]!,
      offsetMinutes: n[7]!,
    };
    // Date.parse rolls these over (2027-02-30 to March 2) instead of refusing them (probe24 B-F2)
    if (!evidence().isExistingDateTime(fields))
      throw new TaskError(
        `${flag} names a date or time that does not exist: "${text}" (a day past the end of its month, hour 24, or minute or second 60; it is not rolled over).`,
      );
    const ms = Date.parse(t);
    if (!Number.isNaN(ms)) {
      if (ms % 1000 !== 0) throw new TaskError(`${flag} must be a whole second: "${text}".`);
      return BigInt(ms / 1000);
    }
  }
  throw new TaskError(
    `${flag} must be unix seconds or ISO-8601 with a zone (2026-01-31T12:00:00Z), got "${text}".`,
  );
}

/** "in 3d 4h" / "5m ago" relative to `now`. */
export function relative(at: bigint, now: bigint): string {
  const d = at - now;
  const abs = d < 0n ? -d : d;
  const parts: string[] = [];
  const units: [bigint, string][] = [
    [86400n, "d"],
    [3600n, "h"],
    [60n, "m"],
  ];
  let rest = abs;
  for (const [size, name] of units) {
    if (rest >= size) {
      parts.push(`${rest / size}${name}`);
      rest %= size;
    }
  }
  if (parts.length === 0) parts.push(`${rest}s`);
  const span = parts.slice(0, 2).join(" ");
  return d >= 0n ? `in ${span}` : `${span} ago`;
}

/** The largest bounty id: the contract's ids are uint256. */
const MAX_BOUNTY_ID = 2n ** 256n - 1n;

/**
 * A positive bounty id ("3") -> 3n, at most 2^256-1 (probe18 F5: a larger one reached ethers and
 * was "value out-of-bounds" with a stack). The value is shown JSON-escaped (a control character stays
 * visible).
 * @throws TaskError naming the flag
 */
export function parseBountyId(text: string, flag = "--id"): bigint {
  if (!/^[1-9][0-9]*$/.test(text.trim()))
    throw new TaskError(`${flag} must be a bounty id (1, 2, ...), got ${JSON.stringify(text)}.`);
  const id = BigInt(text.trim());
  if (id > MAX_BOUNTY_ID)
    throw new TaskError(
      `${flag} must be a bounty id (1 to 2^256-1: a uint256), got one of ${text.trim().length} digits.`,
    );
  return id;
}

/** A comma-separated list of bounty ids. */
export function parseBountyIds(text: string, flag: string): bigint[] {
  const ids = text.split(",").map((s) => parseBountyId(s, flag));
  if (new Set(ids.map(String)).size !== ids.length)
    throw new TaskError(`${flag} lists a bounty twice: ${text}`);
  return ids;
}

/**
 * A count flag ("20") -> 20: digits only, `min`..999999 (`bounty:credits --limit` takes 0 for "every
 * line", min 0; `bounty:claim --max-claims` claims at least one credit, min 1). The range named in the
 * refusal is the one accepted (probe30 C-F11).
 * @param fallback returned when the flag is not given
 * @throws TaskError naming the flag and its range
 */
export function parseCount(text: string | undefined, flag: string, fallback: number, min: 0 | 1): number {
  if (text === undefined) return fallback;
  const value = /^[0-9]{1,6}$/.test(text) ? Number(text) : -1;
  if (value < min)
    throw new TaskError(`${flag} must be an integer ${min}..999999, got ${JSON.stringify(text)}.`);
  return value;
}
