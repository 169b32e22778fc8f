/**
 * The whole flow of ARCHITECTURE.md on the local Base profile: anchor the commitment, lock the prize with a
 * permit, close, award three winners with the ranking digest, anchor the pack, every winner claims; the
 * contract ends empty and the status ladder reads Pending -> Funded -> Awarded from events alone.
 */
import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import {
  baseProfile,
  bountyParams,
  signPermit,
  statusHistory,
  Status,
  ONE_USDC,
  TOP_N_SPLIT,
} from "./fixtures";
import { expectedAmounts } from "./vectors";

describe("BenchmarkBounty: full lifecycle", () => {
  it("commitment anchored -> createAndFundWithPermit -> award -> pack anchored -> claims; nothing left", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, registry, usdc, author, awarder, alice, bob, carol, stranger } = fx;
    const bountyAddress = await bounty.getAddress();
    const pool = 50n * ONE_USDC;

    const p = await bountyParams(fx, { pool, splitsBps: TOP_N_SPLIT });
    await expect(registry.connect(author).anchor(p.testSetRoot, await registry.KIND_COMMITMENT()))
      .to.emit(registry, "Anchored")
      .withArgs(p.testSetRoot, await registry.KIND_COMMITMENT(), author.address);

    const sig = await signPermit(usdc, author, bountyAddress, pool, p.closesAt);
    await (await bounty.connect(author).createAndFundWithPermit(p, p.closesAt, sig.v, sig.r, sig.s)).wait();
    const id = await bounty.bountyCount();
    expect(await bounty.statusOf(id)).to.equal(Status.Funded);

    await time.increaseTo(p.closesAt);
    const rankingDigest = ethers.id('{"rank_derivation":{}}');
    const winners = [alice.address, bob.address, carol.address];
    const amounts = expectedAmounts(pool, TOP_N_SPLIT, 3);
    await expect(bounty.connect(awarder).award(id, winners, rankingDigest))
      .to.emit(bounty, "Awarded")
      .withArgs(id, p.testSetRoot, winners, amounts, 0n, rankingDigest);
    const packHash = ethers.id("pack");
    await (await registry.connect(awarder).anchor(packHash, await registry.KIND_PACK())).wait();

    await (await bounty.connect(alice).claim(id, alice.address)).wait();
    await (await bounty.connect(bob).claim(id, stranger.address)).wait();
    await (await bounty.connect(carol).claimMany([id], carol.address)).wait();
    expect(await usdc.balanceOf(bountyAddress)).to.equal(0n);
    expect(await statusHistory(bounty, id)).to.deep.equal([Status.Pending, Status.Funded, Status.Awarded]);
    expect(await bounty.rootBurned(author.address, p.testSetRoot)).to.equal(true);
    expect((await registry.anchorOf(p.testSetRoot))[0]).to.equal(author.address);
  });
});
