/**
 * A prize's close, decided when it attaches (probe37 C-F3):
 * - a benchmark with an attached bounty closes at the bounty's on-chain `closesAt`: `closeBenchmark` is
 *   refused `bounty_attached` for its author and the operator alike, naming `prize_closes_at`;
 * - a benchmark closed before any bounty was attached takes no prize (`benchmark_closed`), by lock (nothing
 *   sent) or attach (nothing attached);
 */
import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import {
  CITIES_PUBLISH,
  chainConfig,
  cities,
  latestBlockTime,
  lockPrize,
  openTemp,
  rejection,
  useDevChain,
  type Harness,
} from "./helpers.js";

const devChain = useDevChain();
const POOL = 2_000_000n;

/** How many transactions `address` has sent: unchanged means the lock sent nothing. */
function sentBy(address: Address): Promise<number> {
  return devChain().publicClient.getTransactionCount({ address });
}

/** Hardhat account `author` locks a bounty on `slug`'s root straight on-chain (outside the platform). */
async function lockOnChain(h: Harness, slug: string, author: number): Promise<bigint> {
  const dc = devChain();
  const a = dc.accounts[author]!;
  await dc.mintUsdc(a.address, POOL);
  const b = await h.getBenchmark(slug);
  const now = BigInt(await latestBlockTime(dc));
  const { bountyId } = await h.chain!.lockBounty({
    authorPrivateKey: a.privateKey,
    pool: POOL,
    testSetRoot: await h.storedCommitRoot(slug),
    leafCount: b.leaf_count,
    closesAt: now + 3600n,
    awardDeadline: now + 7200n,
    thresholdBps: 0,
    splitsBps: [10000],
  });
  return bountyId;
}

describe("a prize's close (probe37 C-F3)", { timeout: 180_000 }, () => {
  it("refuses to close a benchmark with an attached bounty, for its author and the operator, naming prize_closes_at", async () => {
    const dc = devChain();
    const h = await openTemp({ chain: chainConfig(dc, 0) });
    try {
      const author = await h.principal("f3-author");
      const ds = await h.real.createDataset(author, cities(4, "f3-close"));
      const { slug } = await h.real.publish(author, ds.dataset_id, CITIES_PUBLISH);
      const a = dc.accounts[1]!;
      await dc.mintUsdc(a.address, POOL);
      const closesAt = (await latestBlockTime(dc)) + 86400;
      const bounty = await h.real.lockBounty(author, slug, {
        authorPrivateKey: a.privateKey,
        pool: POOL,
        closesAt,
        awardDeadline: closesAt + 3600,
        thresholdBps: 0,
        payoutRule: "winner_take_all",
      });
      for (const who of [author, h.op]) {
        const e = await rejection(h.real.closeBenchmark(who, slug));
        expect(e.code).toBe("bounty_attached");
        expect(e.details).toEqual({ slug, bounty_id: bounty.bounty_id, prize_closes_at: closesAt });
        expect(e.message).toContain(`prize_closes_at ${closesAt}`);
      }
      const b = await h.getBenchmark(slug);
      expect(b.status).toBe("published");
      expect(b.closed_at).toBeNull();
      // still open to competitors until the on-chain close
      expect((await h.startRun(slug, "f3-rival")).run.id).toMatch(/^run-/);
    } finally {
      await h.close();
    }
  });

  it("keeps a prize off a benchmark closed before it was attached: lock (nothing sent) and attach refused benchmark_closed", async () => {
    const dc = devChain();
    const h = await openTemp({ chain: chainConfig(dc, 0) });
    try {
      const { slug } = await h.publish(
        (await h.createDataset(cities(4, "f3-early"))).dataset_id,
        CITIES_PUBLISH,
      );
      await h.play(slug, "f3-friend");
      // no bounty yet: the operator's close is today's rule
      await h.closeBenchmark(slug);
      const author = dc.accounts[2]!;
      await dc.mintUsdc(author.address, POOL);
      const before = await sentBy(author.address);
      const locked = await rejection(
        lockPrize(h, dc, slug, await latestBlockTime(dc), {
          pool: POOL,
          author: 2,
          payoutRule: "winner_take_all",
          thresholdBps: 0,
        }),
      );
      expect(locked.code).toBe("benchmark_closed");
      expect(locked.details).toMatchObject({ slug, status: "closed", closed_by: "status" });
      expect(await sentBy(author.address)).toBe(before);
      expect((await h.getBenchmark(slug)).bounty).toBeNull();
      // a bounty locked outside the platform is not attached either
      const id = await lockOnChain(h, slug, 3);
      const attached = await rejection(h.attachBounty(slug, id));
      expect(attached.code).toBe("benchmark_closed");
      expect(attached.details).toMatchObject({ slug, status: "closed", closed_by: "status" });
      expect((await h.getBenchmark(slug)).bounty).toBeNull();
    } finally {
      await h.close();
    }
  });
});
