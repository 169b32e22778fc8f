/**
 * viem clients over the Hardhat network of a task run (its EIP-1193 provider,
 * so the RPC URL, and on public networks the DEPLOYER_PRIVATE_KEY account,
 * are Hardhat's), for the viem library code (relay.ts).
 */
import type { HardhatRuntimeEnvironment } from "hardhat/types";
import type { Address, PublicClient } from "viem";
import type { AccountWallet } from "./relay";
import { checkedPrivateKey } from "./network";

type Viem = typeof import("viem");

function viem(): Viem {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded in task actions only (tasks/index.ts)
  return require("viem") as Viem;
}

/** A public client reading through the task's network. */
export function publicClientOf(hre: HardhatRuntimeEnvironment): PublicClient {
  const { createPublicClient, custom } = viem();
  return createPublicClient({ transport: custom(hre.network.provider) }) as PublicClient;
}

/** A wallet of an account Hardhat signs for: a local node's unlocked account, or the DEPLOYER_PRIVATE_KEY account. */
export function hardhatWallet(hre: HardhatRuntimeEnvironment, address: string): AccountWallet {
  const { createWalletClient, custom } = viem();
  return createWalletClient({ account: address as Address, transport: custom(hre.network.provider) });
}

/**
 * A wallet of a private key held in an environment variable (signing stays in this process).
 * @throws TaskError naming the variable when the key is not a private key (never its value)
 */
export function keyWallet(hre: HardhatRuntimeEnvironment, envName: string, key: string): AccountWallet {
  const checked = checkedPrivateKey(envName, key);
  const { createWalletClient, custom } = viem();
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- as viem() above
  const { privateKeyToAccount } = require("viem/accounts") as typeof import("viem/accounts");
  const account = privateKeyToAccount(checked);
  return createWalletClient({ account, transport: custom(hre.network.provider) });
}
