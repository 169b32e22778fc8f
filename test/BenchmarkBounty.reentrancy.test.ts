/**
 * BenchmarkBounty against a malicious token that re-enters `claim`, `award` and `reclaim` from inside its
 * transfers (contracts/test/ReentrantToken.sol). The token contract itself is the attacker: it is the
 * winner, the awarder or the author. Every re-entry must fail and the attacker must get exactly what the
 * rules give it, once.
 */
import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { baseProfile, bountyParams, type BaseProfile } from "./fixtures";
import type { ReentrantToken } from "../typechain-types";

const POOL = 1_000_000n;

async function setup() {
  const fx = await baseProfile();
  const token = (await (
    await ethers.getContractFactory("ReentrantToken")
  ).deploy()) as unknown as ReentrantToken;
  await (await token.mint(fx.author.address, 10n * POOL)).wait();
  return { ...fx, token };
}

/** The selector of OpenZeppelin's ReentrancyGuardReentrantCall(). */
const REENTRANT_CALL = ethers.id("ReentrancyGuardReentrantCall()").slice(0, 10);

async function fundedWith(
  fx: BaseProfile & { token: ReentrantToken },
  over: Parameters<typeof bountyParams>[1] = {},
): Promise<{ id: bigint; closesAt: bigint; awardDeadline: bigint }> {
  const { bounty, token, author } = fx;
  const p = await bountyParams(fx, { token: await token.getAddress(), pool: POOL, ...over });
  await (await token.connect(author).approve(await bounty.getAddress(), p.pool)).wait();
  const id = (await bounty.bountyCount()) + 1n;
  await (await bounty.connect(author).createAndFund(p)).wait();
  return { id, closesAt: p.closesAt, awardDeadline: p.awardDeadline };
}

