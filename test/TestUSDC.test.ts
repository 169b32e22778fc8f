/**
 * TestUSDC placed at the Base USDC address (local Base profile): the FiatToken surface a user meets on
 * Base, checked at the real address after `hardhat_setCode`. Skipped on a Base fork (real USDC there).
 */
import { expect } from "chai";
import { ethers, network } from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { baseProfile, isForkMode, signPermit, BASE_USDC_ADDRESS, INITIAL_USDC } from "./fixtures";

const BLACKLISTED = "Blacklistable: account is blacklisted";

(isForkMode() ? describe.skip : describe)("TestUSDC at the Base USDC address", () => {
  it("runs at 0x8335…2913 on chain 8453 with USDC's metadata", async () => {
    const { usdc } = await loadFixture(baseProfile);
    expect(await usdc.getAddress()).to.equal(BASE_USDC_ADDRESS);
    expect((await ethers.provider.getNetwork()).chainId).to.equal(8453n);
    expect(await ethers.provider.getCode(BASE_USDC_ADDRESS)).to.not.equal("0x");
    expect(await usdc.name()).to.equal("USD Coin");
    expect(await usdc.symbol()).to.equal("USDC");
    expect(await usdc.decimals()).to.equal(6n);
    expect(await usdc.version()).to.equal("2");
    expect(await usdc.currency()).to.equal("USD");
  });

  it("builds the EIP-712 domain from this chain and this address at call time", async () => {
    const { usdc } = await loadFixture(baseProfile);
    const expected = ethers.TypedDataEncoder.hashDomain({
      name: "USD Coin",
      version: "2",
      chainId: 8453,
      verifyingContract: BASE_USDC_ADDRESS,
    });
    expect(await usdc.DOMAIN_SEPARATOR()).to.equal(expected);
    expect(await usdc.PERMIT_TYPEHASH()).to.equal(
      ethers.id("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)"),
    );
  });

  it("mints for tests: Mint and Transfer events, total supply", async () => {
    const { usdc, alice, stranger } = await loadFixture(baseProfile);
    const supply = await usdc.totalSupply();
    await expect(usdc.connect(stranger).mint(alice.address, 5n))
      .to.emit(usdc, "Mint")
      .withArgs(stranger.address, alice.address, 5n)
      .and.to.emit(usdc, "Transfer")
      .withArgs(ethers.ZeroAddress, alice.address, 5n);
    expect(await usdc.totalSupply()).to.equal(supply + 5n);
    expect(await usdc.balanceOf(alice.address)).to.equal(INITIAL_USDC + 5n);
    await expect(usdc.mint(ethers.ZeroAddress, 1n)).to.be.revertedWith("FiatToken: mint to the zero address");
    await expect(usdc.mint(alice.address, 0n)).to.be.revertedWith(
      "FiatToken: mint amount not greater than 0",
    );
    await expect(usdc.mint(alice.address, 2n ** 255n)).to.be.revertedWith(
      "FiatToken: total supply too large",
    );
  });

  it("transfers, approves and transfers from, with FiatToken's revert reasons", async () => {
    const { usdc, alice, bob, carol } = await loadFixture(baseProfile);
    await expect(usdc.connect(alice).transfer(bob.address, 7n))
      .to.emit(usdc, "Transfer")
      .withArgs(alice.address, bob.address, 7n);
    await expect(usdc.connect(alice).transfer(bob.address, INITIAL_USDC)).to.be.revertedWith(
      "ERC20: transfer amount exceeds balance",
    );
    await expect(usdc.connect(alice).transfer(ethers.ZeroAddress, 1n)).to.be.revertedWith(
      "ERC20: transfer to the zero address",
    );
    await expect(usdc.connect(alice).approve(carol.address, 10n))
      .to.emit(usdc, "Approval")
      .withArgs(alice.address, carol.address, 10n);
    await expect(usdc.connect(alice).approve(ethers.ZeroAddress, 10n)).to.be.revertedWith(
      "ERC20: approve to the zero address",
    );
    await expect(usdc.connect(carol).transferFrom(alice.address, bob.address, 11n)).to.be.revertedWith(
      "ERC20: transfer amount exceeds allowance",
    );
    await expect(usdc.connect(carol).transferFrom(alice.address, bob.address, 4n)).to.changeTokenBalances(
      usdc,
      [alice, bob],
      [-4n, 4n],
    );
    expect(await usdc.allowance(alice.address, carol.address)).to.equal(6n);
  });

  describe("permit (EIP-2612)", () => {
    it("sets the allowance and bumps the nonce; a replay, an expired or a foreign signature fails", async () => {
      const { usdc, alice, bob, stranger } = await loadFixture(baseProfile);
      const deadline = BigInt(await time.latest()) + 3_600n;
      const sig = await signPermit(usdc, alice, bob.address, 99n, deadline);
      await expect(
        usdc.connect(stranger).permit(alice.address, bob.address, 99n, deadline, sig.v, sig.r, sig.s),
      )
        .to.emit(usdc, "Approval")
        .withArgs(alice.address, bob.address, 99n);
      expect(await usdc.allowance(alice.address, bob.address)).to.equal(99n);
      expect(await usdc.nonces(alice.address)).to.equal(1n);
      await expect(
        usdc.permit(alice.address, bob.address, 99n, deadline, sig.v, sig.r, sig.s),
      ).to.be.revertedWith("EIP2612: invalid signature");

      const foreign = await signPermit(usdc, stranger, bob.address, 5n, deadline);
      await expect(
        usdc.permit(alice.address, bob.address, 5n, deadline, foreign.v, foreign.r, foreign.s),
      ).to.be.revertedWith("EIP2612: invalid signature");

      const past = BigInt(await time.latest());
      const old = await signPermit(usdc, alice, bob.address, 5n, past);
      await expect(usdc.permit(alice.address, bob.address, 5n, past, old.v, old.r, old.s)).to.be.revertedWith(
        "FiatTokenV2: permit is expired",
      );
      await expect(
        usdc.permit(ethers.ZeroAddress, bob.address, 5n, deadline, sig.v, sig.r, sig.s),
      ).to.be.revertedWith("EIP2612: invalid signature");
    });
  });

  describe("blacklist", () => {
    it("blocks transfers and approvals to or from a blacklisted address, keeps its balance, and lifts", async () => {
      const { usdc, alice, bob, carol, stranger } = await loadFixture(baseProfile);
      await expect(usdc.connect(stranger).blacklist(alice.address))
        .to.emit(usdc, "Blacklisted")
        .withArgs(alice.address);
      expect(await usdc.isBlacklisted(alice.address)).to.equal(true);
      expect(await usdc.balanceOf(alice.address)).to.equal(INITIAL_USDC);

      await expect(usdc.connect(alice).transfer(bob.address, 1n)).to.be.revertedWith(BLACKLISTED);
      await expect(usdc.connect(bob).transfer(alice.address, 1n)).to.be.revertedWith(BLACKLISTED);
      await expect(usdc.connect(alice).approve(bob.address, 1n)).to.be.revertedWith(BLACKLISTED);
      await expect(usdc.connect(bob).approve(alice.address, 1n)).to.be.revertedWith(BLACKLISTED);
      await expect(usdc.mint(alice.address, 1n)).to.be.revertedWith(BLACKLISTED);
      // transferFrom checks the spender, the owner and the recipient.
      await (await usdc.connect(bob).approve(carol.address, 10n)).wait();
      await expect(usdc.connect(carol).transferFrom(bob.address, alice.address, 1n)).to.be.revertedWith(
        BLACKLISTED,
      );
      const deadline = BigInt(await time.latest()) + 3_600n;
      const sig = await signPermit(usdc, bob, alice.address, 1n, deadline);
      await expect(
        usdc.permit(bob.address, alice.address, 1n, deadline, sig.v, sig.r, sig.s),
      ).to.be.revertedWith(BLACKLISTED);

      await expect(usdc.unBlacklist(alice.address)).to.emit(usdc, "UnBlacklisted").withArgs(alice.address);
      expect(await usdc.isBlacklisted(alice.address)).to.equal(false);
      await expect(usdc.connect(alice).transfer(bob.address, 1n)).to.changeTokenBalances(
        usdc,
        [alice, bob],
        [-1n, 1n],
      );
    });

    it("a blacklisted spender cannot move an allowance it holds", async () => {
      const { usdc, alice, bob, carol } = await loadFixture(baseProfile);
      await (await usdc.connect(alice).approve(carol.address, 10n)).wait();
      await (await usdc.blacklist(carol.address)).wait();
      await expect(usdc.connect(carol).transferFrom(alice.address, bob.address, 1n)).to.be.revertedWith(
        BLACKLISTED,
      );
      await (await usdc.blacklist(alice.address)).wait();
      await (await usdc.unBlacklist(carol.address)).wait();
      await expect(usdc.connect(carol).transferFrom(alice.address, bob.address, 1n)).to.be.revertedWith(
        BLACKLISTED,
      );
    });
  });

  it("keeps working after a code swap at the address (storage lives at the address, not in the template)", async () => {
    const { usdc, alice } = await loadFixture(baseProfile);
    const before = await usdc.balanceOf(alice.address);
    const code = await ethers.provider.getCode(BASE_USDC_ADDRESS);
    await network.provider.send("hardhat_setCode", [BASE_USDC_ADDRESS, code]);
    expect(await usdc.balanceOf(alice.address)).to.equal(before);
  });
});
