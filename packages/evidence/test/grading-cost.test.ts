/**
 * probe27 A-F1: a numeric answer whose integer part has more digits than gold + tolerance's scores 0
 * without its exact decimal being built (a 56,816-digit answer was parsed whole with BigInt, on the
 * server's event loop), and every answer gets the credit the exact comparison gives. A-F6: an `exact`
 * answer that keeps a non-ASCII character under `norm` scores 0 against all-ASCII gold without being
 * normalised (100,000 x U+FDFA: NFKC 18x, ~130 ms), and never where `norm` would have matched.
 */
import { describe, expect, it, vi } from "vitest";

const parsed: string[] = [];
vi.mock("../src/decimal.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../src/decimal.js")>();
  return {
    ...real,
    parseExactDecimal: (s: string, ...rest: [string?, boolean?]) => {
      parsed.push(s);
      return real.parseExactDecimal(s, ...rest);
    },
  };
});

const evidence = await import("../src/index.js");
const { grade, prepareGold, parseExactDecimal, withinTolerance } = evidence;

describe("numeric grading of answers far beyond gold +- tolerance (probe27 A-F1)", () => {
  it("a long all-digit answer scores 0 unparsed", () => {
    const gold = prepareGold("numeric", { value: "12.5", tolerance: "0.75" });
    parsed.length = 0;
    for (const answer of ["1" + "3".repeat(56_815), "-" + "9".repeat(10_000) + ".5", "  +0000123  "])
      expect(grade("numeric", { value: "12.5", tolerance: "0.75" }, answer).toString()).toBe("0/1");
    expect(gold.kind).toBe("numeric");
    // the gold's own texts only (prepareGold); no answer was parsed
    expect(parsed.every((s) => s.length < 10)).toBe(true);
    expect(parsed).not.toContain("+0000123");
  });

  it("gives the credit of the exact comparison on both sides of every digit-count boundary", () => {
    const golds: [string, string][] = [
      ["0", "0"],
      ["0", "0.999"],
      ["0", "1"],
      ["9", "0"],
      ["9", "0.5"],
      ["9", "1"],
      ["-99.5", "0.5"],
      ["99.5", "0.49"],
      ["0.001", "0"],
      ["999", "1"],
      ["1000", "0"],
      ["-1000", "9000"],
    ];
    const answers = [
      "0",
      "-0",
      "00.5",
      "1",
      "-1",
      "9",
      "10",
      "-10",
      "99",
      "100",
      "-100",
      "999",
      "1000",
      "1000.0",
      "10000",
      "-10000",
      "0009999.9",
      "9999",
      "10001",
      ".5",
      "99.",
      "+99.99",
      "100.000000001",
    ];
    for (const [value, tolerance] of golds)
      for (const a of answers) {
        const exact = withinTolerance(
          parseExactDecimal(a),
          parseExactDecimal(value),
          parseExactDecimal(tolerance),
        );
        expect(grade("numeric", { value, tolerance }, a).toString(), `${a} vs ${value} +- ${tolerance}`).toBe(
          exact ? "1/1" : "0/1",
        );
      }
  });
});

describe("exact grading of answers that keep a non-ASCII character under norm (probe27 A-F6)", () => {
  it("a 100,000 x U+FDFA answer against ASCII gold scores 0 unnormalised", () => {
    const normalize = vi.spyOn(String.prototype, "normalize");
    try {
      const answer = "\uFDFA".repeat(100_000);
      expect(grade("exact", { value: "l7", alternatives: ["seven"] }, answer).toString()).toBe("0/1");
      expect(grade("json_fields", { fields: { a: "x" } }, JSON.stringify({ a: answer })).toString()).toBe(
        "0/1",
      );
      // at most the one character's NFKD (once per process), never the answer's NFKC
      expect(normalize.mock.contexts.every((s) => String(s).length <= 2)).toBe(true);
    } finally {
      normalize.mockRestore();
    }
  });

  it("never decides for a string whose norm is ASCII: every code point alone and in context", () => {
    const { norm, normKeepsNonAscii } = evidence;
    const nonAscii = /[^\u0000-\u007f]/;
    for (let cp = 0x80; cp < 0x110000; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      if (!normKeepsNonAscii(c)) continue;
      for (const s of [c, `a${c}`, `${c}\u0301`, `e${c}\u0323`, ` ${c} `, `\u1100${c}`])
        if (!nonAscii.test(norm(s))) throw new Error(`U+${cp.toString(16)} in ${JSON.stringify(s)}`);
    }
  });

  it("gives the credit of norm on mixed strings (differential, seeded)", () => {
    const { norm, normKeepsNonAscii } = evidence;
    const alphabet = [
      ..."aZk İıKÅﬁｆ²Ⅻ\u00a0\u00a8\u00b4\u2000\u3000\u0301\u0323\u0345\u1100\u1161\u11a8Σσςαᾆ\uFDFA\u{1d400}\u{1d41a}",
    ];
    let seed = 27;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let k = 0; k < 5_000; k++) {
      let s = "";
      for (let j = rand(8); j >= 0; j--) s += alphabet[rand(alphabet.length)];
      const n = norm(s);
      if (normKeepsNonAscii(s)) expect(/[^\u0000-\u007f]/.test(n), JSON.stringify(s)).toBe(true);
      for (const target of ["k", "fi", "a", "xii", "2", "ak", "a k"])
        expect(grade("exact", { value: target }, s).toString()).toBe(n === target ? "1/1" : "0/1");
    }
  });
});
