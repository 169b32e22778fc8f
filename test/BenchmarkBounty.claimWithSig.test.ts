/**
 * BenchmarkBounty.claimWithSig (SPEC 1.1, v1.1): a relayer submits a winner's claim signed with EIP-712
 * (`BenchmarkBounty`, version `1`, `Claim(uint256 bountyId,address account,address to,uint256 nonce,uint256
 * deadline)`), for an EOA (ECDSA, lower-half s only) and for an ERC-1271 wallet; the credit goes to `to`,
 * never to the relayer; each refusal is a named error.
 */
import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { baseProfile, claimDomain, createFunded, signClaim, CLAIM_TYPES, type BaseProfile } from "./fixtures";

const POOL = 30_000_000n;
/** secp256k1 group order: s and n - s are both valid ECDSA signatures of the same message. */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** A winner_take_all bounty awarded to `winner`; a second one too, for cross-bounty checks. */
async function awardedTo(fx: BaseProfile, winner: string) {
  const a = await createFunded(fx, fx.author, { pool: POOL, splitsBps: [10_000] });
  const b = await createFunded(fx, fx.author, { pool: POOL, splitsBps: [10_000] });
  await time.increaseTo(b.params.closesAt);
  for (const id of [a.id, b.id])
    await (await fx.bounty.connect(fx.awarder).award(id, [winner], ethers.ZeroHash)).wait();
  const deadline = BigInt(await time.latest()) + 3_600n;
  return { id: a.id, otherId: b.id, deadline };
}

