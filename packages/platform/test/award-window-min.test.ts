/**
 * probe38 C-F1: a prize the service could never award.
 * - a lock or an attach whose award window (`award_deadline - closes_at`) is under
 *   `MIN_AWARD_WINDOW_SECONDS` (3600 s) is refused `award_window_too_short` naming the window, the minimum
 *   and both times: the lock before anything is sent, the attach before anything is stored (a one-second
 *   window was attached and shown "locked", and its author reclaimed the pool after every run was graded);
 * - the CLI's `lock --award-window` below the minimum is refused at option parsing, naming the option;
 * - the list item and the detail show the award deadline (`prize_award_deadline`);
 * - the operator attaching a bounty to another author's benchmark names its on-chain `author`: missing is
 *   `invalid_option` naming `author`, another address `bounty_mismatch`, nothing attached (a competitor's
 *   bounty on the public root was attached by the operator, binding the author's benchmark to it).
 */
import { MIN_AWARD_WINDOW_SECONDS } from "@bench-bounty/evidence";
import type { Address, Hex } from "viem";
import { describe, expect, it } from "vitest";
import {
  CITIES_PUBLISH,
  chainConfig,
  cities,
  latestBlockTime,
  openTemp,
  rejection,
  runCli,
  useDevChain,
  type Harness,
} from "./helpers.js";
import type { Principal } from "../src/identity/principal.js";

const devChain = useDevChain();
const POOL = 1_000_000n;

/** How many transactions `address` has sent: unchanged means nothing was sent. */
function sentBy(address: Address): Promise<number> {
  return devChain().publicClient.getTransactionCount({ address });
}

/** `who` publishes a four-row cities benchmark. */
async function publishAs(h: Harness, who: Principal, name: string): Promise<string> {
  const ds = await h.real.createDataset(who, cities(4, name));
  return (await h.real.publish(who, ds.dataset_id, CITIES_PUBLISH)).slug;
}

/** Hardhat account `author` locks a bounty on `slug`'s root straight on-chain with `window` seconds to award. */
async function lockOnChain(h: Harness, slug: string, author: number, window: bigint): Promise<bigint> {
  const dc = devChain();
  const a = dc.accounts[author]!;
  await dc.mintUsdc(a.address, POOL);
  const b = await h.real.getBenchmark(slug);
  const closesAt = BigInt(await latestBlockTime(dc)) + 3600n;
  const { bountyId } = await h.chain!.lockBounty({
    authorPrivateKey: a.privateKey as Hex,
    pool: POOL,
    testSetRoot: await h.storedCommitRoot(slug),
    leafCount: b.leaf_count,
    closesAt,
    awardDeadline: closesAt + window,
    thresholdBps: 0,
    splitsBps: [10000],
  });
  return bountyId;
}

