/**
 * The `verification_jobs` table behind the verifier worker's port (issue 17 item 2), on the engine
 * under test: enqueue is idempotent, a claim hands a job to one worker (two stores on one database,
 * as two processes, race for it), an expired lease is taken again, and a worker that lost its lease
 * changes nothing.
 */
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import type { VerificationResult } from "../src/store/verification-jobs.js";
import { Store } from "../src/store.js";
import { cleanup, freshPostgresTarget, openTemp, rejection, tempDir, TEST_ENGINE } from "./helpers.js";

afterEach(cleanup);

/** Two stores on one fresh database (two processes' views of it). */
async function twoStores(): Promise<[Store, Store]> {
  if (TEST_ENGINE === "postgres") {
    const target = await freshPostgresTarget();
    return [await Store.open(target), await Store.open(target)];
  }
  const dir = tempDir();
  return [await Store.open({ dir }), await Store.open({ dir })];
}

const result = (text: string): VerificationResult => ({
  reportBytes: new TextEncoder().encode(text),
  policy: "full",
  policyVersion: "0.1.0",
  verifierVersion: "0.1.0",
  ranAt: "2026-01-01T00:00:00.000Z",
});

describe(`verification_jobs (${TEST_ENGINE})`, () => {
  it("enqueue is idempotent while queued or running; a done job is queued again and keeps its result", async () => {
    const [s] = await twoStores();
    try {
      const q = s.verificationJobs;
      await q.enqueue("a", 1000);
      await q.enqueue("a", 2000);
      expect(await q.get("a")).toMatchObject({ status: "queued", attempts: 0, next_at: 1000 });
      expect(await q.claim(3000, 500, "w1")).toEqual({ slug: "a", attempts: 0 });
      await q.enqueue("a", 3100);
      expect(await q.get("a")).toMatchObject({ status: "running", worker: "w1", lease_until: 3500 });
      expect(await q.complete("a", "w1", result('{"ok":1}\n'))).toBe(true);
      const done = (await q.get("a"))!;
      expect(done).toMatchObject({ status: "done", attempts: 1, worker: null });
      expect(new TextDecoder().decode(done.result!.reportBytes)).toBe('{"ok":1}\n');
      expect(done.result).toMatchObject({
        policy: "full",
        policyVersion: "0.1.0",
        ranAt: "2026-01-01T00:00:00.000Z",
      });
      await q.enqueue("a", 4000);
      const again = (await q.get("a"))!;
      expect(again).toMatchObject({ status: "queued", attempts: 0, next_at: 4000 });
      expect(new TextDecoder().decode(again.result!.reportBytes)).toBe('{"ok":1}\n');
      expect(await q.claim(4000, 500, "w2")).toEqual({ slug: "a", attempts: 0 });
    } finally {
      await s.close();
    }
  });

  it("two claimers racing one job: exactly one wins; the loser gets null", async () => {
    const [a, b] = await twoStores();
    try {
      for (let round = 0; round < 10; round++) {
        const slug = `job-${round}`;
        await a.verificationJobs.enqueue(slug, 0);
        const got = await Promise.all([
          a.verificationJobs.claim(10, 60_000, "wa"),
          b.verificationJobs.claim(10, 60_000, "wb"),
          a.verificationJobs.claim(10, 60_000, "wa2"),
          b.verificationJobs.claim(10, 60_000, "wb2"),
        ]);
        expect(got.filter((g) => g !== null)).toEqual([{ slug, attempts: 0 }]);
        const holder = (await a.verificationJobs.get(slug))!.worker!;
        expect(await a.verificationJobs.complete(slug, holder, result("r"))).toBe(true);
      }
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("enqueueFirst: of two stores racing the first enqueue exactly one queues; a finished job stays done", async () => {
    const [a, b] = await twoStores();
    try {
      for (let round = 0; round < 5; round++) {
        const slug = `first-${round}`;
        const made = await Promise.all([
          a.verificationJobs.enqueueFirst(slug, 0),
          b.verificationJobs.enqueueFirst(slug, 0),
          a.verificationJobs.enqueueFirst(slug, 0),
        ]);
        expect(made.filter(Boolean)).toHaveLength(1);
        expect(await a.verificationJobs.claim(10, 60_000, "w")).toEqual({ slug, attempts: 0 });
        expect(await a.verificationJobs.complete(slug, "w", result("r"))).toBe(true);
        // the late racer of the scenario: the job is done, and enqueueFirst leaves it so
        expect(await b.verificationJobs.enqueueFirst(slug, 20)).toBe(false);
        expect(await b.verificationJobs.get(slug)).toMatchObject({ status: "done", attempts: 1 });
      }
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("an expired lease is taken again; the first worker's late complete, retry and fail are no-ops", async () => {
    const [a, b] = await twoStores();
    try {
      await a.verificationJobs.enqueue("s", 0);
      expect(await a.verificationJobs.claim(0, 1000, "w1")).toEqual({ slug: "s", attempts: 0 });
      // within the lease nobody else gets it
      expect(await b.verificationJobs.claim(999, 1000, "w2")).toBeNull();
      // once it expired, another worker takes it
      expect(await b.verificationJobs.claim(1000, 1000, "w2")).toEqual({ slug: "s", attempts: 0 });
      expect(await a.verificationJobs.complete("s", "w1", result("late"))).toBe(false);
      expect(await a.verificationJobs.retry("s", "w1", 5000, "late")).toBe(false);
      expect(await a.verificationJobs.fail("s", "w1", "late")).toBe(false);
      expect(await b.verificationJobs.get("s")).toMatchObject({
        status: "running",
        worker: "w2",
        result: null,
      });
      expect(await b.verificationJobs.complete("s", "w2", result("mine"))).toBe(true);
      const s = (await a.verificationJobs.get("s"))!;
      expect(new TextDecoder().decode(s.result!.reportBytes)).toBe("mine");
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("retry waits until next_at, counts attempts and keeps the error; fail is final", async () => {
    const [s] = await twoStores();
    try {
      const q = s.verificationJobs;
      await q.enqueue("r", 0);
      await q.claim(0, 1000, "w");
      expect(await q.retry("r", "w", 5000, "VerifierNetworkError: rpc down")).toBe(true);
      expect(await q.get("r")).toMatchObject({
        status: "retrying",
        attempts: 1,
        next_at: 5000,
        last_error: "VerifierNetworkError: rpc down",
      });
      expect(await q.claim(4999, 1000, "w")).toBeNull();
      expect(await q.claim(5000, 1000, "w")).toEqual({ slug: "r", attempts: 1 });
      expect(await q.fail("r", "w", "VerifierInputError: not a pack")).toBe(true);
      expect(await q.get("r")).toMatchObject({
        status: "failed",
        attempts: 2,
        last_error: "VerifierInputError: not a pack",
        // the failed attempt's claim (probe30 A-F6 rest: the author's cooldown runs from it)
        last_attempt_at: 5000,
      });
      expect(await q.claim(1e12, 1000, "w")).toBeNull();
      await q.enqueue("r", 9000);
      expect(await q.get("r")).toMatchObject({ status: "queued", last_attempt_at: null });
    } finally {
      await s.close();
    }
  });
  // probe26 A-F6: a serve without a chain (or without --indexer-url) took a re-verification of an award
  // and replaced the chain-verified report for every process
  it("a worker takes only the work it can observe: none without the chain, and without the indexer none a report read it for", async () => {
    const [a, b] = await twoStores();
    try {
      const chainOnly = { chain: true, indexer: false };
      const both = { chain: true, indexer: true };
      await a.verificationJobs.enqueue("w", 0);
      // no chain: never a job (every pack is an on-chain award's)
      expect(
        await b.verificationJobs.claim(10, 1000, "chainless", { chain: false, indexer: true }),
      ).toBeNull();
      // first verified by a worker reading the indexer
      expect(await a.verificationJobs.claim(10, 1000, "full", both)).toEqual({ slug: "w", attempts: 0 });
      expect(
        await a.verificationJobs.complete("w", "full", { ...result("strong"), observedIndexer: true }),
      ).toBe(true);
      // queued again (a re-verification asked through any process): a worker without the indexer leaves it
      await b.verificationJobs.enqueue("w", 20);
      expect(await b.verificationJobs.claim(30, 1000, "no-indexer", chainOnly)).toBeNull();
      expect(
        await b.verificationJobs.claim(30, 1000, "chainless", { chain: false, indexer: false }),
      ).toBeNull();
      expect(await a.verificationJobs.get("w")).toMatchObject({ status: "queued" });
      expect(await b.verificationJobs.claim(30, 1000, "full-2", both)).toEqual({ slug: "w", attempts: 0 });
      // a job no worker with the indexer has verified stays open to one without
      await a.verificationJobs.enqueue("x", 40);
      expect(await b.verificationJobs.claim(50, 1000, "no-indexer", chainOnly)).toEqual({
        slug: "x",
        attempts: 0,
      });
      expect(await b.verificationJobs.complete("x", "no-indexer", result("weak"))).toBe(true);
      await a.verificationJobs.enqueue("x", 60);
      expect(await b.verificationJobs.claim(70, 1000, "no-indexer", chainOnly)).toEqual({
        slug: "x",
        attempts: 0,
      });
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe.skipIf(TEST_ENGINE !== "postgres")("a requested verification's lock waits (probe19 A-F3)", () => {
  it("the job's row held by another transaction past `answerBy`: enqueueVerification is server_busy, nothing written", async () => {
    const h = await openTemp();
    try {
      const q = h.ctx.store.verificationJobs;
      await q.enqueue("v", 1000);
      expect(await q.claim(1000, 500, "w")).toEqual({ slug: "v", attempts: 0 });
      expect(await q.complete("v", "w", result("first"))).toBe(true);
      let free!: () => void;
      const gate = new Promise<void>((r) => (free = r));
      let held!: () => void;
      const locked = new Promise<void>((r) => (held = r));
      const holder = h.ctx.store.tx(async (t) => {
        await sql`SELECT 1 FROM verification_jobs WHERE slug = 'v' FOR UPDATE`.execute(t.db);
        held();
        await gate;
      });
      await locked;
      const release = setTimeout(free, 5000);
      const e = await rejection(
        h.real.enqueueVerification("v", 2000, { answerBy: Date.now() + 300 }),
      ).finally(() => {
        clearTimeout(release);
        free();
      });
      await holder;
      expect(e).toMatchObject({ code: "server_busy", details: { retry_after_seconds: 5 } });
      expect(await q.get("v")).toMatchObject({ status: "done", next_at: 1000 });
      // in time: queued again
      await h.real.enqueueVerification("v", 3000, { answerBy: Date.now() + 60_000 });
      expect(await q.get("v")).toMatchObject({ status: "queued", next_at: 3000 });
    } finally {
      await h.close();
    }
  });
});
