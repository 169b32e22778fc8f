/**
 * Random sequences of operations (fast-check) keep the SPEC 1.1 (v1.1) balance invariant
 *   balanceOf(contract) >= sum(pool of Funded bounties) + sum(unclaimed credits)
 * after every step, with equality once the tokens sent to the contract directly ("donate") are taken
 * off (that surplus belongs to no bounty and is never paid out), and every bounty's event-derived status
 * history follows the ladder. The v1.1 operations are drawn too: relayed `claimWithSig` (signed by the
 * credit holder, sent by the awarder as relayer), `reclaim` to any address, and bounties created by
 * another author on a root already in use (`create` with `reuseRoot`).
 * Operations are drawn freely, so many of them revert; a revert must leave the invariant intact too.
 */
import { expect } from "chai";
import { ethers, network } from "hardhat";
import fc from "fast-check";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { baseProfile, bountyParams, signClaim, statusHistory, Status, ONE_USDC } from "./fixtures";

const SPLITS = [[10_000], [5_000, 3_000, 2_000], [6_000, 4_000], [2_500, 2_500, 2_500, 2_500]];
const DAY = 86_400;

type Op =
  | { t: "create"; author: number; splits: number; pool: bigint; fund: boolean; reuseRoot: boolean }
  | { t: "fund"; bounty: number; caller: number }
  | { t: "award"; bounty: number; caller: number; winners: number[] }
  | { t: "claim"; bounty: number; caller: number; to: number }
  | { t: "claimMany"; bounties: number[]; caller: number; to: number }
  | { t: "claimWithSig"; bounty: number; caller: number; to: number }
  | { t: "reclaim"; bounty: number; caller: number; to: number }
  | { t: "donate"; amount: bigint }
  | { t: "warp"; seconds: number };

const actor = fc.integer({ min: 0, max: 5 });
const anyBounty = fc.nat({ max: 1_000 });
/** -1 stands for the picked bounty's own author (so author-only paths succeed often), else an actor. */
const authorOrActor = fc.oneof(fc.constant(-1), actor);
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant("create" as const),
      author: fc.integer({ min: 0, max: 1 }),
      splits: fc.integer({ min: 0, max: SPLITS.length - 1 }),
      pool: fc.oneof(fc.bigInt({ min: 1n, max: 1_000n }), fc.bigInt({ min: 1n, max: 10_000n * ONE_USDC })),
      fund: fc.boolean(),
      reuseRoot: fc.boolean(),
    }),
  },
  fc.record({ t: fc.constant("fund" as const), bounty: anyBounty, caller: authorOrActor }),
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant("award" as const),
      bounty: anyBounty,
      caller: fc.oneof(fc.constant(6), fc.integer({ min: 0, max: 6 })),
      winners: fc.array(actor, { maxLength: 4 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ t: fc.constant("claim" as const), bounty: anyBounty, caller: actor, to: actor }),
  },
  fc.record({
    t: fc.constant("claimMany" as const),
    bounties: fc.array(anyBounty, { maxLength: 3 }),
    caller: actor,
    to: actor,
  }),
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant("reclaim" as const),
      bounty: anyBounty,
      caller: authorOrActor,
      to: actor,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant("claimWithSig" as const),
      bounty: anyBounty,
      caller: actor,
      to: actor,
    }),
  },
  fc.record({ t: fc.constant("donate" as const), amount: fc.bigInt({ min: 1n, max: 1_000n }) }),
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant("warp" as const),
      seconds: fc.constantFrom(600, DAY, 3 * DAY, 5 * DAY),
    }),
  },
);

/** A hand-written sequence run first: every money path succeeds at least once. */
const EVERY_PATH: Op[] = [
  { t: "create", author: 0, splits: 1, pool: 100n * ONE_USDC, fund: true, reuseRoot: false },
  { t: "create", author: 1, splits: 2, pool: 7n, fund: false, reuseRoot: true },
  { t: "fund", bounty: 1, caller: -1 },
  { t: "create", author: 0, splits: 0, pool: 3n, fund: true, reuseRoot: false },
  { t: "donate", amount: 5n },
  { t: "warp", seconds: DAY },
  { t: "award", bounty: 0, caller: 6, winners: [1, 2, 1] },
  { t: "award", bounty: 2, caller: 6, winners: [] },
  { t: "claim", bounty: 0, caller: 1, to: 4 },
  { t: "claimWithSig", bounty: 0, caller: 2, to: 3 },
  { t: "claimMany", bounties: [2], caller: 0, to: 0 },
  { t: "warp", seconds: 5 * DAY },
  { t: "reclaim", bounty: 1, caller: -1, to: 5 },
];

