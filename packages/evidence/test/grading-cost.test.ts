/**
 * What grading costs, and that what it does depends on the answer alone (probe28 A-F6: the work
 * depended on the gold, so finalize's latency told a competitor the integer digits of a private numeric
 * gold and whether a private exact label was ASCII, while the benchmark was open; SPEC 6.1).
 * probe27 A-F1: a numeric answer whose integer part has more digits than any published gold + tolerance
 * (`NUMERIC_GOLD_MAX_INT_DIGITS`) scores 0 without its exact decimal being built (a 56,816-digit answer
 * was parsed whole with BigInt, on the server's event loop), and every answer gets the credit the exact
 * comparison gives. An ASCII text is never normalised (NFKC leaves it as it is), any other is normalised
 * once, whatever the gold.
 */
import { describe, expect, it, vi } from "vitest";
import { rng } from "./rng.js";

const parsed: string[] = [];
/** How many times two decimals were compared by aligning their scales (`compareDecimals`). */
const aligned = { count: 0 };
vi.mock("../src/decimal.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../src/decimal.js")>();
  return {
    ...real,
    parseExactDecimal: (s: string, ...rest: [string?, boolean?]) => {
      parsed.push(s);
      return real.parseExactDecimal(s, ...rest);
    },
    compareDecimals: (...args: Parameters<typeof real.compareDecimals>) => {
      aligned.count++;
      return real.compareDecimals(...args);
    },
  };
});

const evidence = await import("../src/index.js");
const { grade, prepareGold, gradePrepared, parseExactDecimal, validateGold, withinTolerance } = evidence;
const BOUND = evidence.NUMERIC_GOLD_MAX_INT_DIGITS;

/** The answers `gradePrepared` parsed, per answer, grading each against `gold`. */
function parsedAnswers(gold: unknown, answers: readonly string[]): string[] {
  const g = prepareGold("numeric", gold);
  parsed.length = 0;
  for (const a of answers) gradePrepared(g, a);
  return [...parsed];
}

/** How many times `String.prototype.normalize` ran on one of `subjects` while `f` ran. */
function normalizeCalls(subjects: readonly string[], f: () => void): number {
  const normalize = vi.spyOn(String.prototype, "normalize");
  try {
    f();
    return normalize.mock.contexts.filter((s) => subjects.includes(String(s))).length;
  } finally {
    normalize.mockRestore();
  }
}

