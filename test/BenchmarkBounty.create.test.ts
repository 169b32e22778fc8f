/**
 * BenchmarkBounty: creating and funding (SPEC 1.1): parameter rules, root rules, fund, createAndFund,
 * createAndFundWithPermit (including a front-run permit), fee-on-transfer refusal, views.
 */
import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import {
  baseProfile,
  bountyParams,
  createFunded,
  signPermit,
  statusHistory,
  Status,
  ONE_USDC,
  TOP_N_SPLIT,
  WINNER_TAKE_ALL,
  BASE_USDC_ADDRESS,
} from "./fixtures";

describe("BenchmarkBounty: create and fund", () => {
  describe("createBounty", () => {
    it("creates a Pending bounty with sequential ids from 1 and emits BountyCreated with every field", async () => {
      const fx = await loadFixture(baseProfile);
      const { bounty, author } = fx;
      expect(await bounty.bountyCount()).to.equal(0n);
      const p = await bountyParams(fx);
      await expect(bounty.connect(author).createBounty(p))
        .to.emit(bounty, "BountyCreated")
        .withArgs(
          1n,
          author.address,
          BASE_USDC_ADDRESS,
          p.awarder,
          p.testSetRoot,
          p.leafCount,
          p.pool,
          p.closesAt,
          p.awardDeadline,
          p.thresholdBps,
          p.splitsBps,
        );
      const p2 = await bountyParams(fx, { splitsBps: WINNER_TAKE_ALL });
      await expect(bounty.connect(author).createBounty(p2)).to.emit(bounty, "BountyCreated");
      expect(await bounty.bountyCount()).to.equal(2n);
      expect(await bounty.statusOf(1n)).to.equal(Status.Pending);
      expect(await bounty.testSetRoots(2n)).to.equal(p2.testSetRoot);
      expect(await bounty.leafCountOf(1n)).to.equal(BigInt(p.leafCount));
      expect(await bounty.splitsOf(1n)).to.deep.equal(TOP_N_SPLIT.map(BigInt));
      expect(await bounty.splitsOf(2n)).to.deep.equal([10_000n]);
      expect(await bounty.creditOf(1n, author.address)).to.equal(0n);

      const b = await bounty.getBounty(1n);
      expect(b.author).to.equal(author.address);
      expect(b.awarder).to.equal(p.awarder);
      expect(b.token).to.equal(BASE_USDC_ADDRESS);
      expect(b.pool).to.equal(p.pool);
      expect(b.testSetRoot).to.equal(p.testSetRoot);
      expect(b.leafCount).to.equal(BigInt(p.leafCount));
      expect(b.closesAt).to.equal(p.closesAt);
      expect(b.awardDeadline).to.equal(p.awardDeadline);
      expect(b.thresholdBps).to.equal(BigInt(p.thresholdBps));
      expect(b.status).to.equal(Status.Pending);
      expect(b.splitsBps).to.deep.equal(TOP_N_SPLIT.map(BigInt));
      // Nothing moves at creation.
      expect(await fx.usdc.balanceOf(await bounty.getAddress())).to.equal(0n);
    });

    it("answers an unknown id with zero values and status None", async () => {
      const { bounty } = await loadFixture(baseProfile);
      expect(await bounty.statusOf(7n)).to.equal(Status.None);
      expect(await bounty.testSetRoots(7n)).to.equal(ethers.ZeroHash);
      expect(await bounty.leafCountOf(7n)).to.equal(0n);
      expect(await bounty.splitsOf(7n)).to.deep.equal([]);
      const b = await bounty.getBounty(7n);
      expect(b.author).to.equal(ethers.ZeroAddress);
      expect(b.status).to.equal(Status.None);
      expect(b.splitsBps).to.deep.equal([]);
    });

    it("accepts the edges: threshold 10000, equal places, 8 places, an award window of 1 s", async () => {
      const fx = await loadFixture(baseProfile);
      const { bounty, author } = fx;
      const now = BigInt(await time.latest());
      for (const over of [
        { thresholdBps: 10_000 },
        { thresholdBps: 0 },
        { splitsBps: [5_000, 5_000] },
        { splitsBps: [3_334, 3_333, 3_333] },
        { splitsBps: [4_000, 2_500, 1_500, 1_000, 500, 300, 150, 50] },
        { splitsBps: [1_250, 1_250, 1_250, 1_250, 1_250, 1_250, 1_250, 1_250] },
        { closesAt: now + 1_000n, awardDeadline: now + 1_001n },
        { leafCount: 2 ** 32 - 1 },
      ]) {
        const p = await bountyParams(fx, over);
        const id = (await bounty.bountyCount()) + 1n;
        await expect(bounty.connect(author).createBounty(p)).to.emit(bounty, "BountyCreated");
        expect(await bounty.splitsOf(id)).to.deep.equal(p.splitsBps.map(BigInt));
      }
    });

    it("refuses zero token, awarder, pool, root and leaf count", async () => {
      const fx = await loadFixture(baseProfile);
      const { bounty, author } = fx;
      const create = async (over: Parameters<typeof bountyParams>[1]) =>
        bounty.connect(author).createBounty(await bountyParams(fx, over));
      await expect(create({ token: ethers.ZeroAddress })).to.be.revertedWithCustomError(bounty, "ZeroToken");
      await expect(create({ awarder: ethers.ZeroAddress })).to.be.revertedWithCustomError(
        bounty,
        "ZeroAwarder",
      );
      await expect(create({ pool: 0n })).to.be.revertedWithCustomError(bounty, "ZeroPool");
      await expect(create({ testSetRoot: ethers.ZeroHash })).to.be.revertedWithCustomError(
        bounty,
        "ZeroTestSetRoot",
      );
      await expect(create({ leafCount: 0 })).to.be.revertedWithCustomError(bounty, "ZeroLeafCount");
    });

    it("refuses a threshold above 10000 bps", async () => {
      const fx = await loadFixture(baseProfile);
      const p = await bountyParams(fx, { thresholdBps: 10_001 });
      await expect(fx.bounty.connect(fx.author).createBounty(p))
        .to.be.revertedWithCustomError(fx.bounty, "ThresholdAboveWhole")
        .withArgs(10_001);
    });

    it("refuses bad times: deadline not after close, closesAt not in the future (v1.1)", async () => {
      const fx = await loadFixture(baseProfile);
      const { bounty, author } = fx;
      const now = BigInt(await time.latest());
      let p = await bountyParams(fx, { closesAt: now + 100n, awardDeadline: now + 100n });
      await expect(bounty.connect(author).createBounty(p))
        .to.be.revertedWithCustomError(bounty, "AwardDeadlineNotAfterClose")
        .withArgs(now + 100n, now + 100n);
      p = await bountyParams(fx, { closesAt: now + 100n, awardDeadline: now + 99n });
      await expect(bounty.connect(author).createBounty(p)).to.be.revertedWithCustomError(
        bounty,
        "AwardDeadlineNotAfterClose",
      );
      let t = BigInt(await time.latest()) + 10n;
      p = await bountyParams(fx, { closesAt: t - 100n, awardDeadline: t + 100n });
      await time.setNextBlockTimestamp(t);
      await expect(bounty.connect(author).createBounty(p))
        .to.be.revertedWithCustomError(bounty, "ClosesAtNotInFuture")
        .withArgs(t - 100n, t);
      // A closing time equal to the block's timestamp is already too late (v1 accepted it).
      t = BigInt(await time.latest()) + 10n;
      p = await bountyParams(fx, { closesAt: t, awardDeadline: t + 100n });
      await time.setNextBlockTimestamp(t);
      await expect(bounty.connect(author).createBounty(p))
        .to.be.revertedWithCustomError(bounty, "ClosesAtNotInFuture")
        .withArgs(t, t);
      // A deadline already past is refused too (it is before closesAt, or closesAt is past).
      t = BigInt(await time.latest()) + 10n;
      p = await bountyParams(fx, { closesAt: t + 100n, awardDeadline: t - 1n });
      await expect(bounty.connect(author).createBounty(p)).to.be.revertedWithCustomError(
        bounty,
        "AwardDeadlineNotAfterClose",
      );
    });

    it("refuses a token address without code (v1.1)", async () => {
      const fx = await loadFixture(baseProfile);
      const eoa = fx.stranger.address;
      const p = await bountyParams(fx, { token: eoa });
      await expect(fx.bounty.connect(fx.author).createBounty(p))
        .to.be.revertedWithCustomError(fx.bounty, "TokenWithoutCode")
        .withArgs(eoa);
    });

    it("refuses bad splits with the rule broken", async () => {
      const fx = await loadFixture(baseProfile);
      const { bounty, author } = fx;
      const create = async (splitsBps: number[]) =>
        bounty.connect(author).createBounty(await bountyParams(fx, { splitsBps }));
      await expect(create([])).to.be.revertedWithCustomError(bounty, "SplitsLengthOutOfRange").withArgs(0);
      await expect(create([1_112, ...Array<number>(8).fill(1_111)]))
        .to.be.revertedWithCustomError(bounty, "SplitsLengthOutOfRange")
        .withArgs(9);
      await expect(create([10_000, 0]))
        .to.be.revertedWithCustomError(bounty, "ZeroSplit")
        .withArgs(1);
      await expect(create([2_000, 3_000, 5_000]))
        .to.be.revertedWithCustomError(bounty, "SplitsIncreasing")
        .withArgs(1);
      await expect(create([5_000, 3_000, 1_000]))
        .to.be.revertedWithCustomError(bounty, "SplitsSumNotWhole")
        .withArgs(9_000);
      await expect(create([10_001]))
        .to.be.revertedWithCustomError(bounty, "SplitsSumNotWhole")
        .withArgs(10_001);
    });
  });

  describe("root rules", () => {
    it("refuses a root bound to a Pending or Funded bounty, accepts it again once that one is reclaimed", async () => {
      const fx = await loadFixture(baseProfile);
      const { bounty, author, alice } = fx;
      const p = await bountyParams(fx);
      await (await bounty.connect(author).createBounty(p)).wait();
      // Pending: bound for its author (another author is not blocked, v1.1: see squatting.test.ts).
      const again = await bountyParams(fx, { testSetRoot: p.testSetRoot });
      await expect(bounty.connect(author).createBounty(again))
        .to.be.revertedWithCustomError(bounty, "RootBoundToLiveBounty")
        .withArgs(author.address, p.testSetRoot, 1n);
      // Funded: still bound.
      await (await fx.usdc.connect(author).approve(await bounty.getAddress(), p.pool)).wait();
      await (await bounty.connect(author).fund(1n)).wait();
      await expect(bounty.connect(author).createBounty(again))
        .to.be.revertedWithCustomError(bounty, "RootBoundToLiveBounty")
        .withArgs(author.address, p.testSetRoot, 1n);
      // Reclaimed after the deadline: the root is free (not burned).
      await time.increaseTo(p.awardDeadline + 1n);
      await (await bounty.connect(author).reclaim(1n, author.address)).wait();
      expect(await bounty.rootBurned(author.address, p.testSetRoot)).to.equal(false);
      const later = await bountyParams(fx, { testSetRoot: p.testSetRoot });
      await expect(bounty.connect(author).createBounty(later)).to.emit(bounty, "BountyCreated");
      expect(alice.address).to.not.equal(author.address);
      expect(await bounty.testSetRoots(2n)).to.equal(p.testSetRoot);
    });

    it("frees the root of a cancelled (Pending -> Reclaimed) bounty", async () => {
      const fx = await loadFixture(baseProfile);
      const { bounty, author } = fx;
      const p = await bountyParams(fx);
      await (await bounty.connect(author).createBounty(p)).wait();
      await (await bounty.connect(author).reclaim(1n, author.address)).wait();
      const again = await bountyParams(fx, { testSetRoot: p.testSetRoot });
      await expect(bounty.connect(author).createBounty(again))
        .to.emit(bounty, "BountyCreated")
        .withArgs(
          2n,
          author.address,
          BASE_USDC_ADDRESS,
          again.awarder,
          p.testSetRoot,
          again.leafCount,
          again.pool,
          again.closesAt,
          again.awardDeadline,
          again.thresholdBps,
          again.splitsBps,
        );
      expect(await bounty.statusOf(2n)).to.equal(Status.Pending);
      expect(await bounty.testSetRoots(2n)).to.equal(p.testSetRoot);
    });

    it("refuses a root burned by an award, forever", async () => {
      const fx = await loadFixture(baseProfile);
      const { bounty, author, awarder, alice } = fx;
      const { id, params } = await createFunded(fx, author);
      expect(await bounty.rootBurned(author.address, params.testSetRoot)).to.equal(false);
      await time.increaseTo(params.closesAt);
      await (await bounty.connect(awarder).award(id, [alice.address], ethers.ZeroHash)).wait();
      expect(await bounty.rootBurned(author.address, params.testSetRoot)).to.equal(true);
      // Burned for its author only (v1.1): another author's view of the same root is untouched.
      expect(await bounty.rootBurned(alice.address, params.testSetRoot)).to.equal(false);
      await expect(
        bounty.connect(author).createBounty(await bountyParams(fx, { testSetRoot: params.testSetRoot })),
      )
        .to.be.revertedWithCustomError(bounty, "RootBurned")
        .withArgs(author.address, params.testSetRoot);
      expect(await bounty.rootBurned(author.address, ethers.ZeroHash)).to.equal(false);
    });
  });

  describe("fund", () => {
    it("pulls exactly the pool from the author: Pending -> Funded, BountyFunded", async () => {
      const fx = await loadFixture(baseProfile);
      const { bounty, usdc, author } = fx;
      const p = await bountyParams(fx, { pool: 123_456_789n });
      await (await bounty.connect(author).createBounty(p)).wait();
      await (await usdc.connect(author).approve(await bounty.getAddress(), p.pool)).wait();
      const tx = bounty.connect(author).fund(1n);
      await expect(tx).to.emit(bounty, "BountyFunded").withArgs(1n, author.address, p.pool);
      await expect(tx).to.changeTokenBalances(usdc, [author, bounty], [-p.pool, p.pool]);
      expect(await bounty.statusOf(1n)).to.equal(Status.Funded);
      expect(await usdc.allowance(author.address, await bounty.getAddress())).to.equal(0n);
      expect(await statusHistory(bounty, 1n)).to.deep.equal([Status.Pending, Status.Funded]);
    });

    it("is for the author only, once, on a known bounty", async () => {
      const fx = await loadFixture(baseProfile);
      const { bounty, usdc, author, stranger } = fx;
      const p = await bountyParams(fx);
      await (await bounty.connect(author).createBounty(p)).wait();
      await (await usdc.connect(stranger).approve(await bounty.getAddress(), p.pool)).wait();
      await expect(bounty.connect(stranger).fund(1n))
        .to.be.revertedWithCustomError(bounty, "NotAuthor")
        .withArgs(1n, stranger.address);
      await expect(bounty.connect(author).fund(2n))
        .to.be.revertedWithCustomError(bounty, "UnknownBounty")
        .withArgs(2n);
      await (await usdc.connect(author).approve(await bounty.getAddress(), 2n * p.pool)).wait();
      await (await bounty.connect(author).fund(1n)).wait();
      await expect(bounty.connect(author).fund(1n))
        .to.be.revertedWithCustomError(bounty, "BountyNotPending")
        .withArgs(1n, Status.Funded);
    });

    it("reverts with the token's reason when the allowance is short", async () => {
      const fx = await loadFixture(baseProfile);
      const p = await bountyParams(fx);
      await (await fx.bounty.connect(fx.author).createBounty(p)).wait();
      await (await fx.usdc.connect(fx.author).approve(await fx.bounty.getAddress(), p.pool - 1n)).wait();
      await expect(fx.bounty.connect(fx.author).fund(1n)).to.be.revertedWith(
        "ERC20: transfer amount exceeds allowance",
      );
      expect(await fx.bounty.statusOf(1n)).to.equal(Status.Pending);
    });

    it("refuses to fund at or after closesAt (v1.1)", async () => {
      const fx = await loadFixture(baseProfile);
      const { bounty, usdc, author } = fx;
      const p = await bountyParams(fx);
      await (await bounty.connect(author).createBounty(p)).wait();
      await (await usdc.connect(author).approve(await bounty.getAddress(), p.pool)).wait();
      await time.setNextBlockTimestamp(p.closesAt);
      await expect(bounty.connect(author).fund(1n))
        .to.be.revertedWithCustomError(bounty, "FundAfterClose")
        .withArgs(1n, p.closesAt, p.closesAt);
      expect(await bounty.statusOf(1n)).to.equal(Status.Pending);
      // One second before closing is still in time (checked on a fresh bounty).
      const q = await bountyParams(fx);
      await (await bounty.connect(author).createBounty(q)).wait();
      await (await usdc.connect(author).approve(await bounty.getAddress(), q.pool)).wait();
      await time.setNextBlockTimestamp(q.closesAt - 1n);
      await expect(bounty.connect(author).fund(2n)).to.emit(bounty, "BountyFunded");
    });

    it("refuses a fee-on-transfer token (the balance grew by less than the pool)", async () => {
      const fx = await loadFixture(baseProfile);
      const { bounty, author } = fx;
      const fot = await (await ethers.getContractFactory("FeeOnTransferToken")).deploy();
      const pool = 1_000_000n;
      await (await fot.mint(author.address, pool)).wait();
      await (await fot.connect(author).approve(await bounty.getAddress(), pool)).wait();
      const p = await bountyParams(fx, { token: await fot.getAddress(), pool });
      await expect(bounty.connect(author).createAndFund(p))
        .to.be.revertedWithCustomError(bounty, "FundingShortfall")
        .withArgs(pool, pool - pool / 100n);
      await (await bounty.connect(author).createBounty(p)).wait();
      await expect(bounty.connect(author).fund(1n))
        .to.be.revertedWithCustomError(bounty, "FundingShortfall")
        .withArgs(pool, 990_000n);
      expect(await fot.balanceOf(await bounty.getAddress())).to.equal(0n);
      expect(await bounty.statusOf(1n)).to.equal(Status.Pending);
    });
  });

  describe("createAndFund", () => {
    it("creates and funds in one transaction: BountyCreated then BountyFunded", async () => {
      const fx = await loadFixture(baseProfile);
      const { bounty, usdc, author } = fx;
      const p = await bountyParams(fx);
      await (await usdc.connect(author).approve(await bounty.getAddress(), p.pool)).wait();
      const tx = bounty.connect(author).createAndFund(p);
      await expect(tx).to.emit(bounty, "BountyCreated");
      await expect(tx).to.emit(bounty, "BountyFunded").withArgs(1n, author.address, p.pool);
      await expect(tx).to.changeTokenBalances(usdc, [author, bounty], [-p.pool, p.pool]);
      expect(await bounty.statusOf(1n)).to.equal(Status.Funded);
      expect(await statusHistory(bounty, 1n)).to.deep.equal([Status.Pending, Status.Funded]);
    });

    it("applies the creation rules", async () => {
      const fx = await loadFixture(baseProfile);
      await expect(
        fx.bounty.connect(fx.author).createAndFund(await bountyParams(fx, { pool: 0n })),
      ).to.be.revertedWithCustomError(fx.bounty, "ZeroPool");
    });
  });

  describe("createAndFundWithPermit", () => {
    it("funds with an EIP-2612 permit and no prior approval", async () => {
      const fx = await loadFixture(baseProfile);
      const { bounty, usdc, author } = fx;
      const p = await bountyParams(fx);
      const deadline = p.closesAt;
      const sig = await signPermit(usdc, author, await bounty.getAddress(), p.pool, deadline);
      const nonce = await usdc.nonces(author.address);
      const tx = bounty.connect(author).createAndFundWithPermit(p, deadline, sig.v, sig.r, sig.s);
      await expect(tx).to.emit(bounty, "BountyFunded").withArgs(1n, author.address, p.pool);
      await expect(tx).to.changeTokenBalances(usdc, [author, bounty], [-p.pool, p.pool]);
      expect(await usdc.nonces(author.address)).to.equal(nonce + 1n);
      expect(await bounty.statusOf(1n)).to.equal(Status.Funded);
    });

    it("still succeeds when a third party front-ran the permit (the allowance is there)", async () => {
      const fx = await loadFixture(baseProfile);
      const { bounty, usdc, author, stranger } = fx;
      const p = await bountyParams(fx);
      const deadline = p.closesAt;
      const spender = await bounty.getAddress();
      const sig = await signPermit(usdc, author, spender, p.pool, deadline);
      // The stranger copies the signature from the mempool and submits it first.
      await (
        await usdc.connect(stranger).permit(author.address, spender, p.pool, deadline, sig.v, sig.r, sig.s)
      ).wait();
      expect(await usdc.allowance(author.address, spender)).to.equal(p.pool);
      await expect(bounty.connect(author).createAndFundWithPermit(p, deadline, sig.v, sig.r, sig.s))
        .to.emit(bounty, "BountyFunded")
        .withArgs(1n, author.address, p.pool);
      expect(await usdc.balanceOf(spender)).to.equal(p.pool);
    });

    it("bubbles the token's own reason when the permit fails and the allowance is short (v1.1)", async () => {
      const fx = await loadFixture(baseProfile);
      const { bounty, usdc, author, stranger } = fx;
      const p = await bountyParams(fx);
      const spender = await bounty.getAddress();
      // Signed by someone else: USDC's own reason, not a generic shortfall.
      const bad = await signPermit(usdc, stranger, spender, p.pool, p.closesAt);
      await expect(
        bounty.connect(author).createAndFundWithPermit(p, p.closesAt, bad.v, bad.r, bad.s),
      ).to.be.revertedWith("EIP2612: invalid signature");
      // Expired, with a partial allowance.
      await (await usdc.connect(author).approve(spender, p.pool - 1n)).wait();
      const now = BigInt(await time.latest());
      const expired = await signPermit(usdc, author, spender, p.pool, now);
      await expect(
        bounty.connect(author).createAndFundWithPermit(p, now, expired.v, expired.r, expired.s),
      ).to.be.revertedWith("FiatTokenV2: permit is expired");
      expect(await bounty.bountyCount()).to.equal(0n);
    });

    it("reverts PermitFailedAndAllowanceShort when a token without permit gives no reason", async () => {
      const fx = await loadFixture(baseProfile);
      const { bounty, author } = fx;
      const spender = await bounty.getAddress();
      const tok = await (await ethers.getContractFactory("ReentrantToken")).deploy();
      const q = await bountyParams(fx, { token: await tok.getAddress() });
      await (await tok.mint(author.address, q.pool)).wait();
      await (await tok.connect(author).approve(spender, q.pool - 1n)).wait();
      await expect(bounty.connect(author).createAndFundWithPermit(q, 0n, 0, ethers.ZeroHash, ethers.ZeroHash))
        .to.be.revertedWithCustomError(bounty, "PermitFailedAndAllowanceShort")
        .withArgs(q.pool - 1n, q.pool);
      // With a sufficient allowance the failed permit is ignored.
      await (await tok.connect(author).approve(spender, q.pool)).wait();
      await expect(bounty.connect(author).createAndFundWithPermit(q, 0n, 0, ethers.ZeroHash, ethers.ZeroHash))
        .to.emit(bounty, "BountyFunded")
        .withArgs(1n, author.address, q.pool);
      expect(await bounty.bountyCount()).to.equal(1n);
    });

    it("a paused USDC's permit lock reverts with the token's own reason (v1.1)", async function () {
      const fx = await loadFixture(baseProfile);
      const { bounty, usdc, author } = fx;
      const p = await bountyParams(fx);
      const sig = await signPermit(usdc, author, await bounty.getAddress(), p.pool, p.closesAt);
      await fx.pauseUsdc();
      await expect(
        bounty.connect(author).createAndFundWithPermit(p, p.closesAt, sig.v, sig.r, sig.s),
      ).to.be.revertedWith("Pausable: paused");
      await fx.unpauseUsdc();
      await expect(
        bounty.connect(author).createAndFundWithPermit(p, p.closesAt, sig.v, sig.r, sig.s),
      ).to.emit(bounty, "BountyFunded");
    });

    it("pool of 1 base unit and of a large amount both fund exactly", async () => {
      const fx = await loadFixture(baseProfile);
      for (const pool of [1n, 10n ** 12n * ONE_USDC]) {
        await fx.fundUsdc(fx.author.address, pool);
        const { id } = await createFunded(fx, fx.author, { pool });
        expect((await fx.bounty.getBounty(id)).pool).to.equal(pool);
      }
      expect(await fx.usdc.balanceOf(await fx.bounty.getAddress())).to.equal(1n + 10n ** 12n * ONE_USDC);
    });
  });
});
