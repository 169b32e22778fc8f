/**
 * The 95% Wilson score interval on an accuracy, shown beside each leaderboard row.
 *
 * The protocol's scores are exact decimals (SPEC 6); this interval is display only, computed in
 * binary floating point from the row's rounded accuracy and its number of scored tasks, and never
 * used to rank or pay. Fractional credit (a `json_fields` task worth 2/3) is treated as a fractional
 * success, which is the usual reading of Wilson's interval for a mean of scores in [0, 1].
 *
 * @packageDocumentation
 */

/** z for a two-sided 95% interval (the 97.5th percentile of the standard normal). */
export const Z_95 = 1.959963984540054;

/** A closed interval [low, high] within [0, 1]. */
export interface Interval {
  low: number;
  high: number;
}

/**
 * Wilson score interval of a proportion.
 * @param accuracy observed proportion in [0, 1] (a SPEC 6 decimal string such as `"0.6667"`, or a number)
 * @param n number of tasks the proportion is over (integer >= 1)
 * @param z standard-normal quantile (default {@link Z_95})
 * @returns the interval, or null when `n` is not a positive integer or the accuracy is not in [0, 1]
 */
export function wilsonInterval(accuracy: string | number, n: number, z = Z_95): Interval | null {
  const p = typeof accuracy === "number" ? accuracy : Number(accuracy);
  if (!Number.isInteger(n) || n < 1 || !Number.isFinite(p) || p < 0 || p > 1) return null;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, center - half), high: Math.min(1, center + half) };
}

/** The interval as text with 4 decimals, like the scores: `"[0.3046, 0.8789]"`. */
export function formatInterval(i: Interval | null): string {
  return i === null ? "--" : `[${i.low.toFixed(4)}, ${i.high.toFixed(4)}]`;
}
