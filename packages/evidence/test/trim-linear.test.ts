import { describe, expect, it } from "vitest";
import { norm, trimWhiteSpace } from "../src/index.js";
import { rng } from "./rng.js";

/** The SPEC 5 White_Space list, every character. */
const WHITE_SPACE = [
  ...Array.from({ length: 5 }, (_, i) => String.fromCharCode(0x09 + i)),
  " ",
  "\u0085",
  "\u00a0",
  "\u1680",
  ...Array.from({ length: 11 }, (_, i) => String.fromCharCode(0x2000 + i)),
  "\u2028",
  "\u2029",
  "\u202f",
  "\u205f",
  "\u3000",
];
/** The regex trimWhiteSpace used before probe36 A-F8 (quadratic on an inner run): the reference result. */
const OLD_EDGES =
  /^[\u0009-\u000d\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\u0009-\u000d\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

describe("trimWhiteSpace (probe36 A-F8)", () => {
  it("gives the old regex's result on random short strings of every White_Space character and others", () => {
    const others = ["x", "y", "\u200b", "\ufeff", "\u180e", "0", "\ud83d\ude00", "\u0301", "\u3001"];
    const alphabet = [...WHITE_SPACE, ...others];
    const r = rng(36);
    for (let k = 0; k < 20000; k++) {
      const len = Math.floor(r() * 12);
      let s = "";
      for (let i = 0; i < len; i++) s += alphabet[Math.floor(r() * alphabet.length)]!;
      expect(trimWhiteSpace(s), JSON.stringify(s)).toBe(s.replace(OLD_EDGES, ""));
    }
    for (const w of WHITE_SPACE) {
      expect(trimWhiteSpace(w)).toBe("");
      expect(trimWhiteSpace(`${w}a${w}${w}b${w}`)).toBe(`a${w}${w}b`);
    }
    expect(trimWhiteSpace("\u200ba\u200b")).toBe("\u200ba\u200b"); // U+200B is not White_Space
  });

  it('is linear: "x" + 30,000 spaces + "y" is kept as is, and a 60,000-space inner run takes well under 0.5 s', () => {
    const s = `x${" ".repeat(30000)}y`;
    expect(trimWhiteSpace(s)).toBe(s);
    expect(trimWhiteSpace(`  ${s}\u3000`)).toBe(s);
    const big = `x${"\u2003".repeat(60000)}y`;
    const t0 = performance.now();
    expect(trimWhiteSpace(` ${big} `)).toBe(big);
    expect(trimWhiteSpace(" ".repeat(60000))).toBe("");
    expect(performance.now() - t0).toBeLessThan(500);
    expect(norm(`  ${s} `)).toBe("x y");
  });
});
