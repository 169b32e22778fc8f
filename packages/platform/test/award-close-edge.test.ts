/**
 * probe30 C-F6: the award's opening edge is judged by the block the award lands in (the pending one), as
 * its deadline edge is (the send's simulation, probe26 C-F1). With the latest block at `closes_at - 1` the
 * next block, where the award is mined, is at `closes_at` or later, where the contract accepts it: the
 * award was refused `award_not_allowed` by the latest block's clock.
 */
import { describe, expect, it } from "vitest";
import { cities, latestBlockTime, lockPrize, openOnChainClock, useDevChain } from "./helpers.js";

const devChain = useDevChain();

describe("the award's opening edge (probe30 C-F6)", () => {
  it("the latest block one second before closes_at: the award lands in the next block and is mined", async () => {
    const dc = devChain();
    const { platform, chainNow, clock } = await openOnChainClock(dc, 1);
    try {
      const ds = await platform.createDataset(cities(4, "edge"));
      const { slug } = await platform.publish(ds.dataset_id, {
        title: "Edge",
        prompt_template: "What is the answer for {payload.city} #{payload.index}?",
        grader_type: "exact",
      });
      const { closesAt } = await lockPrize(platform, dc, slug, chainNow, {
        pool: 4_000_000n,
        author: 2,
        payoutRule: "winner_take_all",
        closesIn: 600,
      });
      await dc.publicClient.request({
        method: "evm_setNextBlockTimestamp" as never,
        params: [closesAt - 1] as never,
      });
      await dc.publicClient.request({ method: "evm_mine" as never, params: [] as never });
      clock.set((closesAt + 1) * 1000);
      const mined = await latestBlockTime(dc);
      const awarded = await platform.award(slug);
      expect(awarded).toMatchObject({ zero_winner_reason: "no_runs" });
      expect(awarded.award_tx).toMatch(/^0x[0-9a-f]{64}$/);
      const block = await dc.publicClient.getBlock({ blockNumber: BigInt(awarded.award_block) });
      expect(Number(block.timestamp)).toBeGreaterThanOrEqual(closesAt);
      expect(mined).toBe(closesAt - 1);
    } finally {
      await platform.close();
    }
  }, 120_000);
});
