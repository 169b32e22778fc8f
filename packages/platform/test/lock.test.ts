import { describe, expect, it } from "vitest";
import { chainConfig, cities, latestBlockTime, openTemp, rejection, useDevChain } from "./helpers.js";

const devChain = useDevChain();

/** A published 6-city benchmark and its author `dc.accounts[account]`, holding 5 USDC. */
async function publishedWithAuthor(
  platform: Awaited<ReturnType<typeof openTemp>>,
  dc: ReturnType<typeof devChain>,
  account: number,
  tag?: string,
) {
  const ds = await platform.createDataset(cities(6, tag));
  const { slug } = await platform.publish(ds.dataset_id, {
    title: "Cities",
    prompt_template: "Answer for {payload.city}?",
    grader_type: "exact",
  });
  const author = dc.accounts[account]!;
  await dc.mintUsdc(author.address, 5_000_000n);
  return { slug, author };
}

describe("lockBounty validates before sending anything", () => {
  it("refuses pool 0, pool above the balance, a past close, a deadline before close, threshold 99999 and bad splits with no transaction; then locks", async () => {
    const dc = devChain();
    const platform = await openTemp({ chain: chainConfig(dc, 0) });
    try {
      const { slug, author } = await publishedWithAuthor(platform, dc, 9);
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
        // probe30 C-F5: past createBounty's uint256 it was a chain_error blaming the RPC
        [{ pool: 10n ** 78n }, /pool must be at most \d{78} base units \(createBounty's uint256\)/, "pool"],
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

  /**
   * An author `dc.accounts[account]` holding `balanceWei` of ETH tries to lock a published benchmark's
   * prize: the refusal, the author, and its nonces before and after.
   */
  async function lockWithBalance(account: number, tag: string, balanceWei: bigint) {
    const dc = devChain();
    const platform = await openTemp({ chain: chainConfig(dc, 0) });
    try {
      const { slug, author } = await publishedWithAuthor(platform, dc, account, tag);
      const nonce = () => dc.publicClient.getTransactionCount({ address: author.address });
      const before = await nonce();
      await dc.publicClient.request({
        method: "hardhat_setBalance" as never,
        params: [author.address, `0x${balanceWei.toString(16)}`] as never,
      });
      const now = await latestBlockTime(dc);
      const err = await rejection(
        platform.lockBounty(slug, {
          authorPrivateKey: author.privateKey,
          pool: 5_000_000n,
          closesAt: now + 3600,
          awardDeadline: now + 7200,
          thresholdBps: 5000,
          payoutRule: "top_n_split",
        }),
      );
      return { err, author, before, after: await nonce() };
    } finally {
      await platform.close();
    }
  }

  // probe16 B-F4: an author with USDC but no ETH got "approve the pool failed: Missing or invalid parameters"
  it("an author without ETH for the gas: one refusal naming the author, the chain and the gas, nothing sent", async () => {
    const { err, author, before, after } = await lockWithBalance(8, "no-eth", 0n);
    expect(err).toMatchObject({
      code: "chain_error",
      details: { address: author.address, chain_id: 8453, balance_wei: "0" },
    });
    expect(err.message).toBe(
      `approve the pool: the author ${author.address} holds no ETH on chain 8453 to pay the gas: send it ETH on that chain, then run again (nothing was sent)`,
    );
    expect(after).toBe(before);
  }, 120_000);

  it("an author with some ETH but less than the gas costs: one refusal naming the balance and the cost, nothing sent", async () => {
    const { err, author, before, after } = await lockWithBalance(9, "little-eth", 1_000n);
    expect(err).toMatchObject({
      code: "chain_error",
      details: { address: author.address, chain_id: 8453, balance_wei: "1000" },
    });
    const cost = BigInt(err.details.gas_cost_wei as string);
    expect(cost).toBeGreaterThan(1000n);
    expect(err.message).toBe(
      `approve the pool: the author ${author.address} holds 1000 wei, less than the ${cost} wei on chain 8453 to pay the gas: send it ETH on that chain, then run again (nothing was sent)`,
    );
    expect(after).toBe(before);
  }, 120_000);
});
