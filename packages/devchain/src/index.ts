/**
 * @bench-bounty/devchain: the local Base profile (SPEC 1.3) for tests and demos.
 *
 * `startDevChain()` spawns the repo's `hardhat node` (chain id 8453, from
 * hardhat.config.ts) on 127.0.0.1, and the node itself (deploy/tasks/devchain.ts)
 * places the CreateX factory, the test USDC at the Base USDC address
 * `0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913`, and deploys BenchmarkBounty and
 * AnchorRegistry with the Ignition module (CREATE2, so at the same addresses as
 * on Base). The returned handle carries viem clients and chain helpers; `stop()`
 * kills the node's process group, and the node also exits when its parent dies.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  type Account,
  type Address,
  type Chain,
  type Hash,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
} from "viem";
import { mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { testUsdcAbi } from "@bench-bounty/contracts";
import { killOnExit, signalProcessGroup, stopProcessGroup } from "./processes.js";

/** Hardhat's default mnemonic: the node funds its first 20 accounts with 10,000 ETH each. */
export const HARDHAT_MNEMONIC = "test test test test test test test test test test test junk";
/** Number of funded accounts of a Hardhat node. */
export const ACCOUNT_COUNT = 20;

/** Options of {@link startDevChain}. */
export interface DevChainOptions {
  /** TCP port on 127.0.0.1; default: a free port chosen by the OS. */
  port?: number;
  /** Forward the node's output to this process's stderr (default false). */
  log?: boolean;
  /** Milliseconds to wait for the node and the deployment (default 180000). */
  timeoutMs?: number;
}

/** A funded account of the node (Hardhat's default mnemonic, index i). */
export interface DevChainAccount {
  address: Address;
  privateKey: Hex;
}

/** A running local Base-profile chain. Amounts are base units (`bigint`), times are seconds. */
export interface DevChain {
  /** `http://127.0.0.1:<port>`. */
  rpcUrl: string;
  /** Always 8453 (Base). */
  chainId: number;
  /** viem chain definition of this node (id 8453, its RPC URL). */
  chain: Chain;
  /** The 20 funded accounts; account 0 deployed everything and owns the test USDC. */
  accounts: DevChainAccount[];
  contracts: { benchmarkBounty: Address; anchorRegistry: Address; usdc: Address };
  /** First block of the contract deployment (an indexer's start block). */
  startBlock: number;
  publicClient: PublicClient<Transport, Chain>;
  /** A wallet client signing locally with account `i` (default 0). */
  wallet(i?: number): WalletClient<Transport, Chain, Account>;
  /** Mints test USDC (base units, 6 decimals) to `to`; resolves once mined. */
  mintUsdc(to: Address, amount: bigint): Promise<Hash>;
  /** Moves the clock forward by `seconds` and mines one block, so `block.timestamp` reflects it. */
  increaseTime(seconds: number | bigint): Promise<void>;
  /** Mines `n` blocks (default 1). */
  mine(n?: number): Promise<void>;
  /** `evm_snapshot`: returns an id for {@link DevChain.revert} (each id can be reverted to once). */
  snapshot(): Promise<Hex>;
  /** `evm_revert` to a snapshot id; throws if the node refuses it (unknown or already used). */
  revert(id: Hex): Promise<void>;
  /** Kills the node (its whole process group) and waits for it to exit. Idempotent. */
  stop(): Promise<void>;
}

/** What the node prints once the profile is in place (deploy/tasks/devchain.ts). */
interface ReadyLine {
  rpcUrl: string;
  chainId: number;
  usdc: Address;
  benchmarkBounty: Address;
  anchorRegistry: Address;
  startBlock: number;
}

/** The repo root (packages/devchain/{src,dist}/index.* -> ../../..). */
export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

let cachedAccounts: DevChainAccount[] | undefined;

/** The node's funded accounts, derived from {@link HARDHAT_MNEMONIC} (m/44'/60'/0'/0/i). */
export function devChainAccounts(): DevChainAccount[] {
  if (!cachedAccounts) {
    cachedAccounts = Array.from({ length: ACCOUNT_COUNT }, (_, i) => {
      const account = mnemonicToAccount(HARDHAT_MNEMONIC, { addressIndex: i });
      const key = account.getHdKey().privateKey;
      if (!key) throw new Error(`could not derive the private key of account ${i}`);
      return { address: account.address, privateKey: `0x${Buffer.from(key).toString("hex")}` as Hex };
    });
  }
  return cachedAccounts.map((a) => ({ ...a }));
}

/**
 * Starts a local Base-profile chain.
 * @throws Error naming the cause when the node cannot start (missing artifacts:
 *   run `npx pnpm@12.4.2 build`), fails to deploy, or is not ready within `timeoutMs`.
 */
