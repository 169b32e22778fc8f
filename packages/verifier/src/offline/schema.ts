/**
 * `schema`: the hashed blocks follow the format rules of SPEC 2-8 (the
 * evidence library's pack schema). A readable pack that breaks a format rule is
 * still walked: this fact fails, the others compare by value.
 * @packageDocumentation
 */
import { validateEvidencePack } from "@bench-bounty/evidence";
import { describeError } from "../errors.js";
import { capReasons, fact } from "../facts.js";
import { problemText, type OfflineFacts, type OfflineWalk } from "./context.js";

/** The `schema` fact. */
export function schemaFacts(walk: OfflineWalk): Pick<OfflineFacts, "schema"> {
  const units = walk.view.test_set.length;
  walk.onProgress?.({ phase: "schema", done: 0, total: units });
  let validation: ReturnType<typeof validateEvidencePack>;
  try {
    validation = validateEvidencePack(walk.view.raw);
  } catch (e) {
    // a schema refinement that meets a value it does not expect throws instead of reporting it
    // (e.g. a fraction refinement given ""): the pack breaks a format rule, and the fact says so
    if (!(e instanceof TypeError) && !(e instanceof RangeError) && !(e instanceof SyntaxError)) throw e;
    return {
      schema: fact(
        "failed",
        `a value breaks the evidence pack schema (the schema check stopped: ${describeError(e)})`,
      ),
    };
  }
  walk.onProgress?.({ phase: "schema", done: units, total: units });
  return {
    schema: validation.ok
      ? fact("verified", "every block follows the format rules of SPEC 2-8 (evidence pack schema)")
      : { state: "failed", reasons: capReasons(validation.problems.map(problemText)) },
  };
}
