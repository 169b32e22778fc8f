/**
 * The pack limits (`PACK_LIMITS`, the verifier README's "Limits" table) and their checkers: what
 * the platform calls at dataset upload and publish so that no benchmark's pack is beyond what a
 * verifier reads.
 */
import { describe, expect, it } from "vitest";
import {
  GOLD_DEPTH_IN_PACK,
  MAX_JSON_DEPTH,
  PACK_LIMITS,
  testSetLimitProblems,
  valueLimitProblems,
} from "../src/index.js";

/** `{a: {a: ... {a: "x"}}}` with `n` objects. */
function nested(n: number): unknown {
  let v: unknown = "x";
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
}

const row = (over: Record<string, unknown> = {}) => ({
  ordinal: 0,
  prompt: "p",
  gold: { value: "x" },
  salt: "ab".repeat(32),
  visibility: "public" as const,
  grader_type: "exact",
  ...over,
});

describe("PACK_LIMITS", () => {
  it("states the verifier README's limits", () => {
    expect(PACK_LIMITS).toMatchObject({
      maxPackBytes: 512 * 1024 * 1024,
      maxStringLength: 4 * 1024 * 1024,
      maxDepth: MAX_JSON_DEPTH,
      maxSafeInteger: 2 ** 53 - 1,
      maxIntegerDigits: 78,
      maxDecimalLength: 100,
      maxLeafCount: 2 ** 32 - 1,
    });
    expect(Object.isFrozen(PACK_LIMITS)).toBe(true);
  });
});

describe("valueLimitProblems", () => {
  it("accepts values within every limit", () => {
    expect(valueLimitProblems({ a: ["x".repeat(1000), 2 ** 53 - 1, 10n ** 77n, null, true] })).toEqual([]);
    expect(valueLimitProblems("x".repeat(PACK_LIMITS.maxStringLength))).toEqual([]);
  });

  it("names an over-long string and an over-long key by their path", () => {
    const long = "x".repeat(PACK_LIMITS.maxStringLength + 1);
    const p = valueLimitProblems({ payload: { items: ["ok", long] }, [long]: 1 }, { path: "row" });
    expect(p.map((x) => [x.path, x.code, x.limit])).toEqual([
      ["row", "key_too_long", "maxStringLength"],
      ["row.payload.items[1]", "string_too_long", "maxStringLength"],
    ]);
    expect(p[0]!.message).toContain(String(PACK_LIMITS.maxStringLength));
  });

  it("counts the containers above the value against the nesting limit", () => {
    expect(valueLimitProblems(nested(MAX_JSON_DEPTH))).toEqual([]);
    const deep = valueLimitProblems(nested(MAX_JSON_DEPTH - GOLD_DEPTH_IN_PACK + 1), {
      path: "label",
      depthAbove: GOLD_DEPTH_IN_PACK,
    });
    expect(deep).toHaveLength(1);
    expect(deep[0]!.code).toBe("nesting_too_deep");
    expect(deep[0]!.path).toMatch(/^label(\.a)+$/);
    // walked without recursion: far deeper than the call stack allows
    expect(valueLimitProblems(nested(200_000))[0]!.code).toBe("nesting_too_deep");
  });

  it("refuses a JS integer beyond 2^53-1 and a bigint beyond 78 digits, not a 78-digit one", () => {
    const p = valueLimitProblems({ n: 2 ** 60, b: 10n ** 78n, ok: 10n ** 77n, f: 1.5 }, { path: "label" });
    expect(p.map((x) => [x.path, x.code])).toEqual([
      ["label.n", "unsafe_integer"],
      ["label.b", "integer_too_large"],
    ]);
  });

  it("stops at maxProblems", () => {
    expect(valueLimitProblems(Array(50).fill(2 ** 60), { maxProblems: 3 })).toHaveLength(3);
  });
});

describe("testSetLimitProblems", () => {
  it("accepts a small test set", () => {
    expect(testSetLimitProblems([row(), row({ ordinal: 1 })])).toEqual([]);
  });

  it("names the row and the field of a prompt or gold beyond a limit", () => {
    const long = "y".repeat(PACK_LIMITS.maxStringLength + 1);
    const p = testSetLimitProblems([
      row(),
      row({ ordinal: 1, prompt: long }),
      row({ ordinal: 2, gold: { value: 2 ** 60 } }),
    ]);
    expect(p.map((x) => [x.ordinal, x.path, x.code])).toEqual([
      [1, "prompt", "string_too_long"],
      [2, "gold.value", "unsafe_integer"],
    ]);
  });

  it("places a gold at its depth in the pack", () => {
    const ok = testSetLimitProblems([row({ gold: nested(MAX_JSON_DEPTH - GOLD_DEPTH_IN_PACK) })]);
    expect(ok).toEqual([]);
    const over = testSetLimitProblems([row({ gold: nested(MAX_JSON_DEPTH - GOLD_DEPTH_IN_PACK + 1) })]);
    expect(over[0]!.code).toBe("nesting_too_deep");
  });

  it("refuses a test set whose block is over half the pack limit, naming the limit", () => {
    // 70 rows of 4 Mi characters: each within the string limit, together 280 Mi bytes
    const big = "z".repeat(PACK_LIMITS.maxStringLength);
    const rows = Array.from({ length: 70 }, (_, i) => row({ ordinal: i, prompt: big }));
    const p = testSetLimitProblems(rows);
    expect(p.map((x) => [x.ordinal, x.code, x.limit])).toEqual([
      [null, "test_set_too_large", "maxTestSetBytes"],
    ]);
  });
});
