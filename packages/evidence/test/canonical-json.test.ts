import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  EvidenceError,
  JsonFloat,
  MAX_JSON_DEPTH,
  canonicalHash,
  canonicalJson,
  canonicalJsonString,
  compareCodePoints,
  keccak256Hex,
  parseJson,
  pyFloatRepr,
} from "../src/index.js";
import { vector } from "./vectors.js";

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

function errorOf(fn: () => unknown): EvidenceError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(EvidenceError);
    return e as EvidenceError;
  }
  throw new Error("expected an EvidenceError, nothing was thrown");
}

describe("canonical-json.json vectors (SPEC 2)", () => {
  const v = vector("canonical-json.json");

  for (const c of v.cases) {
    it(`case ${c.name}: bytes and keccak`, () => {
      const bytes = canonicalJson(parseJson(c.input_json_text));
      expect(hex(bytes)).toBe(c.canonical_utf8_hex);
      expect(keccak256Hex(bytes)).toBe(c.keccak256);
    });
  }

  for (const c of v.errors) {
    it(`error ${c.name}: refused with ${c.error}`, () => {
      expect(errorOf(() => parseJson(c.input_json_text)).code).toBe(c.error);
    });
  }

  it("parses the same from UTF-8 bytes as from text", () => {
    for (const c of v.cases) {
      const fromBytes = canonicalJsonString(parseJson(new TextEncoder().encode(c.input_json_text)));
      expect(fromBytes).toBe(canonicalJsonString(parseJson(c.input_json_text)));
    }
  });
});

