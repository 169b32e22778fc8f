/**
 * The Unicode baseline of `norm` (SPEC 5) as the platform applies it to its inputs (probe34 B-F1): SPEC 5
 * defines `norm` by Unicode NFKC and lower-casing without naming a Unicode version, and the result for a
 * code point that a version does not assign depends on the tables an implementation ships (U+1E030,
 * assigned in Unicode 15.0, is `а` after NFKC in Node 20 and itself in Python 3.11's Unicode 14.0). For
 * code points assigned in a version, Unicode's stability policies keep NFKC and the case pairs the same
 * in every later version, so text of assigned code points of the baseline normalises alike in every
 * implementation whose tables are at least that version, but for the context of a capital sigma's
 * Final_Sigma rule (its Cased / Case_Ignorable properties are not frozen: `final-sigma.ts`, probe39 B-F2). The baseline is Unicode 14.0.0, Python 3.11's
 * `unicodedata.unidata_version` (the independent checker's, `demo/independent/check_pack.py`); Node
 * ships newer. The platform refuses answers and golds holding a code point not assigned in it (submit:
 * `unassigned_code_point`; publish: `invalid_gold`), and the verifier says so when a pack's regrade
 * touches one. The table is generated (`scripts/gen-unicode-assigned.py`), never edited by hand.
 * @packageDocumentation
 */
import { rangeIndex, readRanges } from "./code-point-ranges.js";
import { ASSIGNED_RANGES_TEXT, ASSIGNED_RANGES_VERSION } from "./unicode-assigned.js";

/** The Unicode version whose assigned code points the platform accepts in text that `norm` reads: `"14.0.0"`. */
export const NORM_UNICODE_BASELINE: string = ASSIGNED_RANGES_VERSION;

/** `[first0, last0, first1, last1, ...]`: the assigned ranges, ascending and disjoint. */
const RANGES: Int32Array = readRanges(ASSIGNED_RANGES_TEXT, 2);

/** The assigned ranges of {@link NORM_UNICODE_BASELINE}, `[first, last]` inclusive, ascending (for tests). */
export function baselineAssignedRanges(): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < RANGES.length; i += 2) out.push([RANGES[i]!, RANGES[i + 1]!]);
  return out;
}

/**
 * Whether code point `cp` (0..0x10FFFF) is assigned (general category other than Cn) in
 * {@link NORM_UNICODE_BASELINE}. Surrogates (Cs) and private-use code points (Co) are assigned.
 */
export function isBaselineAssigned(cp: number): boolean {
  return rangeIndex(RANGES, 2, cp) >= 0;
}

/** A code point of a text not assigned in {@link NORM_UNICODE_BASELINE}. */
export interface BeyondBaseline {
  /** The code point. */
  code_point: number;
  /** `"U+1E030"` (4 to 6 upper-case hex digits). */
  label: string;
  /** Its offset in the text, in UTF-16 code units. */
  offset: number;
}

/** `"U+0041"`, `"U+1E030"`: a code point as Unicode writes it. */
export function codePointLabel(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * The first code point of `s` not assigned in {@link NORM_UNICODE_BASELINE}, or null when there is none
 * (ASCII is assigned: an ASCII text is read in one pass, no lookup). A lone surrogate is a code point of
 * its own (category Cs, assigned).
 */
export function firstBeyondBaseline(s: string): BeyondBaseline | null {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x378) continue; // U+0000..U+0377 are all assigned
    const cp = s.codePointAt(i)!;
    if (!isBaselineAssigned(cp)) return { code_point: cp, label: codePointLabel(cp), offset: i };
    if (cp > 0xffff) i++;
  }
  return null;
}

/**
 * Why a text holding `b` is refused, for messages (`answer_text holds ...`): names the code point, its
 * offset and the baseline.
 */
export function beyondBaselineText(b: BeyondBaseline): string {
  return (
    `holds ${b.label} (at UTF-16 offset ${b.offset}), a code point not assigned in Unicode ${NORM_UNICODE_BASELINE}: ` +
    `norm() (SPEC 5) gives the same result in every verifier only for code points assigned in Unicode ` +
    `${NORM_UNICODE_BASELINE} (newer ones normalise by the version of each implementation's tables); remove or replace it`
  );
}