describe("BenchmarkBounty: balance invariant under random operations (SPEC 1.1)", () => {
  it("holds after every step of 30 random sequences; status ladders never skip", async () => {
    const succeeded: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 10, maxLength: 30 }), async (ops) => {
        const fx = await loadFixture(baseProfile);
        const { bounty, usdc, awarder } = fx;
        // actors 0..5 may author, win and claim; index 6 is the awarder.
        const actors = [fx.author, fx.alice, fx.bob, fx.carol, fx.stranger, fx.others[0], awarder];
        const bountyAddress = await bounty.getAddress();
        const ids: bigint[] = [];
        const pick = (n: number) => ids[n % ids.length];
        let reverts = 0;
        /** Tokens sent to the contract directly: the only allowed surplus. */
        let donated = 0n;
        /** actors[i], or for -1 the author of bounty `id`. */
        const callerFor = async (id: bigint, i: number) => {
          if (i >= 0) return actors[i];
          const author = (await bounty.getBounty(id)).author;
          return actors.find((a) => a.address === author)!;
        };
        /** The first actor from index `start` on (cyclically) holding credit in `id`, else actors[start]. */
        const creditHolderFrom = async (id: bigint, start: number) => {
          for (let i = 0; i < 6; i++) {
            const a = actors[(start + i) % 6];
            if ((await bounty.creditOf(id, a.address)) > 0n) return a;
          }
          return actors[start];
        };

        const check = async (after: string) => {
          let owed = 0n;
          for (const id of ids) {
            const b = await bounty.getBounty(id);
            if (b.status === Status.Funded) owed += b.pool;
            for (const a of actors) owed += await bounty.creditOf(id, a.address);
          }
          const balance = await usdc.balanceOf(bountyAddress);
          expect(balance >= owed, `invariant (>=) after ${after}`).to.equal(true);
          expect(balance - donated, `invariant (equality without donations) after ${after}`).to.equal(owed);
        };

        for (const o of ops) {
          try {
            switch (o.t) {
              case "create": {
                const author = actors[o.author];
                await fx.fundUsdc(author.address, o.pool);
                const reused =
                  o.reuseRoot && ids.length > 0 ? (await bounty.getBounty(ids.at(-1)!)).testSetRoot : null;
                const p = await bountyParams(fx, {
                  ...(reused ? { testSetRoot: reused } : {}),
                  pool: o.pool,
                  splitsBps: SPLITS[o.splits],
                  closesAt: BigInt((await ethers.provider.getBlock("latest"))!.timestamp + DAY),
                  awardDeadline: BigInt((await ethers.provider.getBlock("latest"))!.timestamp + 4 * DAY),
                });
                if (o.fund) {
                  await (await usdc.connect(author).approve(bountyAddress, o.pool)).wait();
                  await (await bounty.connect(author).createAndFund(p)).wait();
                } else {
                  await (await bounty.connect(author).createBounty(p)).wait();
                }
                ids.push(await bounty.bountyCount());
                break;
              }
              case "fund": {
                if (ids.length === 0) continue;
                const id = pick(o.bounty);
                const caller = await callerFor(id, o.caller);
                await (
                  await usdc.connect(caller).approve(bountyAddress, (await bounty.getBounty(id)).pool)
                ).wait();
                await (await bounty.connect(caller).fund(id)).wait();
                break;
              }
              case "award": {
                if (ids.length === 0) continue;
                const winners = o.winners.map((w) => actors[w].address);
                await (
                  await bounty.connect(actors[o.caller]).award(pick(o.bounty), winners, ethers.ZeroHash)
                ).wait();
                break;
              }
              case "claim": {
                if (ids.length === 0) continue;
                const id = pick(o.bounty);
                const caller = await creditHolderFrom(id, o.caller);
                await (await bounty.connect(caller).claim(id, actors[o.to].address)).wait();
                break;
              }
              case "claimMany": {
                if (ids.length === 0) continue;
                const list = o.bounties.map(pick);
                const caller = list.length ? await creditHolderFrom(list[0], o.caller) : actors[o.caller];
                await (await bounty.connect(caller).claimMany(list, actors[o.to].address)).wait();
                break;
              }
              case "reclaim": {
                if (ids.length === 0) continue;
                const id = pick(o.bounty);
                const to = actors[o.to].address;
                await (await bounty.connect(await callerFor(id, o.caller)).reclaim(id, to)).wait();
                break;
              }
              case "claimWithSig": {
                if (ids.length === 0) continue;
                const id = pick(o.bounty);
                const holder = await creditHolderFrom(id, o.caller);
                const to = actors[o.to].address;
                const deadline = BigInt((await ethers.provider.getBlock("latest"))!.timestamp + DAY);
                const sig = await signClaim(bounty, holder, {
                  bountyId: id,
                  account: holder.address,
                  to,
                  deadline,
                });
                // The awarder relays: the credit still goes to `to`, never to the relayer.
                await (
                  await bounty.connect(awarder).claimWithSig(id, holder.address, to, deadline, sig)
                ).wait();
                break;
              }
              case "donate":
                await (await usdc.connect(fx.others[1]).transfer(bountyAddress, o.amount)).wait();
                donated += o.amount;
                break;
              case "warp":
                await network.provider.send("evm_increaseTime", [o.seconds]);
                await network.provider.send("evm_mine", []);
                break;
            }
            succeeded[o.t] = (succeeded[o.t] ?? 0) + 1;
          } catch (e) {
            // Only contract reverts are expected here; anything else is a test bug.
            if (!String((e as Error).message).includes("reverted")) throw e;
            reverts++;
            if (process.env.DEBUG_INV && o.t === "award")
              console.log(String((e as Error).message).slice(0, 160));
          }
          await check(`${o.t} (${reverts} reverts so far)`);
        }
        for (const id of ids) await statusHistory(bounty, id);
      }),
      { numRuns: 30, examples: [[EVERY_PATH]] },
    );
    // The sequences must have exercised every money path, not only reverts.
    for (const t of ["create", "fund", "award", "claim", "claimMany", "claimWithSig", "reclaim", "donate"]) {
      expect(succeeded[t] ?? 0, `successful ${t} operations`).to.be.greaterThan(0);
    }
  });
});
