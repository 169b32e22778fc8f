/**
 * probe30 A-F6: every `POST .../verification` after the last job finished ran one more whole `full`
 * verification (chain reads, indexer reads, the regrade) of the operator's worker, bounded only by the
 * account's request bucket. The benchmark's author may now ask once per `REVERIFY_COOLDOWN_MS` after
 * the last result; the operator is not bounded; a request while a job is queued adds nothing and is
 * answered as before.
 */
import { describe, expect, it } from "vitest";
import { localOperator, type Platform, type Principal } from "@bench-bounty/platform";
import { errorResponseOf } from "../src/errors.js";
import { MemoryVerificationJobs } from "../src/verification/memory-jobs.js";
import { REVERIFY_COOLDOWN_MS, verificationOps } from "../src/verification/ops.js";
import { runOnce } from "../src/verification/worker.js";

const AUTHOR: Principal = { account_id: "acct_author", roles: ["author"], via: "key", key_prefix: "bb_x" };
const REPORT = { policy: "full", policy_unmet: [], verifier: { version: "0.1.0" } };

/** The two platform reads `verificationOps` makes, for a benchmark `cities` of {@link AUTHOR} with a pack. */
const platform = {
  getBenchmark: async () => ({ slug: "cities", author_account_id: AUTHOR.account_id }),
  awardEvidenceHead: async () => ({ kind: "pack" }),
} as unknown as Platform;

/** A memory queue, its ops on a manual clock starting at `iso`, and a worker step whose verify is `verify`. */
function setUp(iso: string, verify: () => Promise<typeof REPORT>) {
  const jobs = new MemoryVerificationJobs();
  const clock = { t: Date.parse(iso) };
  const ops = verificationOps(platform, jobs, () => clock.t);
  const work = () =>
    runOnce({ jobs, worker: "w1", now: () => clock.t, readPack: async () => new Uint8Array(), verify });
  return { jobs, clock, ops, work };
}

describe("re-verification on request (probe30 A-F6)", () => {
  it("the author's request within the cooldown of the last result is 429 rate_limited naming it; after it, queued; the operator any time", async () => {
    const { jobs, clock, ops, work } = setUp("2026-12-06T13:40:00Z", async () => REPORT);
    // the award's verification
    expect(await ops.enqueueIfPacked("cities")).toBe(true);
    expect((await work()).kind).toBe("done");
    // the author at once: refused, nothing queued
    clock.t += 1500;
    const e = await ops.requestVerification(AUTHOR, "cities").then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).not.toBeNull();
    const { status, body, headers } = errorResponseOf(e);
    expect(status).toBe(429);
    expect(body.error).toMatchObject({
      code: "rate_limited",
      details: {
        limit: "reverification_cooldown",
        slug: "cities",
        ran_at: "2026-12-06T13:40:00.000Z",
        cooldown_seconds: REVERIFY_COOLDOWN_MS / 1000,
        retry_after_seconds: Math.ceil((REVERIFY_COOLDOWN_MS - 1500) / 1000),
      },
    });
    expect(headers?.["retry-after"]).toBe(String(Math.ceil((REVERIFY_COOLDOWN_MS - 1500) / 1000)));
    expect(jobs.rows.get("cities")!.state).toBe("done");
    expect((await work()).kind).toBe("idle");
    // the operator: queued at once
    await ops.requestVerification(localOperator(), "cities");
    expect(jobs.rows.get("cities")!.state).toBe("queued");
    // while queued the author's request adds nothing and is answered 202 as before
    await expect(ops.requestVerification(AUTHOR, "cities")).resolves.toMatchObject({ state: "queued" });
    expect((await work()).kind).toBe("done");
    // past the cooldown since that result: the author's is queued
    clock.t += REVERIFY_COOLDOWN_MS;
    await expect(ops.requestVerification(AUTHOR, "cities")).resolves.toMatchObject({ state: "queued" });
  });

  it("a job that failed for good, with no result, counts too: the author's request within the cooldown of its attempt is 429 (probe30 A-F6 rest)", async () => {
    const notAPack = Object.assign(new Error("not a pack"), { name: "VerifierInputError" });
    const { jobs, clock, ops, work } = setUp("2026-12-06T17:00:00Z", async () => {
      throw notAPack;
    });
    expect(await ops.enqueueIfPacked("cities")).toBe(true);
    expect((await work()).kind).toBe("failed");
    clock.t += 2000;
    const e = await ops.requestVerification(AUTHOR, "cities").then(
      () => null,
      (x: unknown) => x,
    );
    const { status, body } = errorResponseOf(e);
    expect(status).toBe(429);
    expect(body.error).toMatchObject({
      code: "rate_limited",
      details: {
        limit: "reverification_cooldown",
        ran_at: null,
        attempted_at: "2026-12-06T17:00:00.000Z",
        retry_after_seconds: Math.ceil((REVERIFY_COOLDOWN_MS - 2000) / 1000),
      },
    });
    expect(body.error.message).toContain(
      "had its last verification attempt at 2026-12-06T17:00:00.000Z (failed)",
    );
    expect(jobs.rows.get("cities")!.state).toBe("failed");
    expect((await work()).kind).toBe("idle");
    // past the cooldown: queued (and failing again)
    clock.t += REVERIFY_COOLDOWN_MS;
    await expect(ops.requestVerification(AUTHOR, "cities")).resolves.toMatchObject({ state: "queued" });
    expect((await work()).kind).toBe("failed");
  });
});
