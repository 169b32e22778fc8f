/**
 * One bounty pays one benchmark (probe27 A-F2, A-F5, A-F8): a publish whose test-set root is an existing
 * benchmark's (the same rows and seed) is refused, so a bounty's root names one benchmark; a bounty is
 * attached to at most one benchmark of a store (a unique key the store enforces, whatever process
 * writes), and only while it is funded on-chain; of two attaches of different bounties to one benchmark
 * at the same moment exactly one wins; the detail names the attached bounty (id, author, chain,
 * contract) so an agent can verify the lock before spending a run.
 */
import { benchmarkBountyAbi } from "@bench-bounty/contracts";
import type { Hex } from "viem";
import { describe, expect, it } from "vitest";
import { sql } from "kysely";
import type { AttachedBounty } from "../src/context.js";
import { toStored } from "../src/json.js";
import { isUniqueViolation } from "../src/store/executor.js";
import {
  chainConfig,
  cities,
  freshStoreLocation,
  latestBlockTime,
  openAt,
  openTemp,
  rejection,
  undoMigration0011,
  useDevChain,
  type Harness,
} from "./helpers.js";

const devChain = useDevChain();
const POOL = 1_000_000n;
const PUBLISH = {
  title: "Cities",
  prompt_template: "Answer for {payload.city} #{payload.index}?",
  grader_type: "exact" as const,
};

/** Locks a bounty on `root` from Hardhat account `author` (closes in an hour, award deadline `awardIn` s later). */
async function lockOn(
  h: Harness,
  author: number,
  root: Hex,
  leaves: number,
  awardIn = 3600,
): Promise<bigint> {
  const dc = devChain();
  const a = dc.accounts[author]!;
  await dc.mintUsdc(a.address, POOL);
  const now = BigInt(await latestBlockTime(dc));
  const { bountyId } = await h.chain!.lockBounty({
    authorPrivateKey: a.privateKey,
    pool: POOL,
    testSetRoot: root,
    leafCount: leaves,
    closesAt: now + 3600n,
    awardDeadline: now + 3600n + BigInt(awardIn),
    thresholdBps: 0,
    splitsBps: [10000],
  });
  return bountyId;
}

