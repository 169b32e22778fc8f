/**
 * Named policies: which facts must be in which states for the CLI to exit 0.
 *
 * - `offline`: every fact computed from the pack alone is `verified` (or
 *   `not-required`: e.g. regrade of an award with no winner). On-chain and
 *   indexer facts may be anything except `failed`: a contradiction found is never ignored.
 * - `onchain`: `offline` plus every chain fact `verified`, except `pack_anchor`,
 *   which may be `unverified` (SPEC 8 allows a pack whose anchor did not land: `pack_anchor: null`
 *   and no anchor found); it must not be `failed`.
 * - `full`: `onchain` plus `indexer_agreement` `verified`.
 *
 * @packageDocumentation
 */
import { FACT_NAMES, FACT_SOURCES, type FactName, type FactState, type PolicyName } from "./facts.js";

/** The policy names, in increasing strictness. */
export const POLICY_NAMES: readonly PolicyName[] = ["offline", "onchain", "full"];

/** One-line descriptions for `--help` and the table header. */
export const POLICY_DESCRIPTIONS: Readonly<Record<PolicyName, string>> = Object.freeze({
  offline: "every fact computed from the pack alone holds; no fact may be failed",
  onchain: "offline + every on-chain fact verified (pack_anchor may be unverified when the pack has none)",
  full: "onchain + the indexer agrees with the pack and the chain",
});

const OK: FactState[] = ["verified"];
const OK_OR_NOT_REQUIRED: FactState[] = ["verified", "not-required"];
const NOT_FAILED: FactState[] = ["verified", "unverified", "not-required", "not-observed"];

/** The accepted states per fact for a policy. */
export function policyRequirements(policy: PolicyName): Record<FactName, FactState[]> {
  const req = {} as Record<FactName, FactState[]>;
  for (const name of FACT_NAMES) {
    const source = FACT_SOURCES[name];
    if (source === "pack") req[name] = OK_OR_NOT_REQUIRED;
    else if (source === "chain") {
      if (policy === "offline") req[name] = NOT_FAILED;
      else if (name === "pack_anchor") req[name] = ["verified", "unverified"];
      else req[name] = OK;
    } else req[name] = policy === "full" ? OK : NOT_FAILED;
  }
  return req;
}

/** Parse a policy name. @returns null when unknown */
export function parsePolicy(name: string): PolicyName | null {
  return (POLICY_NAMES as readonly string[]).includes(name) ? (name as PolicyName) : null;
}

/**
 * Evaluate a policy over fact states.
 * @returns whether it is met and which facts keep it from being met
 */
export function evaluatePolicy(
  policy: PolicyName,
  states: Record<FactName, FactState>,
): { met: boolean; unmet: FactName[]; requires: Record<FactName, FactState[]> } {
  const requires = policyRequirements(policy);
  const unmet = FACT_NAMES.filter((n) => !requires[n].includes(states[n]));
  return { met: unmet.length === 0, unmet, requires };
}
