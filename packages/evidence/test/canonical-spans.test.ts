/**
 * The fast paths of a pack's verification hold the same verdicts as the general ones:
 * - `parseJson(bytes, { canonicalSpans })` records a container only when its source bytes
 *   are exactly `canonicalJson(value)` (SPEC 2);
 * - `packHashes(pack, source)` gives the same digests from the served bytes as from a
 *   serialization;
 * - `validateEvidencePack` (fast predicates first) reports exactly what the full zod
 *   schema reports;
 * - the UTF-8 decoding of `parseJson` refuses what a fatal `TextDecoder` refuses.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  EvidenceError,
  canonicalJson,
  canonicalJsonString,
  evidencePackSchema,
  isJsonObject,
  packHash,
  packHashes,
  parseJson,
  rankingDigest,
  receiptHash,
  schemaProblems,
  validateEvidencePack,
  type CanonicalSpan,
  type EvidencePack,
} from "../src/index.js";
import { vector, vectorBytes } from "./vectors.js";

const enc = new TextEncoder();
const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

/** Parse with every container recorded (up to depth 64) and check each recorded span. */
function spansOf(bytes: Uint8Array): { value: unknown; spans: Map<object, CanonicalSpan> } {
  const spans = new Map<object, CanonicalSpan>();
  const value = parseJson(bytes, { canonicalSpans: { maxDepth: 64, out: spans } });
  for (const [node, sp] of spans)
    expect(hex(bytes.subarray(sp.start, sp.end))).toBe(hex(canonicalJson(node)));
  return { value, spans };
}

/** True when the root container of `text` is recorded as canonical. */
function rootCanonical(text: string): boolean {
  const { value, spans } = spansOf(enc.encode(text));
  return spans.has(value as object);
}

describe("parseJson canonicalSpans (SPEC 2)", () => {
  it("records every container of canonical text, at the right byte offsets (non-ASCII too)", () => {
    const text = '{"a":[1,{"z":null,"é":"€\\n"}],"b":{"\u{1f600}":[true,-5,1.5,1e-07]},"c":[],"d":{}}';
    const { value, spans } = spansOf(enc.encode(text));
    const v = value as { a: [number, object]; b: object; c: unknown[]; d: object };
    for (const node of [v, v.a, v.a[1], v.b, v.c, v.d]) expect(spans.has(node)).toBe(true);
    expect(canonicalJsonString(v)).toBe(text);
  });

  it("records nothing that is not canonical", () => {
    const notCanonical = [
      '{"b":1,"a":2}', // key order
      '{ "a":1}', // whitespace
      "[1,2 ]",
      '{"a":"\\u0041"}', // an escape canonical JSON does not write
      '{"a":"\\/"}',
      '{"a":"\\u001F"}', // upper-case hex
      '{"a":"\\u000a"}', // \n has a short escape
      "[1e2]", // 100.0
      "[1.50]",
      "[-0]",
      '{"k":{"b":1,"a":2}}', // a child's defect makes the parent non-canonical
    ];
    for (const t of notCanonical) expect(rootCanonical(t), t).toBe(false);
    const canonical = [
      '{"a":"x\\"y\\\\z\\n\\t\\u0001\\u001f"}',
      "[1.0,100.0,1e+16,-5,0]",
      '{"":1,"a":2}',
      "[[],{}]",
    ];
    for (const t of canonical) expect(rootCanonical(t), t).toBe(true);
    // sibling containers are independent
    const { value, spans } = spansOf(enc.encode('[{"a":1},{"b":1,"a":2},[ 1]]'));
    const arr = value as object[];
    expect([spans.has(arr[0]!), spans.has(arr[1]!), spans.has(arr[2]!), spans.has(arr)]).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });

  it("on random documents, canonical or re-formatted: every recorded span is the canonical JSON", () => {
    const text = fc.oneof(
      fc.string({ unit: "binary", maxLength: 20 }),
      fc.string({
        unit: fc.constantFrom("a", "é", "\u{1f600}", '"', "\\", "\n", "\u0001", "/"),
        maxLength: 12,
      }),
    );
    const value = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: "small" },
        text,
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie("v"), { maxLength: 5 }),
        fc.dictionary(text, tie("v"), { maxKeys: 5 }),
      ),
    })).v;
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 2 }), (v, indent) => {
        let src: string;
        try {
          src = canonicalJsonString(v);
        } catch {
          return; // lone surrogates and the like: nothing to parse
        }
        // canonical text: the root is recorded; JSON.stringify text (unsorted keys, other
        // float spellings, indentation) may or may not be, but every span recorded is exact
        const canonical = spansOf(enc.encode(src));
        if (Array.isArray(canonical.value) || isJsonObject(canonical.value))
          expect(canonical.spans.has(canonical.value)).toBe(true);
        spansOf(enc.encode(JSON.stringify(JSON.parse(src), null, indent)));
      }),
      { numRuns: 1500, seed: 5 },
    );
  });

  it("records only what is asked: depth, or the value of a named key", () => {
    const bytes = enc.encode('{"a":{"receipt":{"x":[1]},"y":{"z":1}}}');
    const spans = new Map<object, CanonicalSpan>();
    const v = parseJson(bytes, {
      canonicalSpans: { maxDepth: 0, keys: new Set(["receipt"]), out: spans },
    }) as {
      a: { receipt: { x: number[] }; y: object };
    };
    expect(new Set(spans.keys())).toEqual(new Set([v, v.a.receipt]));
    // a string input records nothing (spans are byte offsets of a byte input)
    const none = new Map<object, CanonicalSpan>();
    parseJson('{"a":1}', { canonicalSpans: { maxDepth: 5, out: none } });
    expect(none.size).toBe(0);
  });
});

