/** Unix seconds as dates: the one place (format.ts parses times; errors.ts prints the contracts' times). */

/** The last unix second a date can show (JavaScript's `Date`: +275760-09-13T00:00:00Z). */
export const MAX_DATE_SECONDS = 8_640_000_000_000n;

/**
 * Unix seconds -> "2026-01-31T12:00:00Z"; past {@link MAX_DATE_SECONDS} (a stranger's bounty may close
 * at any uint64) "unix N (after +275760-09-13T00:00:00Z)". Never throws.
 */
export function isoSeconds(s: bigint | number): string {
  const v = BigInt(s);
  if (v > MAX_DATE_SECONDS || v < -MAX_DATE_SECONDS) return `unix ${v} (after +275760-09-13T00:00:00Z)`;
  return new Date(Number(v) * 1000).toISOString().replace(".000Z", "Z");
}
