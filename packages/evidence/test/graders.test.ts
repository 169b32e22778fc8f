import { describe, expect, it } from "vitest";
import { EvidenceError, GRADER_TYPES, canonicalJsonString, grade, norm, validateGold } from "../src/index.js";
import { vector } from "./vectors.js";

const g = vector("graders.json");

describe("graders.json vectors (SPEC 5)", () => {
  for (const c of g.norm) {
    it(`norm(${JSON.stringify(c.input)})`, () => {
      expect(norm(c.input)).toBe(c.norm);
    });
  }

  g.cases.forEach((c: { grader_type: string; gold: unknown; answer: string; credit: string }, i: number) => {
    it(`case ${i} ${c.grader_type}: ${JSON.stringify(c.answer).slice(0, 40)} -> ${c.credit}`, () => {
      expect(grade(c.grader_type, c.gold, c.answer).toString()).toBe(c.credit);
    });
  });

  g.malformed_gold.forEach((c: { grader_type: string; gold: unknown; error: string }, i: number) => {
    it(`malformed gold ${i} (${c.grader_type} ${canonicalJsonString(c.gold)}) is refused`, () => {
      try {
        validateGold(c.grader_type, c.gold);
        throw new Error("not refused");
      } catch (e) {
        expect(e).toBeInstanceOf(EvidenceError);
        expect((e as EvidenceError).code).toBe(c.error);
      }
      // grading with malformed gold is an error too, never a silent 0
      expect(() => grade(c.grader_type, c.gold, "x")).toThrow(EvidenceError);
    });
  });
});

describe("grader_types block", () => {
  it("is canonically identical to the block in packs/small.json", () => {
    const pack = vector("packs/small.json");
    expect(canonicalJsonString(GRADER_TYPES)).toBe(canonicalJsonString(pack.benchmark.grader_types));
  });

  it("every documented example grades as documented", () => {
    for (const [type, d] of Object.entries(GRADER_TYPES)) {
      for (const ex of d.examples) expect(grade(type, ex.gold, ex.answer).toString()).toBe(ex.credit);
    }
  });

  it("is frozen", () => {
    expect(Object.isFrozen(GRADER_TYPES)).toBe(true);
    expect(Object.isFrozen(GRADER_TYPES.exact.examples[0])).toBe(true);
  });
});

describe("gold validation errors name the path", () => {
  it.each([
    ["exact", { value: "x", alternatives: ["y", " "] }, "$.gold.alternatives[1]"],
    ["exact", { value: "x", valeu: "y" }, "$.gold.valeu"],
    ["numeric", { value: "1", tolerance: "1e-3" }, "$.gold.tolerance"],
    ["contains_all", { terms: ["a", 3] }, "$.gold.terms[1]"],
    ["json_fields", { fields: { a: 1 }, extra: true }, "$.gold.extra"],
  ])("%s %j -> %s", (type, gold, path) => {
    try {
      validateGold(type, gold, "$.gold");
      throw new Error("not refused");
    } catch (e) {
      expect((e as EvidenceError).code).toBe("malformed_gold");
      expect((e as EvidenceError).path).toBe(path);
    }
  });

  it("an unknown grader type is its own error", () => {
    expect(() => validateGold("regex", { value: "x" })).toThrow(
      expect.objectContaining({ code: "unknown_grader" }),
    );
  });
});

