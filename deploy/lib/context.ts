/**
 * What every bench-bounty task needs before touching the chain: the network
 * profile, the environment it requires, the chain id it must report, the
 * contract addresses (address book or the CREATE2 addresses) and the signer.
 * Each check fails with a TaskError before any transaction is sent.
 */
import fs from "node:fs";
import path from "node:path";
import type { HardhatRuntimeEnvironment } from "hardhat/types";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import type { ContractTransactionResponse, Interface, TransactionReceipt } from "ethers";
import type {
  TypedContractEvent,
  TypedDeferredTopicFilter,
  TypedEventLog,
} from "../../typechain-types/common";
import type { AnchorRegistry, BenchmarkBounty, TestUSDC } from "../../typechain-types";
import { TaskError, decodeRevert } from "./errors";
import { expectedAddresses } from "./local-chain";

/**
 * The address book file of @bench-bounty/contracts, filled in by bounty:deploy.
 * `BENCH_BOUNTY_ADDRESS_BOOK` points the tasks at another copy (the deploy tests do).
 */
export const ADDRESS_BOOK_FILE =
  process.env.BENCH_BOUNTY_ADDRESS_BOOK ??
  path.join(__dirname, "..", "..", "packages", "contracts", "deployments.json");

/** A network the tasks run on. */
export interface NetworkProfile {
  name: "base" | "baseSepolia" | "localhost";
  chainId: number;
  /** Key of deployments.json. */
  bookKey: "8453" | "84532" | "local";
  /** Environment variable holding the RPC URL (required except on localhost). */
  rpcEnv: "BASE_RPC_URL" | "BASE_SEPOLIA_RPC_URL" | "LOCAL_RPC_URL";
  /** Block explorer root, or null on a local node. */
  explorer: string | null;
  usdc: string;
}

export const NETWORKS: Record<NetworkProfile["name"], NetworkProfile> = {
  base: {
    name: "base",
    chainId: 8453,
    bookKey: "8453",
    rpcEnv: "BASE_RPC_URL",
    explorer: "https://basescan.org",
    usdc: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  },
  baseSepolia: {
    name: "baseSepolia",
    chainId: 84532,
    bookKey: "84532",
    rpcEnv: "BASE_SEPOLIA_RPC_URL",
    explorer: "https://sepolia.basescan.org",
    usdc: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
  },
  localhost: {
    name: "localhost",
    chainId: 8453,
    bookKey: "local",
    rpcEnv: "LOCAL_RPC_URL",
    explorer: null,
    usdc: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  },
};

/** One entry of deployments.json. */
export interface AddressBookEntry {
  network: string;
  benchmarkBounty: string | null;
  anchorRegistry: string | null;
  usdc: string;
  startBlock: number | null;
}

export function readAddressBook(): Record<string, AddressBookEntry> {
  return JSON.parse(fs.readFileSync(ADDRESS_BOOK_FILE, "utf8")) as Record<string, AddressBookEntry>;
}