describe("UTF-8 decoding of parseJson", () => {
  const code = (bytes: number[]): string => {
    try {
      parseJson(new Uint8Array(bytes));
      return "ok";
    } catch (e) {
      return e instanceof EvidenceError ? e.code : String(e);
    }
  };
  it("refuses invalid UTF-8 and a BOM, reads valid multi-byte text", () => {
    expect(code([0x22, 0xc0, 0x80, 0x22])).toBe("invalid_json"); // overlong
    expect(code([0x22, 0xed, 0xa0, 0x80, 0x22])).toBe("invalid_json"); // encoded surrogate
    expect(code([0x22, 0xff, 0x22])).toBe("invalid_json");
    expect(code([0xef, 0xbb, 0xbf, 0x31])).toBe("invalid_json"); // BOM
    expect(parseJson(enc.encode('"é€\u{1f600}"'))).toBe("é€\u{1f600}");
  });
});

for (const name of ["small", "zero-winner"] as const) {
  describe(`packs/${name}.json: fast paths`, () => {
    const expected = vector(`packs/${name}.expected.json`);
    const bytes = vectorBytes(`packs/${name}.json`);

    it("packHashes from the served bytes equals packHashes from a serialization", () => {
      // served bytes are canonical JSON (evidencePackBytes); the vector file is indented
      const served = canonicalJson(parseJson(bytes));
      const spans = new Map<object, CanonicalSpan>();
      const pack = parseJson(served, {
        canonicalSpans: { maxDepth: 1, keys: new Set(["receipt"]), out: spans },
      }) as unknown as EvidencePack;
      for (const k of ["benchmark", "test_set", "winners", "rank_derivation"] as const)
        expect(spans.has(pack[k] as object), k).toBe(true);
      const fromBytes = packHashes(pack, { bytes: served, spans });
      const serialized = packHashes(pack);
      expect(fromBytes.pack_hash).toBe(expected.values.pack_hash);
      expect(fromBytes.ranking_digest).toBe(expected.values.ranking_digest);
      expect(serialized.pack_hash).toBe(fromBytes.pack_hash);
      expect([...fromBytes.receipt_hashes]).toEqual([...serialized.receipt_hashes]);
      for (const [r, h] of fromBytes.receipt_hashes) expect(h).toBe(receiptHash(r as never));
    });

    it("a re-formatted pack (whitespace after commas) falls back to serialization, same digests", () => {
      const text = new TextDecoder().decode(canonicalJson(parseJson(bytes))).replace(/,"/g, ', "');
      const spaced = enc.encode(text);
      const spans = new Map<object, CanonicalSpan>();
      const pack = parseJson(spaced, {
        canonicalSpans: { maxDepth: 1, keys: new Set(["receipt"]), out: spans },
      }) as unknown as EvidencePack;
      expect(spans.has(pack.test_set as object)).toBe(false);
      const h = packHashes(pack, { bytes: spaced, spans });
      expect(h.pack_hash).toBe(expected.values.pack_hash);
      expect(h.pack_hash).toBe(packHash(pack));
      expect(h.ranking_digest).toBe(rankingDigest(pack.rank_derivation));
    });

    it("validateEvidencePack reports exactly the full schema's problems, tampered or not", () => {
      const edits: ((p: EvidencePack) => void)[] = [
        () => {},
        (p) => ((p.test_set[0] as { salt: string }).salt = "AB".repeat(32)),
        (p) => ((p.test_set[0] as Record<string, unknown>).extra = 1),
        (p) => delete (p.test_set[0] as Partial<EvidencePack["test_set"][0]>).grader_type,
        (p) => ((p.test_set[0] as { ordinal: unknown }).ordinal = "0"),
        (p) => (p.test_set.length = 0),
        (p) => {
          const t = [...p.winners, ...p.rank_derivation.rows].find((x) => x.receipt)?.receipt?.tasks[0];
          if (t) (t as { credit: unknown }).credit = "2/4";
        },
        (p) => {
          const t = [...p.winners, ...p.rank_derivation.rows].find((x) => x.receipt)?.receipt?.tasks[0];
          if (t) (t as { prompt_hash: unknown }).prompt_hash = 7;
        },
        (p) => {
          const a = p.winners[0]?.answers[0];
          if (a) (a as Record<string, unknown>).answer_text = null;
        },
        (p) => {
          const a = p.winners[0]?.answers[0];
          if (a) (a as Record<string, unknown>).note = "x";
        },
      ];
      for (const edit of edits) {
        const pack = parseJson(bytes) as unknown as EvidencePack;
        edit(pack);
        expect(validateEvidencePack(pack).problems).toEqual(schemaProblems(evidencePackSchema, pack));
      }
    });
  });
}
