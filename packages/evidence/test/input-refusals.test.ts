/**
 * Bad input handed to the public functions (found by a newcomer's probe): every refusal is an
 * EvidenceError with a code and the path of the offending value, never a TypeError, and never a
 * silent answer.
 */
import { describe, expect, it } from "vitest";
import {
  EvidenceError,
  canonicalJsonString,
  commitTestSet,
  leafFromParts,
  merkleProof,
  merkleRoot,
  merkleRootBytes,
  packHash,
  packHashes,
  parseJson,
  promptHash,
  rankingDigest,
  type TestSetRow,
} from "../src/index.js";
import { vector } from "./vectors.js";

/** The EvidenceError `fn` throws (fails the test for anything else, or for no error). */
function refusal(fn: () => unknown): EvidenceError {
  try {
    fn();
  } catch (e) {
    expect(e, String(e)).toBeInstanceOf(EvidenceError);
    return e as EvidenceError;
  }
  throw new Error("expected a refusal, got a result");
}

const LEAF = `0x${"ab".repeat(32)}`;
const HEX = "cd".repeat(32);
const row = (over: Partial<TestSetRow> = {}): TestSetRow => ({
  ordinal: 0,
  prompt: "p",
  gold: { value: "x" },
  salt: "11".repeat(32),
  visibility: "private",
  grader_type: "exact",
  ...over,
});

describe("prompts", () => {
  it("refuses a prompt with an unpaired surrogate (no UTF-8 encoding) instead of hashing U+FFFD", () => {
    for (const prompt of ["a\ud800b", "a\udc00", "\udc00\ud800", `${"x".repeat(1000)}\ud800`]) {
      const e = refusal(() => commitTestSet([row(), row({ ordinal: 1, prompt })]));
      expect(e.code).toBe("lone_surrogate");
      expect(e.path).toBe("$[1].prompt");
      expect(refusal(() => promptHash(prompt)).code).toBe("lone_surrogate");
    }
    // the same text with the replacement character itself is a different, valid prompt
    expect(promptHash("a\ufffdb")).toMatch(/^[0-9a-f]{64}$/);
    // a surrogate pair is fine
    expect(promptHash("a\ud83d\ude00b")).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses a prompt that is not a string instead of hashing String(value)", () => {
    for (const bad of [42, {}, null, undefined, ["ab"]]) {
      const e = refusal(() => promptHash(bad as unknown as string));
      expect(e.code).toBe("bad_test_set");
      expect(e.message).toMatch(/a prompt must be a string, got /);
    }
  });
});

describe("Merkle functions", () => {
  it("refuses leaves that are not an array", () => {
    for (const bad of [undefined, null, "abc", 42, {}]) {
      for (const fn of [
        () => merkleRoot(bad as never),
        () => merkleRootBytes(bad as never),
        () => merkleProof(bad as never, 0),
      ]) {
        const e = refusal(fn);
        expect(e.code).toBe("schema");
        expect(e.message).toMatch(/^leaves must be an array, got /);
      }
    }
  });

  it("names the index of a hole, a null or a non-byte leaf", () => {
    // eslint-disable-next-line no-sparse-arrays -- the hole is the input under test
    expect(refusal(() => merkleRoot([LEAF, , LEAF] as never)).path).toBe("$[1]");
    expect(refusal(() => merkleRoot([LEAF, null as never])).path).toBe("$[1]");
    const bytes = new Uint8Array(32);
    expect(refusal(() => merkleRootBytes([bytes, null as never])).path).toBe("$[1]");
    // a plain array of numbers is not bytes (300 would silently become 44)
    const e = refusal(() => merkleRootBytes([bytes, Array(32).fill(300) as never]));
    expect(e.path).toBe("$[1]");
    expect(e.message).toMatch(/a leaf must be 32 bytes \(a Uint8Array\), got an array/);
  });

  it("tells a non-integer index and an empty list apart from an out-of-range index", () => {
    expect(refusal(() => merkleProof([LEAF], "0" as never)).message).toMatch(
      /the leaf index must be an integer, got the string "0"/,
    );
    expect(refusal(() => merkleProof([LEAF], 1.5)).message).toMatch(/must be an integer/);
    expect(refusal(() => merkleProof([], 0)).message).toBe("zero leaves have no proof");
    expect(refusal(() => merkleProof([LEAF], 1)).message).toBe("leaf index 1 out of range 0..0");
  });

  it("leafFromParts refuses parts that are not strings, naming them", () => {
    expect(refusal(() => leafFromParts(0, null as never, HEX)).path).toBe("$.prompt_hash");
    expect(refusal(() => leafFromParts(0, HEX, undefined as never)).path).toBe("$.gold_leaf");
    expect(refusal(() => leafFromParts("0" as never, HEX, HEX)).message).toMatch(
      /the ordinal must be a safe integer, got the string "0"/,
    );
    expect(refusal(() => leafFromParts(0n as never, HEX, HEX)).message).toMatch(/got the integer 0/);
  });
});

