/**
 * End-to-end: a devchain (local Base profile), a driven scenario, the indexer
 * as a `ponder start` child process, and every API answer compared with the
 * chain read through viem. Then the live, restart, reorg and fresh-chain cases.
 * Runs on PGlite always, and on PostgreSQL when TEST_DATABASE_URL is set.
 */
import { ANCHOR_KINDS } from "@bench-bounty/contracts";
import { startDevChain, type DevChain } from "@bench-bounty/devchain";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startIndexer, type RunningIndexer } from "../testing/startIndexer.js";
import { expectIndexerMatchesChain, getJson } from "./helpers/compare";
import { digestOf, Driver } from "./helpers/driver";
import { A, driveInitialScenario, scenarioAccounts } from "./helpers/scenario";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
if (TEST_DATABASE_URL === undefined || TEST_DATABASE_URL === "") {
  console.warn(
    "\n[indexer tests] TEST_DATABASE_URL is not set: the PostgreSQL scenario is SKIPPED (CI's .ci/run sets it).\n",
  );
}

/** Polls `check` until it returns true, for at most `ms`; returns the time it took. */
async function within(ms: number, what: string, check: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > ms) throw new Error(`${what}: not seen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

type Db = { kind: "pglite" } | { kind: "postgres"; url: string };

function scenario(label: string, db: Db) {
  describe(`indexer on ${label}`, () => {
    let dc: DevChain;
    let d: Driver;
    let ix: RunningIndexer | undefined;
    let pgliteDir: string | undefined;
    const schema = `it_${db.kind}_${process.pid}_${Date.now().toString(36)}`;
    // SQL over HTTP is compared on PGlite too (opted in: not served there by default)
    const dbOpts = () =>
      db.kind === "postgres" ? { databaseUrl: db.url } : { pgliteDir: pgliteDir!, unsafeSqlOnPglite: true };

    beforeAll(async () => {
      if (db.kind === "pglite") pgliteDir = mkdtempSync(join(tmpdir(), "bb-indexer-test-"));
      dc = await startDevChain();
      d = new Driver(dc);
      await driveInitialScenario(d, "a");
    });

    afterAll(async () => {
      await ix?.stop();
      await dc?.stop();
      if (pgliteDir !== undefined) rmSync(pgliteDir, { recursive: true, force: true });
    });

    it("backfills the scenario and every API answer matches the chain", async () => {
      ix = await startIndexer({ chain: dc, schema, ...dbOpts() });
      const st = await expectIndexerMatchesChain(ix.url, dc, scenarioAccounts(d));
      // The scenario covers what it claims to cover.
      expect(new Set(st.bounties.map((b) => b.status))).toEqual(
        new Set(["Pending", "Funded", "Awarded", "Reclaimed"]),
      );
      expect(new Set(st.awarded.map((a) => a.winners.length))).toEqual(new Set([0, 1, 2, 3]));
      expect(st.claimed.some((c) => c.to !== c.account)).toBe(true);
      expect(new Set(st.anchored.map((a) => a.kind))).toEqual(new Set(Object.values(ANCHOR_KINDS)));
    });

    it("answers 400 naming the parameter for bad input", async () => {
      const cases: [string, string][] = [
        ["/bounties?status=open", "status"],
        ["/bounties?author=0x1234", "author"],
        ["/bounties?token=usdc", "token"],
        ["/bounties?limit=501", "limit"],
        ["/bounties?limit=-1", "limit"],
        ["/bounties?cursor=abc", "cursor"],
        ["/bounties?colour=blue", "colour"],
        ["/bounties?status=Funded&status=Pending", "status"],
        ["/bounties/abc", "id"],
        ["/bounties/0", "id"],
        ["/bounties/01", "id"],
        ["/accounts/0xnothex/credits", "address"],
        ["/anchors/0x12", "digest"],
        ["/awards?from=yesterday", "from"],
        ["/awards?from=200&to=100", "from"],
        ["/awards?to=2026-13-45", "to"],
        ["/awards?winner=bob", "winner"],
        ["/awards?cursor=12", "cursor"],
        ["/awards?bounty=0", "bounty"],
        ["/awards?winner=0x0000000000000000000000000000000000000001&bounty=07", "bounty"],
        ["/accounts/0x0000000000000000000000000000000000000001/credits?bounty=abc", "bounty"],
        ["/accounts/0x0000000000000000000000000000000000000001/credits?bounty=1&bounty=2", "bounty"],
      ];
      for (const [path, parameter] of cases) {
        const { status, body } = await getJson(ix!.url, path);
        expect(status, path).toBe(400);
        expect(body.error, path).toMatchObject({ code: "invalid_parameter", parameter });
      }
    });

    it("live: new events appear within a few seconds", async () => {
      const t0 = await d.now();
      const id = await d.create(
        {
          author: A.authorB,
          awarder: A.awarder,
          pool: 29n * 1_000_000n,
          splitsBps: [10000],
          closesAt: t0 + 30n,
          awardDeadline: t0 + 100_000n,
          label: "live",
        },
        "createAndFund",
      );
      const seen = await within(
        5000,
        "live bounty",
        async () => (await getJson(ix!.url, `/bounties/${id}`)).status === 200,
      );
      await d.anchor(A.w6, digestOf("live-receipt"), ANCHOR_KINDS.receipt);
      await within(
        5000,
        "live anchor",
        async () => (await getJson(ix!.url, `/anchors/${digestOf("live-receipt")}`)).status === 200,
      );
      await d.dc.increaseTime(40);
      await d.award(A.awarder, id, [A.w6], "live");
      await within(5000, "live award", async () => {
        const { body } = await getJson(ix!.url, `/bounties/${id}`);
        return (body.bounty as { status: string }).status === "Awarded";
      });
      await ix!.waitForHead(10_000);
      await expectIndexerMatchesChain(ix!.url, dc, scenarioAccounts(d));
      expect(seen).toBeLessThan(5000);
    });

    it("restart: stop, add events while stopped, start on the same store: nothing lost or doubled", async () => {
      expect(await ix!.stop()).toBe(0);
      await d.claim(A.w6, 7n, A.r10); // bounty 7's second place
      await d.claim(A.w6, 10n, A.w6); // the live bounty
      const t0 = await d.now();
      await d.create(
        {
          author: A.authorA,
          awarder: A.awarder,
          pool: 31n,
          splitsBps: [10000],
          closesAt: t0 + 30n,
          awardDeadline: t0 + 100_000n,
          label: "while-stopped",
        },
        "create",
      );
      await d.anchor(A.r11, digestOf("while-stopped"), ANCHOR_KINDS.pack);
      ix = await startIndexer({ chain: dc, schema, ...dbOpts() });
      const st = await expectIndexerMatchesChain(ix.url, dc, scenarioAccounts(d));
      expect(st.claimed.length).toBe(8);
    });

    it("reorg: events of an abandoned fork disappear, the new fork's events are indexed", async () => {
      const snap = await dc.snapshot();
      const t0 = await d.now();
      const forkId = await d.create(
        {
          author: A.authorA,
          awarder: A.awarder,
          pool: 37n,
          splitsBps: [10000],
          closesAt: t0 + 30n,
          awardDeadline: t0 + 100_000n,
          label: "fork-a",
        },
        "createAndFund",
      );
      await d.claim(A.w8, 8n, A.r12);
      await d.anchor(A.w9, digestOf("fork-a-pack"), ANCHOR_KINDS.pack);
      await d.mineBlocks(2);
      const abandonedHead = Number(await dc.publicClient.getBlockNumber());
      await ix!.waitForHead(15_000);
      expect((await getJson(ix!.url, `/anchors/${digestOf("fork-a-pack")}`)).status).toBe(200);
      expect(((await getJson(ix!.url, `/bounties/${forkId}`)).body.bounty as { author: string }).author).toBe(
        d.addr(A.authorA).toLowerCase(),
      );

      await dc.revert(snap);
      await d.anchor(A.w9, digestOf("fork-b-receipt"), ANCHOR_KINDS.receipt);
      const otherId = await d.create(
        {
          author: A.authorB,
          awarder: A.awarder,
          pool: 41n,
          splitsBps: [10000],
          closesAt: t0 + 30n,
          awardDeadline: t0 + 100_000n,
          label: "fork-b",
        },
        "create",
      );
      expect(otherId).toBe(forkId);
      await d.claim(A.w8, 8n, A.r10);
      const now = Number(await dc.publicClient.getBlockNumber());
      await d.mineBlocks(abandonedHead - now + 3);
      await ix!.waitForHead(20_000);

      const st = await expectIndexerMatchesChain(ix!.url, dc, scenarioAccounts(d));
      expect((await getJson(ix!.url, `/anchors/${digestOf("fork-a-pack")}`)).status).toBe(404);
      const b = (await getJson(ix!.url, `/bounties/${otherId}`)).body;
      expect(b.bounty).toMatchObject({
        author: d.addr(A.authorB).toLowerCase(),
        status: "Pending",
        pool: "41",
      });
      expect((b.claims as unknown[]).length).toBe(0);
      expect(st.claimed.filter((c) => c.bountyId === 8n).map((c) => c.to)).toEqual([
        d.addr(A.r11),
        d.addr(A.r10),
      ]);
    });

    it("fresh chain with the same chain id and addresses: no stale cached data", async () => {
      expect(await ix!.stop()).toBe(0);
      ix = undefined;
      const oldAnchor = digestOf("apack");
      await dc.stop();
      dc = await startDevChain();
      d = new Driver(dc);
      // Different content at the same addresses: one bounty by the other author, one award, one anchor.
      await d.fundAccount(A.authorB, 100n * 1_000_000n);
      const t0 = await d.now();
      const id = await d.create(
        {
          author: A.authorB,
          awarder: A.awarder,
          pool: 43n,
          splitsBps: [10000],
          closesAt: t0 + 10n,
          awardDeadline: t0 + 100_000n,
          label: "fresh",
        },
        "createAndFund",
      );
      await dc.increaseTime(20);
      await d.award(A.awarder, id, [A.w9], "fresh");
      await d.anchor(A.w9, digestOf("fresh-anchor"), ANCHOR_KINDS.commitment);
      // Past the finality depth (30 blocks), so these events come through the backfill, i.e.
      // through the sync store that still holds the old chain's blocks at the same numbers.
      await d.mineBlocks(35);
      // Same database (PGlite directory or PostgreSQL database), new schema.
      ix = await startIndexer({ chain: dc, ...dbOpts() });
      const st = await expectIndexerMatchesChain(ix.url, dc, scenarioAccounts(d));
      expect(st.bounties.length).toBe(1);
      expect((await getJson(ix.url, "/bounties")).body.items).toHaveLength(1);
      expect((await getJson(ix.url, `/anchors/${oldAnchor}`)).status).toBe(404);
    });
  });
}

scenario("PGlite", { kind: "pglite" });
describe.skipIf(TEST_DATABASE_URL === undefined || TEST_DATABASE_URL === "")(
  "PostgreSQL (TEST_DATABASE_URL)",
  () => {
    scenario("PostgreSQL", { kind: "postgres", url: TEST_DATABASE_URL ?? "" });
  },
);
