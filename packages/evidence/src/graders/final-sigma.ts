/**
 * The Final_Sigma input rule of `norm` (SPEC 5; probe39 B-F2). `norm`'s full lower-casing maps a capital
 * sigma U+03A3 to final `ς` or to `σ` by Unicode's Final_Sigma condition: a scan back over case-ignorable
 * code points must meet a cased one, and a scan forward over case-ignorables must not. Unicode's stability
 * policies freeze NFKC and the case pairs of assigned code points, not the Cased and Case_Ignorable
 * properties those scans read: U+0295 `ʕ` is cased in Unicode 14.0 and neither in 17.0, U+1171E is
 * case-ignorable in 14.0 and not in 17.0 (and U+02E4 `ˤ` is U+0295 after NFKC). So "ΑʕΣ" is `αʕς` in
 * Python 3.11 (`demo/independent/check_pack.py`) and `αʕσ` in Node 20 (the platform, the verifier).
 *
 * Each code point has one of three classes in the condition: case-ignorable (the scans pass over it),
 * cased and not case-ignorable (a scan stops, having met a cased letter), neither (a scan stops, having
 * met none). Text in which no sigma's scans meet a code point whose class differs between Unicode
 * `NORM_UNICODE_BASELINE` (14.0.0) and a runtime's tables lower-cases alike in both; the platform refuses
 * answers (submit: `unstable_final_sigma`) and gold strings (publish: `invalid_gold`) that hold one, and
 * a regrade (evidence `regradeRun`, the verifier's `regrade` fact) grades no such text. The baseline's
 * classes come from the generated table `unicode-case-classes.ts` (`scripts/gen-unicode-case-classes.py`,
 * read from python3.11's own `str.lower()`), the runtime's from its `\p{Case_Ignorable}` and `\p{Cased}`.
 * @packageDocumentation
 */
import { rangeIndex, readRanges } from "./code-point-ranges.js";
import { CASE_CLASS_RANGES_TEXT, CASE_CLASS_RANGES_VERSION } from "./unicode-case-classes.js";
import { codePointLabel } from "./unicode-baseline.js";

/** A code point's class in the Final_Sigma condition (see the module comment). */
export type CaseClass = "case-ignorable" | "cased" | "neither";

/** The classes by table number: 0 neither (not listed), 1 `i`, 2 `c`. */
const CLASSES: readonly CaseClass[] = ["neither", "case-ignorable", "cased"];

/** `[first0, last0, class0, ...]` of the baseline's table: class 1 case-ignorable, 2 cased (not ignorable). */
const RANGES: Int32Array = readRanges(CASE_CLASS_RANGES_TEXT, 3, (k) => (k === "i" ? 1 : 2));

/** The class of code point `cp` in Unicode {@link CASE_CLASS_RANGES_VERSION} (14.0.0, the baseline). */
export function baselineCaseClass(cp: number): CaseClass {
  const i = rangeIndex(RANGES, 3, cp);
  return CLASSES[i < 0 ? 0 : RANGES[3 * i + 2]!]!;
}

const CASE_IGNORABLE = /^\p{Case_Ignorable}$/u;
const CASED = /^\p{Cased}$/u;

/**
 * The class of code point `cp` in this runtime's Unicode tables (the ones its `toLowerCase` reads): a
 * case-ignorable code point is case-ignorable whether it is cased or not, as the condition's scans read it.
 */
export function runtimeCaseClass(cp: number): CaseClass {
  const c = String.fromCodePoint(cp);
  return CASE_IGNORABLE.test(c) ? "case-ignorable" : CASED.test(c) ? "cased" : "neither";
}

