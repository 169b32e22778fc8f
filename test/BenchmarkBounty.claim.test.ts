/**
 * BenchmarkBounty: claim and claimMany (SPEC 1.1): the caller's whole credit, to any address; a winner
 * blacklisted by USDC claims to a clean address; nobody claims for somebody else.
 */
import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import {
  baseProfile,
  createFunded,
  statusHistory,
  Status,
  WINNER_TAKE_ALL,
  type BaseProfile,
} from "./fixtures";
import { expectedAmounts } from "./vectors";

const DIGEST = ethers.id("rank_derivation");
const POOL = 50_000_000n; // 50 USDC, a pool of payouts.json

/** A top_n_split bounty awarded to alice, bob, carol. */
async function awarded(fx: BaseProfile) {
  const { id, params } = await createFunded(fx, fx.author, { pool: POOL });
  await time.increaseTo(params.closesAt);
  await (
    await fx.bounty
      .connect(fx.awarder)
      .award(id, [fx.alice.address, fx.bob.address, fx.carol.address], DIGEST)
  ).wait();
  return { id, params, amounts: expectedAmounts(POOL, [5_000, 3_000, 2_000], 3) };
}

describe("BenchmarkBounty: claim", () => {
  it("pays the caller's whole credit to itself and zeroes it: Claimed", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, usdc, alice } = fx;
    const { id, amounts } = await awarded(fx);
    expect(await bounty.connect(alice).claim.staticCall(id, alice.address)).to.equal(amounts[0]);
    const tx = bounty.connect(alice).claim(id, alice.address);
    await expect(tx).to.emit(bounty, "Claimed").withArgs(id, alice.address, alice.address, amounts[0]);
    await expect(tx).to.changeTokenBalances(usdc, [bounty, alice], [-amounts[0], amounts[0]]);
    expect(await bounty.creditOf(id, alice.address)).to.equal(0n);
    // Status stays Awarded; claims are not status moves.
    expect(await bounty.statusOf(id)).to.equal(Status.Awarded);
    expect(await statusHistory(bounty, id)).to.deep.equal([Status.Pending, Status.Funded, Status.Awarded]);
  });

  it("pays to another address", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, usdc, bob, stranger } = fx;
    const { id, amounts } = await awarded(fx);
    const tx = bounty.connect(bob).claim(id, stranger.address);
    await expect(tx).to.emit(bounty, "Claimed").withArgs(id, bob.address, stranger.address, amounts[1]);
    await expect(tx).to.changeTokenBalances(usdc, [bounty, bob, stranger], [-amounts[1], 0n, amounts[1]]);
  });

  it("refuses a second claim and a stranger's claim (nobody claims for somebody else)", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, alice, stranger } = fx;
    const { id, amounts } = await awarded(fx);
    await (await bounty.connect(alice).claim(id, alice.address)).wait();
    await expect(bounty.connect(alice).claim(id, alice.address))
      .to.be.revertedWithCustomError(bounty, "NothingToClaim")
      .withArgs(id, alice.address);
    await expect(bounty.connect(stranger).claim(id, stranger.address))
      .to.be.revertedWithCustomError(bounty, "NothingToClaim")
      .withArgs(id, stranger.address);
    await expect(bounty.connect(stranger).claim(99n, stranger.address))
      .to.be.revertedWithCustomError(bounty, "NothingToClaim")
      .withArgs(99n, stranger.address);
    // The other winners' credit is untouched.
    expect(await bounty.creditOf(id, fx.bob.address)).to.equal(amounts[1]);
  });

  it("refuses the zero address and the contract itself as recipient (v1.1)", async () => {
    const fx = await loadFixture(baseProfile);
    const { id } = await awarded(fx);
    const self = await fx.bounty.getAddress();
    for (const to of [ethers.ZeroAddress, self]) {
      await expect(fx.bounty.connect(fx.alice).claim(id, to))
        .to.be.revertedWithCustomError(fx.bounty, "InvalidRecipient")
        .withArgs(to);
      await expect(fx.bounty.connect(fx.alice).claimMany([id], to))
        .to.be.revertedWithCustomError(fx.bounty, "InvalidRecipient")
        .withArgs(to);
    }
  });

  it("a winner blacklisted by USDC claims to a clean address; the other winners are unaffected", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, usdc, alice, bob, carol, stranger } = fx;
    const { id, amounts } = await awarded(fx);
    await fx.blacklistUsdc(alice.address);
    await expect(bounty.connect(alice).claim(id, alice.address)).to.be.revertedWith(
      "Blacklistable: account is blacklisted",
    );
    expect(await bounty.creditOf(id, alice.address)).to.equal(amounts[0]);
    await expect(bounty.connect(alice).claim(id, stranger.address)).to.changeTokenBalances(
      usdc,
      [bounty, stranger],
      [-amounts[0], amounts[0]],
    );
    await expect(bounty.connect(bob).claim(id, bob.address)).to.changeTokenBalance(usdc, bob, amounts[1]);
    // A blacklisted recipient is refused by the token; the credit stays.
    await fx.blacklistUsdc(stranger.address);
    await expect(bounty.connect(carol).claim(id, stranger.address)).to.be.revertedWith(
      "Blacklistable: account is blacklisted",
    );
    await expect(bounty.connect(carol).claim(id, carol.address)).to.changeTokenBalance(
      usdc,
      carol,
      amounts[2],
    );
    expect(await usdc.balanceOf(await bounty.getAddress())).to.equal(0n);
  });

  it("the author claims the zero-winner refund", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, usdc, author, awarder } = fx;
    const { id, params } = await createFunded(fx, author, { splitsBps: WINNER_TAKE_ALL });
    await time.increaseTo(params.closesAt);
    await (await bounty.connect(awarder).award(id, [], DIGEST)).wait();
    await expect(bounty.connect(author).claim(id, author.address))
      .to.emit(bounty, "Claimed")
      .withArgs(id, author.address, author.address, params.pool);
    expect(await usdc.balanceOf(await bounty.getAddress())).to.equal(0n);
  });

  describe("claimMany", () => {
    it("claims several bounties at once and returns the total", async () => {
      const fx = await loadFixture(baseProfile);
      const { bounty, usdc, alice, stranger } = fx;
      const a = await awarded(fx);
      const b = await awarded(fx);
      const total = a.amounts[0] + b.amounts[0];
      expect(await bounty.connect(alice).claimMany.staticCall([a.id, b.id], stranger.address)).to.equal(
        total,
      );
      const tx = bounty.connect(alice).claimMany([a.id, b.id], stranger.address);
      await expect(tx)
        .to.emit(bounty, "Claimed")
        .withArgs(a.id, alice.address, stranger.address, a.amounts[0]);
      await expect(tx)
        .to.emit(bounty, "Claimed")
        .withArgs(b.id, alice.address, stranger.address, b.amounts[0]);
      await expect(tx).to.changeTokenBalances(usdc, [bounty, stranger], [-total, total]);
      expect(await bounty.creditOf(a.id, alice.address)).to.equal(0n);
      expect(await bounty.creditOf(b.id, alice.address)).to.equal(0n);
    });

    it("reverts as a whole when one bounty holds no credit (listed twice, or none at all)", async () => {
      const fx = await loadFixture(baseProfile);
      const { bounty, usdc, alice, stranger } = fx;
      const a = await awarded(fx);
      await expect(bounty.connect(alice).claimMany([a.id, a.id], alice.address))
        .to.be.revertedWithCustomError(bounty, "NothingToClaim")
        .withArgs(a.id, alice.address);
      await expect(bounty.connect(stranger).claimMany([a.id], stranger.address))
        .to.be.revertedWithCustomError(bounty, "NothingToClaim")
        .withArgs(a.id, stranger.address);
      expect(await bounty.creditOf(a.id, alice.address)).to.equal(a.amounts[0]);
      expect(await usdc.balanceOf(await bounty.getAddress())).to.equal(POOL);
      // An empty list pays nothing.
      expect(await bounty.connect(alice).claimMany.staticCall([], alice.address)).to.equal(0n);
    });
  });
});

