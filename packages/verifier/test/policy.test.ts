/**
 * Policies (src/policy.ts) as tables: which fact states each policy accepts.
 * `not-required` (nothing to check) must satisfy every policy.
 */
import { describe, expect, it } from "vitest";
import {
  CHAIN_FACTS,
  FACT_NAMES,
  POLICY_NAMES,
  evaluatePolicy,
  policyRequirements,
  type FactName,
  type FactState,
} from "../src/index.js";

const all = (state: FactState): Record<FactName, FactState> =>
  Object.fromEntries(FACT_NAMES.map((n) => [n, state])) as Record<FactName, FactState>;

describe("policies", () => {
  it("accept not-required for every fact under every policy", () => {
    for (const policy of POLICY_NAMES) {
      const req = policyRequirements(policy);
      for (const n of FACT_NAMES) expect(req[n], `${policy} ${n}`).toContain("not-required");
      expect(evaluatePolicy(policy, all("not-required"))).toMatchObject({ met: true, unmet: [] });
    }
  });

  it("onchain: a zero-winner pack with no runs (receipt_anchors not-required) is met", () => {
    const states = all("verified");
    states.receipt_anchors = "not-required";
    states.regrade = "not-required";
    states.digest_chain = "not-required";
    states.receipt_hashes = "not-required";
    states.indexer_agreement = "not-observed";
    expect(evaluatePolicy("onchain", states)).toMatchObject({ met: true, unmet: [] });
    expect(evaluatePolicy("full", states)).toMatchObject({ met: false, unmet: ["indexer_agreement"] });
  });

  it("still refuses what each policy refuses", () => {
    const offline = all("verified");
    for (const n of CHAIN_FACTS) offline[n] = "not-observed";
    offline.indexer_agreement = "not-observed";
    expect(evaluatePolicy("offline", offline).met).toBe(true);
    expect(new Set(evaluatePolicy("onchain", offline).unmet)).toEqual(new Set(CHAIN_FACTS));
    const chainUnverified = all("verified");
    chainUnverified.receipt_anchors = "unverified";
    expect(evaluatePolicy("onchain", chainUnverified).unmet).toEqual(["receipt_anchors"]);
    const packUnanchored = all("verified");
    packUnanchored.pack_anchor = "unverified";
    expect(evaluatePolicy("onchain", packUnanchored).met).toBe(true);
    // full binds the pack's unbound text through its own anchor (probe30 C-F7)
    expect(evaluatePolicy("full", packUnanchored)).toMatchObject({ met: false, unmet: ["pack_anchor"] });
    for (const policy of POLICY_NAMES) {
      const failed = all("verified");
      failed.receipt_anchors = "failed";
      expect(evaluatePolicy(policy, failed).unmet).toEqual(["receipt_anchors"]);
    }
  });
});
