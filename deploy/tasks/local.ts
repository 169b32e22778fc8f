/**
 * Helpers for a local Base-profile node only (they refuse any other network):
 * `local:mint-usdc` mints test USDC (the test token's open `mint`), and
 * `local:increase-time` moves the node's clock, so the walkthrough can reach an
 * award window or an award deadline without waiting.
 */
import { task, types } from "hardhat/config";
import { TaskError, decodeRevert, userAction } from "../lib/errors";
import { refuseMalformedAddress } from "../lib/context";
import { checkChainId, networkProfile, txLink } from "../lib/network";
import { contracts, evidence } from "../lib/packages";
import { formatAmount, isoSeconds, parseAmount } from "../lib/format";

function localOnly(name: string): void {
  if (name !== "localhost") {
    throw new TaskError(
      `This task only runs on a local node (--network localhost); on ${name} USDC is real and time is real.`,
    );
  }
}

task("local:mint-usdc", "Local node only: mint test USDC to an address")
  .addParam("to", "Recipient", undefined, types.string)
  .addParam("amount", "USDC, decimal (e.g. 1000)", undefined, types.string)
  .setAction(
    userAction(async (args: { to: string; amount: string }, hre) => {
      localOnly(hre.network.name);
      const profile = networkProfile(hre, { needSigner: true });
      await checkChainId(hre, profile);
      refuseMalformedAddress(args.to, "--to");
      const amount = parseAmount(args.amount, "--amount");
      if (amount === 0n) throw new TaskError("--amount must be more than 0.");
      // probe24 B-F3: past uint256 ethers threw "value out-of-bounds" with a stack trace
      if (amount > evidence().UINT256_MAX)
        throw new TaskError(
          `--amount is out of the uint256 range: ${amount.toString().length} digits of base units, more than 2^256-1 (mint takes a uint256).`,
        );
      const { BASE_USDC_ADDRESS } = contracts();
      if ((await hre.ethers.provider.getCode(BASE_USDC_ADDRESS)) === "0x") {
        throw new TaskError(
          `No test USDC at ${BASE_USDC_ADDRESS}: start the node as the local Base profile (BENCH_BOUNTY_DEVCHAIN=profile npx hardhat node).`,
        );
      }
      const [signer] = await hre.ethers.getSigners();
      const usdc = await hre.ethers.getContractAt("TestUSDC", BASE_USDC_ADDRESS, signer);
      let tx: Awaited<ReturnType<typeof usdc.mint>>;
      let receipt: Awaited<ReturnType<typeof tx.wait>>;
      try {
        // simulated first: a mint the token refuses is named without sending a reverting transaction
        await usdc.mint.staticCall(args.to, amount);
        tx = await usdc.mint(args.to, amount);
        receipt = await tx.wait();
      } catch (e) {
        // a refusal of the token (total supply too large, a blacklisted address): its reason in one line
        throw decodeRevert(e, [usdc.interface], "mint");
      }
      console.log(
        `Minted ${formatAmount(amount)} to ${args.to} (tx ${receipt?.hash}, ${txLink(profile, tx.hash)}).`,
      );
      console.log(`Balance: ${formatAmount(await usdc.balanceOf(args.to))}`);
    }),
  );

task("local:increase-time", "Local node only: move the clock forward and mine a block")
  .addParam("seconds", "Seconds to add", undefined, types.int)
  .setAction(
    userAction(async (args: { seconds: number }, hre) => {
      localOnly(hre.network.name);
      const profile = networkProfile(hre, { needSigner: false });
      await checkChainId(hre, profile);
      if (!Number.isSafeInteger(args.seconds) || args.seconds < 1)
        throw new TaskError("--seconds must be a positive integer.");
      await hre.network.provider.request({ method: "evm_increaseTime", params: [args.seconds] });
      await hre.network.provider.request({ method: "evm_mine", params: [] });
      const block = await hre.ethers.provider.getBlock("latest");
      console.log(`Chain time is now ${isoSeconds(block!.timestamp)} (block ${block!.number}).`);
    }),
  );
