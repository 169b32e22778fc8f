/**
 * probe39 B-N1: `graderExampleProblems`, the check of the pack's `benchmark.grader_types` examples
 * (each gold a valid gold of its grader by the test set's rule, each stated credit the grade of its answer).
 * The platform's own block (`GRADER_TYPES`, served by the detail and formats and minted into every pack)
 * passes it.
 */
import { describe, expect, it } from "vitest";
import {
  GRADER_TYPES,
  canonicalJsonString,
  graderExampleProblems,
  parseJson,
  type JsonObject,
} from "../src/index.js";

const GT = "$.benchmark.grader_types";

/** A mutable lossless copy of the platform's block. */
function block(): any {
  return parseJson(canonicalJsonString(GRADER_TYPES as never)) as JsonObject;
}

describe("graderExampleProblems (probe39 B-N1)", () => {
  it("the platform's GRADER_TYPES block: every example regrades to its credit from a valid gold", () => {
    const r = graderExampleProblems(GRADER_TYPES);
    expect(r).toEqual({ examples: 7, problems: [] });
  });

  it("an exact example whose stated credit is not its grade (gold London, answer Paris, credit 1/1)", () => {
    const gt = block();
    gt.exact.examples[0] = { answer: "Paris", gold: { value: "London" }, credit: "1/1" };
    expect(graderExampleProblems(gt).problems).toEqual([
      {
        code: "example_credit_mismatch",
        path: `${GT}.exact.examples[0].credit`,
        message:
          'the example states credit "1/1", grading its answer "Paris" against its gold with the exact grader (SPEC 5) gives 0/1',
      },
    ]);
  });

  it("a numeric example gold with a negative tolerance is a malformed gold at its path", () => {
    const gt = block();
    gt.numeric.examples.push({ gold: { value: -1, tolerance: "-5" }, answer: "-1", credit: "0/1" });
    expect(graderExampleProblems(gt).problems).toEqual([
      {
        code: "malformed_gold",
        path: `${GT}.numeric.examples[3].gold.tolerance`,
        message: "tolerance must be >= 0",
      },
    ]);
  });

  it("golds of the wrong shape (a long run of marks, a json_fields without fields, a numeric exponent string), block order", () => {
    const gt = block();
    gt.numeric.examples[0].gold = { value: "1e3" };
    gt.json_fields.examples[0].gold = { fields: {} };
    gt.contains_all.examples[0].gold = { terms: ["a" + "\u0301".repeat(40)] };
    const problems = graderExampleProblems(gt).problems;
    expect(problems.map((p) => [p.code, p.path])).toEqual([
      ["combining_run_too_long", `${GT}.contains_all.examples[0].gold.terms[0]`],
      ["malformed_gold", `${GT}.json_fields.examples[0].gold.fields`],
      ["malformed_gold", `${GT}.numeric.examples[0].gold.value`],
    ]);
  });

  it("what is not of the schema's shape is left to the schema; the texts are not read", () => {
    const gt = block();
    gt.exact.semantics = "1 if the answer is longer than the gold.";
    gt.exact.gold_shape = "anything";
    gt.numeric.examples = "none";
    gt.contains_all.examples[0] = { gold: { terms: ["x"] }, answer: 3, credit: "1/1" };
    gt.unknown = { examples: [{ gold: {}, answer: "", credit: "1/1" }] };
    expect(graderExampleProblems(gt)).toEqual({ examples: 3, problems: [] });
    expect(graderExampleProblems(null)).toEqual({ examples: 0, problems: [] });
    expect(graderExampleProblems([])).toEqual({ examples: 0, problems: [] });
  });
});
