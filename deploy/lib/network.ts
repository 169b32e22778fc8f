/**
 * The networks the tasks run on (SPEC 1.3) and the checks every task makes
 * before touching one: not the in-process `hardhat` network, its RPC URL (and,
 * to sign, the key) set and well formed, the expected chain id served.
 * Chain ids, USDC addresses and explorers come from @bench-bounty/contracts.
 */
import { isAbsolute, relative, resolve } from "node:path";
import type { HardhatRuntimeEnvironment } from "hardhat/types";
import { TaskError } from "./errors";
import { contracts } from "./packages";

/** A network the tasks run on. */
export interface NetworkProfile {
  name: "base" | "baseSepolia" | "localhost";
  chainId: number;
  /** Where its addresses are recorded: a key of deployments.json, or `local` (deploy/lib/address-book.ts). */
  bookKey: "8453" | "84532" | "local";
  /** Environment variable holding the RPC URL (required except on localhost). */
  rpcEnv: "BASE_RPC_URL" | "BASE_SEPOLIA_RPC_URL" | "LOCAL_RPC_URL";
  /** Block explorer root, or null on a local node. */
  explorer: string | null;
  usdc: string;
}

/** The profile of a network name, or undefined for a name the tasks do not run on. */
export function profileOf(name: string): NetworkProfile | undefined {
  const { CHAINS, BASE_USDC_ADDRESS } = contracts();
  switch (name) {
    case "base":
    case "baseSepolia": {
      const chain = CHAINS[name];
      return {
        name,
        chainId: chain.id,
        bookKey: String(chain.id) as "8453" | "84532",
        rpcEnv: name === "base" ? "BASE_RPC_URL" : "BASE_SEPOLIA_RPC_URL",
        explorer: chain.explorer,
        usdc: chain.usdc,
      };
    }
    case "localhost":
      // The local Base profile: Base's chain id, the test USDC placed at Base's USDC address.
      return {
        name,
        chainId: CHAINS.base.id,
        bookKey: "local",
        rpcEnv: "LOCAL_RPC_URL",
        explorer: null,
        usdc: BASE_USDC_ADDRESS,
      };
    default:
      return undefined;
  }
}

/**
 * Checks a private key read from the environment variable `envName` with the contracts' rule
 * (`privateKeyProblem`: 64 hex characters, `0x` optional, a value in 1..n-1 of secp256k1).
 * @returns the key with its `0x`
 * @throws TaskError naming the variable and what is wrong, never the value (probe15 B-F7)
 */
export function checkedPrivateKey(envName: string, key: string): `0x${string}` {
  const problem = contracts().privateKeyProblem(key, "optional");
  if (problem !== null)
    throw new TaskError(`${envName} is not a private key: ${problem} (the value is not printed).`);
  return (key.startsWith("0x") ? key : `0x${key}`) as `0x${string}`;
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
  const profile = profileOf(name);
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
    checkedPrivateKey("DEPLOYER_PRIVATE_KEY", key);
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

/** Explorer link of a transaction, or a note on a local node. */
export function txLink(profile: NetworkProfile, hash: string): string {
  return profile.explorer ? `${profile.explorer}/tx/${hash}` : "(local node: no explorer)";
}

/** The RPC URL of `--network localhost` when `LOCAL_RPC_URL` is not set (hardhat.config.ts). */
export const DEFAULT_LOCAL_RPC_URL = "http://127.0.0.1:8545";

/** Single-quotes a shell word unless it is plain. */
function shellWord(w: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

/**
 * `npx hardhat TASK --network NAME ARGS` as a line that works when pasted. On localhost the node and the
 * local deployment file are this process's environment, so a `LOCAL_RPC_URL` other than
 * {@link DEFAULT_LOCAL_RPC_URL} and a `BENCH_BOUNTY_LOCAL_DEPLOYMENT` go in front (probeD2 F4: the demo's
 * chain listens on a free port, and its printed `check` line reached nothing, or another node on 8545).
 * An RPC URL that is not a bare origin (a provider's key in its userinfo, path or query) is not
 * printed: the line reads `"$LOCAL_RPC_URL"`. On Base the task needs the RPC variable set anyway. Run from
 * outside the clone (`--config`), the line starts with `cd CLONE &&` (probe35 V-F2), and a relative
 * `BENCH_BOUNTY_LOCAL_DEPLOYMENT` is printed absolute.
 */
export function pasteableTask(profile: NetworkProfile, task: string, args: string[]): string {
  const words = ["npx", "hardhat", task, "--network", profile.name, ...args.map(shellWord)];
  const env: string[] = [];
  if (profile.name === "localhost") {
    const rpc = process.env.LOCAL_RPC_URL;
    if (rpc !== undefined && rpc !== DEFAULT_LOCAL_RPC_URL) {
      let origin: string | undefined;
      try {
        const u = new URL(rpc);
        if (u.origin !== "null" && rpc.replace(/\/$/, "") === u.origin) origin = u.origin;
      } catch (e) {
        if (!(e instanceof TypeError)) throw e;
      }
      env.push(`LOCAL_RPC_URL=${origin ?? '"$LOCAL_RPC_URL"'}`);
    }
    const book = process.env.BENCH_BOUNTY_LOCAL_DEPLOYMENT;
    if (book !== undefined) env.push(`BENCH_BOUNTY_LOCAL_DEPLOYMENT=${shellWord(resolve(book))}`);
  }
  // npx finds `hardhat` and Hardhat its config from the working directory: outside the clone npx would ask
  // the public registry for a package named `hardhat` (probe35 V-F2), so the line goes there first
  const cd = insideProject(process.cwd()) ? [] : ["cd", shellWord(PROJECT_ROOT), "&&"];
  return [...cd, ...env, ...words].join(" ");
}

/** The clone's root, where `hardhat.config.ts` and the `hardhat` this process runs are. */
const PROJECT_ROOT = resolve(__dirname, "..", "..");

/** Whether `dir` is the clone's root or under it. */
function insideProject(dir: string): boolean {
  const r = relative(PROJECT_ROOT, dir);
  return r === "" || (!r.startsWith("..") && !isAbsolute(r));
}
