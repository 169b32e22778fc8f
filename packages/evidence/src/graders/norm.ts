/**
 * SPEC 5 normalisation `norm`, White_Space trimming and the numeric answer syntax the graders share.
 * @packageDocumentation
 */

/** Runs of characters with the Unicode White_Space property (SPEC 5 list). */
const WHITE_SPACE_RUN =
  /[\u0009-\u000d\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;
const WHITE_SPACE_EDGES =
  /^[\u0009-\u000d\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\u0009-\u000d\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

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

/** Whether `cp` has the Unicode White_Space property (the SPEC 5 list `norm` folds). */
function isWhiteSpace(cp: number): boolean {
  return (
    (cp >= 0x09 && cp <= 0x0d) ||
    cp === 0x20 ||
    cp === 0x85 ||
    cp === 0xa0 ||
    cp === 0x1680 ||
    (cp >= 0x2000 && cp <= 0x200a) ||
    cp === 0x2028 ||
    cp === 0x2029 ||
    cp === 0x202f ||
    cp === 0x205f ||
    cp === 0x3000
  );
}

/** Per code point: 0 not known yet, 1 it keeps a non-ASCII character under `norm`, 2 it may not. */
const KEEPS_NON_ASCII = new Uint8Array(0x110000);
const NON_ASCII = /[^\u0000-\u007f]/;

/** Whether code point `cp`'s NFKD holds a code point that is non-ASCII, not White_Space and lower-cases to non-ASCII. */
function keepsNonAscii(cp: number): boolean {
  let v = KEEPS_NON_ASCII[cp]!;
  if (v === 0) {
    v = 2;
    for (const u of String.fromCodePoint(cp).normalize("NFKD")) {
      const x = u.codePointAt(0)!;
      if (x >= 0x80 && !isWhiteSpace(x) && NON_ASCII.test(u.toLowerCase())) {
        v = 1;
        break;
      }
    }
    KEEPS_NON_ASCII[cp] = v;
  }
  return v === 1;
}

/**
 * Whether `norm(s)` certainly holds a non-ASCII character, decided without normalising `s` (probe27
 * A-F6: `norm` of 100,000 x U+FDFA, which NFKC expands 18x, took ~130 ms; this stops at its first
 * character). True when some code point `c` of `s` has, in its NFKD, a code point `u` that is
 * non-ASCII, not White_Space and lower-cases to non-ASCII. Then NFKC(s) holds `u` or a canonical
 * composite holding it (NFKD(s) is the characters' decompositions reordered, and composing never
 * removes a code point but into a composite, all of which are non-ASCII and none White_Space); the
 * White_Space folding leaves it; and lower-casing maps no such character to ASCII (the only non-ASCII
 * character that lower-cases to ASCII, U+212A KELVIN SIGN, is a canonical singleton that no NFKC
 * output holds). So an answer for which this is true matches no all-ASCII gold: the `exact` grader
 * scores it 0 unnormalised, the same credit. False says nothing. Linear in `s`; one `normalize` per
 * distinct code point per process, kept in a 1.1 MB table.
 */
export function normKeepsNonAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    const cp = s.codePointAt(i)!;
    if (cp > 0xffff) i++;
    if (keepsNonAscii(cp)) return true;
  }
  return false;
}

/** Whether `s` is all ASCII. */
export function isAscii(s: string): boolean {
  return !NON_ASCII.test(s);
}

/** Remove leading and trailing White_Space characters (no other change). */
export function trimWhiteSpace(s: string): string {
  return s.replace(WHITE_SPACE_EDGES, "");
}

/** SPEC 5 numeric answer syntax (after trimming White_Space). */
export const NUMERIC_ANSWER_RE = /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)$/;
