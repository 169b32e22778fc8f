/**
 * AnchorRegistry (SPEC 1.2): permissionless, append-only; the first anchoring of a digest is kept forever.
 */
import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { baseProfile } from "./fixtures";

const KIND_NAMES = {
  KIND_COMMITMENT: "bench-bounty.anchor.commitment",
  KIND_RECEIPT: "bench-bounty.anchor.receipt",
  KIND_PACK: "bench-bounty.anchor.pack",
  KIND_COMPUTE_RECEIPT: "bench-bounty.anchor.compute-receipt",
} as const;

const digest = (label: string) => ethers.keccak256(ethers.toUtf8Bytes(label));

describe("AnchorRegistry", () => {
  it("exposes the four kinds as keccak256 of their names", async () => {
    const { registry } = await loadFixture(baseProfile);
    for (const [getter, name] of Object.entries(KIND_NAMES)) {
      expect(await registry.getFunction(getter)()).to.equal(ethers.id(name));
    }
  });

  it("anchors a digest of each kind for anyone: Anchored, anchorOf = (anchorer, block, timestamp, kind)", async () => {
    const { registry, alice, stranger } = await loadFixture(baseProfile);
    for (const [i, name] of Object.values(KIND_NAMES).entries()) {
      const d = digest(`pack ${i}`);
      const kind = ethers.id(name);
      const who = i % 2 === 0 ? alice : stranger;
      const tx = registry.connect(who).anchor(d, kind);
      await expect(tx).to.emit(registry, "Anchored").withArgs(d, kind, who.address);
      const receipt = await (await tx).wait();
      const block = await ethers.provider.getBlock(receipt!.blockNumber);
      const [anchorer, blockNumber, timestamp, storedKind] = await registry.anchorOf(d);
      expect(anchorer).to.equal(who.address);
      expect(blockNumber).to.equal(BigInt(receipt!.blockNumber));
      expect(timestamp).to.equal(BigInt(block!.timestamp));
      expect(storedKind).to.equal(kind);
    }
  });

  it("keeps the first anchoring: anchoring again reverts AlreadyAnchored, whoever and whatever kind", async () => {
    const { registry, alice, bob } = await loadFixture(baseProfile);
    const d = digest("receipt");
    const kind = await registry.KIND_RECEIPT();
    const receipt = await (await registry.connect(alice).anchor(d, kind)).wait();
    const first = await registry.anchorOf(d);
    await expect(registry.connect(bob).anchor(d, await registry.KIND_PACK()))
      .to.be.revertedWithCustomError(registry, "AlreadyAnchored")
      .withArgs(d, alice.address, receipt!.blockNumber);
    await expect(registry.connect(alice).anchor(d, kind))
      .to.be.revertedWithCustomError(registry, "AlreadyAnchored")
      .withArgs(d, alice.address, receipt!.blockNumber);
    expect(await registry.anchorOf(d)).to.deep.equal(first);
  });

  it("refuses the zero digest and an unknown kind", async () => {
    const { registry, alice } = await loadFixture(baseProfile);
    await expect(
      registry.connect(alice).anchor(ethers.ZeroHash, await registry.KIND_COMMITMENT()),
    ).to.be.revertedWithCustomError(registry, "ZeroDigest");
    const unknown = ethers.id("bench-bounty.anchor.something-else");
    await expect(registry.connect(alice).anchor(digest("x"), unknown))
      .to.be.revertedWithCustomError(registry, "UnknownKind")
      .withArgs(unknown);
    await expect(registry.connect(alice).anchor(digest("x"), ethers.ZeroHash))
      .to.be.revertedWithCustomError(registry, "UnknownKind")
      .withArgs(ethers.ZeroHash);
  });

  it("answers an unknown digest with zeros", async () => {
    const { registry } = await loadFixture(baseProfile);
    const [anchorer, blockNumber, timestamp, kind] = await registry.anchorOf(digest("never"));
    expect([anchorer, blockNumber, timestamp, kind]).to.deep.equal([
      ethers.ZeroAddress,
      0n,
      0n,
      ethers.ZeroHash,
    ]);
  });

  describe("anchorMany", () => {
    it("anchors each digest with one kind, one Anchored event each", async () => {
      const { registry, bob } = await loadFixture(baseProfile);
      const kind = await registry.KIND_COMPUTE_RECEIPT();
      const ds = Array.from({ length: 10 }, (_, i) => digest(`receipt ${i}`));
      const tx = registry.connect(bob).anchorMany(ds, kind);
      for (const d of ds) await expect(tx).to.emit(registry, "Anchored").withArgs(d, kind, bob.address);
      const receipt = await (await tx).wait();
      expect(receipt!.logs.length).to.equal(10);
      for (const d of ds) {
        const [anchorer, blockNumber, , storedKind] = await registry.anchorOf(d);
        expect([anchorer, blockNumber, storedKind]).to.deep.equal([
          bob.address,
          BigInt(receipt!.blockNumber),
          kind,
        ]);
      }
    });

    it("reverts as a whole on a duplicate, an already anchored digest, a zero digest or an unknown kind", async () => {
      const { registry, alice } = await loadFixture(baseProfile);
      const kind = await registry.KIND_RECEIPT();
      const [a, b, c] = [digest("a"), digest("b"), digest("c")];
      const receipt = await (await registry.connect(alice).anchor(c, kind)).wait();
      await expect(registry.connect(alice).anchorMany([a, b, a], kind))
        .to.be.revertedWithCustomError(registry, "AlreadyAnchored")
        .withArgs(a, alice.address, BigInt(receipt!.blockNumber) + 1n);
      await expect(registry.connect(alice).anchorMany([a, c], kind))
        .to.be.revertedWithCustomError(registry, "AlreadyAnchored")
        .withArgs(c, alice.address, receipt!.blockNumber);
      await expect(
        registry.connect(alice).anchorMany([a, ethers.ZeroHash], kind),
      ).to.be.revertedWithCustomError(registry, "ZeroDigest");
      await expect(registry.connect(alice).anchorMany([a], ethers.id("nope"))).to.be.revertedWithCustomError(
        registry,
        "UnknownKind",
      );
      expect((await registry.anchorOf(a))[0]).to.equal(ethers.ZeroAddress);
      // An empty list anchors nothing and does not revert.
      await expect(registry.connect(alice).anchorMany([], kind)).not.to.emit(registry, "Anchored");
    });
  });
});
