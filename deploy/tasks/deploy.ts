/**
 * `bounty:deploy`: deploys BenchmarkBounty and AnchorRegistry with the Ignition
 * module through CreateX (CREATE2, one salt), so both have the same addresses
 * on Base, Base Sepolia and a local node, and records them: Base and Base Sepolia
 * in the tracked packages/contracts/deployments.json, a local node in the
 * untracked deploy/.local/deployments.json (deploy/lib/address-book.ts). `--dry-run` prints the addresses and the
 * gas without sending anything; a real run prints the same plan first.
 */
import fs from "node:fs";
import path from "node:path";
import { task } from "hardhat/config";
import { withFromParam } from "../lib/context";
import type { HardhatRuntimeEnvironment } from "hardhat/types";
import { TaskError, decodeRevert, userAction } from "../lib/errors";
import { checkChainId, networkProfile, type NetworkProfile } from "../lib/network";
import { readEntry, writeEntry } from "../lib/address-book";
import { contracts } from "../lib/packages";

/** Ignition deployment ids: one journal per network (Base and a local node share chain id 8453). */
const DEPLOYMENT_IDS: Record<NetworkProfile["name"], string> = {
  base: "base",
  baseSepolia: "baseSepolia",
  localhost: "local",
};

/** The first block at which `address` has code (binary search over eth_getCode). */
async function deploymentBlock(hre: HardhatRuntimeEnvironment, address: string): Promise<number> {
  let hi = await hre.ethers.provider.getBlockNumber();
  let lo = 0;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if ((await hre.ethers.provider.getCode(address, mid)) === "0x") lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

withFromParam(
  task(
    "bounty:deploy",
    "Deploy BenchmarkBounty and AnchorRegistry with CREATE2 (same addresses on every chain)",
  ),
  "Deployer",
)
  .addFlag("dryRun", "Print the addresses and gas, send nothing")
  .setAction(
    userAction(async (args: { dryRun: boolean; from?: string }, hre) => {
      const profile = networkProfile(hre, { needSigner: !args.dryRun });
      await checkChainId(hre, profile);
      const { ethers } = hre;
      const { CREATEX_ABI, CREATEX_ADDRESS, DEPLOYMENT_SALT } = contracts();
      const { expectedAddresses, placeCreateX, deployWithIgnition } = await import("../lib/local-chain");
      const expected = await expectedAddresses(hre);
      const signers = await ethers.getSigners();
      const deployer = args.from
        ? signers.find((s) => s.address.toLowerCase() === args.from!.toLowerCase())
        : signers[0];
      if (args.from && !deployer)
        throw new TaskError(`--from ${args.from} is not an available account on ${profile.name}.`);

      const hasCreateX = (await ethers.provider.getCode(CREATEX_ADDRESS)) !== "0x";
      if (!hasCreateX && profile.name !== "localhost") {
        throw new TaskError(
          `The CreateX factory (${CREATEX_ADDRESS}) is not deployed on ${profile.name}: the CREATE2 deployment needs it.`,
        );
      }
      const fee = await ethers.provider.getFeeData();
      const gasPrice = fee.maxFeePerGas ?? fee.gasPrice ?? 0n;
      console.log(
        `Network ${profile.name} (chain id ${profile.chainId}), deployer ${deployer?.address ?? "(none: dry run)"}`,
      );
      console.log(`CREATE2 via CreateX ${CREATEX_ADDRESS}, salt ${DEPLOYMENT_SALT}`);
      if (!hasCreateX)
        console.log("CreateX is not on this local node yet: it is placed first (its keyless deployment).");

      let totalGas = 0n;
      const missing: string[] = [];
      for (const name of ["BenchmarkBounty", "AnchorRegistry"] as const) {
        const address = name === "BenchmarkBounty" ? expected.benchmarkBounty : expected.anchorRegistry;
        const deployed = (await ethers.provider.getCode(address)) !== "0x";
        if (deployed) {
          console.log(`  ${name.padEnd(16)} ${address}  already deployed`);
          continue;
        }
        missing.push(name);
        const artifact = await hre.artifacts.readArtifact(name);
        let gas: bigint;
        try {
          gas = hasCreateX
            ? await ethers.provider.estimateGas({
                from: deployer?.address,
                to: CREATEX_ADDRESS,
                data: new ethers.Interface(CREATEX_ABI).encodeFunctionData("deployCreate2", [
                  DEPLOYMENT_SALT,
                  artifact.bytecode,
                ]),
              })
            : await ethers.provider.estimateGas({ from: deployer?.address, data: artifact.bytecode });
        } catch (e) {
          throw decodeRevert(e, [], `Estimating the deployment of ${name}`);
        }
        totalGas += gas;
        const cost = ethers.formatEther(gas * gasPrice);
        console.log(
          `  ${name.padEnd(16)} ${address}  gas ${gas}${hasCreateX ? "" : " (plain creation estimate)"}, ~${cost} ETH`,
        );
      }
      if (missing.length > 0) {
        console.log(
          `Total gas ${totalGas} at ${ethers.formatUnits(gasPrice, "gwei")} gwei max fee: ~${ethers.formatEther(totalGas * gasPrice)} ETH`,
        );
      }
      if (args.dryRun) {
        console.log("Dry run: nothing sent.");
        return;
      }
      if (!deployer)
        throw new TaskError(`No signing account on ${profile.name}: export DEPLOYER_PRIVATE_KEY.`);

      if (missing.length > 0) {
        if (deployer && (await ethers.provider.getBalance(deployer.address)) < totalGas * gasPrice) {
          throw new TaskError(
            `${deployer.address} holds ${ethers.formatEther(await ethers.provider.getBalance(deployer.address))} ETH, less than the ~${ethers.formatEther(totalGas * gasPrice)} ETH of gas needed.`,
          );
        }
        const deploymentId = DEPLOYMENT_IDS[profile.name];
        if (profile.name === "localhost") {
          await placeCreateX(hre);
          // A local node forgets everything on restart: a journal of an earlier node would not match.
          fs.rmSync(path.join(hre.config.paths.ignition, "deployments", deploymentId), {
            recursive: true,
            force: true,
          });
        }
        console.log(`Deploying ${missing.join(" and ")} with Ignition (deployment id "${deploymentId}")...`);
        const result = await deployWithIgnition(hre, { deploymentId, defaultSender: deployer.address });
        if (
          result.benchmarkBounty.toLowerCase() !== expected.benchmarkBounty.toLowerCase() ||
          result.anchorRegistry.toLowerCase() !== expected.anchorRegistry.toLowerCase()
        ) {
          throw new TaskError(
            `Ignition deployed to ${result.benchmarkBounty} / ${result.anchorRegistry}, not the CREATE2 addresses ${expected.benchmarkBounty} / ${expected.anchorRegistry}: the address book was NOT updated.`,
          );
        }
      } else {
        console.log("Both contracts are already deployed at their CREATE2 addresses: nothing to send.");
      }

      const startBlock = Math.min(
        await deploymentBlock(hre, expected.benchmarkBounty),
        await deploymentBlock(hre, expected.anchorRegistry),
      );
      const previous = readEntry(profile);
      const file = writeEntry(profile, {
        network: profile.name,
        benchmarkBounty: expected.benchmarkBounty as `0x${string}`,
        anchorRegistry: expected.anchorRegistry as `0x${string}`,
        usdc: (previous?.usdc ?? profile.usdc) as `0x${string}`,
        startBlock,
      });
      const relative = path.relative(process.cwd(), file);
      const where = relative.startsWith("..") || path.isAbsolute(relative) ? file : relative;
      console.log(
        profile.bookKey === "local"
          ? `Recorded in ${where} (the local node's deployment; untracked, never committed):`
          : `Recorded in ${where} ["${profile.bookKey}"] (commit it):`,
      );
      console.log(`  BenchmarkBounty  ${expected.benchmarkBounty}`);
      console.log(`  AnchorRegistry   ${expected.anchorRegistry}`);
      console.log(`  startBlock       ${startBlock}`);
      if (profile.explorer) console.log(`  ${profile.explorer}/address/${expected.benchmarkBounty}`);
    }),
  );