describe("grading details beyond the vectors", () => {
  it("an unanswered task (null) scores 0", () => {
    expect(grade("exact", { value: "x" }, null).toString()).toBe("0/1");
    expect(grade("json_fields", { fields: { a: 1 } }, null).toString()).toBe("0/1");
  });

  // probe36 V-F1: the exponent cap applied to the exponent as written, so 0e-100001 (exactly 0) scored 0
  it("json_fields reads a number's exact value whatever its written exponent (probe36 V-F1)", () => {
    const credit = (gold: unknown, a: string) =>
      grade("json_fields", { fields: { a: gold } }, `{"a":${a}}`).toString();
    expect(credit(0, "0e-100001")).toBe("1/1");
    expect(credit(0, "0e100001")).toBe("1/1");
    expect(credit(0, "-0e999999")).toBe("1/1");
    expect(credit(0, "0.0e-123456789012345678901234567890")).toBe("1/1");
    expect(credit(1, `1${"0".repeat(100_001)}e-100001`)).toBe("1/1");
    expect(credit(1, `0.${"0".repeat(100_000)}1e100001`)).toBe("1/1");
    expect(credit(1200, "12.00e2")).toBe("1/1");
    expect(credit(0, "1e-100001")).toBe("0/1");
    expect(credit(1, "12e100000")).toBe("0/1");
    expect(credit(1, "1e123456789012345678901234567890")).toBe("0/1");
    const t0 = performance.now();
    expect(credit(1, `1${"0".repeat(99_990)}e-9999999999999999`)).toBe("0/1");
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it("json_fields compares numbers by exact value across integer, bigint and float forms", () => {
    expect(
      grade(
        "json_fields",
        { fields: { n: 12345678901234567890n } },
        '{"n": 12345678901234567890.0}',
      ).toString(),
    ).toBe("1/1");
    expect(
      grade(
        "json_fields",
        { fields: { n: 12345678901234567890n } },
        '{"n": 12345678901234567891}',
      ).toString(),
    ).toBe("0/1");
    expect(grade("json_fields", { fields: { x: 0.1 } }, '{"x": 0.10000000000000001}').toString()).toBe("0/1");
  });

  it("json_fields reads an answer's nested floats by canonical JSON", () => {
    expect(grade("json_fields", { fields: { o: { v: 1.5 } } }, '{"o": {"v": 1.50}}').toString()).toBe("1/1");
  });

  it("a hostile json_fields answer scores 0 instead of throwing", () => {
    expect(grade("json_fields", { fields: { a: 1 } }, "[".repeat(20000)).toString()).toBe("0/1");
    expect(grade("json_fields", { fields: { a: 1 } }, `{"a": ${"9".repeat(100)}}`).toString()).toBe("0/1");
    expect(grade("json_fields", { fields: { a: 0, b: 1 } }, '{"a": 1e-200000, "b": 1}').toString()).toBe(
      "1/2",
    );
  });

  // probe26 B-F1: a 100,000-digit answer was graded by reducing fractions (Euclid's gcd: 143 s); exact
  // decimals at one scale give the same credits, exactly, at any length
  it("numeric and json_fields grade long decimals exactly: equal, within and just past the tolerance", () => {
    const long = "3".repeat(50_000);
    const value = `1.${long}`; // 1.333... (50,000 threes)
    expect(grade("numeric", { value }, `${value}000`).toString()).toBe("1/1");
    expect(grade("numeric", { value }, `+${value}`).toString()).toBe("1/1");
    expect(grade("numeric", { value }, `${value}1`).toString()).toBe("0/1");
    const tolerance = `0.${"0".repeat(49_999)}1`; // 10^-50000
    expect(grade("numeric", { value, tolerance }, `1.${"3".repeat(49_999)}4`).toString()).toBe("1/1");
    expect(grade("numeric", { value, tolerance }, `1.${"3".repeat(49_999)}2`).toString()).toBe("1/1");
    expect(grade("numeric", { value, tolerance }, `1.${"3".repeat(49_999)}45`).toString()).toBe("0/1");
    expect(grade("numeric", { value, tolerance }, `1.${"3".repeat(49_999)}15`).toString()).toBe("0/1");
    expect(grade("numeric", { value: "-0.5", tolerance: "0.25" }, "-.75").toString()).toBe("1/1");
    expect(grade("numeric", { value: "-0.5", tolerance: "0.25" }, "-0.750001").toString()).toBe("0/1");
    let seed = 7; // pseudo-random digits: Euclid's gcd took 143 s on such an answer
    const random = Array.from({ length: 99_990 }, () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return String(Math.floor(seed / 65536) % 10);
    }).join("");
    const answer = `0.${random}1`;
    expect(grade("numeric", { value: 9007199254740992n }, answer).toString()).toBe("0/1");
    expect(grade("numeric", { value: answer, tolerance: "0" }, ` ${answer}0 `).toString()).toBe("1/1");
    const zeros = "0".repeat(50_000);
    const fields = { fields: { a: 2, b: "x" } };
    expect(grade("json_fields", fields, `{"a": 2.${zeros}, "b": "x"}`).toString()).toBe("1/1");
    expect(grade("json_fields", fields, `{"a": 2.${zeros}1, "b": "x"}`).toString()).toBe("1/2");
    expect(grade("json_fields", fields, `{"a": 1.${"9".repeat(50_000)}, "b": "x"}`).toString()).toBe("1/2");
    expect(grade("json_fields", { fields: { a: 1500 } }, '{"a": 1.5e3}').toString()).toBe("1/1");
  });

  it("numeric trims only White_Space (not U+200B) before matching", () => {
    expect(grade("numeric", { value: 12 }, "\u200b12").toString()).toBe("0/1");
    expect(grade("numeric", { value: 12 }, "\u0085 12 \u2029").toString()).toBe("1/1");
  });
});

describe("validateGold: a numeric gold decimal string far past the digit bounds (probe36 V-F8)", () => {
  it("is refused from its text alone, naming the field, before a number is made of it", () => {
    for (const [gold, path, says] of [
      [{ value: "1" + "7".repeat(1_000_000) }, "$.gold.value", /value has 1000001 integer digits/],
      [{ value: "-000" + "7".repeat(2_000) }, "$.gold.value", /value has 2000 integer digits/],
      [{ value: "0." + "7".repeat(1_000_000) }, "$.gold.value", /value has 1000000 fractional digits/],
      [{ value: "1", tolerance: "9".repeat(5_000) }, "$.gold.tolerance", /tolerance has 5000 integer digits/],
    ] as const) {
      let e: unknown;
      try {
        validateGold("numeric", gold, "$.gold");
      } catch (x) {
        e = x;
      }
      expect(e).toBeInstanceOf(EvidenceError);
      expect((e as EvidenceError).path).toBe(path);
      expect((e as Error).message).toMatch(says);
    }
    // near the bounds the exact checks still speak
    expect(() => validateGold("numeric", { value: "1".repeat(101) }, "$.gold")).toThrow(
      /\|value\| \+ tolerance has 101 integer digits/,
    );
  });
});
