/**
 * probe36 A-F9: NFKC sorts a run of combining marks (non-starters) in time quadratic in its length. The
 * Stream-Safe Text Format rule (UAX #15 section 13, at most 30 non-starters in a row): the generated table
 * against python3's unicodedata (when it is the baseline 14.0.0), the scan, publish's gold rule and the
 * regrade, which grades no such text.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  EvidenceError,
  MAX_NON_STARTER_RUN,
  NORM_UNICODE_BASELINE,
  answerLongNonStarterRun,
  firstLongNonStarterRun,
  prepareTestSetGold,
  validateGold,
} from "../src/index.js";
import { NON_STARTER_RANGES_TEXT } from "../src/graders/unicode-nonstarters.js";
import { tableEntries } from "./unicode-table.js";

const PY = `
import json, unicodedata
out = []
for cp in range(0x110000):
    ch = chr(cp)
    if unicodedata.category(ch) == "Cn" or 0xD800 <= cp <= 0xDFFF: continue
    ccc = [unicodedata.combining(c) for c in unicodedata.normalize("NFKD", ch)]
    lead = 0
    while lead < len(ccc) and ccc[lead] != 0: lead += 1
    trail = 0
    while trail < len(ccc) and ccc[len(ccc) - 1 - trail] != 0: trail += 1
    if lead == len(ccc): out.append([cp, "a%d" % lead])
    elif lead: out.append([cp, "bad"])
    elif trail: out.append([cp, "t%d" % trail])
print(json.dumps({"version": unicodedata.unidata_version, "kinds": out}))
`;

/** "a" then `n` alternating marks of classes 230 and 220 (the quadratic case of the probe). */
const marks = (n: number): string => `a${"\u0301\u0316".repeat(n / 2)}`;

describe("the Stream-Safe Text Format rule (probe36 A-F9)", () => {
  const py = spawnSync("python3", ["-c", PY], { encoding: "utf8", maxBuffer: 1 << 24 });
  const got =
    py.status === 0 ? (JSON.parse(py.stdout) as { version: string; kinds: [number, string][] }) : null;
  const same = got !== null && got.version === NORM_UNICODE_BASELINE;
  if (!same)
    console.warn(
      `\n*** SKIPPED: python3 ${got === null ? "is not available" : `reports unicodedata ${got.version}`}, not ${NORM_UNICODE_BASELINE}: the non-starter table was not checked against it ***\n`,
    );

  it.skipIf(!same)(`the table is python3's unicodedata ${NORM_UNICODE_BASELINE} (NFKD, ccc != 0)`, () => {
    expect(tableEntries(NON_STARTER_RANGES_TEXT)).toEqual(got!.kinds);
  });

  it("finds the first run of more than 30 non-starters, counted on NFKD, in linear time", () => {
    expect(MAX_NON_STARTER_RUN).toBe(30);
    expect(firstLongNonStarterRun("plain text, café, ñandú")).toBeNull();
    expect(firstLongNonStarterRun(marks(30))).toBeNull();
    expect(firstLongNonStarterRun(`xy${marks(32)}`)).toEqual({ offset: 3, length: 31 });
    expect(firstLongNonStarterRun(`x${"\u0301".repeat(31)}`)).toEqual({ offset: 1, length: 31 });
    // a starter resets the count; é (U+00E9) decomposes to e + U+0301: its mark counts
    expect(firstLongNonStarterRun(`${"\u0301".repeat(30)}b${"\u0301".repeat(30)}`)).toBeNull();
    expect(firstLongNonStarterRun(`-\u00e9${"\u0301".repeat(30)}`)).toEqual({ offset: 1, length: 31 });
    // U+0F73 has class 0 but decomposes to two non-starters (U+0F71 U+0F72)
    expect(firstLongNonStarterRun(`a${"\u0f73".repeat(15)}`)).toBeNull();
    expect(firstLongNonStarterRun(`a${"\u0f73".repeat(16)}`)).toEqual({ offset: 1, length: 32 });
    // a code point not assigned in Unicode 14.0.0 counts as one (U+1E08F: a combining mark of 15.0)
    expect(firstLongNonStarterRun(`a${"\u{1e08f}\u{10efd}".repeat(16)}`)).toEqual({ offset: 1, length: 31 });
    // emoji, CJK, Hangul, astral letters are starters
    expect(
      firstLongNonStarterRun("\u{1f600}".repeat(50) + "한국어".repeat(20) + "\u{1d400}".repeat(40)),
    ).toBeNull();
    const big = marks(100000);
    const t0 = performance.now();
    expect(firstLongNonStarterRun(big)).toEqual({ offset: 1, length: 31 });
    expect(firstLongNonStarterRun(`${"ab\u0301".repeat(33000)}`)).toBeNull();
    expect(performance.now() - t0).toBeLessThan(500);
  });

  it("publish refuses a gold string norm reads holding a long run, naming its path, before normalising it", () => {
    const t0 = performance.now();
    const e = (() => {
      try {
        validateGold("exact", { value: "ok", alternatives: ["fine", marks(100000)] });
      } catch (err) {
        return err as EvidenceError;
      }
      return null;
    })();
    expect(performance.now() - t0).toBeLessThan(500);
    expect(e).toBeInstanceOf(EvidenceError);
    expect(e).toMatchObject({ code: "malformed_gold", path: "$.alternatives[1]" });
    expect(e!.message).toMatch(/more than 30 combining characters .* starting at UTF-16 offset 1/);
    validateGold("exact", { value: marks(30) });
  });

  it("the regrade's gold preparation names such a gold string a problem without normalising it", () => {
    const t0 = performance.now();
    const prepared = prepareTestSetGold([
      { grader_type: "contains_all", gold: { terms: ["x", marks(100000)] } },
      { grader_type: "exact", gold: { value: "y" } },
    ]);
    expect(performance.now() - t0).toBeLessThan(500);
    expect(prepared[0]).toMatchObject({
      code: "combining_run_too_long",
      path: "$.test_set[0].gold.terms[1]",
    });
    expect(prepared[1]).not.toHaveProperty("code");
  });
});

// probe36 V-F2: norm reads a json_fields answer's string members decoded, so "\u0301" escapes count
describe("answerLongNonStarterRun", () => {
  const marks = (n: number) => "\\u0301\\u0316".repeat(n / 2);
  it("scans the decoded string members of a json_fields answer, and only those", () => {
    expect(answerLongNonStarterRun("json_fields", `{"v":"a${marks(30)}"}`)).toBeNull();
    expect(answerLongNonStarterRun("json_fields", `{"v":"x","a b":"a${marks(32)}"}`)).toEqual({
      offset: 1,
      length: 31,
      member: '$["a b"]',
    });
    // not a member norm reads: a nested string, a key, an answer that does not parse (scores 0 unread)
    expect(answerLongNonStarterRun("json_fields", `{"v":["a${marks(32)}"]}`)).toBeNull();
    expect(answerLongNonStarterRun("json_fields", `{"a${marks(32)}":1}`)).toBeNull();
    expect(answerLongNonStarterRun("json_fields", `{"v":"a${marks(32)}"`)).toBeNull();
    // another grader's norm reads the text as written, which holds no mark
    expect(answerLongNonStarterRun("exact", `{"v":"a${marks(32)}"}`)).toBeNull();
    // a run as written is named first, in the text
    expect(answerLongNonStarterRun("exact", `a${"\u0301".repeat(31)}`)).toEqual({
      offset: 1,
      length: 31,
      member: null,
    });
  });
});
