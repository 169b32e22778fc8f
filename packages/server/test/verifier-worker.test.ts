/**
 * The verifier worker's logic (issue 17 item 2) over the server's in-memory queue, which keeps the port's
 * contract (lease per claim, lease-holder-only updates): done, retry with backoff on an unreachable
 * chain or indexer, give up on bad input, one job to one worker, a crashed worker's job taken again.
 */
import { describe, expect, it } from "vitest";
import type { Platform } from "@bench-bounty/platform";
import { MemoryVerificationJobs } from "../src/verification/memory-jobs.js";
import { verifierDeps } from "../src/verification/runtime.js";
import { backoffMs, runOnce, type WorkerDeps } from "../src/verification/worker.js";

const named = (name: string, message: string) => Object.assign(new Error(message), { name });
const REPORT = {
  schema: "bench-bounty.verification.v1",
  policy: "full",
  policy_met: false,
  policy_unmet: ["award_log"],
  verifier: { version: "0.1.0" },
  facts: {},
};

function deps(
  jobs: MemoryVerificationJobs,
  clock: { t: number },
  verify: WorkerDeps["verify"],
  worker = "w1",
): WorkerDeps {
  return {
    jobs,
    worker,
    now: () => clock.t,
    leaseMs: 60_000,
    readPack: async () => new TextEncoder().encode("{}"),
    verify,
  };
}

describe("verifier worker", () => {
  // probe26 A-F6: a serve without a chain (or without --indexer-url) took a re-verification on the shared
  // queue and replaced the report of a worker that observed the chain and the indexer, for every process
  it("a serve's worker takes only what it can observe: without a chain nothing, without the indexer no job a worker with it verified", async () => {
    const jobs = new MemoryVerificationJobs();
    const clock = { t: 1_000 };
    const platform = {} as Platform; // never read: nothing is claimed
    await jobs.enqueue("s", clock.t);
    expect(await runOnce({ ...verifierDeps(platform, { jobs }), now: () => clock.t })).toEqual({
      kind: "idle",
    });
    // verified by a worker with the chain and the indexer
    const strong = {
      ...deps(jobs, clock, async () => REPORT, "full"),
      observes: { chain: true, indexer: true },
    };
    expect(await runOnce(strong)).toMatchObject({ kind: "done", slug: "s" });
    const stored = jobs.rows.get("s")!.result;
    await jobs.enqueue("s", (clock.t += 1_000)); // a re-verification asked through any process
    for (const o of [{}, { rpcUrl: "http://127.0.0.1:9" }])
      expect(await runOnce({ ...verifierDeps(platform, { jobs, ...o }), now: () => clock.t })).toEqual({
        kind: "idle",
      });
    expect(jobs.rows.get("s")).toMatchObject({ state: "queued", result: stored });
    expect(await runOnce(strong)).toMatchObject({ kind: "done", slug: "s" });
  });

  it("backs off 5 s, 10 s, 20 s ... up to 15 minutes", () => {
    expect([1, 2, 3, 4].map(backoffMs)).toEqual([5000, 10000, 20000, 40000]);
    expect(backoffMs(40)).toBe(15 * 60_000);
  });

  it("stores the report's exact bytes and the policy, verifier version and time", async () => {
    const jobs = new MemoryVerificationJobs();
    const clock = { t: Date.parse("2026-03-02T10:00:00Z") };
    await jobs.enqueue("s", clock.t);
    expect(await runOnce(deps(jobs, clock, async () => REPORT))).toEqual({
      kind: "done",
      slug: "s",
      policy: "full",
      unmet: ["award_log"],
    });
    const r = jobs.rows.get("s")!;
    expect(r.state).toBe("done");
    expect(new TextDecoder().decode(r.result!.reportBytes)).toBe(JSON.stringify(REPORT, null, 2) + "\n");
    expect(r.result).toMatchObject({
      policy: "full",
      policyVersion: "0.1.0",
      verifierVersion: "0.1.0",
      ranAt: "2026-03-02T10:00:00.000Z",
    });
    expect(await runOnce(deps(jobs, clock, async () => REPORT))).toEqual({ kind: "idle" });
  });

  it("retries with backoff while the chain or indexer is unreachable, then completes", async () => {
    const jobs = new MemoryVerificationJobs();
    const clock = { t: 1_000_000 };
    await jobs.enqueue("s", clock.t);
    let calls = 0;
    const verify = async () => {
      calls++;
      if (calls <= 2) throw named("VerifierNetworkError", "cannot read rpc http://127.0.0.1:8545");
      return REPORT;
    };
    const first = await runOnce(deps(jobs, clock, verify));
    expect(first).toMatchObject({
      kind: "retry",
      nextAt: 1_005_000,
      error: expect.stringContaining("cannot read rpc"),
    });
    expect(await runOnce(deps(jobs, clock, verify))).toEqual({ kind: "idle" }); // not due yet
    clock.t = 1_005_000;
    expect(await runOnce(deps(jobs, clock, verify))).toMatchObject({ kind: "retry", nextAt: 1_015_000 });
    clock.t = 1_015_000;
    expect(await runOnce(deps(jobs, clock, verify))).toEqual({
      kind: "done",
      slug: "s",
      policy: "full",
      unmet: ["award_log"],
    });
    expect(jobs.rows.get("s")).toMatchObject({ state: "done", attempts: 3 });
  });

  it("gives up on a pack that is not readable evidence, keeping the message", async () => {
    const jobs = new MemoryVerificationJobs();
    const clock = { t: 0 };
    await jobs.enqueue("s", 0);
    const o = await runOnce(
      deps(jobs, clock, async () => Promise.reject(named("VerifierInputError", "$.winners: missing key"))),
    );
    expect(o).toMatchObject({ kind: "failed", error: "VerifierInputError: $.winners: missing key" });
    expect(jobs.rows.get("s")!.state).toBe("failed");
  });

  it("hands a job to one worker at a time, and again after a crashed worker's lease expires", async () => {
    const jobs = new MemoryVerificationJobs();
    const clock = { t: 0 };
    await jobs.enqueue("s", 0);
    let release!: () => void;
    const slow = () => new Promise<typeof REPORT>((res) => (release = () => res(REPORT)));
    const a = runOnce(deps(jobs, clock, slow, "a"));
    await new Promise((r) => setTimeout(r, 0));
    expect(await runOnce(deps(jobs, clock, async () => REPORT, "b"))).toEqual({ kind: "idle" });
    // a stalls past its lease; b takes the job and finishes it; a's late result is refused
    clock.t = 60_000;
    expect(await runOnce(deps(jobs, clock, async () => REPORT, "b"))).toEqual({
      kind: "done",
      slug: "s",
      policy: "full",
      unmet: ["award_log"],
    });
    release();
    expect(await a).toEqual({ kind: "lease-lost", slug: "s" });
    expect(jobs.rows.get("s")).toMatchObject({ state: "done", attempts: 1 });
  });
});
