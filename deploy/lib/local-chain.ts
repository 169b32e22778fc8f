/**
 * The local Base profile (SPEC 1.3) on a Hardhat network with chain id 8453:
 * the CreateX factory, the test USDC at the Base USDC address, and the
 * bench-bounty contracts deployed with the Ignition module.
 */
import path from "node:path";
import type { HardhatRuntimeEnvironment } from "hardhat/types";
import { contracts } from "./packages";
/** Signer of CreateX's keyless (pre-EIP-155) deployment transaction. */
const CREATEX_PRESIGNED_DEPLOYER = "0xeD456e05CaAb11d66C4c797dD6c1D6f9A7F352b5";

type Hex = `0x${string}`;

async function rpc<T>(hre: HardhatRuntimeEnvironment, method: string, params: unknown[] = []): Promise<T> {
  return (await hre.network.provider.request({ method, params })) as T;
}

/**
 * Loads the presigned CreateX deployment transaction that Hardhat Ignition ships
 * (its create2 strategy only sends it itself on chain id 31337).
 */
function createXPresignedTx(): Hex {
  const ignitionDir = path.dirname(require.resolve("@nomicfoundation/hardhat-ignition"));
  const coreEntry = require.resolve("@nomicfoundation/ignition-core", { paths: [ignitionDir] });
  const artifactFile = path.join(
    path.dirname(coreEntry),
    "internal",
    "execution",
    "strategy",
    "createx-artifact.js",
  );
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS artifact at a path resolved at run time
  const { presignedTx } = require(artifactFile) as { presignedTx: Hex };
  return presignedTx;
}

/**
 * Puts the CreateX factory at its canonical address on a local Hardhat chain by
 * replaying its keyless deployment transaction (the same code as on Base).
 * No-op when the code is already there.
 */
export async function placeCreateX(hre: HardhatRuntimeEnvironment): Promise<void> {
  const { CREATEX_ADDRESS } = contracts();
  const existing = await rpc<Hex>(hre, "eth_getCode", [CREATEX_ADDRESS, "latest"]);
  if (existing !== "0x") return;
  await rpc(hre, "hardhat_setBalance", [CREATEX_PRESIGNED_DEPLOYER, "0x58d15e176280000"]); // 0.4 ETH
  const txHash = await rpc<Hex>(hre, "eth_sendRawTransaction", [createXPresignedTx()]);
  const receipt = await rpc<{ contractAddress: string | null; status: string } | null>(
    hre,
    "eth_getTransactionReceipt",
    [txHash],
  );
  if (
    receipt === null ||
    receipt.status !== "0x1" ||
    receipt.contractAddress?.toLowerCase() !== CREATEX_ADDRESS.toLowerCase()
  ) {
    throw new Error(`placing CreateX failed (tx ${txHash}); is the node automining?`);
  }
}

/**
 * Deploys `TestUSDC` (contracts/test) normally, then copies its runtime code
 * (immutables filled in) and its first 64 storage slots (name, symbol, owner,
 * whatever the constructor wrote) to the Base USDC address with
 * `hardhat_setCode` / `hardhat_setStorageAt`, so scripts use the real address.
 * Returns the Base USDC address.
 */
export async function placeTestUsdc(hre: HardhatRuntimeEnvironment): Promise<string> {
  const { BASE_USDC_ADDRESS } = contracts();
  const factory = await hre.ethers.getContractFactory("TestUSDC");
  const template = await factory.deploy();
  await template.waitForDeployment();
  const from = await template.getAddress();
  const code = await rpc<Hex>(hre, "eth_getCode", [from, "latest"]);
  await rpc(hre, "hardhat_setCode", [BASE_USDC_ADDRESS, code]);
  for (let slot = 0; slot < 64; slot++) {
    const key = "0x" + slot.toString(16).padStart(64, "0");
    const value = await rpc<Hex>(hre, "eth_getStorageAt", [from, key, "latest"]);
    if (BigInt(value) !== 0n) await rpc(hre, "hardhat_setStorageAt", [BASE_USDC_ADDRESS, key, value]);
  }
  return BASE_USDC_ADDRESS;
}

/**
 * The addresses CreateX gives the two contracts of the current artifacts (both
 * without constructor arguments), by the CREATE2 rule of @bench-bounty/contracts.
 */
export async function expectedAddresses(
  hre: HardhatRuntimeEnvironment,
): Promise<{ benchmarkBounty: string; anchorRegistry: string }> {
  const { deterministicAddress } = contracts();
  const at = async (name: string) =>
    deterministicAddress((await hre.artifacts.readArtifact(name)).bytecode as Hex);
  return { benchmarkBounty: await at("BenchmarkBounty"), anchorRegistry: await at("AnchorRegistry") };
}

/**
 * Deploys BenchmarkBounty and AnchorRegistry with the Ignition module and the
 * create2 strategy, placing CreateX first on a local chain. Returns the
 * addresses and the first block of the deployment.
 */
export async function deployWithIgnition(
  hre: HardhatRuntimeEnvironment,
  opts: { deploymentId?: string; defaultSender?: string } = {},
): Promise<{ benchmarkBounty: string; anchorRegistry: string; startBlock: number }> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: the Ignition module needs a loaded Hardhat runtime, so it is read only when deploying
  const BenchBountyModule = require("../ignition/modules/BenchBounty").default;
  const before = await hre.ethers.provider.getBlockNumber();
  const result = await hre.ignition.deploy(BenchBountyModule, {
    strategy: "create2",
    strategyConfig: { salt: contracts().DEPLOYMENT_SALT },
    ...(opts.deploymentId ? { deploymentId: opts.deploymentId } : {}),
    ...(opts.defaultSender ? { defaultSender: opts.defaultSender } : {}),
  });
  return {
    benchmarkBounty: await result.benchmarkBounty.getAddress(),
    anchorRegistry: await result.anchorRegistry.getAddress(),
    startBlock: before + 1,
  };
}
