/**
 * The demo's small tools around the chain and its Hardhat tasks: atomic output files, the demo's own
 * address book, running a task and checking where its transaction went, balances and the chain clock.
 */
import { testUsdcAbi } from "@bench-bounty/contracts";
import { REPO_ROOT, type DevChain } from "@bench-bounty/devchain";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Address, Hex } from "viem";
import { withTimeout, type ProcessRegistry } from "./processes.js";

/** Writes a file atomically (temp file in the same directory, then rename): no partial outputs. */
export function writeAtomically(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

/** Milliseconds a Hardhat task may take before it is killed (ts-node start-up plus one transaction). */
const TASK_TIMEOUT_MS = 180_000;

/**
 * Writes the demo's own address book: the repo's `packages/contracts/deployments.json` with its `local`
 * entry replaced by the devchain's deployment, so the Hardhat tasks (`BENCH_BOUNTY_ADDRESS_BOOK`) act on
 * exactly these contracts whatever the repo's book says.
 * @returns the file path
 */
export function writeDemoAddressBook(chain: DevChain, dir: string): string {
  const repoBook = join(REPO_ROOT, "packages", "contracts", "deployments.json");
  const book = JSON.parse(readFileSync(repoBook, "utf8")) as Record<string, unknown>;
  book["local"] = {
    network: "localhost",
    benchmarkBounty: chain.contracts.benchmarkBounty,
    anchorRegistry: chain.contracts.anchorRegistry,
    usdc: chain.contracts.usdc,
    startBlock: chain.startBlock,
  };
  const file = join(dir, "deployments.json");
  writeFileSync(file, JSON.stringify(book, null, 2) + "\n");
  return file;
}

/**
 * Runs a Hardhat task against the devchain (`--network localhost`, the demo's address book); resolves
 * with its stdout. Its output is shown under the phase, prefixed with `│`.
 * @throws Error with the task's last lines when it exits non-zero or runs past {@link TASK_TIMEOUT_MS}
 */
export async function hardhatTask(
  registry: ProcessRegistry,
  chain: DevChain,
  addressBook: string,
  args: string[],
  note: (line: string) => void,
): Promise<string> {
  const out: string[] = [];
  const child = registry.spawn(
    `hardhat ${args[0]}`,
    join(REPO_ROOT, "node_modules", ".bin", "hardhat"),
    args,
    {
      cwd: REPO_ROOT,
      env: { ...process.env, LOCAL_RPC_URL: chain.rpcUrl, BENCH_BOUNTY_ADDRESS_BOOK: addressBook },
      onLine: (line, stream) => {
        if (stream === "stdout") out.push(line);
        if (line.trim() !== "") note(`│ ${line}`);
      },
    },
  );
  let code: number | string;
  try {
    code = await withTimeout(child.exited, TASK_TIMEOUT_MS, `npx hardhat ${args[0]}`);
  } catch (e) {
    await child.stop();
    throw e;
  }
  if (code !== 0) throw new Error(`npx hardhat ${args.join(" ")} exited with ${code}:\n${child.tail()}`);
  return out.join("\n");
}

/**
 * Checks that a transaction sent by a Hardhat task went to the devchain's BenchmarkBounty (a guard on the
 * money path: the tasks find the contracts through the address book the demo hands them).
 * @throws Error naming both addresses
 */
export async function checkTaskTarget(chain: DevChain, hash: Hex, task: string): Promise<void> {
  const tx = await chain.publicClient.getTransaction({ hash });
  if (tx.to?.toLowerCase() !== chain.contracts.benchmarkBounty.toLowerCase()) {
    throw new Error(
      `${task} sent ${hash} to ${tx.to ?? "(contract creation)"}, not to the devchain's BenchmarkBounty ` +
        `${chain.contracts.benchmarkBounty}: check the "local" entry of the address book (BENCH_BOUNTY_ADDRESS_BOOK)`,
    );
  }
}

/** USDC balance (base units) of an account. */
export async function usdcBalance(chain: DevChain, account: Address): Promise<bigint> {
  return chain.publicClient.readContract({
    address: chain.contracts.usdc,
    abi: testUsdcAbi,
    functionName: "balanceOf",
    args: [account],
  });
}

/** Latest block timestamp (unix seconds). */
export async function chainNow(chain: DevChain): Promise<bigint> {
  return (await chain.publicClient.getBlock()).timestamp;
}

/** GET a JSON document; throws naming the URL on a non-2xx answer. */
export async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  const text = await res.text();
  if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}