describe("canonical JSON", () => {
  it("names a cycle as a cycle, at the shortest path where the value recurs", () => {
    const a: Record<string, unknown> = { x: 1 };
    a.self = a;
    const e = refusal(() => canonicalJsonString(a));
    expect(e.code).toBe("unsupported_value");
    expect(e.message).toBe(
      "$.self: the value contains itself (it is the object 1 level up): a cycle is not JSON",
    );
    const list: unknown[] = [1];
    const b = { list, other: 2 };
    list.push({ deeper: list });
    const e2 = refusal(() => commitTestSet([row({ gold: { value: b } as never })]));
    expect(e2.path).toBe("$[0].gold.value.list[1].deeper");
    expect(e2.message).toMatch(
      /: the value contains itself \(it is the object 2 levels up\): a cycle is not JSON$/,
    );
  });

  it("still calls deep but acyclic nesting too deep", () => {
    let v: unknown = 1;
    for (let i = 0; i < 10_001; i++) v = [v];
    expect(refusal(() => canonicalJsonString(v)).code).toBe("nesting_too_deep");
  });

  it("names a byte-order mark and shows invisible characters by code point", () => {
    for (const input of [Buffer.from("\ufeff{}"), "\ufeff{}"]) {
      const e = refusal(() => parseJson(input));
      expect(e.code).toBe("invalid_json");
      expect(e.message).toBe(
        "a byte-order mark (U+FEFF) at offset 0: JSON text must not hold one (save the file as UTF-8 without BOM)",
      );
    }
    expect(refusal(() => parseJson(Buffer.from("[\u00e9]"))).message).toBe(
      '$[0]: unexpected character U+00E9 "\u00e9" at offset 1, expected a value',
    );
    expect(refusal(() => parseJson("x")).message).toBe(
      'unexpected character "x" at offset 0, expected a value',
    );
  });

  it("a truncated or broken literal is named with the offset where it breaks, not at its first letter (probe39 C-N1)", () => {
    const cases: [string, string][] = [
      ["nul", "unexpected end of input at offset 3, inside the literal at offset 0 (expected null)"],
      ["tru", "unexpected end of input at offset 3, inside the literal at offset 0 (expected true)"],
      ["fals", "unexpected end of input at offset 4, inside the literal at offset 0 (expected false)"],
      ["n", "unexpected end of input at offset 1, inside the literal at offset 0 (expected null)"],
      [
        '{"a":tru',
        "$.a: unexpected end of input at offset 8, inside the literal at offset 5 (expected true)",
      ],
      ["nulx", 'unexpected character "x" at offset 3, inside the literal at offset 0 (expected null)'],
      [
        '{"a":tru}',
        '$.a: unexpected character "}" at offset 8, inside the literal at offset 5 (expected true)',
      ],
      [
        "[1, fa\u00e9]",
        '$[1]: unexpected character U+00E9 "\u00e9" at offset 6, inside the literal at offset 4 (expected false)',
      ],
      // a lone first letter before something else is a word, not a literal
      ["this is not json", 'unexpected character "t" at offset 0, expected a value'],
    ];
    for (const [input, message] of cases)
      for (const form of [input, Buffer.from(input)]) {
        const e = refusal(() => parseJson(form));
        expect(e.code, input).toBe("invalid_json");
        expect(e.message, input).toBe(message);
      }
  });

  it("parseJson refuses input that is neither a string nor bytes, saying so", () => {
    for (const bad of [undefined, null, 42, {}, new Uint16Array([0x3131]), new ArrayBuffer(2)]) {
      const e = refusal(() => parseJson(bad as never));
      expect(e.code).toBe("invalid_json");
      expect(e.message).toMatch(/^input must be a string or UTF-8 bytes \(a Uint8Array\), got /);
    }
    expect(parseJson(Buffer.from("[1]"))).toEqual([1]);
  });
});

