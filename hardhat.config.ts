/**
 * Hardhat 2 configuration for bench-bounty.
 *
 * Offline compiler: these machines cannot download solc, so the
 * TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD subtask is overridden to hand Hardhat
 * the solc-js build shipped by the pinned `solc` npm package (0.8.28).
 *
 * Networks (SPEC 1.3):
 * - `hardhat`: the local Base profile, chain id 8453. With `BASE_RPC_URL` set it
 *   forks real Base instead (`BASE_FORK_BLOCK` pins a block).
 * - `localhost`: a `hardhat node` started on `LOCAL_RPC_URL` (default 127.0.0.1:8545).
 * - `base` / `baseSepolia`: `BASE_RPC_URL` / `BASE_SEPOLIA_RPC_URL` with `DEPLOYER_PRIVATE_KEY`.
 */
import { subtask } from "hardhat/config";
import { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } from "hardhat/builtin-tasks/task-names";
import type { HardhatUserConfig } from "hardhat/config";
import "@nomicfoundation/hardhat-toolbox";
import "@nomicfoundation/hardhat-ignition-ethers";
// The CREATE2 constants of @bench-bounty/contracts, read as plain JSON: the config loads before anything is built.
import create2 from "./packages/contracts/create2.json";

export const SOLC_VERSION = "0.8.28";

subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD).setAction(async (args: { solcVersion: string }) => {
  if (args.solcVersion !== SOLC_VERSION) {
    throw new Error(
      `Only solc ${SOLC_VERSION} is available offline (the solc npm package); asked for ${args.solcVersion}`,
    );
  }
  return {
    compilerPath: require.resolve("solc/soljson.js"),
    isSolcJs: true,
    version: SOLC_VERSION,
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a JSON file outside the config's imports, read only when Hardhat asks for the compiler
    longVersion: require("solc/package.json").version,
  };
});

// Tasks (issue 6) register themselves when their folder exists.
try {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional module: a missing deploy/tasks must be catchable, which a static import is not
  require("./deploy/tasks");
} catch (e) {
  if ((e as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND" || !String(e).includes("deploy/tasks"))
    throw e;
}

const forkUrl = process.env.BASE_RPC_URL;

/**
 * DEPLOYER_PRIVATE_KEY as an account of the public networks, when it is one: the one signer-key rule
 * (`privateKeyProblem` of @bench-bounty/contracts: 64 hex characters, `0x` optional, a value in 1..n-1
 * of secp256k1). A key that fails it is left out here, so that a task that signs names the problem
 * (deploy/lib/network.ts, `checkedPrivateKey`) and a read-only task runs without it: in `accounts`,
 * Hardhat's own failure on it read "Cannot reach the base RPC endpoint" (probe16 B-F7). Before the
 * package is built (`hardhat compile` on a fresh clone) only the form is checked.
 */
function deployerAccounts(key: string): string[] {
  let problem: string | null;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- an ESM workspace package, maybe not built yet: loaded lazily (require(esm)), as deploy/lib/packages.ts does
    const { privateKeyProblem } = require("@bench-bounty/contracts") as typeof import("@bench-bounty/contracts");
    problem = privateKeyProblem(key, "optional");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== "MODULE_NOT_FOUND" && code !== "ERR_MODULE_NOT_FOUND") throw e;
    problem = /^(0x)?[0-9a-fA-F]{64}$/.test(key) ? null : "malformed";
  }
  return problem === null ? [key] : [];
}
const accountsFromEnv = deployerAccounts(process.env.DEPLOYER_PRIVATE_KEY ?? "");

const config: HardhatUserConfig = {
  solidity: {
    version: SOLC_VERSION,
    settings: {
      optimizer: { enabled: true, runs: 10_000 },
      evmVersion: "cancun",
    },
  },
  networks: {
    hardhat: {
      chainId: 8453,
      hardfork: "cancun",
      // Hardhat only executes forked blocks of chains whose hardfork history it knows.
      chains: { 8453: { hardforkHistory: { cancun: 0 } } },
      ...(forkUrl
        ? {
            forking: {
              url: forkUrl,
              ...(process.env.BASE_FORK_BLOCK ? { blockNumber: Number(process.env.BASE_FORK_BLOCK) } : {}),
            },
          }
        : {}),
    },
    localhost: {
      url: process.env.LOCAL_RPC_URL ?? "http://127.0.0.1:8545",
      chainId: 8453,
    },
    base: {
      url: process.env.BASE_RPC_URL ?? "",
      chainId: 8453,
      accounts: accountsFromEnv,
    },
    baseSepolia: {
      url: process.env.BASE_SEPOLIA_RPC_URL ?? "",
      chainId: 84532,
      accounts: accountsFromEnv,
    },
  },
  typechain: { outDir: "typechain-types", target: "ethers-v6" },
  // Ignition modules and deployment journals live in deploy/ignition; CREATE2 salt: packages/contracts/create2.json.
  paths: { ignition: "deploy/ignition" },
  ignition: { strategyConfig: { create2: { salt: create2.salt } } },
  gasReporter: { enabled: process.env.REPORT_GAS === "true", offline: true, currency: "USD" },
  mocha: { timeout: 120_000 },
};

export default config;
