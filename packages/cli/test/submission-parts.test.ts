/**
 * probe37 A-F3: the remote runner sends a batch's answers in the fewest submissions whose bodies fit the
 * server's limit, in order (`submissionParts`).
 */
import { describe, expect, it } from "vitest";
import { submissionParts } from "../src/remote.js";

const body = (part: { ordinal: number; answer_text: string }[]) =>
  Buffer.byteLength(JSON.stringify({ answers: part }), "utf8");

describe("submissionParts", () => {
  it("one part when the whole batch fits; none for no answer", () => {
    const answers = Array.from({ length: 2000 }, (_, i) => ({ ordinal: i, answer_text: `answer-${i}` }));
    expect(submissionParts(answers, 4 * 1024 * 1024)).toEqual([answers]);
    expect(submissionParts([], 100)).toEqual([]);
  });

  it("the fewest parts within the bound, exact to the byte, in order; an answer too large alone is its own part", () => {
    const answers = Array.from({ length: 10 }, (_, i) => ({ ordinal: i, answer_text: "é".repeat(10) }));
    const one = body([answers[0]!]); // 14 + 40 bytes
    const three = body(answers.slice(0, 3));
    const parts = submissionParts(answers, three);
    expect(parts.map((p) => p.length)).toEqual([3, 3, 3, 1]);
    expect(parts.flat()).toEqual(answers);
    for (const p of parts) expect(body(p)).toBeLessThanOrEqual(three);
    expect(submissionParts(answers, three - 1).map((p) => p.length)).toEqual([2, 2, 2, 2, 2]);
    expect(submissionParts(answers, one - 1)).toHaveLength(10);
  });
});