describe("pack hashing", () => {
  const small = vector("packs/small.json");

  it("refuses a pack or a rank derivation that is not an object", () => {
    for (const bad of [null, undefined, 42, "pack", []]) {
      expect(refusal(() => packHash(bad as never)).message).toMatch(/^a pack must be an object, got /);
      expect(refusal(() => rankingDigest(bad as never)).message).toMatch(
        /^a rank derivation must be an object, got /,
      );
    }
    expect(packHash(small)).toBe(small.pack_hash);
  });

  it("refuses a malformed canonical source instead of failing inside it", () => {
    const e = refusal(() => packHashes(small, { bytes: new Uint8Array(1), spans: null as never }));
    expect(e.message).toMatch(/source must be \{ bytes: Uint8Array, spans: Map \}/);
  });
});

/** The EvidenceError `parseJson(text, opts)` throws (the test fails if it accepts the text). */
function parseRefusal(text: string, opts: Parameters<typeof parseJson>[1]): EvidenceError {
  try {
    parseJson(text, opts);
  } catch (x) {
    if (x instanceof EvidenceError) return x;
    throw x;
  }
  throw new Error("accepted");
}

// re-probe 6 O3: a request body of 300,000 distinct keys cost the server 3-5 s of parsing; request
// bodies are parsed with `maxMembers` / `maxItems`, counted while parsing
describe("parseJson maxMembers and maxItems", () => {
  const keys = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":0`).join(",")}}`;
  it("refuses the member past maxMembers at the object's path, where it stopped", () => {
    const text = `{"a":{"b":${keys(300_000)}}}`;
    const e = parseRefusal(text, { maxMembers: 256 });
    expect(e).toBeInstanceOf(EvidenceError);
    expect(e.code).toBe("too_many_members");
    expect(e.path).toBe("$.a.b");
    expect(e.message).toContain("more than 256 members");
    // stopped at member 257: right after the comma that follows `"k255":0`
    const at = Number(/refused at offset (\d+)/.exec(e.message)![1]);
    expect(at).toBe(text.indexOf('"k256"'));
    expect(parseJson(keys(256), { maxMembers: 256 })).toHaveProperty("k255", 0);
  });
  it("refuses the item past maxItems; nested arrays count on their own", () => {
    expect(() => parseJson(`[[${"0,".repeat(10)}0]]`, { maxItems: 10 })).toThrow(
      expect.objectContaining({ code: "too_many_items", path: "$[0]" }),
    );
    expect(parseJson(`[${"[0],".repeat(9)}[${"0,".repeat(9)}0]]`, { maxItems: 10 })).toHaveLength(10);
  });
  // probe 7 N1: 1,236 objects of 255 distinct keys each pass maxMembers; the whole body is bounded
  it("refuses the value past maxValues (members and items of the whole document) where it stopped", () => {
    const obj = (o: number) => `{${Array.from({ length: 255 }, (_, i) => `"${o}k${i}":0`).join(",")}}`;
    const text = `{"pile":[${Array.from({ length: 1_236 }, (_, o) => obj(o)).join(",")}]}`;
    const e = parseRefusal(text, { maxMembers: 256, maxValues: 10_000 });
    expect(e.code).toBe("too_many_values");
    expect(e.message).toContain("more than 10000 values");
    // the values read before it stopped: members (one ":" each) and items (one "{" each past the root's)
    const at = Number(/refused at offset (\d+)/.exec(e.message)![1]);
    const head = text.slice(0, at);
    const visited = (head.match(/:/g)?.length ?? 0) + (head.match(/\{/g)?.length ?? 0) - 1;
    // (10,001 attached, plus the open "pile" member and the open object read but not yet attached)
    expect(visited).toBeLessThanOrEqual(10_001 + 2);
    expect(at).toBeLessThan(text.length / 20);
    expect(e.path).toMatch(/^\$\.pile\[\d+\]/);
    // a document of exactly maxValues values passes: [0,...] of 9,999 items in {"a": ...}
    expect(parseJson(`{"a":[${"0,".repeat(9_998)}0]}`, { maxValues: 10_000 })).toHaveProperty("a");
    expect(() => parseJson(`{"a":[${"0,".repeat(9_999)}0]}`, { maxValues: 10_000 })).toThrow(
      expect.objectContaining({ code: "too_many_values", path: "$.a" }),
    );
  });
  // probe 7 N1 for real: the cost is the distinct names (object shapes), not the value count
  it("refuses the first member name past maxKeyNames (distinct names of the whole document) at its path", () => {
    const obj = (o: number) => `{${Array.from({ length: 255 }, (_, i) => `"${o}k${i}":0`).join(",")}}`;
    const text = `{"pile":[${Array.from({ length: 1_175 }, (_, o) => obj(o)).join(",")}]}`;
    // the probe's shape passes the value budget of the answers bodies
    expect(() => parseJson(text, { maxMembers: 256, maxValues: 301_024 })).not.toThrow();
    const e = parseRefusal(text, { maxMembers: 256, maxValues: 301_024, maxKeyNames: 256 });
    expect(e).toBeInstanceOf(EvidenceError);
    expect(e.code).toBe("too_many_key_names");
    expect(e.message).toContain("more than 256 distinct member names");
    // "pile" and the first object's 255 names are 256: the second object's first name is the 257th
    expect(e.path).toBe('$.pile[1]["1k0"]');
    const at = Number(/refused at offset (\d+)/.exec(e.message)![1]);
    expect(at).toBe(text.indexOf('"1k0"') + '"1k0"'.length);
    // names repeated across objects count once: the same shape with one set of 255 names passes
    const same = `{"pile":[${Array.from({ length: 1_175 }, () => obj(0)).join(",")}]}`;
    expect((parseJson(same, { maxKeyNames: 256 }) as { pile: unknown[] }).pile).toHaveLength(1_175);
    // exactly maxKeyNames names pass; an escaped spelling of a name met before is the same name
    expect(parseJson(`{"a":{"b":0},"b":{"a":1}}`, { maxKeyNames: 2 })).toEqual({ a: { b: 0 }, b: { a: 1 } });
    expect(parseJson(`[{"a":0},{"\\u0061":1}]`, { maxKeyNames: 1 })).toEqual([{ a: 0 }, { a: 1 }]);
    expect(() => parseJson(`[{"a":0},{"b":1}]`, { maxKeyNames: 1 })).toThrow(
      expect.objectContaining({ code: "too_many_key_names", path: "$[1].b" }),
    );
  });
  it("without the options nothing changes (no limit)", () => {
    expect(Object.keys(parseJson(keys(5_000)) as object)).toHaveLength(5_000);
  });
});
