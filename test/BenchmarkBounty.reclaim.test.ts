/**
 * BenchmarkBounty: reclaim (SPEC 1.1): author only; Pending at any time (cancel); Funded only after the
 * award deadline; never after the award; the root is not burned.
 */
import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { baseProfile, bountyParams, createFunded, statusHistory, Status } from "./fixtures";

describe("BenchmarkBounty: reclaim", () => {
  it("is refused to a stranger and to the awarder", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, author, awarder, stranger } = fx;
    const { id, params } = await createFunded(fx, author);
    await time.increaseTo(params.awardDeadline + 1n);
    for (const caller of [stranger, awarder]) {
      await expect(bounty.connect(caller).reclaim(id, author.address))
        .to.be.revertedWithCustomError(bounty, "NotAuthor")
        .withArgs(id, caller.address);
    }
    await expect(bounty.connect(author).reclaim(5n, author.address))
      .to.be.revertedWithCustomError(bounty, "UnknownBounty")
      .withArgs(5n);
  });

  it("is refused for a Funded bounty up to and at the award deadline", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, author } = fx;
    const { id, params } = await createFunded(fx, author);
    let t = BigInt(await time.latest()) + 1n;
    await time.setNextBlockTimestamp(t);
    await expect(bounty.connect(author).reclaim(id, author.address))
      .to.be.revertedWithCustomError(bounty, "ReclaimBeforeDeadline")
      .withArgs(id, params.awardDeadline, t);
    t = params.awardDeadline;
    await time.setNextBlockTimestamp(t);
    await expect(bounty.connect(author).reclaim(id, author.address))
      .to.be.revertedWithCustomError(bounty, "ReclaimBeforeDeadline")
      .withArgs(id, params.awardDeadline, t);
  });

  it("returns the pool after the deadline: Funded -> Reclaimed, root not burned", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, usdc, author } = fx;
    const { id, params } = await createFunded(fx, author);
    await time.setNextBlockTimestamp(params.awardDeadline + 1n);
    const tx = bounty.connect(author).reclaim(id, author.address);
    await expect(tx).to.emit(bounty, "Reclaimed").withArgs(id, author.address, author.address, params.pool);
    await expect(tx).to.changeTokenBalances(usdc, [bounty, author], [-params.pool, params.pool]);
    expect(await bounty.statusOf(id)).to.equal(Status.Reclaimed);
    expect(await bounty.rootBurned(author.address, params.testSetRoot)).to.equal(false);
    expect(await bounty.testSetRoots(id)).to.equal(params.testSetRoot);
    await expect(bounty.connect(author).reclaim(id, author.address))
      .to.be.revertedWithCustomError(bounty, "BountyAlreadySettled")
      .withArgs(id, Status.Reclaimed);
    expect(await statusHistory(bounty, id)).to.deep.equal([Status.Pending, Status.Funded, Status.Reclaimed]);
  });

  it("is refused after the award, even past the deadline", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, author, awarder, alice } = fx;
    const { id, params } = await createFunded(fx, author);
    await time.increaseTo(params.closesAt);
    await (await bounty.connect(awarder).award(id, [alice.address], ethers.ZeroHash)).wait();
    await expect(bounty.connect(author).reclaim(id, author.address))
      .to.be.revertedWithCustomError(bounty, "BountyAlreadySettled")
      .withArgs(id, Status.Awarded);
    await time.increaseTo(params.awardDeadline + 1n);
    await expect(bounty.connect(author).reclaim(id, author.address))
      .to.be.revertedWithCustomError(bounty, "BountyAlreadySettled")
      .withArgs(id, Status.Awarded);
  });

  it("cancels a Pending bounty at any time: Pending -> Reclaimed with amount 0, nothing moves", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, usdc, author, awarder, alice } = fx;
    const p = await bountyParams(fx);
    await (await bounty.connect(author).createBounty(p)).wait();
    const tx = bounty.connect(author).reclaim(1n, author.address);
    await expect(tx).to.emit(bounty, "Reclaimed").withArgs(1n, author.address, author.address, 0n);
    await expect(tx).to.changeTokenBalances(usdc, [bounty, author], [0n, 0n]);
    expect(await bounty.statusOf(1n)).to.equal(Status.Reclaimed);
    // Terminal: no funding, no award afterwards.
    await (await usdc.connect(author).approve(await bounty.getAddress(), p.pool)).wait();
    await expect(bounty.connect(author).fund(1n))
      .to.be.revertedWithCustomError(bounty, "BountyNotPending")
      .withArgs(1n, Status.Reclaimed);
    await time.increaseTo(p.closesAt);
    await expect(bounty.connect(awarder).award(1n, [alice.address], ethers.ZeroHash))
      .to.be.revertedWithCustomError(bounty, "BountyNotFunded")
      .withArgs(1n, Status.Reclaimed);
    expect(await statusHistory(bounty, 1n)).to.deep.equal([Status.Pending, Status.Reclaimed]);
  });

  it("once the deadline has passed without an award, the awarder can no longer award", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, author, awarder, alice } = fx;
    const { id, params } = await createFunded(fx, author);
    await time.increaseTo(params.awardDeadline + 1n);
    await expect(
      bounty.connect(awarder).award(id, [alice.address], ethers.ZeroHash),
    ).to.be.revertedWithCustomError(bounty, "AwardAfterDeadline");
    await expect(bounty.connect(author).reclaim(id, author.address)).to.emit(bounty, "Reclaimed");
  });
});

describe("BenchmarkBounty: reclaim to an address (v1.1)", () => {
  it("a blacklisted author reclaims the pool to a clean address", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, usdc, author, alice } = fx;
    const { id, params } = await createFunded(fx, author);
    await time.increaseTo(params.awardDeadline + 1n);
    await fx.blacklistUsdc(author.address);
    await expect(bounty.connect(author).reclaim(id, author.address)).to.be.revertedWith(
      "Blacklistable: account is blacklisted",
    );
    const tx = bounty.connect(author).reclaim(id, alice.address);
    await expect(tx).to.emit(bounty, "Reclaimed").withArgs(id, author.address, alice.address, params.pool);
    await expect(tx).to.changeTokenBalances(usdc, [bounty, alice], [-params.pool, params.pool]);
    expect(await bounty.statusOf(id)).to.equal(Status.Reclaimed);
  });

  it("refuses the zero address and the contract itself as recipient", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, author } = fx;
    const { id, params } = await createFunded(fx, author);
    await time.increaseTo(params.awardDeadline + 1n);
    for (const to of [ethers.ZeroAddress, await bounty.getAddress()]) {
      await expect(bounty.connect(author).reclaim(id, to))
        .to.be.revertedWithCustomError(bounty, "InvalidRecipient")
        .withArgs(to);
    }
  });
});