export async function startDevChain(opts: DevChainOptions = {}): Promise<DevChain> {
  const hardhatBin = `${REPO_ROOT}node_modules/.bin/hardhat`;
  if (!existsSync(hardhatBin))
    throw new Error(`hardhat not found at ${hardhatBin}: run npx pnpm@12.4.2 install`);
  const port = opts.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`devchain: port must be 0..65535, got ${port}`);
  const timeoutMs = opts.timeoutMs ?? 180_000;

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BENCH_BOUNTY_DEVCHAIN: "1",
    BENCH_BOUNTY_DEVCHAIN_PARENT_PID: String(process.pid),
  };
  // The local profile never forks: BASE_RPC_URL would make hardhat.config.ts fork Base.
  delete env.BASE_RPC_URL;
  delete env.BASE_FORK_BLOCK;
  delete env.HARDHAT_NETWORK;

  const child = spawn(hardhatBin, ["node", "--hostname", "127.0.0.1", "--port", String(port)], {
    cwd: REPO_ROOT,
    env,
    detached: true, // own process group, so stop() reaches every descendant
    stdio: ["ignore", "pipe", "pipe"],
  });
  killOnExit(child);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  let ready: ReadyLine;
  try {
    ready = await waitForReady(child, timeoutMs, opts.log ?? false);
  } catch (e) {
    signalProcessGroup(child, "SIGKILL");
    await exited;
    throw e;
  }

  const chain = defineChain({
    id: ready.chainId,
    name: "Base (local devchain)",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [ready.rpcUrl] } },
  });
  const transport = http(ready.rpcUrl);
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 50, cacheTime: 0 });
  const accounts = devChainAccounts();
  const wallets = new Map<number, WalletClient<Transport, Chain, Account>>();
  const wallet = (i = 0): WalletClient<Transport, Chain, Account> => {
    const a = accounts[i];
    if (!a) throw new RangeError(`devchain: account index ${i} outside 0..${accounts.length - 1}`);
    let w = wallets.get(i);
    if (!w) {
      w = createWalletClient({
        chain,
        transport,
        account: privateKeyToAccount(a.privateKey),
        pollingInterval: 50,
      });
      wallets.set(i, w);
    }
    return w;
  };
  const rpc = <T>(method: string, params: unknown[] = []): Promise<T> =>
    publicClient.request({ method, params } as never) as Promise<T>;

  let stopped = false;
  return {
    rpcUrl: ready.rpcUrl,
    chainId: ready.chainId,
    chain,
    accounts,
    contracts: {
      benchmarkBounty: ready.benchmarkBounty,
      anchorRegistry: ready.anchorRegistry,
      usdc: ready.usdc,
    },
    startBlock: ready.startBlock,
    publicClient,
    wallet,
    async mintUsdc(to, amount) {
      const hash = await wallet(0).writeContract({
        address: ready.usdc,
        abi: testUsdcAbi,
        functionName: "mint",
        args: [to, amount],
      });
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error(`devchain: mintUsdc reverted (tx ${hash})`);
      return hash;
    },
    async increaseTime(seconds) {
      await rpc("evm_increaseTime", [Number(seconds)]);
      await rpc("evm_mine");
    },
    async mine(n = 1) {
      // One evm_mine per block: hardhat_mine's batch mining leaves parent hashes that an indexer
      // (Ponder) reads as a reorg, and past the finality depth as an unrecoverable one.
      for (let i = 0; i < n; i++) await rpc("evm_mine", []);
    },
    snapshot: () => rpc<Hex>("evm_snapshot"),
    async revert(id) {
      const ok = await rpc<boolean>("evm_revert", [id]);
      if (!ok) throw new Error(`devchain: evm_revert(${id}) refused (unknown or already used snapshot id)`);
    },
    async stop() {
      if (stopped) return exited;
      stopped = true;
      await stopProcessGroup(child, exited, 3000);
    },
  };
}

/** Reads the node's stdout until the READY (or FAILED) line, keeping the output for error messages. */
function waitForReady(child: ChildProcess, timeoutMs: number, log: boolean): Promise<ReadyLine> {
  return new Promise((resolve, reject) => {
    let out = "";
    let buffered = "";
    let settled = false;
    const tail = () => out.split("\n").slice(-25).join("\n");
    // Keep draining the pipes for the node's whole life (a full pipe would block it); keep only a tail.
    const keep = (text: string) => {
      out = (out + text).slice(-20_000);
    };
    const finish = (err: Error | null, value?: ReadyLine) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(value!);
    };
    const timer = setTimeout(
      () =>
        finish(new Error(`devchain: hardhat node not ready after ${timeoutMs} ms; last output:\n${tail()}`)),
      timeoutMs,
    );
    child.stderr!.on("data", (d: Buffer) => {
      keep(d.toString());
      if (log) process.stderr.write(d);
    });
    child.stdout!.on("data", (d: Buffer) => {
      const text = d.toString();
      keep(text);
      if (log) process.stderr.write(d);
      if (settled) return;
      buffered += text;
      let nl: number;
      while ((nl = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, nl).trim();
        buffered = buffered.slice(nl + 1);
        if (line.startsWith("BENCH_BOUNTY_DEVCHAIN_READY ")) {
          finish(null, JSON.parse(line.slice("BENCH_BOUNTY_DEVCHAIN_READY ".length)) as ReadyLine);
        } else if (line.startsWith("BENCH_BOUNTY_DEVCHAIN_FAILED ")) {
          finish(new Error(`devchain: ${line.slice("BENCH_BOUNTY_DEVCHAIN_FAILED ".length)}`));
        }
      }
    });
    child.once("error", (e) => finish(new Error(`devchain: could not start hardhat node: ${e.message}`)));
    child.once("exit", (code, signal) => {
      // a port another process holds is one line, not the node's stack trace (a newcomer's second demo
      // beside a running one: probe35 newcomer check)
      const inUse = /EADDRINUSE: address already in use (\S+)/.exec(out);
      finish(
        new Error(
          inUse
            ? `devchain: ${inUse[1]} is in use by another process: stop it, or choose another port`
            : `devchain: hardhat node exited (${code ?? signal}) before it was ready; last output:\n${tail()}`,
        ),
      );
    });
  });
}