describe("BenchmarkBounty: credit storage edges", () => {
  it("a pool above 2^96 base units is credited and claimed exactly (unpacked credits)", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, usdc, author, awarder, alice, bob } = fx;
    const pool = 2n ** 100n + 7n;
    await fx.fundUsdc(author.address, pool);
    const { id, params } = await createFunded(fx, author, { pool, splitsBps: [6_000, 4_000] });
    await time.increaseTo(params.closesAt);
    // SPEC 7.3 by hand (payouts.json has no pool this large): floor each share, dust to place 1.
    const second = (pool * 4_000n) / 10_000n;
    const amounts = [pool - second, second];
    expect(amounts[0]).to.equal((pool * 6_000n) / 10_000n + 1n);
    await expect(bounty.connect(awarder).award(id, [alice.address, alice.address], DIGEST))
      .to.emit(bounty, "Awarded")
      .withArgs(id, params.testSetRoot, [alice.address, alice.address], amounts, 0n, DIGEST);
    expect(await bounty.creditOf(id, alice.address)).to.equal(pool);
    await expect(bounty.connect(alice).claim(id, bob.address)).to.changeTokenBalances(
      usdc,
      [bounty, bob],
      [-pool, pool],
    );
    expect(await bounty.creditOf(id, alice.address)).to.equal(0n);
    await expect(bounty.connect(alice).claim(id, bob.address))
      .to.be.revertedWithCustomError(bounty, "NothingToClaim")
      .withArgs(id, alice.address);
  });

  it("a no-winner award of a pool above 2^96 credits the author, who claims it", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, usdc, author, awarder } = fx;
    const pool = 2n ** 96n;
    await fx.fundUsdc(author.address, pool);
    const { id, params } = await createFunded(fx, author, { pool });
    await time.increaseTo(params.closesAt);
    await (await bounty.connect(awarder).award(id, [], DIGEST)).wait();
    expect(await bounty.creditOf(id, author.address)).to.equal(pool);
    await expect(bounty.connect(author).claim(id, author.address)).to.changeTokenBalance(usdc, author, pool);
  });

  it("a place whose amount rounds to 0 holds no credit (claiming it reverts NothingToClaim)", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, author, awarder, alice, bob, carol } = fx;
    const { id, params } = await createFunded(fx, author, { pool: 1n });
    await time.increaseTo(params.closesAt);
    await (
      await bounty.connect(awarder).award(id, [alice.address, bob.address, carol.address], DIGEST)
    ).wait();
    expect(await bounty.creditOf(id, alice.address)).to.equal(1n);
    expect(await bounty.creditOf(id, bob.address)).to.equal(0n);
    await expect(bounty.connect(bob).claim(id, bob.address))
      .to.be.revertedWithCustomError(bounty, "NothingToClaim")
      .withArgs(id, bob.address);
  });
});