/** A capital sigma of a text's NFKC form whose Final_Sigma scans meet a code point of unstable class. */
export interface UnstableFinalSigma {
  /** UTF-16 offset of the sigma U+03A3 in the text's NFKC form. */
  sigma_offset: number;
  /** The code point met, `"U+0295"`. */
  code_point: string;
  /** Its UTF-16 offset in the text's NFKC form. */
  offset: number;
  /** Its class in Unicode 14.0.0. */
  baseline_class: CaseClass;
  /** Its class in this runtime's tables. */
  runtime_class: CaseClass;
}

/**
 * The first capital sigma U+03A3 of `s`'s NFKC form (the text `norm` lower-cases; its White_Space is of
 * class neither in both tables, so `norm`'s joining and trimming of it change no scan) whose Final_Sigma
 * scans, back and forward over case-ignorable code points, meet a code point whose class in Unicode
 * 14.0.0 differs from this runtime's, or null when there is none (the text is then lower-cased alike by
 * every implementation with tables of 14.0.0 or newer, as far as its assigned code points go). Linear in
 * the NFKC form's length: each run of case-ignorables is scanned by the sigmas at its two ends only.
 * Call it on text with no long run of non-starters (`firstLongNonStarterRun`): it normalises `s`.
 */
export function firstUnstableFinalSigma(s: string): UnstableFinalSigma | null {
  const t = s.normalize("NFKC");
  for (let k = t.indexOf("\u03a3"); k >= 0; k = t.indexOf("\u03a3", k + 1)) {
    const met = (cp: number, at: number): UnstableFinalSigma | null | "ignorable" => {
      const b = baselineCaseClass(cp);
      const r = runtimeCaseClass(cp);
      if (b !== r)
        return {
          sigma_offset: k,
          code_point: codePointLabel(cp),
          offset: at,
          baseline_class: b,
          runtime_class: r,
        };
      return b === "case-ignorable" ? "ignorable" : null;
    };
    for (let j = k; j > 0; ) {
      const low = t.charCodeAt(j - 1);
      const start =
        low >= 0xdc00 && low <= 0xdfff && j >= 2 && (t.charCodeAt(j - 2) & 0xfc00) === 0xd800 ? j - 2 : j - 1;
      const m = met(t.codePointAt(start)!, start);
      if (m !== "ignorable") {
        if (m !== null) return m;
        break;
      }
      j = start;
    }
    for (let j = k + 1; j < t.length; ) {
      const cp = t.codePointAt(j)!;
      const m = met(cp, j);
      if (m !== "ignorable") {
        if (m !== null) return m;
        break;
      }
      j += cp > 0xffff ? 2 : 1;
    }
  }
  return null;
}

/** This runtime's Unicode version (`process.versions.unicode`), or null where there is none (a browser). */
function runtimeUnicode(): string | null {
  return (globalThis as { process?: { versions?: { unicode?: string } } }).process?.versions?.unicode ?? null;
}

/**
 * Why a text holding `u` is refused or not graded, for messages (`answer_text holds ...`): names the
 * sigma's and the code point's offsets (in the NFKC form), the code point, its two classes and the rule.
 * @param member when `u` is in a string decoded from the text (a json_fields answer's member), that
 *   string's JSON path in the answer (`$.v`)
 */
export function unstableFinalSigmaText(u: UnstableFinalSigma, member: string | null = null): string {
  const runtime = runtimeUnicode();
  return (
    `holds${member === null ? "" : `, in the decoded string of its JSON member ${member},`} a capital sigma ` +
    `U+03A3 (at UTF-16 offset ${u.sigma_offset} of its NFKC form) whose Final_Sigma context meets ` +
    `${u.code_point} (at offset ${u.offset} of that form), ${u.baseline_class} in Unicode ` +
    `${CASE_CLASS_RANGES_VERSION} and ${u.runtime_class} in this runtime's ` +
    `${runtime === null ? "tables" : `Unicode ${runtime}`}: the lower-casing of norm (SPEC 5) makes that ` +
    `sigma σ or ς by the Unicode version of each implementation's tables; remove ${u.code_point} or ` +
    `separate it from the sigma with a space`
  );
}
