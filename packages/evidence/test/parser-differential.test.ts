/**
 * Differential fuzz of the strict parser against V8's JSON.parse on mutated
 * documents: whatever JSON.parse refuses, parseJson refuses with an
 * EvidenceError (never another exception); whatever JSON.parse accepts,
 * parseJson accepts unless one of the SPEC 2 refusals applies (duplicate key,
 * lone surrogate, integer beyond 78 digits, binary64 overflow).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EvidenceError, parseJson } from "../src/index.js";

const SEEDS = [
  '{"a":[1,2.5e-3,{"b":"x\\u00e9\\ud83d\\ude00"}],"c":null,"d":true}',
  '[{"ordinal":0,"prompt":"P","gold":{"value":"1e3"},"salt":"ab"},-0.0,9007199254740993]',
  '{"k":"\\\\\\"\\/\\b\\f\\n\\r\\t","n":-12.5E+10}',
  '[[],{},[[]],{"":[]}]',
];
const ALPHABET = [
  '"',
  "\\",
  "{",
  "}",
  "[",
  "]",
  ",",
  ":",
  "0",
  "1",
  "-",
  "+",
  ".",
  "e",
  "E",
  "u",
  "d",
  "8",
  "a",
  " ",
  "\n",
  "\u0001",
  "\ud800",
  "\udc00",
  "N",
  "I",
  "t",
  "n",
];

const mutated = fc
  .tuple(
    fc.constantFrom(...SEEDS),
    fc.array(fc.tuple(fc.nat(), fc.constantFrom(0, 1, 2), fc.constantFrom(...ALPHABET)), {
      minLength: 1,
      maxLength: 4,
    }),
  )
  .map(([seed, edits]) => {
    let s = seed;
    for (const [pos, op, ch] of edits) {
      const i = pos % (s.length + 1);
      if (op === 0)
        s = s.slice(0, i) + ch + s.slice(i); // insert
      else if (op === 1)
        s = s.slice(0, i) + s.slice(i + 1); // delete
      else s = s.slice(0, i) + ch + s.slice(i + 1); // replace
    }
    return s;
  });

const ALLOWED_EXTRA_REFUSALS = new Set(["duplicate_key", "lone_surrogate", "integer_too_large", "infinity"]);

describe("parser differential fuzz against JSON.parse", () => {
  it("agrees on acceptance, modulo the SPEC 2 refusals, and only ever throws EvidenceError", () => {
    fc.assert(
      fc.property(mutated, (text) => {
        let nativeOk = true;
        try {
          JSON.parse(text);
        } catch {
          nativeOk = false;
        }
        let ours: EvidenceError | null = null;
        try {
          parseJson(text);
        } catch (e) {
          if (!(e instanceof EvidenceError)) throw e;
          ours = e;
        }
        if (!nativeOk) return ours !== null;
        return ours === null || ALLOWED_EXTRA_REFUSALS.has(ours.code);
      }),
      { seed: 424242, numRuns: 20_000 },
    );
  });

  it("JSON.parse-accepted documents that we refuse carry the SPEC 2 reason", () => {
    expect(() => parseJson('{"a":1,"a":1}')).toThrow(expect.objectContaining({ code: "duplicate_key" }));
    expect(() => parseJson('"\\ud800"')).toThrow(expect.objectContaining({ code: "lone_surrogate" }));
    expect(() => parseJson("1e999")).toThrow(expect.objectContaining({ code: "infinity" }));
    expect(() => parseJson("1".repeat(79))).toThrow(expect.objectContaining({ code: "integer_too_large" }));
  });
});
