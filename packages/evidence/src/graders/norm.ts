/**
 * SPEC 5 normalisation `norm`, White_Space trimming and the numeric answer syntax the graders share.
 * @packageDocumentation
 */

/** Runs of characters with the Unicode White_Space property (SPEC 5 list). */
const WHITE_SPACE_RUN =
  /[\u0009-\u000d\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;
/**
 * SPEC 5 normalisation: Unicode NFKC; every maximal run of White_Space
 * characters becomes one U+0020; leading/trailing spaces removed; full
 * Unicode lower-casing without locale.
 */
export function norm(s: string): string {
  // ASCII fast path, same result: NFKC leaves ASCII unchanged, the only White_Space
  // characters in ASCII are U+0009..U+000D and U+0020, and lower-casing ASCII maps A-Z only
  const n = s.length;
  let plain = true; // no upper-case letter, no White_Space but single inner spaces
  let i = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) break;
    if (
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x09 && c <= 0x0d) ||
      (c === 0x20 && (i === 0 || i === n - 1 || s.charCodeAt(i + 1) === 0x20))
    )
      plain = false;
  }
  if (i === n) {
    if (plain) return s;
    let t = s.replace(WHITE_SPACE_RUN, " ");
    if (t.charCodeAt(0) === 0x20) t = t.slice(1);
    if (t.charCodeAt(t.length - 1) === 0x20) t = t.slice(0, -1);
    return t.toLowerCase();
  }
  let t = s.normalize("NFKC").replace(WHITE_SPACE_RUN, " ");
  if (t.charCodeAt(0) === 0x20) t = t.slice(1);
  if (t.charCodeAt(t.length - 1) === 0x20) t = t.slice(0, -1);
  return t.toLowerCase();
}

/**
 * Whether UTF-16 code unit `c` is a White_Space character of the SPEC 5 list (the set of
 * {@link WHITE_SPACE_RUN}; every one is in the BMP).
 */
function isWhiteSpaceUnit(c: number): boolean {
  return (
    (c >= 0x09 && c <= 0x0d) ||
    c === 0x20 ||
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/**
 * Remove leading and trailing White_Space characters (SPEC 5 list; no other change). Linear in
 * `s.length`: two index loops, one from each end (probe36 A-F8: the regex `/^[WS]+|[WS]+$/g` it replaces
 * rescanned an inner run of White_Space from each of its positions, quadratic in the run's length).
 */
export function trimWhiteSpace(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isWhiteSpaceUnit(s.charCodeAt(start))) start++;
  while (end > start && isWhiteSpaceUnit(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** SPEC 5 numeric answer syntax (after trimming White_Space). */
export const NUMERIC_ANSWER_RE = /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)$/;
