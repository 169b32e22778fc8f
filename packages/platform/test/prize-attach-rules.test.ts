/**
 * A prize's close and who it can pay, decided when it attaches (probe37 C-F3, C-F4):
 * - a benchmark with an attached bounty closes at the bounty's on-chain `closesAt`: `closeBenchmark` is
 *   refused `bounty_attached` for its author and the operator alike, naming `prize_closes_at`;
 * - a benchmark closed before any bounty was attached takes no prize (`benchmark_closed`), by lock (nothing
 *   sent) or attach (nothing attached);
 * - a prize is not attached while a run that ranks or may still rank belongs to an agent that can win and
 *   has no withdrawal address (runs started while the store had never seen a chain): refused
 *   `winner_without_withdrawal_address` naming the agents, the lock before anything is sent; an author
 *   agent without one does not count; once the agents set an address the attach passes.
 */
import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import {
  CITIES_PUBLISH,
  chainConfig,
  cities,
  freshStoreLocation,
  helperAddress,
  latestBlockTime,
  lockPrize,
  openAt,
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

describe("a prize's close and payable runs (probe37 C-F3, C-F4)", { timeout: 180_000 }, () => {
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

  it("attaches no prize while a run that can win has no withdrawal address (runs of a store that had no chain)", async () => {
    const dc = devChain();
    const at = await freshStoreLocation();
    // a store never used on a chain: runs start without a withdrawal address
    const chainless = await openAt({ ...at });
    let slug: string;
    const keys: Record<string, string> = {};
    try {
      ({ slug } = await chainless.publish(
        (await chainless.createDataset(cities(4, "f4-veto"))).dataset_id,
        CITIES_PUBLISH,
      ));
      for (const name of ["f4-noaddr", "f4-pending", "f4-mine"])
        keys[name] = (await chainless.real.createAccount({ name })).api_key;
      const noaddr = await chainless.real.authenticate(keys["f4-noaddr"]!);
      const done = await chainless.real.startRun(noaddr, slug, "f4-noaddr");
      await chainless.real.finalize(noaddr, done.run.id);
      // in progress: it can still finalize and rank
      await chainless.real.startRun(
        await chainless.real.authenticate(keys["f4-pending"]!),
        slug,
        "f4-pending",
      );
      // the operator's benchmark: an agent flagged as the author's takes no money, needs no address
      const mine = await chainless.real.authenticate(keys["f4-mine"]!);
      await chainless.real.registerAgent(mine, "f4-mine", { is_author_agent: true });
      const own = await chainless.real.startRun(mine, slug, "f4-mine");
      await chainless.real.finalize(mine, own.run.id);
    } finally {
      await chainless.close();
    }
    const h = await openAt({ ...at, chain: chainConfig(dc, 0) });
    try {
      await h.play(slug, "f4-rival"); // with an address
      const author = dc.accounts[4]!;
      await dc.mintUsdc(author.address, POOL);
      const before = await sentBy(author.address);
      const want = {
        slug,
        agent_ids: ["f4-noaddr", "f4-pending"],
        agent_count: 2,
        reason: "attach",
      };
      const locked = await rejection(
        lockPrize(h, dc, slug, await latestBlockTime(dc), {
          pool: POOL,
          author: 4,
          payoutRule: "winner_take_all",
          thresholdBps: 0,
        }),
      );
      expect(locked.code).toBe("winner_without_withdrawal_address");
      expect(locked.details).toEqual(want);
      expect(locked.message).toContain("f4-noaddr, f4-pending");
      // nothing sent: no approve, no createAndFund
      expect(await sentBy(author.address)).toBe(before);
      expect((await h.getBenchmark(slug)).bounty).toBeNull();
      // a bounty locked outside the platform is refused at its attach the same way
      const id = await lockOnChain(h, slug, 5);
      const attached = await rejection(h.attachBounty(slug, id));
      expect(attached.code).toBe("winner_without_withdrawal_address");
      expect(attached.details).toEqual(want);
      expect((await h.getBenchmark(slug)).bounty).toBeNull();
      // once each sets an address, the same bounty attaches
      for (const name of ["f4-noaddr", "f4-pending"])
        await h.real.registerAgent(await h.real.authenticate(keys[name]!), name, {
          withdrawal_address: helperAddress(name),
        });
      expect((await h.attachBounty(slug, id)).bounty_id).toBe(String(id));
    } finally {
      await h.close();
    }
  });
});
