/**
 * e38's note (probe38 C-F3): before a pack, `/verification` answered 404 `verification_unavailable` with the
 * door's `retry_after_seconds` in its details but no `Retry-After` header, while the door's own 503 sent one.
 * The verification's refusal now carries the header when the door says when to ask again, and none when it
 * does not (a reason that is not a wait).
 */
import type { AwardEvidenceHead, Platform } from "@bench-bounty/platform";
import { describe, expect, it } from "vitest";
import { EdgeError } from "../src/errors.js";
import { verificationOps } from "../src/verification/ops.js";
import type { VerificationQueue } from "../src/verification/worker.js";

/** The ops over a platform whose door answers `head`, and a queue with no job. */
function opsWith(head: AwardEvidenceHead) {
  const platform = {
    getBenchmark: async () => ({}),
    awardEvidenceHead: async () => head,
  } as unknown as Platform;
  const jobs = { get: async () => undefined } as unknown as VerificationQueue;
  return verificationOps(platform, jobs);
}

describe("/verification before a pack: the door's retry hint as Retry-After", () => {
  it("a pending pack: 404 verification_unavailable with Retry-After and details.retry_after_seconds", async () => {
    const ops = opsWith({
      kind: "unavailable",
      reason: "pack_pending",
      message: "the award is confirmed; its pack could not be minted just now: ask again later",
      details: { retry_after_seconds: 27 },
    } as AwardEvidenceHead);
    const e = await ops.verification(null, "s").catch((x: unknown) => x);
    expect(e).toBeInstanceOf(EdgeError);
    expect(e).toMatchObject({
      code: "verification_unavailable",
      details: { retry_after_seconds: 27, reason: "pack_pending", slug: "s" },
      headers: { "retry-after": "27" },
    });
  });

  it("not awarded: the refusal carries no Retry-After", async () => {
    const ops = opsWith({
      kind: "unavailable",
      reason: "not_awarded",
      message: "the award has not been settled yet",
    } as AwardEvidenceHead);
    const e = (await ops.verification(null, "s").catch((x: unknown) => x)) as EdgeError;
    expect(e.code).toBe("verification_unavailable");
    expect(e.headers).toEqual({});
  });
});