/** Writes one entry of deployments.json atomically (temp file + rename), keeping the others. */
export function writeAddressBookEntry(key: string, entry: AddressBookEntry): void {
  const book = readAddressBook();
  book[key] = entry;
  const tmp = `${ADDRESS_BOOK_FILE}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(book, null, 2) + "\n");
  fs.renameSync(tmp, ADDRESS_BOOK_FILE);
}

/**
 * The network profile of `--network`, after checking its environment.
 * @throws TaskError on the in-process `hardhat` network, an unknown network, or a missing RPC URL / key
 */
export function networkProfile(
  hre: HardhatRuntimeEnvironment,
  opts: { needSigner: boolean },
): NetworkProfile {
  const name = hre.network.name;
  if (name === "hardhat") {
    throw new TaskError(
      "This task needs a live chain: pass --network localhost (with `npx hardhat node` running), --network baseSepolia or --network base.",
    );
  }
  const profile = NETWORKS[name as NetworkProfile["name"]];
  if (!profile) throw new TaskError(`Unknown network "${name}": use localhost, baseSepolia or base.`);
  if (profile.name !== "localhost" && !process.env[profile.rpcEnv]) {
    throw new TaskError(
      `${profile.rpcEnv} is not set: export ${profile.rpcEnv}=<https RPC URL of ${profile.name}> and run again.`,
    );
  }
  if (opts.needSigner && profile.name !== "localhost") {
    const key = process.env.DEPLOYER_PRIVATE_KEY;
    if (!key) {
      throw new TaskError(
        `DEPLOYER_PRIVATE_KEY is not set: export the private key (0x + 64 hex) of the account that signs on ${profile.name}.`,
      );
    }
    if (!/^(0x)?[0-9a-fA-F]{64}$/.test(key)) {
      throw new TaskError("DEPLOYER_PRIVATE_KEY is malformed: it must be 0x followed by 64 hex characters.");
    }
  }
  return profile;
}

/**
 * Checks that the RPC endpoint serves the chain id of the network profile.
 * @throws TaskError naming both chain ids, or when the endpoint is unreachable
 */
export async function checkChainId(hre: HardhatRuntimeEnvironment, profile: NetworkProfile): Promise<void> {
  let actual: number;
  try {
    actual = Number(await hre.network.provider.request({ method: "eth_chainId" }));
  } catch (e) {
    const msg = (e as Error).message ?? String(e);
    const m = /connected to a chain with id (\d+)/i.exec(msg);
    if (m) actual = Number(m[1]);
    else
      throw new TaskError(
        `Cannot reach the ${profile.name} RPC endpoint (${profile.rpcEnv}): ${msg.split("\n")[0]}`,
      );
  }
  if (actual !== profile.chainId) {
    throw new TaskError(
      `Wrong chain: --network ${profile.name} expects chain id ${profile.chainId} but ${profile.rpcEnv} serves chain id ${actual}. Point ${profile.rpcEnv} at ${profile.name}.`,
    );
  }
}

/** Contracts and signer of a task run. */
export interface TaskContext {
  hre: HardhatRuntimeEnvironment;
  profile: NetworkProfile;
  signer: HardhatEthersSigner;
  bounty: BenchmarkBounty;
  registry: AnchorRegistry;
  bountyAddress: string;
  registryAddress: string;
  /** Interfaces that may explain a revert (bounty, registry, test USDC). */
  ifaces: Interface[];
  /** First block to read logs from (address book startBlock, else 0). */
  startBlock: number;
}

/**
 * Resolves network, chain id, contract addresses and signer.
 *
 * Addresses come from the address book; when its entry is empty, from the
 * CREATE2 addresses of the current build (the same on every chain), provided
 * code is deployed there. `from` picks one of the available signers (the node's
 * accounts on localhost; the DEPLOYER_PRIVATE_KEY account elsewhere).
 */
export async function taskContext(
  hre: HardhatRuntimeEnvironment,
  opts: { needSigner: boolean; from?: string },
): Promise<TaskContext> {
  const profile = networkProfile(hre, opts);
  await checkChainId(hre, profile);
  const { bountyAddress, registryAddress, startBlock } = await resolveAddresses(hre, profile);
  const signer = await pickSigner(hre, profile, opts.from);
  const bounty = (await hre.ethers.getContractAt(
    "BenchmarkBounty",
    bountyAddress,
    signer,
  )) as unknown as BenchmarkBounty;
  const registry = (await hre.ethers.getContractAt(
    "AnchorRegistry",
    registryAddress,
    signer,
  )) as unknown as AnchorRegistry;
  const usdcIface = (await hre.ethers.getContractAt("TestUSDC", profile.usdc)).interface;
  return {
    hre,
    profile,
    signer,
    bounty,
    registry,
    bountyAddress,
    registryAddress,
    ifaces: [bounty.interface, registry.interface, usdcIface],
    startBlock,
  };
}

const hasCode = async (hre: HardhatRuntimeEnvironment, address: string) =>
  (await hre.ethers.provider.getCode(address)) !== "0x";

/**
 * The contract addresses of a network: its address book entry; when the entry
 * is empty, the CREATE2 addresses of the current build (the same on every
 * chain). On localhost only, an entry without code (a node restarted since
 * `bounty:deploy`, or contracts rebuilt) also falls back to the CREATE2
 * addresses. Code must be deployed at the result.
 * @throws TaskError when a contract is missing
 */
async function resolveAddresses(
  hre: HardhatRuntimeEnvironment,
  profile: NetworkProfile,
): Promise<{ bountyAddress: string; registryAddress: string; startBlock: number }> {
  const book = readAddressBook()[profile.bookKey];
  const expected = await expectedAddresses(hre);
  let bountyAddress = book?.benchmarkBounty ?? expected.benchmarkBounty;
  let registryAddress = book?.anchorRegistry ?? expected.anchorRegistry;
  let startBlock = book?.benchmarkBounty ? (book.startBlock ?? 0) : 0;
  if (
    profile.name === "localhost" &&
    book?.benchmarkBounty &&
    !((await hasCode(hre, bountyAddress)) && (await hasCode(hre, registryAddress)))
  ) {
    bountyAddress = expected.benchmarkBounty;
    registryAddress = expected.anchorRegistry;
    startBlock = 0;
  }
  for (const [what, address] of [
    ["BenchmarkBounty", bountyAddress],
    ["AnchorRegistry", registryAddress],
  ] as const) {
    if (!(await hasCode(hre, address))) {
      throw new TaskError(
        `No ${what} at ${address} on ${profile.name}: deploy first with \`npx hardhat bounty:deploy --network ${profile.name}\`.`,
      );
    }
  }
  return { bountyAddress, registryAddress, startBlock };
}