describe("BenchmarkBounty: re-entrancy by a malicious token", () => {
  it("a winner token re-entering claim during its payout gains nothing", async () => {
    const fx = await loadFixture(setup);
    const { bounty, token, awarder } = fx;
    const attacker = await token.getAddress();
    const { id, closesAt } = await fundedWith(fx, { splitsBps: [10_000] });
    await time.increaseTo(closesAt);
    await (await bounty.connect(awarder).award(id, [attacker], ethers.ZeroHash)).wait();

    const claimData = bounty.interface.encodeFunctionData("claim", [id, attacker]);
    await (await token.arm(await bounty.getAddress(), claimData)).wait();
    await expect(token.callTarget(await bounty.getAddress(), claimData))
      .to.emit(bounty, "Claimed")
      .withArgs(id, attacker, attacker, POOL);
    expect(await token.reentryCount()).to.equal(1n);
    expect(await token.lastReentrySucceeded()).to.equal(false);
    expect(await token.lastReentryResult()).to.equal(REENTRANT_CALL);
    expect(await token.balanceOf(attacker)).to.equal(POOL);
    expect(await token.balanceOf(await bounty.getAddress())).to.equal(0n);
    expect(await bounty.creditOf(id, attacker)).to.equal(0n);
  });

  it("an awarder token cannot re-enter award from inside a claim payout", async () => {
    const fx = await loadFixture(setup);
    const { bounty, token, awarder } = fx;
    const attacker = await token.getAddress();
    const first = await fundedWith(fx, { splitsBps: [10_000] });
    const second = await fundedWith(fx, { splitsBps: [10_000], awarder: attacker });
    await time.increaseTo(second.closesAt);
    await (await bounty.connect(awarder).award(first.id, [attacker], ethers.ZeroHash)).wait();

    const awardData = bounty.interface.encodeFunctionData("award", [second.id, [attacker], ethers.ZeroHash]);
    await (await token.arm(await bounty.getAddress(), awardData)).wait();
    const claimData = bounty.interface.encodeFunctionData("claim", [first.id, attacker]);
    await (await token.callTarget(await bounty.getAddress(), claimData)).wait();
    expect(await token.lastReentrySucceeded()).to.equal(false);
    expect(await token.lastReentryResult()).to.equal(REENTRANT_CALL);
    expect(await bounty.statusOf(second.id)).to.equal(2n); // still Funded
    expect(await bounty.creditOf(second.id, attacker)).to.equal(0n);
    // Outside a transfer, the same award goes through (the attacker is that bounty's awarder).
    await expect(token.callTarget(await bounty.getAddress(), awardData)).to.emit(bounty, "Awarded");
  });

  it("an author token re-entering reclaim during the refund gets the pool once", async () => {
    const fx = await loadFixture(setup);
    const { bounty, token } = fx;
    const attacker = await token.getAddress();
    const bountyAddress = await bounty.getAddress();
    // The token contract is the author: it approves and funds a bounty itself.
    await (await token.mint(attacker, POOL)).wait();
    await (
      await token.callTarget(attacker, token.interface.encodeFunctionData("approve", [bountyAddress, POOL]))
    ).wait();
    const p = await bountyParams(fx, { token: attacker, pool: POOL });
    await (
      await token.callTarget(bountyAddress, bounty.interface.encodeFunctionData("createAndFund", [p]))
    ).wait();
    const id = await bounty.bountyCount();
    // Another author's funds sit in the same contract: the target of a double refund.
    const other = await fundedWith(fx);
    expect(await token.balanceOf(bountyAddress)).to.equal(2n * POOL);

    await time.increaseTo(p.awardDeadline + 1n);
    const reclaimData = bounty.interface.encodeFunctionData("reclaim", [id, attacker]);
    await (await token.arm(bountyAddress, reclaimData)).wait();
    await expect(token.callTarget(bountyAddress, reclaimData))
      .to.emit(bounty, "Reclaimed")
      .withArgs(id, attacker, attacker, POOL);
    expect(await token.lastReentrySucceeded()).to.equal(false);
    expect(await token.lastReentryResult()).to.equal(REENTRANT_CALL);
    expect(await token.balanceOf(attacker)).to.equal(POOL);
    expect(await token.balanceOf(bountyAddress)).to.equal(POOL);
    expect(await bounty.statusOf(other.id)).to.equal(2n);
  });

  it("a re-entry into fund from inside the pull is refused", async () => {
    const fx = await loadFixture(setup);
    const { bounty, token, author } = fx;
    const bountyAddress = await bounty.getAddress();
    const p = await bountyParams(fx, { token: await token.getAddress(), pool: POOL });
    await (await bounty.connect(author).createBounty(p)).wait();
    await (await token.connect(author).approve(bountyAddress, 2n * POOL)).wait();
    await (await token.arm(bountyAddress, bounty.interface.encodeFunctionData("fund", [1n]))).wait();
    await (await bounty.connect(author).fund(1n)).wait();
    expect(await token.lastReentrySucceeded()).to.equal(false);
    expect(await token.lastReentryResult()).to.equal(REENTRANT_CALL);
    expect(await token.balanceOf(bountyAddress)).to.equal(POOL);
  });

  it("every state-changing entry point is locked while the contract moves tokens", async () => {
    const fx = await loadFixture(setup);
    const { bounty, token, author } = fx;
    const bountyAddress = await bounty.getAddress();
    const p = await bountyParams(fx, { token: await token.getAddress(), pool: 1n });
    const entryPoints: [string, string][] = [
      ["createBounty", bounty.interface.encodeFunctionData("createBounty", [p])],
      ["createAndFund", bounty.interface.encodeFunctionData("createAndFund", [p])],
      [
        "createAndFundWithPermit",
        bounty.interface.encodeFunctionData("createAndFundWithPermit", [
          p,
          0n,
          0,
          ethers.ZeroHash,
          ethers.ZeroHash,
        ]),
      ],
      ["fund", bounty.interface.encodeFunctionData("fund", [1n])],
      ["award", bounty.interface.encodeFunctionData("award", [1n, [], ethers.ZeroHash])],
      ["claim", bounty.interface.encodeFunctionData("claim", [1n, author.address])],
      ["claimMany", bounty.interface.encodeFunctionData("claimMany", [[1n], author.address])],
      ["reclaim", bounty.interface.encodeFunctionData("reclaim", [1n, fx.author.address])],
      [
        "claimWithSig",
        bounty.interface.encodeFunctionData("claimWithSig", [1n, author.address, author.address, 0n, "0x"]),
      ],
    ];
    await (await token.connect(author).approve(bountyAddress, 100n * POOL)).wait();
    for (const [name, data] of entryPoints) {
      const q = await bountyParams(fx, { token: await token.getAddress(), pool: POOL });
      await (await bounty.connect(author).createBounty(q)).wait();
      await (await token.arm(bountyAddress, data)).wait();
      await (await bounty.connect(author).fund(await bounty.bountyCount())).wait();
      expect(await token.lastReentrySucceeded(), name).to.equal(false);
      expect(await token.lastReentryResult(), name).to.equal(REENTRANT_CALL);
    }
    expect(await token.reentryCount()).to.equal(BigInt(entryPoints.length));
  });

  it("callTarget bubbles the target's revert", async () => {
    const fx = await loadFixture(setup);
    const { bounty, token } = fx;
    await expect(
      token.callTarget(
        await bounty.getAddress(),
        bounty.interface.encodeFunctionData("reclaim", [42n, fx.author.address]),
      ),
    ).to.be.revertedWithCustomError(bounty, "UnknownBounty");
  });
});
