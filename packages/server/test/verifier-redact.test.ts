/**
 * The verifier worker's errors (stored as `last_error`, shown to anyone at `GET .../verification`)
 * never carry more of the indexer URL than its origin (probe8 P4: `--indexer-url` may carry credentials;
 * probe9 Q1: or a key in its path).
 */
import { describe, expect, it } from "vitest";
import type { Platform } from "@bench-bounty/platform";
import { verifierDeps } from "../src/verification/runtime.js";
import { MemoryVerificationJobs } from "../src/verification/memory-jobs.js";

/** The error the verifier's indexer check throws for bounty 7 on `indexerUrl` (nothing listens on port 9). */
async function indexerBehind(indexerUrl: string): Promise<Error> {
  const deps = verifierDeps({} as Platform, { jobs: new MemoryVerificationJobs(), indexerUrl });
  const pack = new TextEncoder().encode(JSON.stringify({ benchmark: { bounty_id: "7" } }));
  const job = { attempts: 0 } as Parameters<typeof deps.verify>[1];
  const e = await deps.verify(pack, job).then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(Error);
  expect((e as Error).name).toBe("IndexerBehind");
  return e as Error;
}

describe("verifier and the indexer URL", () => {
  it("an indexer that has not caught up is reported by its origin only", async () => {
    const e = await indexerBehind(
      "http://idxuser:IDXPASS8@127.0.0.1:9/v1/IDXPATH9/?token=IDXTOK8&sig=IDXSIG9",
    );
    expect(e.message).toContain("http://127.0.0.1:9");
    expect(e.message).not.toMatch(/IDXPASS8|IDXTOK8|idxuser|IDXPATH9|IDXSIG9|\/v1/);
  });

  it("a bare indexer URL is reported as it is, the path after it intact (review: `http://127.0.0.1:9bounties/7`)", async () => {
    const e = await indexerBehind("http://127.0.0.1:9");
    expect(e.message).toMatch(/^http:\/\/127\.0\.0\.1:9\/bounties\/7: bounty 7 is unreachable/);
  });
});
