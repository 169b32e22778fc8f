/**
 * probe24: `bench-bounty serve`'s verifier logged "bounty 7 is http 500, not yet awarded" for an
 * indexer that was down or erring. The retry it logs now says which: the indexer could not be read
 * (unreachable, an error answer: `IndexerUnavailable`, "will retry") or it has not seen the award
 * (`IndexerBehind`, "not yet awarded"). The text checked is the retry's `error`, what serve prints.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { Platform } from "@bench-bounty/platform";
import { verifierDeps } from "../src/verification/runtime.js";
import { MemoryVerificationJobs } from "../src/verification/memory-jobs.js";
import { runOnce } from "../src/verification/worker.js";

const PACK = new TextEncoder().encode(JSON.stringify({ benchmark: { bounty_id: "7" } }));

/** The error of the first verifier step for a stub pack of bounty 7, the indexer at `indexerUrl`. */
async function retryLine(indexerUrl: string): Promise<string> {
  const jobs = new MemoryVerificationJobs();
  await jobs.enqueue("bench", 0);
  const platform = {
    awardEvidence: () => Promise.resolve({ kind: "pack", bytes: PACK }),
  } as unknown as Platform;
  // a worker with a chain (never read: the indexer is asked first), which takes jobs (probe26 A-F6)
  const deps = verifierDeps(platform, { jobs, indexerUrl, rpcUrl: "http://127.0.0.1:9" });
  const step = await runOnce({ ...deps, now: () => 1 });
  expect(step.kind, JSON.stringify(step)).toBe("retry");
  return (step as { error: string }).error;
}

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

/** A local indexer answering every request with `status` and `body`; its URL. */
async function indexerAnswering(status: number, body: string): Promise<string> {
  server = createServer((_req, res) => {
    res.statusCode = status;
    res.setHeader("content-type", "application/json");
    res.end(body);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe("the verifier's retry names why the indexer did not confirm the award (probe24)", () => {
  it("an indexer answering 500: the indexer errored, will retry; not 'not yet awarded'", async () => {
    const url = await indexerAnswering(500, '{"error":"boom"}');
    const line = await retryLine(url);
    expect(line).toContain(
      `IndexerUnavailable: ${url}/bounties/7: the indexer answered http 500, not the bounty (will retry)`,
    );
    expect(line).not.toMatch(/not yet awarded/);
  });

  it("an indexer refusing the connection: unreachable, will retry; not 'not yet awarded'", async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const line = await retryLine(url);
    expect(line).toContain(`IndexerUnavailable: ${url}/bounties/7: the indexer is unreachable: `);
    expect(line).toMatch(/\(will retry\)$/);
    expect(line).toMatch(/unreachable: fetch failed: connect ECONNREFUSED 127\.0\.0\.1:\d+ \(will retry\)$/); // the cause
    expect(line).not.toMatch(/not yet awarded/);
  });

  it("an indexer that has the bounty funded: not yet awarded", async () => {
    const url = await indexerAnswering(200, '{"bounty":{"status":"Funded"}}');
    expect(await retryLine(url)).toContain(
      `IndexerBehind: ${url}/bounties/7: bounty 7 is Funded, not yet awarded`,
    );
  });
});
