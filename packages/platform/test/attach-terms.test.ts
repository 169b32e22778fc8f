/**
 * The money path of attach (probe4 `attach-terms.mts`): a bounty whose token is not the configured
 * USDC (a second TestUSDC the author deployed) or whose awarder is not the service (so the service can
 * never award) is refused 422-class `invalid_bounty` naming the field with expected and actual, and
 * nothing is attached; lock refuses such a token or awarder before any money moves; the detail never
 * renders "locked at" for such a bounty, even one stored before the rule.
 */
import { testUsdcAbi, testUsdcBytecode } from "@bench-bounty/contracts";
import type { Address, Hex } from "viem";
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
const POOL = 100_000_000n;

async function publishOne(h: Harness, name: string): Promise<{ slug: string; root: Hex; leaves: number }> {
  const ds = await h.createDataset(cities(4, name));
  const pub = await h.publish(ds.dataset_id, {
    title: "Cities",
    prompt_template: "Answer for {payload.city}?",
    grader_type: "exact",
  });
  return { slug: pub.slug, root: pub.commit_root!, leaves: pub.leaf_count };
}

describe("attach checks token, awarder and terms against the service", () => {
  it("refuses a worthless token and a foreign awarder (field, expected, actual), attaches nothing; lock refuses them before sending", async () => {
    const dc = devChain();
    const h = await openTemp({ chain: chainConfig(dc, 0) });
    try {
      const author = dc.accounts[7]!;
      const authorWallet = dc.wallet(7);
      const wait = (hash: Hex) => dc.publicClient.waitForTransactionReceipt({ hash });
      const fake = (
        await wait(await authorWallet.deployContract({ abi: testUsdcAbi, bytecode: testUsdcBytecode }))
      ).contractAddress as Address;
      await wait(
        await authorWallet.writeContract({
          address: fake,
          abi: testUsdcAbi,
          functionName: "mint",
          args: [author.address, 2n * POOL],
        }),
      );
      await dc.mintUsdc(author.address, 2n * POOL);
      const balanceOf = (token: Address) =>
        dc.publicClient.readContract({
          address: token,
          abi: testUsdcAbi,
          functionName: "balanceOf",
          args: [author.address],
        });
      expect([await balanceOf(fake), await balanceOf(dc.contracts.usdc)]).toEqual([2n * POOL, 2n * POOL]); // two locks of each
      const platformAccount = dc.accounts[0]!.address.toLowerCase();
      const usdc = dc.contracts.usdc.toLowerCase();
      const now = BigInt(await latestBlockTime(dc));
      const lockOnChain = (b: { root: Hex; leaves: number }, token: Address, awarder: Address) =>
        h.chain!.lockBounty({
          authorPrivateKey: author.privateKey,
          token,
          awarder,
          pool: POOL,
          testSetRoot: b.root,
          leafCount: b.leaves,
          closesAt: now + 3600n,
          awardDeadline: now + 7200n,
          thresholdBps: 0,
          splitsBps: [10000],
        });

      const cases = [
        {
          name: "worthless",
          token: fake,
          awarder: dc.accounts[0]!.address,
          field: "token",
          expected: usdc,
          actual: fake.toLowerCase(),
        },
        {
          name: "selfaward",
          token: dc.contracts.usdc,
          awarder: author.address,
          field: "awarder",
          expected: platformAccount,
          actual: author.address.toLowerCase(),
        },
      ];
      for (const c of cases) {
        const b = await publishOne(h, c.name);
        const { bountyId } = await lockOnChain(b, c.token, c.awarder);
        const e = await rejection(h.attachBounty(b.slug, bountyId));
        expect(e, c.name).toMatchObject({
          code: "invalid_bounty",
          details: { field: c.field, expected: c.expected, actual: c.actual },
        });
        const detail = await h.real.benchmarkDetail(b.slug);
        expect(detail.prize, c.name).toBe("--"); // nothing attached
      }

      // lock (the platform's) refuses the same before any transaction
      const b = await publishOne(h, "lock");
      const good = {
        authorPrivateKey: author.privateKey,
        pool: POOL,
        closesAt: Number(now) + 3600,
        awardDeadline: Number(now) + 7200,
        thresholdBps: 0,
        payoutRule: "winner_take_all" as const,
      };
      const nonce = () => dc.publicClient.getTransactionCount({ address: author.address });
      const before = await nonce();
      expect(await rejection(h.lockBounty(b.slug, { ...good, token: fake }))).toMatchObject({
        code: "invalid_bounty",
        details: { field: "token", expected: usdc, actual: fake.toLowerCase() },
      });
      expect(await rejection(h.lockBounty(b.slug, { ...good, awarder: author.address }))).toMatchObject({
        code: "invalid_bounty",
        details: { field: "awarder", expected: platformAccount },
      });
      expect(await nonce()).toBe(before);
      // the service's own terms attach, and only they render "locked at"
      const attached = await h.lockBounty(b.slug, good);
      expect(attached).toMatchObject({ token: usdc, awarder: platformAccount, status: "funded" });
      const shown = await h.real.benchmarkDetail(b.slug);
      expect(shown.prize).toBe(`Prize: 100 USDC, locked at ${dc.contracts.benchmarkBounty.toLowerCase()}`);

      // a bounty stored before the rule (worthless token) is never shown "locked"
      const old = await publishOne(h, "stored-before");
      const { bountyId } = await lockOnChain(old, fake, dc.accounts[0]!.address);
      await h.ctx.store.benchmarks.setBounty(old.slug, {
        ...attached,
        bounty_id: String(bountyId),
        token: fake.toLowerCase(),
      });
      const legacy = await h.real.benchmarkDetail(old.slug);
      expect(legacy).toMatchObject({
        prize: "Prize: 100 USDC",
        prize_verified: false,
        bounty_status: "mismatch",
      });
    } finally {
      await h.close();
    }
  }, 180_000);
});