describe("numeric grading of answers far beyond every published gold (probe27 A-F1, probe28 A-F6)", () => {
  it("an answer with more integer digits than the bound scores 0 unparsed, whatever the gold", () => {
    const long = [
      "1" + "3".repeat(56_815),
      "-" + "9".repeat(10_000) + ".5",
      "  +0" + "1".repeat(BOUND + 1) + "  ",
    ];
    for (const gold of [
      { value: "12.5", tolerance: "0.75" },
      { value: "9".repeat(BOUND) },
      { value: "-" + "9".repeat(BOUND - 1), tolerance: "1" },
    ]) {
      for (const answer of long) expect(grade("numeric", gold, answer).toString()).toBe("0/1");
      expect(parsedAnswers(gold, long)).toEqual([]);
    }
    // leading zeros aside: at the bound the answer is parsed (and graded exactly)
    const at = "0".repeat(300) + "9".repeat(BOUND);
    expect(parsedAnswers({ value: "9".repeat(BOUND) }, [at])).toEqual([at]);
    expect(grade("numeric", { value: "9".repeat(BOUND) }, at).toString()).toBe("1/1");
  });

  it("parses the same answers for golds that differ only in their integer digits (probe28 A-F6)", () => {
    // the probe's answers: L integer digits and 99,000 fractional ones, against a private 12345
    const answers = [1, 2, 4, 5, 6, 7, 20, BOUND - 1, BOUND, BOUND + 1, BOUND + 5].map(
      (L) => "9".repeat(L) + "." + "1".repeat(99_000),
    );
    const seen = parsedAnswers({ value: "12345" }, answers);
    expect(seen.map((a) => a.indexOf("."))).toEqual([1, 2, 4, 5, 6, 7, 20, BOUND - 1, BOUND]);
    for (const gold of [
      { value: "1" },
      { value: "0.001", tolerance: "0" },
      { value: "123456" },
      { value: "-12345", tolerance: "99999" },
      { value: 10_000_000_000_000_000 },
      { value: "9".repeat(BOUND) },
    ])
      expect(parsedAnswers(gold, answers), JSON.stringify(gold).slice(0, 40)).toEqual(seen);
  });

  it("publish refuses a gold past the bound, naming the field; grading and pack checks accept it", () => {
    expect(() => validateGold("numeric", { value: "9".repeat(BOUND) }, "$.gold")).not.toThrow();
    expect(() => validateGold("numeric", { value: "9".repeat(BOUND - 1), tolerance: "0.5" })).not.toThrow();
    expect(() => validateGold("numeric", { value: "-" + "9".repeat(BOUND), tolerance: 1 }, "$.gold")).toThrow(
      /^\$\.gold\.value: numeric gold \|value\| \+ tolerance has 101 integer digits, more than the 100/,
    );
    expect(() => validateGold("numeric", { value: 1, tolerance: "1" + "0".repeat(BOUND) }, "$.gold")).toThrow(
      /^\$\.gold\.tolerance: /,
    );
    // fractional digits as written: at most FRAC each, the value's and the tolerance's
    const FRAC = evidence.NUMERIC_GOLD_MAX_FRAC_DIGITS;
    const frac = (n: number): string => "0." + "0".repeat(n - 1) + "1";
    expect(() =>
      validateGold("numeric", { value: frac(FRAC), tolerance: frac(FRAC) }, "$.gold"),
    ).not.toThrow();
    expect(() => validateGold("numeric", { value: frac(FRAC + 1) }, "$.gold")).toThrow(
      /^\$\.gold\.value: numeric gold value has 101 fractional digits, more than the 100/,
    );
    expect(() => validateGold("numeric", { value: "1." + "0".repeat(FRAC + 1) }, "$.gold")).toThrow(
      /^\$\.gold\.value: /,
    );
    expect(() => validateGold("numeric", { value: 1, tolerance: frac(FRAC + 1) }, "$.gold")).toThrow(
      /^\$\.gold\.tolerance: numeric gold tolerance has 101 fractional digits/,
    );
    expect(grade("numeric", { value: frac(FRAC + 1) }, frac(FRAC + 1)).toString()).toBe("1/1");
    // prepareGold (what grades, and what the verifier regrades a pack with) keeps SPEC 5 as written
    const big = "1" + "0".repeat(150);
    expect(grade("numeric", { value: big }, big + ".0").toString()).toBe("1/1");
    expect(grade("numeric", { value: big }, "9".repeat(151)).toString()).toBe("0/1");
    expect(grade("numeric", { value: big }, "1" + "0".repeat(151)).toString()).toBe("0/1");
  });

  it("gives the credit of the exact comparison on both sides of the bound and of every gold's digit count", () => {
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
      ["9".repeat(BOUND), "0"],
      ["9".repeat(BOUND - 1), "1"],
      ["-" + "9".repeat(BOUND - 1) + ".5", "0.5"],
      ["1" + "0".repeat(BOUND), "0"],
      ["-" + "5".repeat(BOUND + 1), "5".repeat(BOUND + 1)],
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
      "9".repeat(BOUND),
      "-" + "9".repeat(BOUND),
      "9".repeat(BOUND) + ".5",
      "1" + "0".repeat(BOUND),
      "-1" + "0".repeat(BOUND),
      "1" + "0".repeat(BOUND + 1),
      "-" + "1".repeat(BOUND + 1),
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

describe("answers whose digits or exponent reach far past every gold are not expanded (probe36 V-F10)", () => {
  const FRAC = evidence.NUMERIC_GOLD_MAX_FRAC_DIGITS;

  it("numeric: fraction digits past the gold bound are never parsed, whatever the gold", () => {
    // the prober's answer: "0." and 99,990 digits (14 ms each, 30x an ordinary answer)
    const answers = ["0." + "7".repeat(99_990), "-12." + "0".repeat(50_000), "+.5" + "0".repeat(9_000) + "1"];
    for (const gold of [
      { value: "0.7" },
      { value: "12", tolerance: "0.5" },
      { value: "0.5", tolerance: "0" },
    ]) {
      const seen = parsedAnswers(gold, answers);
      expect(seen).toHaveLength(3);
      // sign, integer digits, the point and FRAC fraction digits at most
      for (const a of seen) expect(a.length - a.indexOf(".") - 1).toBeLessThanOrEqual(FRAC);
    }
  });

  it("numeric: the credit is the exact comparison's for long answers on both sides of every grid point", () => {
    const next = rng(3610);
    const digits = (n: number): string =>
      Array.from({ length: n }, () => String(Math.floor(next() * 10))).join("");
    /** A decimal as plain text with exactly its scale's fraction digits. */
    const text = (d: { coef: bigint; scale: number }): string => {
      const m = (d.coef < 0n ? -d.coef : d.coef).toString().padStart(d.scale + 1, "0");
      return `${d.coef < 0n ? "-" : ""}${m.slice(0, m.length - d.scale)}.${m.slice(m.length - d.scale)}`;
    };
    let within = 0;
    let cases = 0;
    for (let trial = 0; trial < 300; trial++) {
      // a gold and a tolerance of up to FRAC fraction digits; answers at its ends, one grid step either
      // side, and those with tails of zeros or of other digits past FRAC
      const scale = Math.floor(next() * (FRAC + 1));
      const sign = next() < 0.5 ? -1n : 1n;
      const g = { coef: sign * BigInt(digits(1 + Math.floor(next() * 3)) + digits(scale)), scale };
      const t = { coef: BigInt(Math.floor(next() * 3)), scale };
      const [value, tolerance] = [text(g), text(t)];
      for (const k of [-1n, 0n, 1n])
        for (const end of [g.coef - t.coef, g.coef + t.coef]) {
          const base = text({ coef: (end + k) * 10n ** BigInt(FRAC - scale), scale: FRAC });
          for (const tail of ["", "0".repeat(40), "0".repeat(30) + "1", digits(60), "9".repeat(50)]) {
            const answer = base + tail;
            const exact = withinTolerance(
              parseExactDecimal(answer),
              parseExactDecimal(value),
              parseExactDecimal(tolerance),
            );
            expect(
              grade("numeric", { value, tolerance }, answer).toString(),
              `${answer} vs ${value} +- ${tolerance}`,
            ).toBe(exact ? "1/1" : "0/1");
            cases++;
            if (exact) within++;
          }
        }
    }
    // the cases did land on both sides
    expect(within).toBeGreaterThan(cases / 10);
    expect(cases - within).toBeGreaterThan(cases / 10);
  });

  it("json_fields: an answer number is compared by its value key, never aligned to the gold's scale", () => {
    const gold = prepareGold("json_fields", { fields: { v: 1.5, w: 250, n: 0 } });
    aligned.count = 0;
    for (const v of ["1e-99999", "1e99999", "15e-1", "1.50", "-0e5", "0.15e1"])
      gradePrepared(gold, `{"v":${v},"w":${v},"n":${v}}`);
    expect(aligned.count).toBe(0);
    expect(gradePrepared(gold, '{"v":0.15e1,"w":25.0e1,"n":-0e99}').toString()).toBe("1/1");
    expect(gradePrepared(gold, '{"v":1e-99999,"w":2.5000001,"n":1e-100001}').toString()).toBe("0/1");
  });

  it("json_fields: the value key agrees with the exact comparison over random lexemes", () => {
    const next = rng(3611);
    const lexeme = (): string => {
      const int = next() < 0.3 ? "0" : String(Math.floor(next() * 1000));
      const frac =
        next() < 0.5 ? "" : "." + "0".repeat(Math.floor(next() * 3)) + String(Math.floor(next() * 100));
      const exp = next() < 0.4 ? "" : `e${["", "+", "-"][Math.floor(next() * 3)]}${Math.floor(next() * 6)}`;
      return `${next() < 0.3 ? "-" : ""}${int}${frac}${exp}`;
    };
    let equal = 0;
    for (let i = 0; i < 3000; i++) {
      const [a, b] = [lexeme(), lexeme()];
      const same =
        evidence.compareDecimals(parseExactDecimal(a, "$", true), parseExactDecimal(b, "$", true)) === 0;
      expect(evidence.decimalLexemeKey(a) === evidence.decimalLexemeKey(b), `${a} vs ${b}`).toBe(same);
      if (same) equal++;
      expect(evidence.decimalKey(parseExactDecimal(a, "$", true))).toBe(evidence.decimalLexemeKey(a));
    }
    expect(equal).toBeGreaterThan(10);
  });
});

describe("text grading normalises by the answer alone (probe28 A-F6)", () => {
  const fdfa = "\uFDFA".repeat(2_000);
  const ascii = "Caf" + "e".repeat(100_000);

  it("exact: an ASCII and a non-ASCII target cost the same normalisations", () => {
    const calls = (value: string, answer: string) => {
      const gold = prepareGold("exact", { value });
      return normalizeCalls([answer], () => gradePrepared(gold, answer));
    };
    // the probe's pair: labels cafe and café, answered with U+FDFA
    for (const answer of [fdfa, "caf\u00e9", "CAFE\u0301"]) {
      expect(calls("cafe", answer), JSON.stringify(answer.slice(0, 8))).toBe(1);
      expect(calls("caf\u00e9", answer)).toBe(1);
    }
    // an ASCII answer is its own NFKC: never normalised, whatever the targets (the cost bound kept)
    expect(calls("cafe", ascii)).toBe(0);
    expect(calls("caf\u00e9", ascii)).toBe(0);
    expect(grade("exact", { value: "cafe" }, "CAFE\u0301").toString()).toBe("0/1");
    expect(grade("exact", { value: "caf\u00e9" }, "CAFE\u0301").toString()).toBe("1/1");
  });

  it("json_fields: the answer's string is normalised once whatever the gold's fields and their types", () => {
    for (const answer of [fdfa, ascii]) {
      const text = JSON.stringify({ a: answer, b: [1, "x"], c: 2.5 });
      const counts = [{ a: "x" }, { a: "\u00e9" }, { a: 5 }, { a: [answer] }, { z: 1 }].map((fields) => {
        const gold = prepareGold("json_fields", { fields });
        return normalizeCalls([answer], () => gradePrepared(gold, text));
      });
      expect(counts, answer.slice(0, 4)).toEqual(answer === ascii ? [0, 0, 0, 0, 0] : [1, 1, 1, 1, 1]);
    }
  });

  it("json_fields: the same credits (strings by norm, numbers by value, the rest canonical)", () => {
    const fields = { a: "x", b: 2, c: [1, "x"], d: true, e: "2" };
    const answer = '{"a":" X ","b":2.00,"c":[1,"x"],"d":"true","e":2,"f":"\uFDFA"}';
    expect(grade("json_fields", { fields }, answer).toString()).toBe("3/5");
    expect(grade("json_fields", { fields: { a: null } }, '{"a":null}').toString()).toBe("1/1");
    expect(grade("json_fields", { fields: { a: null } }, '{"a":"null"}').toString()).toBe("0/1");
  });

  it("contains_all: every term is looked for, whichever is missing", () => {
    const answer = "alpha beta";
    const searches = (terms: string[]) => {
      const includes = vi.spyOn(String.prototype, "includes");
      try {
        grade("contains_all", { terms }, answer);
        return includes.mock.contexts.filter((s) => String(s) === answer).length;
      } finally {
        includes.mockRestore();
      }
    };
    expect(searches(["zeta", "alpha"])).toBe(2);
    expect(searches(["alpha", "zeta"])).toBe(2);
    expect(searches(["alpha", "beta"])).toBe(2);
    expect(grade("contains_all", { terms: ["zeta", "alpha"] }, answer).toString()).toBe("0/1");
    expect(grade("contains_all", { terms: ["beta", "alpha"] }, answer).toString()).toBe("1/1");
  });

  it("gives the credit of norm on mixed strings (differential, seeded)", () => {
    const { norm } = evidence;
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
      for (const target of ["k", "fi", "a", "xii", "2", "ak", "a k"])
        expect(grade("exact", { value: target }, s).toString()).toBe(n === target ? "1/1" : "0/1");
    }
  });
});
