/**
 * probe39 B-F2: norm's lower-casing makes a capital sigma final or not by Unicode's Final_Sigma
 * condition, whose Cased / Case_Ignorable classes differ between Unicode versions for some assigned
 * code points ("ΑʕΣ": αʕς in Python 3.11's Unicode 14.0, αʕσ in Node 20's 17.0). A pack whose regrade
 * reads such a sigma, in a winner's answer or in a gold string, is not regraded: the `regrade` fact fails
 * naming where (evidence `regradeRun`, `unstable_final_sigma`).
 */
import { runtimeCaseClass, type JsonObject } from "@bench-bounty/evidence";
import { describe, expect, it } from "vitest";
import { verifyPack } from "../src/index.js";
import { at, packTree, rehash, toBytes } from "./helpers.js";

const SIGMA = "\u0391\u0295\u03a3"; // ΑʕΣ
const MEETS =
  "holds a capital sigma U+03A3 (at UTF-16 offset 2 of its NFKC form) whose Final_Sigma context meets U+0295";

/** The first winner answer (winner, answer index) whose task's grader is `exact`. */
function exactAnswer(tree: JsonObject): [number, number] {
  const winners = at(tree, "winners") as any[];
  for (let w = 0; w < winners.length; w++) {
    const answers = winners[w].answers as any[];
    for (let j = 0; j < answers.length; j++)
      if (at(tree, "test_set", answers[j].bank_ordinal).grader_type === "exact") return [w, j];
  }
  throw new Error("no exact answer in the pack");
}

// this runtime's tables class U+0295 otherwise than Unicode 14.0.0 (Node 20: 17.0), else nothing to see
describe.skipIf(runtimeCaseClass(0x295) === "cased")(
  "the regrade of a sigma of unstable Final_Sigma context (probe39 B-F2)",
  () => {
    it("a winner's answer holding one: the regrade fact fails naming it", async () => {
      const tree = packTree("small");
      const [w, j] = exactAnswer(tree);
      at(tree, "winners", w, "answers", j).answer_text = SIGMA;
      const report = await verifyPack({ source: toBytes(rehash(tree)) });
      expect(report.facts.regrade.state).toBe("failed");
      const reasons = report.facts.regrade.reasons.join("\n");
      expect(reasons).toContain(`$.winners[${w}].answers[${j}].answer_text: ${MEETS}`);
      expect(reasons).toContain("; not graded");
    });

    it("a gold string holding one: the regrade fact fails naming its path", async () => {
      const tree = packTree("small");
      const [w, j] = exactAnswer(tree);
      const ordinal = at(tree, "winners", w, "answers", j).bank_ordinal as number;
      const row = at(tree, "test_set", ordinal);
      const index = (at(tree, "test_set") as any[]).indexOf(row);
      (row.gold.alternatives ??= []).push(SIGMA);
      const report = await verifyPack({ source: toBytes(rehash(tree)) });
      expect(report.facts.regrade.state).toBe("failed");
      expect(report.facts.regrade.reasons.join("\n")).toContain(
        `$.test_set[${index}].gold.alternatives[${row.gold.alternatives.length - 1}]: ${MEETS}`,
      );
    });
  },
);