async function pickSigner(
  hre: HardhatRuntimeEnvironment,
  profile: NetworkProfile,
  from: string | undefined,
): Promise<HardhatEthersSigner> {
  const signers = await hre.ethers.getSigners();
  if (signers.length === 0) {
    throw new TaskError(`No signing account on ${profile.name}: export DEPLOYER_PRIVATE_KEY.`);
  }
  if (from === undefined) return signers[0]!;
  if (!hre.ethers.isAddress(from)) throw new TaskError(`--from is not an address: ${from}`);
  const match = signers.find((s) => s.address.toLowerCase() === from.toLowerCase());
  if (!match) {
    throw new TaskError(
      profile.name === "localhost"
        ? `--from ${from} is not one of the node's accounts.`
        : `--from ${from} is not the DEPLOYER_PRIVATE_KEY account (${signers[0]!.address}).`,
    );
  }
  return match;
}

/** An ERC-20 (with the USDC surface where present) at `address`, connected to the signer. */
export async function tokenAt(ctx: TaskContext, address: string): Promise<TestUSDC> {
  if ((await ctx.hre.ethers.provider.getCode(address)) === "0x") {
    throw new TaskError(`No token contract at ${address} on ${ctx.profile.name}.`);
  }
  return (await ctx.hre.ethers.getContractAt("TestUSDC", address, ctx.signer)) as unknown as TestUSDC;
}

/** Explorer link of a transaction, or a note on a local node. */
export function txLink(profile: NetworkProfile, hash: string): string {
  return profile.explorer ? `${profile.explorer}/tx/${hash}` : "(local node: no explorer)";
}

/**
 * Simulates a contract call (so a revert is decoded before anything is sent),
 * then sends it and waits for the receipt.
 * @param simulate a `staticCall` of the same call
 * @param send the call itself
 * @throws TaskError with the decoded custom error and what to do
 */
export async function simulateAndSend(
  ctx: TaskContext,
  action: string,
  simulate: () => Promise<unknown>,
  send: () => Promise<ContractTransactionResponse>,
): Promise<TransactionReceipt> {
  try {
    await simulate();
  } catch (e) {
    throw decodeRevert(e, ctx.ifaces, action);
  }
  let receipt: TransactionReceipt | null;
  try {
    const tx = await send();
    console.log(`  sent ${action}: ${tx.hash}`);
    receipt = await tx.wait();
  } catch (e) {
    throw decodeRevert(e, ctx.ifaces, action);
  }
  if (!receipt || receipt.status !== 1)
    throw new TaskError(`${action} failed on-chain (tx ${receipt?.hash ?? "?"}).`);
  return receipt;
}

/** Latest block timestamp (the chain's "now", which a local node may have moved). */
export async function chainNow(ctx: TaskContext): Promise<bigint> {
  const block = await ctx.hre.ethers.provider.getBlock("latest");
  if (!block) throw new TaskError("Cannot read the latest block.");
  return BigInt(block.timestamp);
}

/**
 * Logs of one event filter from the deployment block to the head, read in
 * windows of LOG_BLOCK_RANGE blocks (default 10000; public RPCs cap eth_getLogs ranges).
 */
export async function queryLogs<E extends TypedContractEvent>(
  ctx: TaskContext,
  contract: {
    queryFilter(f: TypedDeferredTopicFilter<E>, from?: number, to?: number): Promise<TypedEventLog<E>[]>;
  },
  filter: TypedDeferredTopicFilter<E>,
): Promise<TypedEventLog<E>[]> {
  const head = await ctx.hre.ethers.provider.getBlockNumber();
  const range = Number(process.env.LOG_BLOCK_RANGE ?? "10000");
  if (!Number.isSafeInteger(range) || range < 1)
    throw new TaskError("LOG_BLOCK_RANGE must be a positive integer.");
  const out: TypedEventLog<E>[] = [];
  for (let from = ctx.startBlock; from <= head; from += range) {
    out.push(...(await contract.queryFilter(filter, from, Math.min(head, from + range - 1))));
  }
  return out;
}
