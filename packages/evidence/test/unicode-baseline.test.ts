/**
 * The Unicode baseline of norm's inputs (probe34 B-F1): the generated table of the code points assigned in
 * Unicode 14.0.0 against python3's unicodedata (when it is that version), the lookup, and publish's gold
 * rule (`validateGold`) refusing a string norm reads that holds a code point beyond it.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  EvidenceError,
  NORM_UNICODE_BASELINE,
  baselineAssignedRanges,
  firstBeyondBaseline,
  grade,
  isBaselineAssigned,
  validateGold,
} from "../src/index.js";

const PY = `
import json, unicodedata
r = []
s = None
for cp in range(0x110000):
    a = unicodedata.category(chr(cp)) != "Cn"
    if a and s is None: s = cp
    if not a and s is not None: r.append([s, cp - 1]); s = None
if s is not None: r.append([s, 0x10FFFF])
print(json.dumps({"version": unicodedata.unidata_version, "ranges": r}))
`;

describe("the Unicode baseline of norm (probe34 B-F1)", () => {
  const py = spawnSync("python3", ["-c", PY], { encoding: "utf8", maxBuffer: 1 << 24 });
  const got = py.status === 0 ? (JSON.parse(py.stdout) as { version: string; ranges: number[][] }) : null;
  const same = got !== null && got.version === NORM_UNICODE_BASELINE;
  if (!same)
    console.warn(
      `\n*** SKIPPED: python3 ${got === null ? "is not available" : `reports unicodedata ${got.version}`}, not ${NORM_UNICODE_BASELINE}: the assigned-code-point table was not checked against it ***\n`,
    );

  it.skipIf(!same)(`the table is python3's unicodedata ${NORM_UNICODE_BASELINE} (category != Cn)`, () => {
    expect(baselineAssignedRanges()).toEqual(got!.ranges);
  });

  it("the baseline is 14.0.0 and the lookup reads the ranges", () => {
    expect(NORM_UNICODE_BASELINE).toBe("14.0.0");
    expect(isBaselineAssigned(0x41)).toBe(true);
    expect(isBaselineAssigned(0x378)).toBe(false); // unassigned in every version so far
    expect(isBaselineAssigned(0x1e030)).toBe(false); // MODIFIER LETTER CYRILLIC SMALL A, Unicode 15.0
    expect(isBaselineAssigned(0xa7cb)).toBe(false); // LATIN CAPITAL LETTER RAMS HORN, Unicode 16.0
    expect(isBaselineAssigned(0x1faf6)).toBe(true); // HEART HANDS, Unicode 14.0
    expect(isBaselineAssigned(0xd800)).toBe(true); // a surrogate (Cs)
    expect(isBaselineAssigned(0xe000)).toBe(true); // private use (Co)
    expect(isBaselineAssigned(0xfffe)).toBe(false); // a noncharacter (Cn)
    expect(isBaselineAssigned(0x10ffff)).toBe(false);
    expect(firstBeyondBaseline("plain ASCII")).toBeNull();
    expect(firstBeyondBaseline("\u{1f600} ok а")).toBeNull();
    expect(firstBeyondBaseline("x\u{1f600}\u{1e030}")).toEqual({
      code_point: 0x1e030,
      label: "U+1E030",
      offset: 3,
    });
    expect(firstBeyondBaseline("\u0378")?.label).toBe("U+0378");
  });

  const refused = (grader: string, gold: unknown, path: string): void => {
    let err: unknown = null;
    try {
      validateGold(grader, gold);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EvidenceError);
    expect((err as EvidenceError).code).toBe("malformed_gold");
    expect((err as EvidenceError).path).toBe(path);
    expect((err as EvidenceError).message).toMatch(/U\+1E030 .*not assigned in Unicode 14\.0\.0/);
  };

  it("publish refuses a gold string norm reads that holds a code point beyond the baseline, naming its path", () => {
    refused("exact", { value: "\u{1e030}" }, "$.value");
    refused("exact", { value: "а", alternatives: ["b", "x\u{1e030}"] }, "$.alternatives[1]");
    refused("contains_all", { terms: ["a", "\u{1e030}b"] }, "$.terms[1]");
    refused("json_fields", { fields: { n: 1, name: "\u{1e030}" } }, "$.fields.name");
    // strings norm does not read are left alone (compared by canonical JSON)
    expect(() => validateGold("json_fields", { fields: { list: ["\u{1e030}"] } })).not.toThrow();
    expect(() => validateGold("exact", { value: "а \u{1f600}" })).not.toThrow();
    // grading (and so verifying) is SPEC 5 as written: the runtime's tables decide
    expect(() => grade("exact", { value: "\u{1e030}" }, "x")).not.toThrow();
  });
});
