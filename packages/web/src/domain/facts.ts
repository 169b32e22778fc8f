/**
 * The SPEC 9 verification facts as the evidence page shows them: one label per fact, each with its
 * own state and reasons. There is deliberately no function here that folds the facts into one
 * verdict, badge or checkmark (GAOS RFC section 5); the policy outcome is shown as what it is, a
 * named policy over the facts, beside them and never in place of them.
 *
 * Fact names and their order come from the report itself (`bench-bounty.verification.v1` of
 * `@bench-bounty/verifier`), so a fact the verifier adds later is shown without a change here.
 *
 * @packageDocumentation
 */

// The five states of SPEC 9 are the verifier's (`@bench-bounty/verifier/facts`: a module without
// imports, so the browser bundle takes those two declarations and nothing else of the verifier).
import { FACT_STATES, type FactState } from "@bench-bounty/verifier/facts";

export { FACT_STATES, type FactState };

/** What each state means (the legend on the evidence page). */
export const STATE_MEANING: Readonly<Record<FactState, string>> = Object.freeze({
  verified: "recomputed and equal to what the pack, chain and indexer say",
  unverified: "observable, but the evidence needed is absent",
  failed: "recomputed and different, or the evidence contradicts itself",
  "not-required": "nothing to check",
  "not-observed": "the check could not run (no chain or indexer was consulted)",
});

/** Human label of a fact name: `onchain_leaf_count` -> `On-chain leaf count`. */
export function factLabel(name: string): string {
  const words = name.split("_").map((w) => (w === "onchain" ? "on-chain" : w));
  const text = words.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** One fact as the page renders it. */
export interface FactView {
  name: string;
  label: string;
  state: FactState | "unknown";
  reasons: string[];
  /** Where the fact is computed from, when the report says (`pack`, `chain`, `indexer`). */
  source: string | null;
}

/**
 * The report's facts in report order, each on its own. A state outside the five is shown as
 * `unknown` with the raw value in the reasons (never as one of the five).
 */
export function factViews(
  facts: Record<string, { state?: unknown; reasons?: unknown }> | null | undefined,
  sources: Record<string, string> = {},
): FactView[] {
  if (facts === null || facts === undefined || typeof facts !== "object") return [];
  return Object.entries(facts).map(([name, f]) => {
    const raw = f?.state;
    const known = (FACT_STATES as readonly unknown[]).includes(raw);
    const reasons = Array.isArray(f?.reasons)
      ? f.reasons.filter((r): r is string => typeof r === "string")
      : [];
    return {
      name,
      label: factLabel(name),
      state: known ? (raw as FactState) : "unknown",
      reasons: known ? reasons : [`the report gives the state ${JSON.stringify(raw)}`, ...reasons],
      source: sources[name] ?? null,
    };
  });
}
