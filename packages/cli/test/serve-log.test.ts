/**
 * probe19 B-F8: serve logged "verifier: SLUG verified (full policy)" for every finished verification, also
 * one whose policy was not met (no chain, no indexer): the line now says what the report says.
 */
import { describe, expect, it } from "vitest";
import { verifierStepLine } from "../src/serve.js";

describe("serve's verifier log line", () => {
  it("a report whose policy is met says so", () => {
    expect(verifierStepLine({ kind: "done", slug: "b-1", policy: "full", unmet: [] })).toBe(
      "verifier: b-1 full policy met",
    );
  });

  it("a report whose policy is not met says NOT met, naming the facts and where the report is", () => {
    expect(
      verifierStepLine({
        kind: "done",
        slug: "b-1",
        policy: "full",
        unmet: ["award_log", "indexer_agreement"],
      }),
    ).toBe(
      "verifier: b-1 full policy NOT met (award_log, indexer_agreement: see GET /api/v1/benchmarks/b-1/verification)",
    );
  });

  it("other steps have no stdout line (retries and failures go to stderr)", () => {
    expect(verifierStepLine({ kind: "idle" })).toBeNull();
    expect(verifierStepLine({ kind: "failed", slug: "b-1", error: "x" })).toBeNull();
  });
});
