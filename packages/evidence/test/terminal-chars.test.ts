/**
 * The characters every printer of others' text treats as terminal controls (`TERMINAL_CONTROL_RANGES`,
 * the one definition): the controls and the characters that reorder or hide what a line shows are
 * matched, plain text (emoji and their joiners, accents, CJK) is not.
 */
import { describe, expect, it } from "vitest";
import { terminalControlPattern } from "../src/index.js";

const matched = (re: RegExp, s: string) => [...s.matchAll(re)].map((m) => m[0]);

describe("terminalControlPattern", () => {
  it("matches C0, DEL, C1, separators, bidi overrides, isolates and marks, zero-width and soft hyphen", () => {
    const controls =
      "\u0000\u0007\t\n\r\u001b\u007f\u009b\u00ad\u061c\u200b\u200e\u200f\u2028\u2029\u202a\u202e\u2066\u2069\ufeff";
    expect(matched(terminalControlPattern(), controls).join("")).toBe(controls);
    const plain = "USDC é 東京 \u{1F468}\u200d\u{1F469} a-b";
    expect(matched(terminalControlPattern(), plain)).toEqual([]);
  });

  it("matches the other characters that show nothing, one code point per match (probe25 B-F2)", () => {
    const invisible = [
      "\u034f",
      "\u115f",
      "\u17b4",
      "\u180e",
      "\u2060",
      "\u2061",
      "\u2064",
      "\u206a",
      "\u3164",
      "\uffa0",
      "\ufff9",
      "\u{1d173}",
      "\u{e0041}",
      "\u{e007f}",
    ];
    expect(matched(terminalControlPattern(), `a${invisible.join("b")}c`)).toEqual(invisible);
    // emoji with their joiners and variation selectors, and a flag, stay plain
    expect(
      matched(terminalControlPattern(), "\u{1F468}\u200d\u{1F469} \u2764\ufe0f \u{1F1EB}\u{1F1F7}"),
    ).toEqual([]);
  });

  it("keeps what `except` names, and matches runs when asked", () => {
    expect(matched(terminalControlPattern({ except: "\\t\\n" }), "a\tb\nc\rd")).toEqual(["\r"]);
    expect(matched(terminalControlPattern({ except: "\\u0000-\\u001f" }), "\u001b\u009b\u200f")).toEqual([
      "\u009b",
      "\u200f",
    ]);
    expect(matched(terminalControlPattern({ runs: true }), "a\u001b[2K\u200f\u200eb")).toEqual([
      "\u001b",
      "\u200f\u200e",
    ]);
  });
});