describe("one bounty, one benchmark", () => {
  it("refuses a second publish of the same rows and seed, a bounty attached elsewhere, and a bounty not funded; the detail names the bounty", async () => {
    const dc = devChain();
    const h = await openTemp({ chain: chainConfig(dc, 0) });
    try {
      const mallory = await h.principal("mallory");
      const first = await h.publish((await h.createDataset(cities(4, "honest"))).dataset_id, {
        ...PUBLISH,
        seed: "demo-seed",
      });
      // the same rows and seed, by another account: the same root, refused (it was published: probe27 A-F2)
      const copyDs = await h.real.createDataset(mallory, cities(4, "squat"));
      const copy = await rejection(
        h.real.publish(mallory, copyDs.dataset_id, { ...PUBLISH, seed: "demo-seed" }),
      );
      // (another account's benchmark is not named: probe29 A-F8)
      expect(copy).toMatchObject({ code: "benchmark_exists", details: { field: "seed" } });
      expect(copy.details).not.toHaveProperty("existing_slug");
      expect(copy.message).not.toContain(first.slug);
      // another seed is another root
      const other = await h.real.publish(mallory, copyDs.dataset_id, { ...PUBLISH, seed: "own-seed" });
      expect(other.slug).not.toBe(first.slug);

      const root = await h.storedCommitRoot(first.slug);
      const before = await h.real.benchmarkDetail(first.slug);
      expect(before.bounty).toBeNull();
      const id = await lockOn(h, 2, root, first.leaf_count);
      await h.attachBounty(first.slug, id);
      // A-F8: the detail names what `bounty:status --id --author` needs
      const detail = await h.real.benchmarkDetail(first.slug);
      expect(detail.bounty).toEqual({
        chain_id: dc.chainId,
        bounty_contract: dc.contracts.benchmarkBounty.toLowerCase(),
        bounty_id: String(id),
        author: dc.accounts[2]!.address.toLowerCase(),
        token: dc.contracts.usdc.toLowerCase(),
        pool_base_units: String(POOL),
      });

      // a store from before the publish rule may hold two benchmarks of one root: the bounty still
      // attaches to one of them only (refused before anything is written), and the store's unique key
      // refuses a direct write too (another process, or a code path that skips the check)
      const legacyDs = await h.real.createDataset(mallory, cities(4, "legacy"));
      const record = await h.getBenchmark(first.slug);
      const legacy = `${first.slug}-legacy`;
      await h.ctx.store.benchmarks.insert({
        ...record,
        slug: legacy,
        dataset_id: legacyDs.dataset_id,
        author_account_id: mallory.account_id,
      });
      const elsewhere = await rejection(h.real.attachBounty(mallory, legacy, String(id)));
      expect(elsewhere).toMatchObject({
        code: "bounty_mismatch",
        details: { bounty_id: String(id), attached_to: first.slug },
      });
      expect((await h.getBenchmark(legacy)).bounty).toBeNull();
      const direct = await h.ctx.store.benchmarks
        .setBounty(legacy, (await h.getBenchmark(first.slug)).bounty!)
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(isUniqueViolation(direct)).toBe(true);
      expect((await h.getBenchmark(legacy)).bounty).toBeNull();
      // the same bounty again on its own benchmark refreshes it (still funded)
      await expect(h.attachBounty(first.slug, id)).resolves.toMatchObject({ bounty_id: String(id) });

      // only a funded bounty attaches: a reclaimed one is final on-chain
      const late = await h.publish((await h.createDataset(cities(5, "late"))).dataset_id, PUBLISH);
      const gone = await lockOn(h, 3, await h.storedCommitRoot(late.slug), late.leaf_count, 60);
      await dc.increaseTime(3600 + 120);
      const author3 = dc.wallet(3);
      await dc.publicClient.waitForTransactionReceipt({
        hash: await author3.writeContract({
          address: dc.contracts.benchmarkBounty,
          abi: benchmarkBountyAbi,
          functionName: "reclaim",
          args: [gone, dc.accounts[3]!.address],
        }),
      });
      const reclaimed = await rejection(h.attachBounty(late.slug, gone));
      expect(reclaimed).toMatchObject({
        code: "invalid_bounty",
        details: { field: "status", expected: "funded", actual: "reclaimed" },
      });
      expect((await h.getBenchmark(late.slug)).bounty).toBeNull();
    } finally {
      await h.close();
    }
  }, 180_000);

  it("of two attaches of different bounties to one benchmark at once, exactly one wins; the other is refused as a later one", async () => {
    const dc = devChain();
    const h = await openTemp({ chain: chainConfig(dc, 0) });
    try {
      const b = await h.publish((await h.createDataset(cities(4, "race"))).dataset_id, PUBLISH);
      const root = await h.storedCommitRoot(b.slug);
      const ids = [await lockOn(h, 4, root, b.leaf_count), await lockOn(h, 5, root, b.leaf_count)];
      const settled = await Promise.allSettled(ids.map((id) => h.attachBounty(b.slug, id)));
      const won = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value.bounty_id] : []));
      expect(won).toHaveLength(1);
      const lost = settled.find((s) => s.status === "rejected") as PromiseRejectedResult;
      expect(lost.reason).toMatchObject({ code: "bounty_mismatch", details: { bounty_id: won[0] } });
      expect((await h.getBenchmark(b.slug)).bounty?.bounty_id).toBe(won[0]);
      // the same refusal as an attach sent later
      const loser = ids.find((id) => String(id) !== won[0])!;
      expect(await rejection(h.attachBounty(b.slug, loser))).toMatchObject({
        code: "bounty_mismatch",
        details: { bounty_id: won[0] },
      });
    } finally {
      await h.close();
    }
  }, 180_000);

  it("migration 0011 keys the bounties attached before it, and refuses a store with one bounty on two benchmarks", async () => {
    const attached: AttachedBounty = {
      chain_id: 8453,
      bounty_contract: "0x" + "ab".repeat(20),
      bounty_id: "7",
      token: "0x" + "cd".repeat(20),
      author: "0x" + "ef".repeat(20),
      awarder: "0x" + "12".repeat(20),
      pool_base_units: "1000000",
      closes_at: 2_000_000_000,
      award_deadline: 2_000_086_400,
      threshold_bps: 0,
      splits_bps: [10000],
      status: "funded",
    };
    /**
     * A store before 0011 with benchmarks a, b; the bounty recorded on `on` (as a build before 0011 wrote
     * it), an award recorded on `awarded`. Left open when `keepOpen` (to repair it after a refusal).
     */
    const before = async (on: string[], awarded: string[] = [], keepOpen = false) => {
      const where = await freshStoreLocation();
      const h = await openAt(where);
      const slugs: string[] = [];
      for (const name of ["mig-a", "mig-b"])
        slugs.push(
          (await h.publish((await h.createDataset(cities(3 + slugs.length, name))).dataset_id, PUBLISH)).slug,
        );
      const db = h.ctx.store.db;
      await undoMigration0011(db);
      for (const i of on)
        await sql`UPDATE benchmarks SET bounty_json = ${toStored(attached)} WHERE slug = ${slugs[Number(i)]!}`.execute(
          db,
        );
      for (const i of awarded)
        await sql`INSERT INTO awards (slug, status, rank_derivation_json, ranking_digest, winners_json, award_tx, award_block, pack_hash, created_at)
          VALUES (${slugs[Number(i)]!}, 'confirmed', '{}', ${"0x" + "00".repeat(32)}, '[]', ${"0x" + "77".repeat(32)}, 5, NULL, '2026-01-01T00:00:00Z')`.execute(
          db,
        );
      if (!keepOpen) await h.close();
      return { where, slugs, h };
    };
    const one = await before(["0"]);
    const h = await openAt(one.where);
    try {
      expect(await h.ctx.store.benchmarks.slugOfBounty(attached)).toBe(one.slugs[0]);
      const direct = await h.ctx.store.benchmarks.setBounty(one.slugs[1]!, attached).then(
        () => null,
        (e: unknown) => e,
      );
      expect(isUniqueViolation(direct)).toBe(true);
    } finally {
      await h.close();
    }
    const two = await before(["0", "1"]);
    const refused = await rejection(openAt(two.where));
    expect(refused.code).toBe("invalid_store");
    expect(refused.message).toContain(
      `bounty 8453:${attached.bounty_contract}:7 is attached to 2 benchmarks`,
    );
    for (const slug of two.slugs) expect(refused.message).toContain(`${slug} (no award)`);
    expect(refused.message).toContain(`WHERE slug IN ('${two.slugs[1]!}');`);
    // store28 R-F3: which benchmark has an award, and the SQL that detaches the others, run as printed
    const paid = await before(["0", "1"], ["1"], true);
    try {
      const msg = (await rejection(openAt(paid.where))).message;
      expect(msg).toContain(`${paid.slugs[0]!} (no award)`);
      expect(msg).toContain(`${paid.slugs[1]!} (award confirmed, tx 0x${"77".repeat(32)})`);
      expect(msg).toContain(`to keep it on ${paid.slugs[1]!} (the one with an award)`);
      const repair = msg.match(/UPDATE benchmarks SET bounty_json = NULL WHERE slug IN \([^)]*\);/g) ?? [];
      expect(repair).toEqual([
        `UPDATE benchmarks SET bounty_json = NULL WHERE slug IN ('${paid.slugs[0]!}');`,
      ]);
      await sql.raw(repair[0]!).execute(paid.h.ctx.store.db);
    } finally {
      await paid.h.close();
    }
    const repaired = await openAt(paid.where);
    try {
      expect(await repaired.ctx.store.benchmarks.slugOfBounty(attached)).toBe(paid.slugs[1]);
    } finally {
      await repaired.close();
    }
  }, 120_000);
});
