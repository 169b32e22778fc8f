/**
 * probe34 B-F1: when a pack's regrade reads through norm() a code point not assigned in Unicode 14.0.0
 * (the platform's baseline, Python 3.11's unicodedata), its result depends on the Unicode version of the
 * implementation's tables: the `regrade` fact says so first, naming where, whatever its state.
 */
import { NORM_UNICODE_BASELINE, type JsonObject } from "@bench-bounty/evidence";
import { describe, expect, it } from "vitest";
import { verifyPack } from "../src/index.js";
import { at, expected, packBytes, packTree, rehash, toBytes } from "./helpers.js";

const NOTE = new RegExp(
  `^the regrade depends on the Unicode version: norm\\(\\) \\(SPEC 5\\) read (\\d+) string\\(s\\) holding a code point not assigned in Unicode ${NORM_UNICODE_BASELINE.replace(/\./g, "\\.")} \\((.*?)\\), normalised here by this runtime's Unicode ${process.versions.unicode!.replace(/\./g, "\\.")} tables`,
);

/** The first winner answer (winner, answer index) whose task's grader normalises (not numeric). */
function normedAnswer(tree: JsonObject): [number, number] {
  const winners = at(tree, "winners") as any[];
  for (let w = 0; w < winners.length; w++) {
    const answers = winners[w].answers as any[];
    for (let j = 0; j < answers.length; j++)
      if (at(tree, "test_set", answers[j].bank_ordinal).grader_type !== "numeric") return [w, j];
  }
  throw new Error("no normalised answer in the pack");
}

describe("the regrade fact names what depends on the Unicode version (probe34 B-F1)", () => {
  it("a pack with none: the regrade fact is as before (no note)", async () => {
    const report = await verifyPack({ source: packBytes("small") });
    expect(report.facts.regrade.state).toBe(expected("small").facts.regrade);
    expect(report.facts.regrade.reasons.join("\n")).not.toContain("Unicode");
  });

  it("a winner's answer holding U+1E030: the first reason says so, naming the answer", async () => {
    const tree = packTree("small");
    const [w, j] = normedAnswer(tree);
    const answer = at(tree, "winners", w, "answers", j);
    answer.answer_text = `${answer.answer_text}\u{1e030}`;
    const report = await verifyPack({ source: toBytes(rehash(tree)) });
    const reasons = report.facts.regrade.reasons;
    const m = NOTE.exec(reasons[0]!);
    expect(m, reasons[0]).not.toBeNull();
    expect(m![1]).toBe("1");
    expect(m![2]).toBe(`$.winners[${w}].answers[${j}].answer_text holds U+1E030`);
    expect(reasons).toContain(`$.winners[${w}].answers[${j}].answer_text holds U+1E030`);
  });

  it("a gold string norm reads holding U+1E030 in a task a winner answered: named by its path", async () => {
    const tree = packTree("small");
    const [w, j] = normedAnswer(tree);
    const ordinal = at(tree, "winners", w, "answers", j).bank_ordinal as number;
    const row = at(tree, "test_set", ordinal);
    const index = (at(tree, "test_set") as any[]).indexOf(row);
    let where: string;
    if (row.grader_type === "exact") {
      (row.gold.alternatives ??= []).push("\u{1e030}");
      where = `$.test_set[${index}].gold.alternatives[${row.gold.alternatives.length - 1}]`;
    } else if (row.grader_type === "contains_all") {
      row.gold.terms.push("x\u{1e030}");
      where = `$.test_set[${index}].gold.terms[${row.gold.terms.length - 1}]`;
    } else {
      row.gold.fields.u = "\u{1e030}";
      where = `$.test_set[${index}].gold.fields.u`;
    }
    const report = await verifyPack({ source: toBytes(rehash(tree)) });
    const reasons = report.facts.regrade.reasons;
    const m = NOTE.exec(reasons[0]!);
    expect(m, reasons[0]).not.toBeNull();
    expect(m![2]).toBe(`${where} holds U+1E030`);
  });
});
