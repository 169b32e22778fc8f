/**
 * The generated Unicode tables' shared form (`unicode-assigned.ts`, `unicode-nonstarters.ts`): words
 * `FIRST[-LAST][:KIND]` in hex, ascending and disjoint ranges, read into one flat array of `stride`
 * numbers per range and looked up by binary search.
 * @packageDocumentation
 */

/**
 * Reads a table's text: `stride` 2 gives `[first, last]` per word; 3 gives `[first, last, kind(word)]`.
 * @param kind the third number of a word from its `:KIND` suffix (stride 3 only)
 */
export function readRanges(text: string, stride: 2 | 3, kind?: (suffix: string) => number): Int32Array {
  const words = text.trim().split(/\s+/);
  const out = new Int32Array(words.length * stride);
  words.forEach((w, i) => {
    const [span, suffix] = w.split(":") as [string, string | undefined];
    const [a, b] = span.split("-");
    out[stride * i] = parseInt(a!, 16);
    out[stride * i + 1] = parseInt(b ?? a!, 16);
    if (stride === 3) out[stride * i + 2] = kind!(suffix ?? "");
  });
  return out;
}

/** The index (in ranges) of the range of `ranges` (read with `stride`) holding code point `cp`, or -1. */
export function rangeIndex(ranges: Int32Array, stride: 2 | 3, cp: number): number {
  let lo = 0;
  let hi = ranges.length / stride - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < ranges[stride * mid]!) hi = mid - 1;
    else if (cp > ranges[stride * mid + 1]!) lo = mid + 1;
    else return mid;
  }
  return -1;
}
