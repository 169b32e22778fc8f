/**
 * `schema`: the hashed blocks follow the format rules of SPEC 2-8 (the
 * evidence library's pack schema). A readable pack that breaks a format rule is
 * still walked: this fact fails, the others compare by value.
 * @packageDocumentation
 */
import { validateEvidencePack } from "@bench-bounty/evidence";
import { capReasons, fact } from "../facts.js";
import { problemText, type OfflineFacts, type OfflineWalk } from "./context.js";

/** The `schema` fact. */
export function schemaFacts(walk: OfflineWalk): Pick<OfflineFacts, "schema"> {
  const units = walk.view.test_set.length;
  walk.onProgress?.({ phase: "schema", done: 0, total: units });
  const validation = validateEvidencePack(walk.view.raw);
  walk.onProgress?.({ phase: "schema", done: units, total: units });
  return {
    schema: validation.ok
      ? fact("verified", "every block follows the format rules of SPEC 2-8 (evidence pack schema)")
      : { state: "failed", reasons: capReasons(validation.problems.map(problemText)) },
  };
}
