/**
 * Named policies: which facts must be in which states for the CLI to exit 0.
 *
 * - `offline`: every fact computed from the pack alone is `verified` (or
 *   `not-required`: e.g. regrade of an award with no winner). On-chain and
 *   indexer facts may be anything except `failed`: a contradiction found is never ignored.
 * - `onchain`: `offline` plus every chain fact `verified`, except `pack_anchor`,
 *   which may be `unverified` (SPEC 8 allows a pack whose anchor did not land: `pack_anchor: null`
 *   and no anchor found); it must not be `failed`.
 * - `full`: `onchain` plus `indexer_agreement` `verified`, and `pack_anchor` `verified` (anchored by the
 *   bounty's awarder: probe31 C-F1): the
 *   pack's own anchor is the one on-chain fact that binds its unbound text (`benchmark.title`,
 *   `grader_types`); without it a re-hashed pack with another title and `pack_anchor: null` met
 *   `full` (probe30 C-F7). The platform serves a pack only once its anchor is mined.
 *
 * Every policy accepts `not-required` for every fact (there is nothing to
 * check: e.g. `receipt_anchors` when the pack names no receipt).
 *
 * @packageDocumentation
 */
import {
  FACT_NAMES,
  FACT_SOURCES,
  OPTIONAL_FACT_NAMES,
  type FactName,
  type FactState,
  type OptionalFactName,
  type PolicyName,
  type ReportFactName,
} from "./facts.js";

/** The policy names, in increasing strictness. */
export const POLICY_NAMES: readonly PolicyName[] = ["offline", "onchain", "full"];

/** One-line descriptions for `--help` and the table header. */
export const POLICY_DESCRIPTIONS: Readonly<Record<PolicyName, string>> = Object.freeze({
  offline: "every fact computed from the pack alone holds; no fact may be failed",
  onchain: "offline + every on-chain fact verified (pack_anchor may be unverified when the pack has none)",
  full: "onchain + the pack's anchor verified + the indexer agrees with the pack and the chain",
});

// `not-required` (nothing to check, e.g. receipt_anchors of a zero-winner pack with no
// runs) satisfies every policy: a policy never asks for evidence that cannot exist.
const OK_OR_NOT_REQUIRED: FactState[] = ["verified", "not-required"];
const NOT_FAILED: FactState[] = ["verified", "unverified", "not-required", "not-observed"];

/** The accepted states per fact for a policy (`not-required` is always accepted). */
export function policyRequirements(policy: PolicyName): Record<FactName, FactState[]> {
  const req = {} as Record<FactName, FactState[]>;
  for (const name of FACT_NAMES) {
    const source = FACT_SOURCES[name];
    if (source === "pack") req[name] = OK_OR_NOT_REQUIRED;
    else if (source === "chain") {
      if (policy === "offline") req[name] = NOT_FAILED;
      else if (name === "pack_anchor" && policy === "onchain")
        req[name] = ["verified", "unverified", "not-required"];
      else req[name] = OK_OR_NOT_REQUIRED;
    } else req[name] = policy === "full" ? OK_OR_NOT_REQUIRED : NOT_FAILED;
  }
  return req;
}

/** Parse a policy name. @returns null when unknown */
export function parsePolicy(name: string): PolicyName | null {
  return (POLICY_NAMES as readonly string[]).includes(name) ? (name as PolicyName) : null;
}

/**
 * Evaluate a policy over fact states. An optional fact (`receipt_inclusion`, reported only when asked
 * for) is required `verified` (or `not-required`) by every policy once it is reported: a competitor's
 * receipt the award left out is never met.
 * @param optional the states of the optional facts reported (none: SPEC 9's facts alone)
 * @returns whether it is met and which facts keep it from being met
 */
export function evaluatePolicy(
  policy: PolicyName,
  states: Record<FactName, FactState>,
  optional: Partial<Record<OptionalFactName, FactState>> = {},
): {
  met: boolean;
  unmet: ReportFactName[];
  requires: Record<FactName, FactState[]> & Partial<Record<OptionalFactName, FactState[]>>;
} {
  const requires: Record<FactName, FactState[]> & Partial<Record<OptionalFactName, FactState[]>> =
    policyRequirements(policy);
  const unmet: ReportFactName[] = FACT_NAMES.filter((n) => !requires[n].includes(states[n]));
  for (const n of OPTIONAL_FACT_NAMES) {
    const state = optional[n];
    if (state === undefined) continue;
    requires[n] = OK_OR_NOT_REQUIRED;
    if (!OK_OR_NOT_REQUIRED.includes(state)) unmet.push(n);
  }
  return { met: unmet.length === 0, unmet, requires };
}
