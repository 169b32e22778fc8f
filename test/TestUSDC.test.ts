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

  // Each rule below mirrors FiatTokenV2_2 of circlefin/stablecoin-evm (read there, written anew).
  describe("blacklist (FiatTokenV2_2 rules)", () => {
    it("rule: transfer reverts when the sender or the recipient is blacklisted; the balance is kept; unBlacklist lifts it", async () => {
      const { usdc, alice, bob, stranger } = await loadFixture(baseProfile);
      await expect(usdc.connect(stranger).blacklist(alice.address))
        .to.emit(usdc, "Blacklisted")
        .withArgs(alice.address);
      expect(await usdc.isBlacklisted(alice.address)).to.equal(true);
      // v2.2 keeps the balance (the flag is the balance word's high bit) and balanceOf hides the flag.
      expect(await usdc.balanceOf(alice.address)).to.equal(INITIAL_USDC);
      await expect(usdc.connect(alice).transfer(bob.address, 1n)).to.be.revertedWith(BLACKLISTED);
      await expect(usdc.connect(bob).transfer(alice.address, 1n)).to.be.revertedWith(BLACKLISTED);
      await expect(usdc.mint(alice.address, 1n)).to.be.revertedWith(BLACKLISTED);
      await expect(usdc.unBlacklist(alice.address)).to.emit(usdc, "UnBlacklisted").withArgs(alice.address);
      expect(await usdc.isBlacklisted(alice.address)).to.equal(false);
      await expect(usdc.connect(alice).transfer(bob.address, 1n)).to.changeTokenBalances(
        usdc,
        [alice, bob],
        [-1n, 1n],
      );
    });

    it("rule: transferFrom reverts when the spender, the owner or the recipient is blacklisted", async () => {
      const { usdc, alice, bob, carol } = await loadFixture(baseProfile);
      await (await usdc.connect(alice).approve(carol.address, 10n)).wait();
      for (const who of [carol, alice, bob]) {
        await (await usdc.blacklist(who.address)).wait();
        await expect(usdc.connect(carol).transferFrom(alice.address, bob.address, 1n)).to.be.revertedWith(
          BLACKLISTED,
        );
        await (await usdc.unBlacklist(who.address)).wait();
      }
      await expect(usdc.connect(carol).transferFrom(alice.address, bob.address, 1n)).to.changeTokenBalances(
        usdc,
        [alice, bob],
        [-1n, 1n],
      );
    });

    it("rule: approve is not blacklist-checked in v2.2 (owner or spender blacklisted may approve)", async () => {
      const { usdc, alice, bob } = await loadFixture(baseProfile);
      await (await usdc.blacklist(alice.address)).wait();
      await expect(usdc.connect(alice).approve(bob.address, 3n))
        .to.emit(usdc, "Approval")
        .withArgs(alice.address, bob.address, 3n);
      await expect(usdc.connect(bob).approve(alice.address, 4n))
        .to.emit(usdc, "Approval")
        .withArgs(bob.address, alice.address, 4n);
      // ...but the allowance cannot be used while either side is blacklisted.
      await expect(usdc.connect(bob).transferFrom(alice.address, bob.address, 1n)).to.be.revertedWith(
        BLACKLISTED,
      );
    });

    it("rule: permit is not blacklist-checked in v2.2 either", async () => {
      const { usdc, alice, bob } = await loadFixture(baseProfile);
      await (await usdc.blacklist(alice.address)).wait();
      await (await usdc.blacklist(bob.address)).wait();
      const deadline = BigInt(await time.latest()) + 3_600n;
      const sig = await signPermit(usdc, bob, alice.address, 1n, deadline);
      await expect(usdc.permit(bob.address, alice.address, 1n, deadline, sig.v, sig.r, sig.s))
        .to.emit(usdc, "Approval")
        .withArgs(bob.address, alice.address, 1n);
    });
  });

  describe("pause (FiatTokenV2_2 rules)", () => {
    it("rule: only the pauser pauses and unpauses; updatePauser refuses the zero address", async () => {
      const { usdc, deployer, stranger } = await loadFixture(baseProfile);
      expect(await usdc.pauser()).to.equal(deployer.address);
      await expect(usdc.connect(stranger).pause()).to.be.revertedWith("Pausable: caller is not the pauser");
      await expect(usdc.updatePauser(ethers.ZeroAddress)).to.be.revertedWith(
        "Pausable: new pauser is the zero address",
      );
      await expect(usdc.updatePauser(stranger.address))
        .to.emit(usdc, "PauserChanged")
        .withArgs(stranger.address);
      await expect(usdc.connect(stranger).pause()).to.emit(usdc, "Pause");
      expect(await usdc.paused()).to.equal(true);
      await expect(usdc.connect(deployer).unpause()).to.be.revertedWith("Pausable: caller is not the pauser");
      await expect(usdc.connect(stranger).unpause()).to.emit(usdc, "Unpause");
      expect(await usdc.paused()).to.equal(false);
    });

    it("rule: while paused, transfer, transferFrom, approve, permit and mint revert 'Pausable: paused'", async () => {
      const fx = await loadFixture(baseProfile);
      const { usdc, alice, bob, carol } = fx;
      await (await usdc.connect(alice).approve(carol.address, 10n)).wait();
      const deadline = BigInt(await time.latest()) + 3_600n;
      const sig = await signPermit(usdc, alice, bob.address, 1n, deadline);
      await fx.pauseUsdc();
      const PAUSED = "Pausable: paused";
      await expect(usdc.connect(alice).transfer(bob.address, 1n)).to.be.revertedWith(PAUSED);
      await expect(usdc.connect(carol).transferFrom(alice.address, bob.address, 1n)).to.be.revertedWith(
        PAUSED,
      );
      await expect(usdc.connect(alice).approve(bob.address, 1n)).to.be.revertedWith(PAUSED);
      await expect(
        usdc.permit(alice.address, bob.address, 1n, deadline, sig.v, sig.r, sig.s),
      ).to.be.revertedWith(PAUSED);
      await expect(usdc.mint(alice.address, 1n)).to.be.revertedWith(PAUSED);
      // Balances are untouched and everything works again once unpaused.
      expect(await usdc.balanceOf(alice.address)).to.equal(INITIAL_USDC);
      await fx.unpauseUsdc();
      await expect(usdc.connect(alice).transfer(bob.address, 1n)).to.changeTokenBalances(
        usdc,
        [alice, bob],
        [-1n, 1n],
      );
    });
  });

  it("rule: a permit with deadline type(uint256).max never expires", async () => {
    const { usdc, alice, bob } = await loadFixture(baseProfile);
    const sig = await signPermit(usdc, alice, bob.address, 7n, ethers.MaxUint256);
    await time.increase(10 * 365 * 86_400);
    await expect(usdc.permit(alice.address, bob.address, 7n, ethers.MaxUint256, sig.v, sig.r, sig.s))
      .to.emit(usdc, "Approval")
      .withArgs(alice.address, bob.address, 7n);
  });

  it("keeps working after a code swap at the address (storage lives at the address, not in the template)", async () => {
    const { usdc, alice } = await loadFixture(baseProfile);
    const before = await usdc.balanceOf(alice.address);
    const code = await ethers.provider.getCode(BASE_USDC_ADDRESS);
    await network.provider.send("hardhat_setCode", [BASE_USDC_ADDRESS, code]);
    expect(await usdc.balanceOf(alice.address)).to.equal(before);
  });
});