describe("parser: values", () => {
  it("keeps safe integers as numbers and larger ones as exact bigints", () => {
    expect(parseJson("9007199254740991")).toBe(9007199254740991);
    expect(parseJson("-9007199254740991")).toBe(-9007199254740991);
    expect(parseJson("9007199254740992")).toBe(9007199254740992n);
    expect(parseJson("-123456789012345678901234567890")).toBe(-123456789012345678901234567890n);
    expect(Object.is(parseJson("-0"), 0)).toBe(true);
  });

  it("keeps float lexemes and their binary64 values", () => {
    const f = parseJson("1.50") as JsonFloat;
    expect(f).toBeInstanceOf(JsonFloat);
    expect(f.lexeme).toBe("1.50");
    expect(f.value).toBe(1.5);
    const e = parseJson("1E2") as JsonFloat;
    expect(e.lexeme).toBe("1E2");
    expect(canonicalJsonString(e)).toBe("100.0");
  });

  it("accepts 78-digit integers and refuses 79 digits", () => {
    const max = (1n << 256n) - 1n; // 78 digits
    expect(parseJson(max.toString())).toBe(max);
    expect(parseJson(`-${"9".repeat(78)}`)).toBe(-BigInt("9".repeat(78)));
    const err = errorOf(() => parseJson(`{"a":[${"1".repeat(79)}]}`));
    expect(err.code).toBe("integer_too_large");
    expect(err.path).toBe("$.a[0]");
  });

  it('treats "__proto__" as an ordinary key', () => {
    const v = parseJson('{"__proto__":{"x":1},"a":2}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(["__proto__", "a"]);
    expect(canonicalJsonString(v)).toBe('{"__proto__":{"x":1},"a":2}');
    expect(errorOf(() => parseJson('{"__proto__":1,"__proto__":2}')).code).toBe("duplicate_key");
  });

  it("refuses invalid UTF-8 bytes and a BOM as invalid_json", () => {
    expect(errorOf(() => parseJson(new Uint8Array([0x22, 0xff, 0x22]))).code).toBe("invalid_json");
    expect(errorOf(() => parseJson(new Uint8Array([0xef, 0xbb, 0xbf, 0x31]))).code).toBe("invalid_json");
  });

  it("refuses raw lone surrogates and accepts raw pairs", () => {
    expect(errorOf(() => parseJson('"a\ud800b"')).code).toBe("lone_surrogate");
    expect(errorOf(() => parseJson('"\udc00"')).code).toBe("lone_surrogate");
    expect(parseJson('"\ud83d\ude00"')).toBe("\u{1f600}");
  });

  it.each([
    ["01", "invalid_json"],
    ["1.", "invalid_json"],
    [".5", "invalid_json"],
    ["+1", "invalid_json"],
    ["[1 2]", "invalid_json"],
    ['{"a" 1}', "invalid_json"],
    ['"\\x"', "invalid_json"],
    ['"\\u12"', "invalid_json"],
    ["", "invalid_json"],
    ["[", "invalid_json"],
    ['"abc', "invalid_json"],
    ["nul", "invalid_json"],
    ["true false", "invalid_json"],
    ["\u00a0 1", "invalid_json"],
    ["-", "invalid_json"],
    ["-NaN", "invalid_json"],
  ])("refuses %j as %s", (text, code) => {
    expect(errorOf(() => parseJson(text)).code).toBe(code);
  });
});

describe("parser: error paths", () => {
  it("names the JSON path of the offending value", () => {
    const doc = '{"winners":[{},{},{"receipt":{"tasks":[{"ordinal":NaN}]}}]}';
    const err = errorOf(() => parseJson(doc));
    expect(err.code).toBe("nan");
    expect(err.path).toBe("$.winners[2].receipt.tasks[0].ordinal");
    expect(err.message).toContain("$.winners[2].receipt.tasks[0].ordinal");
  });

  it("names the repeated key, quoting keys that are not identifiers", () => {
    expect(errorOf(() => parseJson('{"a b":{"k":1,"k":2}}')).path).toBe('$["a b"].k');
    expect(errorOf(() => parseJson('[0,{"x":[1,2,{"y":1,"y":1}]}]')).path).toBe("$[1].x[2].y");
  });

  it("points at the array element or container that is malformed", () => {
    expect(errorOf(() => parseJson('{"a":[1,2,Infinity]}')).path).toBe("$.a[2]");
    expect(errorOf(() => parseJson('{"a":[1,2,]}')).path).toBe("$.a[2]");
    expect(errorOf(() => parseJson('{"a":{"b":"\\ud800"}}')).path).toBe("$.a.b");
    expect(errorOf(() => parseJson('{"a":{"\\udc00":1}}')).path).toBe("$.a");
  });
});

// Functional tests on big inputs; the generous timeout only keeps a loaded shared machine from failing them.
describe("parser and serializer: size and depth", { timeout: 120_000 }, () => {
  it("round-trips a 50 MB string", () => {
    const big = "x".repeat(25_000_000) + 'é\u2028"\\\n' + "😀".repeat(6_000_000);
    const text = JSON.stringify({ s: big });
    const v = parseJson(text) as { s: string };
    expect(v.s.length).toBe(big.length);
    expect(v.s === big).toBe(true);
    const out = canonicalJsonString(v);
    expect(out.length).toBe(text.length);
    expect(out === text).toBe(true);
  });

  it("handles nesting up to the documented limit without overflowing the stack", () => {
    const depth = MAX_JSON_DEPTH;
    const text = "[".repeat(depth) + "]".repeat(depth);
    const v = parseJson(text);
    expect(canonicalJsonString(v)).toBe(text);
    const obj = '{"a":'.repeat(depth - 1) + "{}" + "}".repeat(depth - 1);
    expect(canonicalJsonString(parseJson(obj))).toBe(obj);
  });

  it("refuses nesting beyond the limit with a clear error, for parsing and serializing", () => {
    const text = "[".repeat(MAX_JSON_DEPTH + 1) + "]".repeat(MAX_JSON_DEPTH + 1);
    expect(errorOf(() => parseJson(text)).code).toBe("nesting_too_deep");
    expect(errorOf(() => parseJson("[".repeat(1_000_000))).code).toBe("nesting_too_deep");
    let deep: unknown[] = [];
    for (let i = 0; i < MAX_JSON_DEPTH + 5; i++) deep = [deep];
    expect(errorOf(() => canonicalJsonString(deep)).code).toBe("nesting_too_deep");
  });
});

describe("canonicalJson bytes (written as UTF-8 directly) are the UTF-8 of canonicalJsonString", () => {
  const same = (v: unknown): void => {
    const viaString = new TextEncoder().encode(canonicalJsonString(v));
    const bytes = canonicalJson(v);
    expect(bytes.constructor).toBe(Uint8Array);
    expect(bytes.byteLength).toBe(bytes.buffer.byteLength); // exactly its own bytes, not a view
    expect(hex(bytes)).toBe(hex(viaString));
  };

  it("on random JSON with any code point, escapes and astral characters", () => {
    const text = fc.oneof(
      fc.string({ unit: "binary", maxLength: 40 }),
      fc.string({
        unit: fc.constantFrom("a", "é", "\u20ac", "\u{1f600}", '"', "\\", "\n", "\u0001", "\u2028"),
        maxLength: 30,
      }),
    );
    const value = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: "small" },
        text,
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie("v"), { maxLength: 6 }),
        fc.dictionary(text, tie("v"), { maxKeys: 6 }),
      ),
    })).v;
    fc.assert(fc.property(value, same), { numRuns: 3000, seed: 11 });
  });

  it("across buffer growth (a 3 MB document of mixed strings)", () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => ({
      i,
      t: i % 3 === 0 ? "é€\u{1f600}".repeat(i % 17) : "x".repeat(i % 200),
      q: 'say "hi"\n',
    }));
    same(rows);
    same("\u{1f600}".repeat(100_000));
  });

  it("each result owns its bytes although the serializer reuses one buffer, also when a getter serializes", () => {
    const first = canonicalJson({ a: "x".repeat(100_000) });
    const second = canonicalJson({ b: [1, 2, 3] });
    expect(new TextDecoder().decode(second)).toBe('{"b":[1,2,3]}');
    expect(new TextDecoder().decode(first)).toBe(`{"a":"${"x".repeat(100_000)}"}`);
    // a getter that serializes while the outer serialization is writing gets a buffer of its own
    const inner = { z: "inner" };
    const outer = {
      get k() {
        return canonicalJsonString(inner) + new TextDecoder().decode(canonicalJson(inner));
      },
      m: "é".repeat(40_000),
    };
    const expected = `{"k":${JSON.stringify('{"z":"inner"}{"z":"inner"}')},"m":"${"é".repeat(40_000)}"}`;
    expect(new TextDecoder().decode(canonicalJson(outer))).toBe(expected);
    expect(canonicalHash(outer)).toBe(keccak256Hex(new TextEncoder().encode(expected)));
    expect(canonicalHash(outer)).toBe(keccak256Hex(canonicalJson(outer)));
  });

  it("refuses what canonicalJsonString refuses, with the same code and path", () => {
    for (const bad of [{ a: ["\ud800"] }, { n: Number.NaN }, { f: () => 1 }, [1, 2 ** 60]]) {
      const a = errorOf(() => canonicalJsonString(bad));
      const b = errorOf(() => canonicalJson(bad));
      expect([b.code, b.path]).toEqual([a.code, a.path]);
    }
  });
});

