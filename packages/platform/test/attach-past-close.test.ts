/**
 * probe38 C-N1: an attach accepted a bounty whose on-chain close had already passed: the open benchmark
 * was closed at once by the attach (runs in progress cut off, the prize only for the runs already there),
 * which the rule "a bounty is attached only to a benchmark still open to new runs" refuses for a benchmark
 * closed before. Now such a bounty is refused `invalid_bounty` naming `closes_at` with the chain time,
 * nothing stored; the bounty already attached is still refreshed after its close.
 * probe38 V-F1: the close was judged by the latest block's time, minutes old on an idle node: a bounty whose
 * close lay between the latest block's time and the next block's was attached, and the benchmark closed at
 * the next block. Now the close is judged by the next (pending) block's time, `details.next_block_time`.
 */
import { describe, expect, it } from "vitest";
import {
  chainConfig,
  cities,
  latestBlockTime,
  openTemp,
  rejection,
  useDevChain,
  type Harness,
} from "./helpers.js";

const devChain = useDevChain();

/** The node idle for `seconds`: its clock moves, no block is mined (the latest block grows old). */
async function idle(seconds: number) {
  await devChain().publicClient.request({ method: "evm_increaseTime" as never, params: [seconds] as never });
}

/** The pending block's time: the earliest block anything sent now can land in. */
async function pendingTime(): Promise<number> {
  return Number((await devChain().publicClient.getBlock({ blockTag: "pending" })).timestamp);
}

/** A published benchmark and a bounty on its root from `dc.accounts[author]`, closing `closesIn` s after the latest block. */
async function benchmarkWithBounty(h: Harness, author: number, tag: string, closesIn: number) {
  const dc = devChain();
  const ds = await h.createDataset(cities(4, tag));
  const { slug, leaf_count } = await h.publish(ds.dataset_id, {
    title: `Close ${tag}`,
    prompt_template: "Answer for {payload.city} #{payload.index}?",
    grader_type: "exact",
  });
  const a = dc.accounts[author]!;
  await dc.mintUsdc(a.address, 2_000_000n);
  const closesAt = BigInt(await latestBlockTime(dc)) + BigInt(closesIn);
  const { bountyId } = await h.chain!.lockBounty({
    authorPrivateKey: a.privateKey,
    pool: 2_000_000n,
    testSetRoot: await h.storedCommitRoot(slug),
    leafCount: leaf_count,
    closesAt,
    awardDeadline: closesAt + 100_000n,
    thresholdBps: 0,
    splitsBps: [10000],
  });
  return { slug, bountyId, closesAt };
}

/** The benchmark kept no bounty and stays open (the refused attach stored nothing). */
async function expectNothingAttached(h: Harness, slug: string): Promise<void> {
  const b = await h.real.getBenchmark(slug);
  expect(b.bounty).toBeNull();
  expect(b.status).toBe("published");
  expect((await h.real.benchmarkDetail(slug)).open).toBe(true);
}

describe(
  "an attach judges the bounty's close by the chain's clock (probe38 C-N1)",
  { timeout: 180_000 },
  () => {
    it("a bounty whose closesAt has passed is refused invalid_bounty naming closes_at; the benchmark stays open, nothing attached", async () => {
      const dc = devChain();
      const h = await openTemp({ chain: chainConfig(dc, 0) });
      try {
        const { slug, bountyId, closesAt } = await benchmarkWithBounty(h, 1, "past", 20);
        await dc.increaseTime(60);
        const before = await pendingTime();
        const e = await rejection(h.attachBounty(slug, bountyId));
        expect(e).toMatchObject({
          code: "invalid_bounty",
          details: { bounty_id: String(bountyId), field: "closes_at", actual: Number(closesAt) },
        });
        const next = e.details.next_block_time as number;
        expect(next).toBeGreaterThanOrEqual(before);
        expect(e.message).toContain(`closes_at ${closesAt}`);
        expect(e.message).toContain(`is not after the next block's time ${next}`);
        await expectNothingAttached(h, slug);
      } finally {
        await h.close();
      }
    });

    it("on an idle node, a bounty whose close is after the latest block's time but not after the next block's is refused; the benchmark stays open (probe38 V-F1)", async () => {
      const dc = devChain();
      const h = await openTemp({ chain: chainConfig(dc, 0) });
      try {
        const { slug, bountyId, closesAt } = await benchmarkWithBounty(h, 3, "idle", 300);
        await idle(600); // no block mined: the latest block is 10 minutes old
        const latest = await latestBlockTime(dc);
        const before = await pendingTime();
        expect(Number(closesAt)).toBeGreaterThan(latest);
        expect(Number(closesAt)).toBeLessThan(before);
        const e = await rejection(h.attachBounty(slug, bountyId));
        expect(e).toMatchObject({
          code: "invalid_bounty",
          details: { bounty_id: String(bountyId), field: "closes_at", actual: Number(closesAt) },
        });
        expect(e.details.next_block_time as number).toBeGreaterThanOrEqual(before);
        expect(e.message).toContain("is not after the next block's time");
        await expectNothingAttached(h, slug);
      } finally {
        await h.close();
      }
    });

    it("a bounty attached while its close was ahead is refreshed by an attach after it", async () => {
      const dc = devChain();
      const h = await openTemp({ chain: chainConfig(dc, 0) });
      try {
        const { slug, bountyId } = await benchmarkWithBounty(h, 2, "refresh", 3600);
        await h.attachBounty(slug, bountyId);
        await dc.increaseTime(4000);
        const again = await h.attachBounty(slug, bountyId);
        expect(again).toMatchObject({ bounty_id: String(bountyId), status: "funded" });
      } finally {
        await h.close();
      }
    });
  },
);
