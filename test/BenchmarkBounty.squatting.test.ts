/**
 * The root-squatting attack of issue 12 (why SPEC v1.1 binds and burns roots per author).
 *
 * The platform anchors a benchmark's commitment root publicly before its author locks the prize. A stranger
 * copies that root and creates their own bounty on it (a 1-unit junk token, themselves as awarder), then
 *   variant A: leaves it Pending, so under v1 the author's lock reverted RootBoundToLiveBounty for as long
 *              as the stranger liked;
 *   variant B: funds and awards it with no winners, so under v1 the root was burned and the author was
 *              refused (RootBurned) forever.
 * Under v1.1 both fail to hurt the author: the author locks and awards their own bounty on the same root
 * while the stranger's exists, and the stranger's award burns the root for the stranger only.
 *
 * Checked against v1: this file was run once against the v1 sources (`git show main:` of BenchmarkBounty.sol,
 * IBenchmarkBounty.sol and PayoutMath.sol swapped in), with only `rootBurned(author, root)` rewritten to v1's
 * `rootBurned(root)`. Both tests failed there: variant A at the author's createAndFund, reverted
 * `RootBoundToLiveBounty(root, 1)`; variant B at `rootBurned(author, root) == false` (v1 reports the
 * author's root burned by the stranger's award, so the author's lock would revert RootBurned).
 */
import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { baseProfile, bountyParams, freshRoot, Status, type BaseProfile } from "./fixtures";

/** The stranger's junk token and a bounty of theirs on `root`, awarded by themselves. */
async function squat(fx: BaseProfile, root: string, fund: boolean) {
  const { bounty, stranger } = fx;
  const junk = await (await ethers.getContractFactory("FeeOnTransferToken")).deploy();
  const junkParams = await bountyParams(fx, {
    token: await junk.getAddress(),
    awarder: stranger.address,
    pool: 1n,
    testSetRoot: root,
    splitsBps: [10_000],
  });
  // 1 unit moves without fee (1% of 1 rounds to 0), so the junk bounty can be funded.
  await (await junk.mint(stranger.address, 1n)).wait();
  await (await junk.connect(stranger).approve(await bounty.getAddress(), 1n)).wait();
  const id = (await bounty.bountyCount()) + 1n;
  const tx = fund
    ? bounty.connect(stranger).createAndFund(junkParams)
    : bounty.connect(stranger).createBounty(junkParams);
  await expect(tx)
    .to.emit(bounty, "BountyCreated")
    .withArgs(
      id,
      stranger.address,
      junkParams.token,
      stranger.address,
      root,
      junkParams.leafCount,
      1n,
      junkParams.closesAt,
      junkParams.awardDeadline,
      junkParams.thresholdBps,
      junkParams.splitsBps,
    );
  return { id, params: junkParams };
}

/** The author locks a real prize on `root`, it is awarded to alice, and alice is paid. */
async function authorLocksAndAwards(fx: BaseProfile, root: string) {
  const { bounty, usdc, author, awarder, alice } = fx;
  const p = await bountyParams(fx, { testSetRoot: root, splitsBps: [10_000] });
  await (await usdc.connect(author).approve(await bounty.getAddress(), p.pool)).wait();
  const id = (await bounty.bountyCount()) + 1n;
  await expect(bounty.connect(author).createAndFund(p))
    .to.emit(bounty, "BountyFunded")
    .withArgs(id, author.address, p.pool);
  await time.increaseTo(p.closesAt);
  await expect(bounty.connect(awarder).award(id, [alice.address], ethers.ZeroHash))
    .to.emit(bounty, "Awarded")
    .withArgs(id, root, [alice.address], [p.pool], 0n, ethers.ZeroHash);
  expect(await bounty.rootBurned(author.address, root)).to.equal(true);
  await expect(bounty.connect(alice).claim(id, alice.address)).to.changeTokenBalance(usdc, alice, p.pool);
  return id;
}

describe("BenchmarkBounty: root squatting by a stranger fails to hurt the author (SPEC 1.1, v1.1)", () => {
  it("variant A: a stranger's bounty left Pending on the author's root does not block the author", async () => {
    const fx = await loadFixture(baseProfile);
    const root = freshRoot();
    const { id: junkId } = await squat(fx, root, false);
    const authorId = await authorLocksAndAwards(fx, root);
    // The stranger's bounty still exists and is still Pending, bound to the stranger only.
    expect(await fx.bounty.statusOf(junkId)).to.equal(Status.Pending);
    expect(await fx.bounty.testSetRoots(junkId)).to.equal(root);
    expect(await fx.bounty.testSetRoots(authorId)).to.equal(root);
    await expect(fx.bounty.connect(fx.stranger).createBounty(await bountyParams(fx, { testSetRoot: root })))
      .to.be.revertedWithCustomError(fx.bounty, "RootBoundToLiveBounty")
      .withArgs(fx.stranger.address, root, junkId);
  });

  it("variant B: a stranger awarding their bounty with no winners burns the root for the stranger only", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, stranger, author } = fx;
    const root = freshRoot();
    const { id: junkId, params } = await squat(fx, root, true);
    await time.increaseTo(params.closesAt);
    await expect(bounty.connect(stranger).award(junkId, [], ethers.ZeroHash))
      .to.emit(bounty, "Awarded")
      .withArgs(junkId, root, [], [], 1n, ethers.ZeroHash);
    expect(await bounty.rootBurned(stranger.address, root)).to.equal(true);
    expect(await bounty.rootBurned(author.address, root)).to.equal(false);
    await authorLocksAndAwards(fx, root);
    // And the stranger can never reuse it.
    await expect(bounty.connect(stranger).createBounty(await bountyParams(fx, { testSetRoot: root })))
      .to.be.revertedWithCustomError(bounty, "RootBurned")
      .withArgs(stranger.address, root);
  });
});
