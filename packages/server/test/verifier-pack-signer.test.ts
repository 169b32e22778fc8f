/**
 * probe36 C-F1: a `serve` signing with another key than the bounty's awarder anchored a confirmed award's
 * pack at start, by itself (the verifier's start-up sweep reads the door, and the door minted the pack):
 * the registry keeps the first anchoring for good, so the pack failed the `full` policy forever. The door
 * now refuses to mint it there (`pack_pending`, its `refusal` naming the signer and the awarder); the
 * sweep says so in one line and goes on, queuing nothing.
 */
import { describe, expect, it } from "vitest";
import { PlatformError, type Platform } from "@bench-bounty/platform";
import { MemoryVerificationJobs } from "../src/verification/memory-jobs.js";
import { verificationOps } from "../src/verification/ops.js";
import { enqueuePackedAwards } from "../src/verification/runtime.js";

const SIGNER = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
const AWARDER = "0xbcd4042de499d14e55001ccbb24a551f3b954096";

describe("the start-up sweep on a serve that is not the awarder (probe36 C-F1)", () => {
  it("a confirmed award whose pack this serve may not anchor: not queued, refused in one line naming both addresses; the others queued", async () => {
    const refusal = new PlatformError(
      "award_not_allowed",
      `the evidence pack of bounty 13's award can be anchored only by its awarder ${AWARDER}, and this process signs as ${SIGNER}`,
      { reason: "signer_not_awarder", signer: SIGNER, awarder: AWARDER },
    );
    const platform = {
      listBenchmarks: async () => [{ slug: "mine" }, { slug: "theirs" }],
      awardEvidenceHead: async (slug: string) =>
        slug === "mine"
          ? { kind: "pack", pack_hash: `0x${"1".repeat(64)}`, pack_size: 10 }
          : { kind: "unavailable", reason: "pack_pending", message: "waits for the awarder", refusal },
    } as unknown as Platform;
    const jobs = new MemoryVerificationJobs();
    const ops = verificationOps(platform, jobs, () => Date.parse("2026-12-07T10:00:00Z"));
    const { queued, refused } = await enqueuePackedAwards(platform, (slug) => ops.enqueueIfPacked(slug));
    expect(queued).toEqual(["mine"]);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.slug).toBe("theirs");
    expect(refused[0]!.error).toContain(SIGNER);
    expect(refused[0]!.error).toContain(AWARDER);
    expect(jobs.rows.has("theirs")).toBe(false);
  });
});
