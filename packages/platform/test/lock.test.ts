import { describe, expect, it } from "vitest";
import { chainConfig, cities, latestBlockTime, openTemp, useDevChain } from "./helpers.js";

const devChain = useDevChain();

describe("lockBounty validates before sending anything", () => {
  it("refuses pool 0, pool above the balance, a past close, a deadline before close, threshold 99999 and bad splits with no transaction; then locks", async () => {
    const dc = devChain();
    const platform = await openTemp({ chain: chainConfig(dc, 0) });
    try {
      const ds = await platform.createDataset(cities(6));
      const { slug } = await platform.publish(ds.dataset_id, {
        title: "Cities",
        prompt_template: "Answer for {payload.city}?",
        grader_type: "exact",
      });
      const author = dc.accounts[9]!;
      await dc.mintUsdc(author.address, 5_000_000n);
      const now = await latestBlockTime(dc);
      const good = {
        authorPrivateKey: author.privateKey,
        pool: 5_000_000n,
        closesAt: now + 3600,
        awardDeadline: now + 7200,
        thresholdBps: 5000,
        payoutRule: "top_n_split" as const,
      };
      const nonce = () => dc.publicClient.getTransactionCount({ address: author.address });
      const before = await nonce();
      const cases: [Partial<typeof good> & { splitsBps?: number[] }, RegExp, string][] = [
        [{ pool: 0n }, /pool must be more than 0/, "pool"],
        [{ pool: -5n }, /pool must be more than 0/, "pool"],
        [{ pool: 5_000_001n }, /exceeds the author's balance 5000000/, "pool"],
        [{ closesAt: 1, awardDeadline: 2 }, /closes_at 1 is not in the future/, "closes_at"],
        [{ awardDeadline: now + 3600 }, /award_deadline .* must be after closes_at/, "award_deadline"],
        [{ thresholdBps: 99999 }, /threshold_bps must be an integer in 0\.\.10000/, "threshold_bps"],
        [{ splitsBps: [3000, 5000, 2000] }, /non-increasing/, "splits_bps"],
      ];
      for (const [patch, message, field] of cases) {
        const err = await platform.lockBounty(slug, { ...good, ...patch }).catch((e: unknown) => e);
        expect(err, field).toMatchObject({ code: "invalid_option", details: { field } });
        expect((err as Error).message).toMatch(message);
      }
      expect(await nonce()).toBe(before); // not even an approve was sent
      const bounty = await platform.lockBounty(slug, good);
      expect(bounty).toMatchObject({ pool_base_units: "5000000", threshold_bps: 5000, status: "funded" });
      expect(await nonce()).toBe(before + 2); // approve + createAndFund
    } finally {
      await platform.close();
    }
  }, 120_000);
});