describe(
  "a prize the service can award: the award window and the bounty's author (probe38 C-F1)",
  { timeout: 180_000 },
  () => {
    it("refuses a lock whose award window is under the minimum before anything is sent, and shows the award deadline of one that is not", async () => {
      const dc = devChain();
      const h = await openTemp({ chain: chainConfig(dc, 0) });
      try {
        expect(MIN_AWARD_WINDOW_SECONDS).toBe(3600);
        const author = await h.principal("w-author");
        const slug = await publishAs(h, author, "w-lock");
        const a = dc.accounts[11]!;
        await dc.mintUsdc(a.address, POOL);
        const closesAt = (await latestBlockTime(dc)) + 3600;
        const terms = {
          authorPrivateKey: a.privateKey as Hex,
          pool: POOL,
          closesAt,
          thresholdBps: 0,
          payoutRule: "winner_take_all" as const,
        };
        const before = await sentBy(a.address);
        for (const window of [1, MIN_AWARD_WINDOW_SECONDS - 1]) {
          const e = await rejection(
            h.real.lockBounty(author, slug, { ...terms, awardDeadline: closesAt + window }),
          );
          expect(e.code).toBe("award_window_too_short");
          expect(e.details).toEqual({
            award_window_seconds: window,
            minimum_seconds: 3600,
            closes_at: closesAt,
            award_deadline: closesAt + window,
          });
          expect(e.message).toContain(`is ${window} s, shorter than the 3600 s`);
        }
        expect(await sentBy(a.address)).toBe(before); // nothing sent
        expect((await h.real.getBenchmark(slug)).bounty).toBeNull();

        // the minimum itself is awardable, and the detail and the list show its deadline
        const attached = await h.real.lockBounty(author, slug, {
          ...terms,
          awardDeadline: closesAt + MIN_AWARD_WINDOW_SECONDS,
        });
        expect(attached.award_deadline).toBe(closesAt + 3600);
        const detail = await h.real.benchmarkDetail(slug);
        expect(detail).toMatchObject({ prize_closes_at: closesAt, prize_award_deadline: closesAt + 3600 });
        const item = (await h.real.benchmarkList()).rows.find((r) => r.item.slug === slug)?.item;
        expect(item).toMatchObject({ prize_closes_at: closesAt, prize_award_deadline: closesAt + 3600 });
        const bare = await publishAs(h, author, "w-bare");
        expect(await h.real.benchmarkDetail(bare)).toMatchObject({
          prize_closes_at: null,
          prize_award_deadline: null,
        });
      } finally {
        await h.close();
      }
    });

    it("refuses to attach a bounty whose award window is under the minimum, attaching nothing", async () => {
      const dc = devChain();
      const h = await openTemp({ chain: chainConfig(dc, 0) });
      try {
        const author = await h.principal("w-attach");
        const slug = await publishAs(h, author, "w-attach");
        const id = await lockOnChain(h, slug, 12, 1n);
        const onchain = await h.chain!.getBounty(id);
        const e = await rejection(h.real.attachBounty(author, slug, id));
        expect(e.code).toBe("award_window_too_short");
        expect(e.details).toEqual({
          award_window_seconds: 1,
          minimum_seconds: 3600,
          closes_at: Number(onchain.closesAt),
          award_deadline: Number(onchain.awardDeadline),
        });
        expect(e.message).toContain(`bounty ${id}:`);
        expect((await h.real.getBenchmark(slug)).bounty).toBeNull();
        expect((await h.real.benchmarkDetail(slug)).prize).toBe("--");
      } finally {
        await h.close();
      }
    });

    it("the operator attaching to another author's benchmark must name the bounty's on-chain author", async () => {
      const dc = devChain();
      const h = await openTemp({ chain: chainConfig(dc, 0) });
      try {
        const author = await h.principal("w-owner");
        const slug = await publishAs(h, author, "w-operator");
        // a competitor's wallet locks a bounty on the benchmark's public root, awarded by the service
        const stranger = dc.accounts[13]!.address.toLowerCase();
        const id = await lockOnChain(h, slug, 13, 86_400n);
        const missing = await rejection(h.real.attachBounty(h.op, slug, id));
        expect(missing.code).toBe("invalid_option");
        expect(missing.details).toEqual({ field: "author", rule: "author_required" });
        expect(missing.message).toContain("author is required");
        const authorWallet = dc.accounts[14]!.address.toLowerCase();
        const wrong = await rejection(h.real.attachBounty(h.op, slug, id, { author: authorWallet }));
        expect(wrong.code).toBe("bounty_mismatch");
        expect(wrong.details).toMatchObject({
          field: "author",
          declared: authorWallet,
          on_chain: expect.any(String),
        });
        expect((await h.real.getBenchmark(slug)).bounty).toBeNull();
        // named, and the chain agrees: the operator attaches it (the rule is the declaration, not a veto)
        const ok = await h.real.attachBounty(h.op, slug, id, { author: stranger });
        expect(ok.author).toBe(stranger);
      } finally {
        await h.close();
      }
    });

    it("the operator locking for another author's benchmark attaches with the key's address as the author", async () => {
      const dc = devChain();
      const h = await openTemp({ chain: chainConfig(dc, 0) });
      try {
        const author = await h.principal("w-oplock");
        const slug = await publishAs(h, author, "w-oplock");
        const a = dc.accounts[15]!;
        await dc.mintUsdc(a.address, POOL);
        const closesAt = (await latestBlockTime(dc)) + 3600;
        const attached = await h.real.lockBounty(h.op, slug, {
          authorPrivateKey: a.privateKey as Hex,
          pool: POOL,
          closesAt,
          awardDeadline: closesAt + 86_400,
          thresholdBps: 0,
          payoutRule: "winner_take_all",
        });
        expect(attached.author).toBe(a.address.toLowerCase());
      } finally {
        await h.close();
      }
    });

    it("the CLI refuses lock --award-window under the minimum at option parsing, naming the option", async () => {
      const r = await runCli(
        "lock",
        "any-slug",
        "--pool",
        "1",
        "--closes-in",
        "3600",
        "--award-window",
        "1",
        "--threshold-bps",
        "0",
        "--payout-rule",
        "winner_take_all",
      );
      expect(r.code).not.toBe(0);
      expect(r.err).toContain("--award-window");
      expect(r.err).toMatch(/award-window must be an integer in 3600\.\./);
    });
  },
);
