/**
 * BenchmarkBounty: award (SPEC 1.1, amounts per SPEC 7.3; expected amounts come from the shared table
 * `vectors/payouts.json`, never from this contract's output).
 */
import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import {
  baseProfile,
  createFunded,
  bountyParams,
  statusHistory,
  Status,
  TOP_N_SPLIT,
  WINNER_TAKE_ALL,
  type BaseProfile,
} from "./fixtures";
import { expectedAmounts } from "./vectors";

const DIGEST = ethers.keccak256(ethers.toUtf8Bytes('{"rank_derivation":"example"}'));

/** A Funded bounty whose award window is open. */
async function openForAward(fx: BaseProfile, over: Parameters<typeof createFunded>[2] = {}) {
  if (over.pool) await fx.fundUsdc(fx.author.address, over.pool);
  const r = await createFunded(fx, fx.author, over);
  await time.increaseTo(r.params.closesAt);
  return r;
}

describe("BenchmarkBounty: award", () => {
  for (const [rule, splits] of [
    ["top_n_split", TOP_N_SPLIT],
    ["winner_take_all", WINNER_TAKE_ALL],
  ] as const) {
    for (let k = 0; k <= splits.length; k++) {
      it(`${rule} with ${k} winner(s): SPEC 7.3 amounts, remainder to the author, root burned`, async () => {
        const fx = await loadFixture(baseProfile);
        const { bounty, awarder, author, alice, bob, carol } = fx;
        const pool = 12_345_679n; // a pool of payouts.json: awkward to split
        const { id, params } = await openForAward(fx, { pool, splitsBps: [...splits] });
        const winners = [alice, bob, carol].slice(0, k).map((s) => s.address);
        const amounts = k === 0 ? [] : expectedAmounts(pool, [...splits], k);
        const remainder = pool - amounts.reduce((a, b) => a + b, 0n);
        if (k === 0) expect(remainder).to.equal(pool);

        await expect(bounty.connect(awarder).award(id, winners, DIGEST))
          .to.emit(bounty, "Awarded")
          .withArgs(id, params.testSetRoot, winners, amounts, remainder, DIGEST);
        for (let i = 0; i < k; i++) expect(await bounty.creditOf(id, winners[i])).to.equal(amounts[i]);
        expect(await bounty.creditOf(id, author.address)).to.equal(remainder);
        expect(await bounty.statusOf(id)).to.equal(Status.Awarded);
        expect(await bounty.rootBurned(author.address, params.testSetRoot)).to.equal(true);
        expect(await bounty.testSetRoots(id)).to.equal(params.testSetRoot);
        expect((await bounty.getBounty(id)).testSetRoot).to.equal(params.testSetRoot);
        // The award moves no tokens; the pool is now owed as credit.
        expect(await fx.usdc.balanceOf(await bounty.getAddress())).to.equal(pool);
        expect(await statusHistory(bounty, id)).to.deep.equal([
          Status.Pending,
          Status.Funded,
          Status.Awarded,
        ]);
      });
    }
  }

  it("credits add when the same address holds two places (one owner, two agents)", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, awarder, alice, bob } = fx;
    const pool = 99_999n;
    const { id, params } = await openForAward(fx, { pool });
    const amounts = expectedAmounts(pool, TOP_N_SPLIT, 3);
    const winners = [alice.address, bob.address, alice.address];
    await expect(bounty.connect(awarder).award(id, winners, DIGEST))
      .to.emit(bounty, "Awarded")
      .withArgs(id, params.testSetRoot, winners, amounts, 0n, DIGEST);
    expect(await bounty.creditOf(id, alice.address)).to.equal(amounts[0] + amounts[2]);
    expect(await bounty.creditOf(id, bob.address)).to.equal(amounts[1]);
  });

  it("an author who is also the awarder and a winner gets the place's credit", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, author, alice } = fx;
    const pool = 100n;
    const { id } = await openForAward(fx, { pool, awarder: author.address });
    const amounts = expectedAmounts(pool, TOP_N_SPLIT, 2);
    await (await bounty.connect(author).award(id, [alice.address, author.address], DIGEST)).wait();
    expect(await bounty.creditOf(id, author.address)).to.equal(amounts[1]);
    expect(await bounty.creditOf(id, alice.address)).to.equal(amounts[0]);
  });

  it("opens at closesAt and closes after awardDeadline (both ends inclusive)", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, awarder, author, alice } = fx;
    const a = await createFunded(fx, author);
    const b = await createFunded(fx, author, {
      closesAt: a.params.closesAt,
      awardDeadline: a.params.awardDeadline,
    });
    const c = await createFunded(fx, author, {
      closesAt: a.params.closesAt,
      awardDeadline: a.params.awardDeadline,
    });

    await time.setNextBlockTimestamp(a.params.closesAt - 1n);
    await expect(bounty.connect(awarder).award(a.id, [alice.address], DIGEST))
      .to.be.revertedWithCustomError(bounty, "AwardBeforeClose")
      .withArgs(a.params.closesAt, a.params.closesAt - 1n);
    await time.setNextBlockTimestamp(a.params.closesAt);
    await expect(bounty.connect(awarder).award(a.id, [alice.address], DIGEST)).to.emit(bounty, "Awarded");

    await time.setNextBlockTimestamp(b.params.awardDeadline);
    await expect(bounty.connect(awarder).award(b.id, [alice.address], DIGEST)).to.emit(bounty, "Awarded");
    await time.setNextBlockTimestamp(c.params.awardDeadline + 1n);
    await expect(bounty.connect(awarder).award(c.id, [alice.address], DIGEST))
      .to.be.revertedWithCustomError(bounty, "AwardAfterDeadline")
      .withArgs(c.params.awardDeadline, c.params.awardDeadline + 1n);
    expect(await bounty.statusOf(c.id)).to.equal(Status.Funded);
  });

  it("is for the awarder only", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, author, stranger, alice } = fx;
    const { id } = await openForAward(fx);
    for (const caller of [stranger, author, alice]) {
      await expect(bounty.connect(caller).award(id, [alice.address], DIGEST))
        .to.be.revertedWithCustomError(bounty, "NotAwarder")
        .withArgs(id, caller.address);
    }
  });

  it("needs a known, Funded bounty: not Pending, not twice, not after a reclaim", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, author, awarder, alice } = fx;
    await expect(bounty.connect(awarder).award(9n, [], DIGEST))
      .to.be.revertedWithCustomError(bounty, "UnknownBounty")
      .withArgs(9n);
    const p = await bountyParams(fx);
    await (await bounty.connect(author).createBounty(p)).wait();
    await time.increaseTo(p.closesAt);
    await expect(bounty.connect(awarder).award(1n, [alice.address], DIGEST))
      .to.be.revertedWithCustomError(bounty, "BountyNotFunded")
      .withArgs(1n, Status.Pending);

    const { id } = await openForAward(fx);
    await (await bounty.connect(awarder).award(id, [alice.address], DIGEST)).wait();
    await expect(bounty.connect(awarder).award(id, [alice.address], DIGEST))
      .to.be.revertedWithCustomError(bounty, "BountyNotFunded")
      .withArgs(id, Status.Awarded);

    await (await bounty.connect(author).reclaim(1n, author.address)).wait();
    await expect(bounty.connect(awarder).award(1n, [], DIGEST))
      .to.be.revertedWithCustomError(bounty, "BountyNotFunded")
      .withArgs(1n, Status.Reclaimed);
  });

  it("refuses more winners than places and a zero-address winner (which blocks the whole award)", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, awarder, alice, bob, carol, stranger } = fx;
    const { id } = await openForAward(fx);
    const four = [alice, bob, carol, stranger].map((s) => s.address);
    await expect(bounty.connect(awarder).award(id, four, DIGEST))
      .to.be.revertedWithCustomError(bounty, "TooManyWinners")
      .withArgs(4, 3);
    await expect(bounty.connect(awarder).award(id, [alice.address, ethers.ZeroAddress, bob.address], DIGEST))
      .to.be.revertedWithCustomError(bounty, "ZeroAddressWinner")
      .withArgs(1);
    const w = await openForAward(fx, { splitsBps: WINNER_TAKE_ALL });
    await expect(bounty.connect(awarder).award(w.id, [alice.address, bob.address], DIGEST))
      .to.be.revertedWithCustomError(bounty, "TooManyWinners")
      .withArgs(2, 1);
    await expect(bounty.connect(awarder).award(w.id, [ethers.ZeroAddress], DIGEST))
      .to.be.revertedWithCustomError(bounty, "ZeroAddressWinner")
      .withArgs(0);
    expect(await bounty.statusOf(id)).to.equal(Status.Funded);
    expect(await bounty.creditOf(id, alice.address)).to.equal(0n);
  });

  it("pays 8 places as the shared table says", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, awarder, others } = fx;
    const splits = [4_000, 2_500, 1_500, 1_000, 500, 300, 150, 50];
    const pool = 1_000_003n;
    for (const k of [5, 8]) {
      const { id } = await openForAward(fx, { pool, splitsBps: splits });
      const winners = others.slice(0, k).map((s) => s.address);
      const amounts = expectedAmounts(pool, splits, k);
      await expect(bounty.connect(awarder).award(id, winners, DIGEST))
        .to.emit(bounty, "Awarded")
        .withArgs(id, (await bounty.getBounty(id)).testSetRoot, winners, amounts, 0n, DIGEST);
      for (let i = 0; i < k; i++) expect(await bounty.creditOf(id, winners[i])).to.equal(amounts[i]);
    }
  });
});
