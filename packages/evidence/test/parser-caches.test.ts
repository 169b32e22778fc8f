/**
 * The parser's shared caches (keys, short string values) and frame reuse never change
 * what a document parses to: across parses, across string input and UTF-8 bytes (whose
 * latin1 reading spells a non-ASCII key differently), and against V8's JSON.parse.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJson } from "../src/index.js";

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

describe("parser caches", () => {
  it("a key read from a string never stands for a different key read from bytes", () => {
    // "\u00c3\u00a9" as a string key has the same code units as the latin1 reading of the
    // UTF-8 bytes of "\u00e9": each must still parse to its own key
    const asText = parseJson('{"\u00c3\u00a9":1}') as Record<string, number>;
    const asBytes = parseJson(bytes('{"\u00e9":2}')) as Record<string, number>;
    const again = parseJson('{"\u00c3\u00a9":3}') as Record<string, number>;
    expect(Object.keys(asText)).toEqual(["\u00c3\u00a9"]);
    expect(Object.keys(asBytes)).toEqual(["\u00e9"]);
    expect(Object.keys(again)).toEqual(["\u00c3\u00a9"]);
  });

  it("short values that share a cache slot stay distinct (same length, first and last character)", () => {
    const doc = '["ab1b","ac2b","ab1b","a\\u0062","","x","xy","public","private","public"]';
    expect(parseJson(doc)).toEqual(JSON.parse(doc));
    expect(parseJson(bytes(doc))).toEqual(JSON.parse(doc));
  });

  it("a duplicate key is refused when the key came from the cache, at every depth", () => {
    parseJson('{"ordinal":1,"visibility":"public"}');
    expect(() => parseJson('{"ordinal":1,"ordinal":2}')).toThrow(/duplicate key "ordinal"/);
    expect(() => parseJson(bytes('[{"a":{"visibility":1,"visibility":2}}]'))).toThrow(
      expect.objectContaining({ code: "duplicate_key", path: "$[0].a.visibility" }),
    );
  });

  it("reused frames keep paths right after deep and wide siblings", () => {
    expect(() => parseJson('{"a":[[[1]]],"b":{"c":[{"d":NaN}]}}')).toThrow(
      expect.objectContaining({ code: "nan", path: "$.b.c[0].d" }),
    );
    expect(() => parseJson(bytes('[{"x":[1,2,{"y":[]}]},{"z":[0,"\\ud800"]}]'))).toThrow(
      expect.objectContaining({ code: "lone_surrogate", path: "$[1].z[1]" }),
    );
  });

  it("many documents of short strings and repeated keys parse as JSON.parse parses them", () => {
    const word = fc.stringMatching(/^[a-c0-2 ]{0,13}$/);
    const doc = fc.array(
      fc.dictionary(word, fc.oneof(word, fc.integer(), fc.array(word, { maxLength: 3 }))),
      {
        maxLength: 6,
      },
    );
    fc.assert(
      fc.property(doc, (d) => {
        const text = JSON.stringify(d);
        expect(parseJson(text)).toEqual(JSON.parse(text));
        expect(parseJson(bytes(text))).toEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });
});
