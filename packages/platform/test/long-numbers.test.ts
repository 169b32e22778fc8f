/**
 * probe36 A-F7: `plainDecimal` trimmed a number's fraction with `/0+$/`, which V8 backtracks in time
 * quadratic in a run of zeros before a digit (`0.` and 60,000 zeros and `1`: 7 s; `1e-100000`: 13 s,
 * the service blocked meanwhile), and wrote out an exponent's zeros with no bound (`0e600000000`: a
 * string past the engine's limit, a RangeError). Every number the service reads reaches it
 * (`sentNumberText`: REST and MCP integer fields, the JSON-RPC id, publish options; `unkeptNumberError`:
 * a dataset's numbers). A number spelling out more than `MAX_PLAIN_DECIMAL_DIGITS` digits is now
 * refused before any digit is moved, naming its field, and the trims are index loops.
 */
import { parseJson, type JsonFloat } from "@bench-bounty/evidence";
import { describe, expect, it } from "vitest";
import { checkDataset } from "../src/dataset.js";
import {
  MAX_PLAIN_DECIMAL_DIGITS,
  normaliseTolerance,
  plainDecimal,
  plainDecimalWidth,
  sentNumberText,
  unkeptNumberError,
} from "../src/gold.js";

/** The lossless parser's value of a JSON number lexeme (a JsonFloat: the lexeme kept). */
const float = (lexeme: string) => parseJson(lexeme) as JsonFloat;

/** Milliseconds `f` takes, and its result. */
function timed<T>(f: () => T): { ms: number; result: T } {
  const t0 = performance.now();
  const result = f();
  return { ms: performance.now() - t0, result };
}

const zeros = (n: number) => "0".repeat(n);

/** The hostile lexemes of the finding (each seconds, hours or a RangeError before). */
const HOSTILE: [string, string][] = [
  ["1e-100000", "1e-100000"],
  ["0.<60,000 zeros>1", `0.${zeros(60_000)}1`],
  ["0e600000000", "0e600000000"],
  ["0.<3 MB of zeros>", `0.${zeros(3_000_000)}`],
];

describe("a number spelling out too many digits is refused, in linear time (probe36 A-F7)", () => {
  it.each(HOSTILE)("sentNumberText of %s: refused naming the field, quickly", (_, lexeme) => {
    const { ms, result } = timed(() =>
      sentNumberText("$.offset", float(lexeme), { asString: false, integer: true }),
    );
    expect(result).toEqual({
      error: expect.stringMatching(
        /^\$\.offset [0-9.e-]{1,40}(\.\.\.)? is a number of more than 1000 digits written out in plain decimal/,
      ),
    });
    expect(ms).toBeLessThan(2000);
  });

  it.each(HOSTILE)("unkeptNumberError of %s (a dataset's number): refused naming its path", (_, lexeme) => {
    const f = float(lexeme);
    const { ms, result } = timed(() => unkeptNumberError("$.rows[0].payload.x", f.lexeme, f.value));
    expect(result).toMatch(/^\$\.rows\[0\]\.payload\.x .* is a number of more than 1000 digits/);
    expect(ms).toBeLessThan(2000);
  });

  it("a dataset whose row holds 1e-100000: the row's issue inexact_number on its field", () => {
    const body = parseJson(
      '{"name":"n","rows":[{"decision_ts":"2026-05-01","label":"a","payload":{"x":1e-100000}}]}',
    );
    const { ms, result } = timed(() => checkDataset(body));
    expect(result.errors.map((e) => [e.row_index, e.field, e.code])).toEqual([
      [0, "payload.x", "inexact_number"],
    ]);
    expect(result.errors[0]!.message).toContain(
      "$.rows[0].payload.x 1e-100000 is a number of more than 1000",
    );
    expect(ms).toBeLessThan(2000);
  });

  it("a tolerance option of 1e-100000: refused naming tolerance", () => {
    expect(normaliseTolerance(float("1e-100000"))).toEqual({
      error: expect.stringMatching(/^tolerance 1e-100000 is a number of more than 1000 digits/),
    });
  });

  it("plainDecimal is linear: 999 digits of zeros before a 1, fast; past the bound it throws, never a RangeError", () => {
    const { ms, result } = timed(() => {
      let out = "";
      for (let i = 0; i < 1000; i++) out = plainDecimal(`0.${zeros(997)}1`);
      return out;
    });
    expect(result).toBe(`0.${zeros(997)}1`);
    expect(ms).toBeLessThan(2000);
    expect(() => plainDecimal("0e600000000")).toThrow(/spells out more than 1000 digits/);
    expect(() => plainDecimal("1e-100000")).toThrow(/spells out more than 1000 digits/);
  });

  it("the width counts the mantissa's digits and the exponent's zeros, building nothing", () => {
    expect(plainDecimalWidth("1e-5")).toBe(5);
    expect(plainDecimalWidth("1.5e16")).toBe(17);
    expect(plainDecimalWidth("000.100")).toBe(6);
    expect(plainDecimalWidth("0e600000000")).toBe(600_000_001);
    expect(plainDecimalWidth(`1e${"9".repeat(400)}`)).toBe(Infinity);
    expect(plainDecimalWidth("x")).toBeNull();
    expect(MAX_PLAIN_DECIMAL_DIGITS).toBe(1000);
  });

  it("every double's form, and numbers within the bound, are kept as before", () => {
    expect(plainDecimal("5e-324")).toBe(`0.${zeros(323)}5`);
    expect(plainDecimal("1.7976931348623157e308")).toBe(`17976931348623157${zeros(292)}`);
    expect(plainDecimal("-0.000")).toBe("0");
    expect(plainDecimal("-001.2500e1")).toBe("-12.5");
    expect(plainDecimal("0012")).toBe("12");
    expect(plainDecimal("1.5e+16")).toBe("15000000000000000");
    expect(plainDecimal(".5")).toBe("0.5");
    expect(sentNumberText("tolerance", float("1e-07"))).toBe("0.0000001");
    expect(sentNumberText("$.offset", float("1E2"), { integer: true })).toBe("100");
    // 999 zeros and a 1 spell 1000 digits with the `0`: within the bound, judged as before
    expect(sentNumberText("$.offset", float(`0.${zeros(998)}1`), { integer: true })).toEqual({
      error: expect.stringMatching(/is not a whole number$/),
    });
  });
});