describe("BenchmarkBounty: claimWithSig (relayed claims)", () => {
  it("exposes the EIP-712 domain and the Claim type hash", async () => {
    const { bounty } = await loadFixture(baseProfile);
    const d = await bounty.eip712Domain();
    expect(d.name).to.equal("BenchmarkBounty");
    expect(d.version).to.equal("1");
    expect(d.chainId).to.equal(8453n);
    expect(d.verifyingContract).to.equal(await bounty.getAddress());
    expect(await bounty.CLAIM_TYPEHASH()).to.equal(
      ethers.id("Claim(uint256 bountyId,address account,address to,uint256 nonce,uint256 deadline)"),
    );
  });

  it("a relayer submits an EOA winner's claim: paid to `to`, the relayer gets nothing, the nonce grows", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, usdc, alice, bob, stranger: relayer } = fx;
    const { id, deadline } = await awardedTo(fx, alice.address);
    const sig = await signClaim(bounty, alice, {
      bountyId: id,
      account: alice.address,
      to: bob.address,
      deadline,
    });
    expect(await bounty.nonces(alice.address)).to.equal(0n);
    const tx = bounty.connect(relayer).claimWithSig(id, alice.address, bob.address, deadline, sig);
    await expect(tx).to.emit(bounty, "Claimed").withArgs(id, alice.address, bob.address, POOL);
    await expect(tx).to.changeTokenBalances(usdc, [bounty, bob, relayer, alice], [-POOL, POOL, 0n, 0n]);
    expect(await bounty.nonces(alice.address)).to.equal(1n);
    expect(await bounty.creditOf(id, alice.address)).to.equal(0n);
  });

  it("a relayer submits an ERC-1271 wallet's claim (the wallet holds no ETH and sends nothing)", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, usdc, alice, bob, stranger: relayer } = fx;
    const wallet = await (await ethers.getContractFactory("TestWallet1271")).deploy(alice.address);
    const walletAddress = await wallet.getAddress();
    const { id, otherId, deadline } = await awardedTo(fx, walletAddress);
    // The wallet's owner signs the typed data; the wallet vouches for it through isValidSignature.
    const sig = await signClaim(bounty, alice, {
      bountyId: id,
      account: walletAddress,
      to: bob.address,
      deadline,
    });
    await expect(bounty.connect(relayer).claimWithSig(id, walletAddress, bob.address, deadline, sig))
      .to.emit(bounty, "Claimed")
      .withArgs(id, walletAddress, bob.address, POOL);
    expect(await usdc.balanceOf(bob.address)).to.equal((await usdc.balanceOf(alice.address)) + POOL);
    expect(await bounty.nonces(walletAddress)).to.equal(1n);
    // A signature by someone other than the wallet's owner is refused by the wallet.
    const foreign = await signClaim(bounty, bob, {
      bountyId: otherId,
      account: walletAddress,
      to: bob.address,
      deadline,
    });
    await expect(bounty.connect(relayer).claimWithSig(otherId, walletAddress, bob.address, deadline, foreign))
      .to.be.revertedWithCustomError(bounty, "InvalidClaimSignature")
      .withArgs(walletAddress);
  });

  it("refuses an expired deadline (and accepts the deadline second itself)", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, alice, stranger } = fx;
    const { id } = await awardedTo(fx, alice.address);
    const deadline = BigInt(await time.latest()) + 10n;
    const sig = await signClaim(bounty, alice, {
      bountyId: id,
      account: alice.address,
      to: alice.address,
      deadline,
    });
    await time.setNextBlockTimestamp(deadline + 1n);
    await expect(bounty.connect(stranger).claimWithSig(id, alice.address, alice.address, deadline, sig))
      .to.be.revertedWithCustomError(bounty, "ClaimSignatureExpired")
      .withArgs(deadline, deadline + 1n);
    const later = deadline + 100n;
    const sig2 = await signClaim(bounty, alice, {
      bountyId: id,
      account: alice.address,
      to: alice.address,
      deadline: later,
    });
    await time.setNextBlockTimestamp(later);
    await expect(
      bounty.connect(stranger).claimWithSig(id, alice.address, alice.address, later, sig2),
    ).to.emit(bounty, "Claimed");
  });

  it("refuses a reused nonce: the same signature cannot pay twice, even on another bounty with credit", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, alice, stranger } = fx;
    const { id, otherId, deadline } = await awardedTo(fx, alice.address);
    const sig = await signClaim(bounty, alice, {
      bountyId: id,
      account: alice.address,
      to: alice.address,
      deadline,
    });
    await (
      await bounty.connect(stranger).claimWithSig(id, alice.address, alice.address, deadline, sig)
    ).wait();
    await expect(bounty.connect(stranger).claimWithSig(id, alice.address, alice.address, deadline, sig))
      .to.be.revertedWithCustomError(bounty, "InvalidClaimSignature")
      .withArgs(alice.address);
    // A fresh signature over an old nonce (0) is refused too; over the current one (1) it pays.
    const stale = await signClaim(bounty, alice, {
      bountyId: otherId,
      account: alice.address,
      to: alice.address,
      deadline,
      nonce: 0n,
    });
    await expect(
      bounty.connect(stranger).claimWithSig(otherId, alice.address, alice.address, deadline, stale),
    )
      .to.be.revertedWithCustomError(bounty, "InvalidClaimSignature")
      .withArgs(alice.address);
    const current = await signClaim(bounty, alice, {
      bountyId: otherId,
      account: alice.address,
      to: alice.address,
      deadline,
    });
    await expect(
      bounty.connect(stranger).claimWithSig(otherId, alice.address, alice.address, deadline, current),
    )
      .to.emit(bounty, "Claimed")
      .withArgs(otherId, alice.address, alice.address, POOL);
    expect(await bounty.nonces(alice.address)).to.equal(2n);
  });

  it("refuses a signature by anyone but the account (the relayer cannot sign for the winner)", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, alice, stranger } = fx;
    const { id, deadline } = await awardedTo(fx, alice.address);
    const sig = await signClaim(bounty, stranger, {
      bountyId: id,
      account: alice.address,
      to: stranger.address,
      deadline,
    });
    await expect(bounty.connect(stranger).claimWithSig(id, alice.address, stranger.address, deadline, sig))
      .to.be.revertedWithCustomError(bounty, "InvalidClaimSignature")
      .withArgs(alice.address);
    expect(await bounty.nonces(alice.address)).to.equal(0n);
  });

  it("refuses a malleable (upper-half s) copy of a valid signature", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, alice, stranger } = fx;
    const { id, deadline } = await awardedTo(fx, alice.address);
    const sig = ethers.Signature.from(
      await signClaim(bounty, alice, { bountyId: id, account: alice.address, to: alice.address, deadline }),
    );
    // (r, n - s, v ^ 1) recovers the same signer under plain ecrecover: OpenZeppelin's ECDSA refuses it.
    const flippedS = ethers.toBeHex(SECP256K1_N - BigInt(sig.s), 32);
    const flippedV = sig.v === 27 ? 28 : 27;
    const malleable = ethers.concat([sig.r, flippedS, ethers.toBeHex(flippedV, 1)]);
    // The ecrecover precompile itself accepts the flipped form and returns alice.
    const digest = ethers.TypedDataEncoder.hash(claimDomain(8453n, await bounty.getAddress()), CLAIM_TYPES, {
      bountyId: id,
      account: alice.address,
      to: alice.address,
      nonce: 0n,
      deadline,
    });
    const recovered = await ethers.provider.call({
      to: "0x0000000000000000000000000000000000000001",
      data: ethers.concat([digest, ethers.toBeHex(flippedV, 32), sig.r, flippedS]),
    });
    expect(ethers.getAddress(ethers.dataSlice(recovered, 12))).to.equal(alice.address);
    await expect(bounty.connect(stranger).claimWithSig(id, alice.address, alice.address, deadline, malleable))
      .to.be.revertedWithCustomError(bounty, "InvalidClaimSignature")
      .withArgs(alice.address);
    // The canonical form still works.
    await expect(
      bounty.connect(stranger).claimWithSig(id, alice.address, alice.address, deadline, sig.serialized),
    ).to.emit(bounty, "Claimed");
  });

  it("refuses a signature for another bounty or another recipient", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, alice, bob, stranger } = fx;
    const { id, otherId, deadline } = await awardedTo(fx, alice.address);
    const sig = await signClaim(bounty, alice, {
      bountyId: id,
      account: alice.address,
      to: bob.address,
      deadline,
    });
    await expect(bounty.connect(stranger).claimWithSig(otherId, alice.address, bob.address, deadline, sig))
      .to.be.revertedWithCustomError(bounty, "InvalidClaimSignature")
      .withArgs(alice.address);
    await expect(bounty.connect(stranger).claimWithSig(id, alice.address, stranger.address, deadline, sig))
      .to.be.revertedWithCustomError(bounty, "InvalidClaimSignature")
      .withArgs(alice.address);
    await expect(bounty.connect(stranger).claimWithSig(id, alice.address, bob.address, deadline + 1n, sig))
      .to.be.revertedWithCustomError(bounty, "InvalidClaimSignature")
      .withArgs(alice.address);
    expect(await bounty.creditOf(id, alice.address)).to.equal(POOL);
  });

  it("follows claim's rules: no zero or self recipient, no empty credit", async () => {
    const fx = await loadFixture(baseProfile);
    const { bounty, alice, bob, stranger } = fx;
    const { id, deadline } = await awardedTo(fx, alice.address);
    for (const to of [ethers.ZeroAddress, await bounty.getAddress()]) {
      const sig = await signClaim(bounty, alice, { bountyId: id, account: alice.address, to, deadline });
      await expect(bounty.connect(stranger).claimWithSig(id, alice.address, to, deadline, sig))
        .to.be.revertedWithCustomError(bounty, "InvalidRecipient")
        .withArgs(to);
    }
    // bob holds no credit: his valid signature still gets NothingToClaim, and his nonce is not used.
    const sig = await signClaim(bounty, bob, {
      bountyId: id,
      account: bob.address,
      to: bob.address,
      deadline,
    });
    await expect(bounty.connect(stranger).claimWithSig(id, bob.address, bob.address, deadline, sig))
      .to.be.revertedWithCustomError(bounty, "NothingToClaim")
      .withArgs(id, bob.address);
    expect(await bounty.nonces(bob.address)).to.equal(0n);
  });
});
