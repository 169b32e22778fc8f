/**
 * probe26 A-F5: a run finalized (or a benchmark published) through a process without a chain on a store
 * that another process anchors for had its receipt hash (commit root) recorded `off_chain` and served by
 * every process; a stranger anchored it first with another kind and the prize could never be awarded.
 * Now every process on a store some process opened with a chain records its digests pending (withheld),
 * and a process with the chain (its batcher's sweep) anchors them.
 */
import { describe, expect, it } from "vitest";
import {
  chainConfig,
  cities,
  CITIES_PUBLISH,
  freshStoreLocation,
  openAt,
  useDevChain,
  type Harness,
} from "./helpers.js";

const chain = useDevChain();

/** Publishes and finalizes one run through `h` (a process without a chain). */
async function publishAndFinalize(h: Harness, tag: string) {
  const author = await h.real.authenticate((await h.real.createAccount({ name: `${tag}-author` })).api_key);
  const ds = await h.real.createDataset(author, cities(4, tag));
  const published = await h.real.publish(author, ds.dataset_id, { ...CITIES_PUBLISH, max_attempts: 2 });
  const rival = await h.principal(`${tag}-rival`);
  const run = await h.real.startRun(rival, published.slug, `${tag}-rival`);
  const done = await h.real.finalize(rival, run.run.id);
  return { published, done, rival, runId: run.run.id };
}

describe("a process without a chain on a store anchored on one (probe26 A-F5)", { timeout: 120_000 }, () => {
  it("withholds its commit root and receipt hash as pending, on every process, instead of off_chain", async () => {
    const at = await freshStoreLocation();
    // a process with a chain opens the store (it sends nothing here)
    const withChain = await openAt({ ...at, chain: chainConfig(chain(), 0) });
    const chainless = await openAt({ ...at });
    try {
      const { published, done, rival, runId } = await publishAndFinalize(chainless, "cl");
      expect(published.commitment_anchor_status).toBe("pending");
      expect(published.commit_root).toBeNull();
      expect(published.commitment_anchor_error).toMatch(/no chain/);
      expect(done.receipt_anchor_status).toBe("pending");
      expect(done.receipt_hash).toBeNull();
      expect(done.receipt_anchor_error).toMatch(/no chain/);
      // neither process serves the digests: nobody can anchor them first with another kind
      for (const h of [chainless, withChain]) {
        const row = (await h.real.leaderboard(published.slug)).rows.find((r) => r.agent_id === "cl-rival");
        expect(row?.receipt_hash ?? null).toBeNull();
        expect((await h.real.commitment(published.slug)).commit_root).toBeNull();
        expect((await h.real.getRun(rival, runId)).receipt_hash).toBeNull();
      }
      const stored = await chainless.storedReceiptHash(runId);
      expect((await chainless.ctx.store.anchors.pending(published.slug)).map((r) => r.digest)).toContain(
        stored,
      );
    } finally {
      await chainless.real.close();
      await withChain.real.close();
    }
  });

  it("a process with the chain anchors them within its sweep, then every process shows them", async () => {
    const at = await freshStoreLocation();
    const withChain = await openAt({
      ...at,
      chain: chainConfig(chain(), 0),
      anchorBatching: { flushMs: 100, sweepMs: 200 },
    });
    const chainless = await openAt({ ...at });
    try {
      const { published, rival, runId } = await publishAndFinalize(chainless, "sw");
      const stored = await chainless.storedReceiptHash(runId);
      const until = Date.now() + 60_000;
      while ((await chainless.real.getRun(rival, runId)).receipt_hash === null && Date.now() < until)
        await new Promise((r) => setTimeout(r, 200));
      expect((await chainless.real.getRun(rival, runId)).receipt_hash).toBe(stored);
      expect((await withChain.real.commitment(published.slug)).commit_root).toBe(
        await chainless.storedCommitRoot(published.slug),
      );
      expect(await withChain.ctx.store.anchors.evidence(stored)).not.toBeNull();
    } finally {
      await chainless.real.close();
      await withChain.real.close();
    }
  });
});
