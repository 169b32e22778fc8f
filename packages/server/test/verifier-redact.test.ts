/**
 * The verifier worker's errors (stored as `last_error`, shown to anyone at `GET .../verification`)
 * never carry the indexer URL's userinfo or token (probe8 P4: `--indexer-url` may carry credentials).
 */
import { describe, expect, it } from "vitest";
import type { Platform } from "@bench-bounty/platform";
import { verifierDeps } from "../src/verification/runtime.js";
import { MemoryVerificationJobs } from "../src/verification/memory-jobs.js";

describe("verifier and the indexer URL", () => {
  it("an indexer that has not caught up is reported by its public URL only", async () => {
    const deps = verifierDeps({} as Platform, {
      jobs: new MemoryVerificationJobs(),
      indexerUrl: "http://idxuser:IDXPASS8@127.0.0.1:9/?token=IDXTOK8",
    });
    const pack = new TextEncoder().encode(JSON.stringify({ benchmark: { bounty_id: "7" } }));
    const job = { attempts: 0 } as Parameters<typeof deps.verify>[1];
    const e = (await deps.verify(pack, job).then(
      () => null,
      (err: unknown) => err,
    )) as Error;
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe("IndexerBehind");
    expect(e.message).toContain("http://127.0.0.1:9");
    expect(e.message).not.toMatch(/IDXPASS8|IDXTOK8|idxuser/);
  });
});
