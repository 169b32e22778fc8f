/**
 * The Stream-Safe Text Format rule (Unicode UAX #15 section 13) as the platform applies it to the text
 * `norm` reads (probe36 A-F9): NFKC puts each run of non-starters (code points of canonical combining
 * class != 0, as NFKD decomposes the text) in canonical order, and every implementation (V8's ICU,
 * Python's `unicodedata`) sorts a run in time quadratic in its length, so one answer of 100,000
 * alternating combining marks held the event loop for seconds at finalize. A text with no run of more than
 * {@link MAX_NON_STARTER_RUN} non-starters normalises in linear time. The platform refuses answers
 * (submit: `combining_run_too_long`) and gold strings (publish: `invalid_gold`) holding a longer run, and
 * the regrade of a pack (the verifier's, evidence `regradeRun`, and `demo/independent/check_pack.py`)
 * grades no such text: the task is a problem naming its path. Counts come from the generated table of
 * Unicode `NORM_UNICODE_BASELINE` (`unicode-nonstarters.ts`, `scripts/gen-unicode-nonstarters.py`); a code
 * point not assigned in that version counts as one non-starter (a newer version may make it a combining
 * mark; the platform refuses such code points anyway: `unassigned_code_point`).
 * @packageDocumentation
 */
import { rangeIndex, readRanges } from "./code-point-ranges.js";
import { isBaselineAssigned, NORM_UNICODE_BASELINE } from "./unicode-baseline.js";
import { NON_STARTER_RANGES_TEXT } from "./unicode-nonstarters.js";

/** The longest run of non-starters a text `norm` reads may hold: 30 (UAX #15 section 13). */
export const MAX_NON_STARTER_RUN = 30;

/**
 * `[first0, last0, kind0, first1, ...]`, ascending and disjoint: `kind` > 0 is `a<n>` (the code point's
 * NFKD is n non-starters), `kind` < 0 is `t<n>` as -n (a starter, then n non-starters last).
 */
const RANGES: Int32Array = readRanges(NON_STARTER_RANGES_TEXT, 3, (kind) => {
  const n = Number(kind.slice(1));
  return kind.startsWith("a") ? n : -n;
});

/** The table's kind of code point `cp` (see {@link RANGES}), 0 when its NFKD has no non-starter at an end. */
function kindOf(cp: number): number {
  const i = rangeIndex(RANGES, 3, cp);
  return i < 0 ? 0 : RANGES[3 * i + 2]!;
}

/** A run of more than {@link MAX_NON_STARTER_RUN} non-starters in a text. */
export interface NonStarterRun {
  /** UTF-16 offset of the code point whose decomposition starts the run. */
  offset: number;
  /** The run's length in non-starters, counted up to its first one past the limit (so `limit + 1`, or more). */
  length: number;
}

/**
 * The first run of more than {@link MAX_NON_STARTER_RUN} non-starters of `s` (UAX #15 section 13, counted
 * on the NFKD decomposition of each code point by the Unicode `NORM_UNICODE_BASELINE` table; a code point
 * not assigned in it counts as one non-starter; a lone surrogate is a starter), or null when there is none.
 * Linear in `s.length`.
 */
export function firstLongNonStarterRun(s: string): NonStarterRun | null {
  let count = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let kind = 0;
    let cp = c;
    if (c >= 0xa8) {
      cp = s.codePointAt(i)!;
      kind = kindOf(cp);
      if (kind === 0 && cp >= 0x378 && !isBaselineAssigned(cp)) kind = 1;
    }
    if (kind > 0) {
      if (count === 0) start = i;
      count += kind;
      if (count > MAX_NON_STARTER_RUN) return { offset: start, length: count };
    } else {
      count = -kind;
      start = i;
    }
    if (cp > 0xffff) i++;
  }
  return null;
}

/**
 * Why a text holding `r` is refused or not graded, for messages (`answer_text holds ...`): names the
 * run's offset, the limit and the rule.
 * @param member when the run is in a string decoded from the text (a json_fields answer's member,
 *   probe36 V-F2), that string's JSON path in the answer (`$.v`): the offset is then in the decoded string
 */
export function nonStarterRunText(r: NonStarterRun, member: string | null = null): string {
  const where =
    member === null
      ? `starting at UTF-16 offset ${r.offset}`
      : `starting at UTF-16 offset ${r.offset} of that string`;
  return (
    `holds${member === null ? "" : `, in the decoded string of its JSON member ${member},`} a run of more than ` +
    `${MAX_NON_STARTER_RUN} combining characters (non-starters, UAX #15 Stream-Safe ` +
    `Text Format; Unicode ${NORM_UNICODE_BASELINE}) ${where}: NFKC (norm, SPEC 5) ` +
    `sorts such a run in time quadratic in its length; use at most ${MAX_NON_STARTER_RUN} in a row`
  );
}