describe("serializer", () => {
  it("sorts keys by code point, not UTF-16 unit", () => {
    expect(canonicalJsonString({ "\u{1f600}": 1, "\ue000": 2, "\uffff": 3, z: 4 })).toBe(
      '{"z":4,"\ue000":2,"\uffff":3,"\u{1f600}":1}',
    );
    expect(compareCodePoints("\u{10000}", "\uffff")).toBeGreaterThan(0);
    expect(compareCodePoints("a", "ab")).toBeLessThan(0);
    expect(compareCodePoints("b", "a")).toBeGreaterThan(0);
  });

  it("objects that share a first key but not the rest are each sorted correctly", () => {
    const docs = [
      { b: 1, a: 2 },
      { b: 1, c: 2 },
      { b: 1, a: 2, c: 3 },
      { "b\u0000a": 1, c: 2 },
      { b: 1, "a\u0000c": 2 },
      { b: 3, a: 4 },
    ];
    expect(canonicalJsonString(docs)).toBe(
      '[{"a":2,"b":1},{"b":1,"c":2},{"a":2,"b":1,"c":3},{"b\\u0000a":1,"c":2},{"a\\u0000c":2,"b":1},{"a":4,"b":3}]',
    );
    // more distinct shapes than the cache holds
    const many = Array.from({ length: 5000 }, (_, i) => ({ z: i, [`k${i}`]: 0 }));
    const text = canonicalJsonString(many);
    expect(text.startsWith('[{"k0":0,"z":0},{"k1":0,"z":1},')).toBe(true);
    expect(text.endsWith(',{"k4999":0,"z":4999}]')).toBe(true);
  });

  it("renders Python float repr at the notation boundaries", () => {
    const cases: [number, string][] = [
      [1, "1.0"],
      [0.1, "0.1"],
      [0.0001, "0.0001"],
      [0.00001, "1e-05"],
      [1e15, "1000000000000000.0"],
      [1e16, "1e+16"],
      [123456789012345680000, "1.2345678901234568e+20"],
      [-0, "-0.0"],
      [5e-324, "5e-324"],
      [1.7976931348623157e308, "1.7976931348623157e+308"],
      [-2.5e-7, "-2.5e-07"],
      [9999999999999998, "9999999999999998.0"],
      [1.5e100, "1.5e+100"],
    ];
    for (const [x, s] of cases) expect(pyFloatRepr(x)).toBe(s);
  });

  it("renders non-integer JS numbers as floats and integers as integers", () => {
    expect(canonicalJsonString([1, 0.5, -0, 2n ** 70n, JsonFloat.of(2)])).toBe(
      "[1,0.5,0,1180591620717411303424,2.0]",
    );
  });

  it("refuses values JSON cannot carry, naming their path", () => {
    expect(errorOf(() => canonicalJsonString({ a: [1, undefined] })).path).toBe("$.a[1]");
    expect(errorOf(() => canonicalJsonString({ a: NaN })).code).toBe("nan");
    expect(errorOf(() => canonicalJsonString({ a: -Infinity })).code).toBe("infinity");
    expect(errorOf(() => canonicalJsonString({ a: 2 ** 60 })).code).toBe("unsupported_value");
    expect(errorOf(() => canonicalJsonString({ a: new Map() })).code).toBe("unsupported_value");
    expect(errorOf(() => canonicalJsonString({ b: "x\ud800" })).code).toBe("lone_surrogate");
    expect(errorOf(() => canonicalJsonString({ "\udc00": 1 })).code).toBe("lone_surrogate");
    expect(errorOf(() => canonicalJsonString(10n ** 80n)).code).toBe("integer_too_large");
  });

  it("is idempotent: canonical text parses back to the same canonical text", () => {
    const text = '{"b":[1.0,2e-7,{"y":"\\u2028","x":null}],"a":true,"\\ud83d\\ude00":-0.0}';
    const once = canonicalJsonString(parseJson(text));
    expect(canonicalJsonString(parseJson(once))).toBe(once);
  });
});
