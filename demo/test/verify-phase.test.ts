/**
 * probe37 B-F8: the verify phase failed a correct zero-winner award (`npm run demo -- --agents
 * author-baseline`): it demanded every fact `verified`, while the verifier's `full` policy is met with
 * `regrade` `not-required` (an award with no winner has nothing to regrade, SPEC 7.3), and the Python
 * check after it never ran. The phase now judges by the verifier's verdict. The verifier and the Python
 * check are stubbed here: the phase's judgement of their answers is what is tested (the e2e runs both).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { VerificationReport } from "@bench-bounty/verifier";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DemoContext } from "../src/context.js";

const served = vi.hoisted(() => ({ report: undefined as unknown, pythonRuns: 0 }));
vi.mock("@bench-bounty/verifier", async (original) => ({
  ...(await original<typeof import("@bench-bounty/verifier")>()),
  verifyPack: async () => served.report,
}));
vi.mock("../src/independent.js", () => ({
  runIndependentCheck: () => {
    served.pythonRuns++;
    return { ran: true, passed: true, output: "11/11 checks passed" };
  },
}));

const { verifyPhase, judgeVerification } = await import("../src/phases/09-verify.js");
const { claimSummary } = await import("../src/phases/07-claim.js");

/**
 * A `full` report of the zero-winner vector pack (`spec/vectors/packs/zero-winner.expected.json`), its
 * chain and indexer facts as a devchain run verifies them: `regrade` stays `not-required`.
 */
function zeroWinnerReport(change: Record<string, string> = {}): VerificationReport {
  const expected = JSON.parse(
    readFileSync(new URL("../../spec/vectors/packs/zero-winner.expected.json", import.meta.url), "utf8"),
  ) as { facts: Record<string, string> };
  const states = Object.fromEntries(
    Object.entries(expected.facts).map(([n, s]) => [n, s === "not-observed" ? "verified" : s]),
  );
  Object.assign(states, change);
  const unmet = Object.entries(states)
    .filter(([, s]) => s !== "verified" && s !== "not-required")
    .map(([n]) => n);
  return {
    policy: "full",
    policy_met: unmet.length === 0,
    policy_unmet: unmet,
    facts: Object.fromEntries(Object.entries(states).map(([n, state]) => [n, { state, detail: "" }])),
  } as unknown as VerificationReport;
}

describe("the verify phase's judgement (probe37 B-F8)", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  async function runPhase(report: VerificationReport) {
    served.report = report;
    served.pythonRuns = 0;
    const outDir = mkdtempSync(join(tmpdir(), "bb-demo-verify-"));
    dirs.push(outDir);
    const ctx = {
      options: { outDir },
      result: { files: { pack: join(outDir, "pack.json") } },
      chain: { rpcUrl: "http://127.0.0.1:1" },
      published: { slug: "seattle-weather" },
      serviceUrl: "http://127.0.0.1:2",
      indexer: { url: "http://127.0.0.1:3" },
    } as unknown as DemoContext;
    const summaries: string[] = [];
    await verifyPhase.run(ctx, { note: () => {}, summary: (l) => summaries.push(l) });
    return { summary: summaries.at(-1), pythonRuns: served.pythonRuns };
  }

  it("passes a zero-winner award the verifier finds met under full (regrade not-required), then runs the Python check", async () => {
    const report = zeroWinnerReport();
    expect(report.facts.regrade.state).toBe("not-required");
    expect(report.policy_met).toBe(true);
    const r = await runPhase(report);
    expect(r.pythonRuns).toBe(1);
    expect(r.summary).toBe(
      "policy full met: 19/20 facts verified, 1 not required (regrade); independent Python check passed",
    );
  });

  it("fails a pack the verifier finds not met, naming the facts, and a report of another policy", async () => {
    await expect(runPhase(zeroWinnerReport({ indexer_agreement: "failed" }))).rejects.toThrow(
      "policy full not met: indexer_agreement",
    );
    expect(served.pythonRuns).toBe(0);
    expect(() => judgeVerification({ ...zeroWinnerReport(), policy: "onchain" })).toThrow(
      "the verifier applied policy onchain, not full",
    );
  });
});

describe("the claim phase's summary of a zero-winner award (probe37 B-F8, nit)", () => {
  it("says there was nothing to claim instead of naming a place 1", () => {
    expect(claimSummary([], "only_author_agents")).toBe(
      "no claims: the award has no winners (only_author_agents)",
    );
    const claim = { place: 1, relayed: true, amount: "50000000" } as never;
    const other = { place: 2, relayed: false, amount: "30000000" } as never;
    expect(claimSummary([claim, other], null)).toBe(
      "2 claims, 80.000000 USDC paid out (place 1 relayed with claimWithSig, to another address)",
    );
  });
});
