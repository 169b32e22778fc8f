/**
 * `schema`: the hashed blocks follow the format rules of SPEC 2-8 (the
 * evidence library's pack schema), and the worked examples of `benchmark.grader_types` are true
 * (evidence `graderExampleProblems`: each example's gold a valid gold of its grader, by the test set's
 * rule, its stated credit the grade of its answer; probe39 B-N1). The block's `gold_shape` and
 * `semantics` texts are descriptive: bound by the pack hash and the awarder's pack anchor, not checked.
 * A readable pack that breaks a format rule is still walked: this fact fails, the others compare by value.
 * @packageDocumentation
 */
import { graderExampleProblems, isJsonObject, validateEvidencePack } from "@bench-bounty/evidence";
import { capReasons, fact } from "../facts.js";
import { problemText, type OfflineFacts, type OfflineWalk } from "./context.js";

/** What the `schema` fact says of the `grader_types` texts it cannot check. */
const GRADER_TEXT_UNCHECKED =
  "the grader_types gold_shape and semantics texts are descriptive, bound by the pack hash and anchors, not checked";

/** The `schema` fact. */
export function schemaFacts(walk: OfflineWalk): Pick<OfflineFacts, "schema"> {
  const units = walk.view.test_set.length;
  walk.onProgress?.({ phase: "schema", done: 0, total: units });
  const validation = validateEvidencePack(walk.view.raw);
  const b = walk.view.raw["benchmark"];
  const examples = graderExampleProblems(isJsonObject(b) ? b["grader_types"] : undefined);
  walk.onProgress?.({ phase: "schema", done: units, total: units });
  const problems = [...validation.problems, ...examples.problems];
  return {
    schema:
      problems.length === 0
        ? fact(
            "verified",
            // the table prints a verified fact's first reason only, cut to 82 characters: it says the texts are unchecked
            `SPEC 2-8 formats hold; ${examples.examples} grader_types examples regrade; semantics not checked`,
            "every block follows the format rules of SPEC 2-8 (evidence pack schema)",
            `the ${examples.examples} grader_types examples regrade to their stated credits from valid golds (SPEC 5)`,
            GRADER_TEXT_UNCHECKED,
          )
        : { state: "failed", reasons: capReasons(problems.map(problemText)) },
  };
}
