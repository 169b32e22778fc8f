/**
 * The platform's commands for the `bench-bounty` CLI (`registerPlatformCommands`) and the package's own
 * bin `bench-bounty-platform`.
 *
 * Every command works on one store: `--store DIR` (SQLite; env `BENCH_BOUNTY_STORE`, default
 * `./.bench-bounty`), or the PostgreSQL database of `DATABASE_URL=postgresql://...` when it is set
 * (`--store` then holds only the local runner's checkpoints; see `openStore`).
 * Chain access is enabled by `--rpc-url` (env `BENCH_BOUNTY_RPC_URL`) with `--chain-id`,
 * `--bounty-contract`, `--anchor-registry`, `--usdc` (env `BENCH_BOUNTY_CHAIN_ID`,
 * `BENCH_BOUNTY_BOUNTY_CONTRACT`, `BENCH_BOUNTY_ANCHOR_REGISTRY`, `BENCH_BOUNTY_USDC`; addresses default
 * to the address book of `@bench-bounty/contracts`) and the platform key in `BENCH_BOUNTY_PRIVATE_KEY`
 * (never a flag: flags leak into process lists). The author's key for `lock` is
 * `BENCH_BOUNTY_AUTHOR_KEY`.
 *
 * Output: JSON on stdout (one document), progress and diagnostics on stderr. A refusal prints
 * `error: <message>` and its machine-readable details on stderr and exits 1; an interrupted run exits 130.
 */
import type { Command } from "commander";
import { refuseRepeatedOptions } from "@bench-bounty/verifier/cli";
import { registerAccountCommands } from "./cli/account-commands.js";
import { registerAgentCommands } from "./cli/agent-commands.js";
import { registerBoardCommands } from "./cli/board-commands.js";
import { registerBountyCommands } from "./cli/bounty-commands.js";
import { registerDatasetCommands } from "./cli/dataset-commands.js";
import { registerOperatorCommands } from "./cli/operator-commands.js";
import { registerRunCommands, type PlatformCommandHooks } from "./cli/run-commands.js";

export {
  chainConfig,
  isLoopbackHost,
  openPlatform,
  openStore,
  parseUsdcAmount,
  SERVE_API_KEY_REFUSAL,
  storeOptions,
  type OpenPlatformOptions,
  type StoreOpts,
} from "./cli/common.js";
export type { PlatformCommandHooks } from "./cli/run-commands.js";
export type { RemoteAccountKeys } from "./cli/account-commands.js";

/**
 * Adds the platform commands to a commander program, one module per command group under `cli/`:
 * `account`, `validate`, `publish`, `agent`, `lock`, `attach`, `run`, `resume`, `leaderboard`, `show`,
 * `anchor`, `close`, `award`, `evidence` (`serve` is added by the `bench-bounty` bin of packages/cli). The commands parse and print; the library decides.
 * A single-valued option given twice (`lock --pool 1 --pool 100`) is refused, naming it and both values
 * (`refuseRepeatedOptions` of `@bench-bounty/verifier/cli`: the one rule of every bench-bounty program);
 * variadic options (`--bucket`, `--time-bound`) and `--agent-env` repeat.
 */
export function registerPlatformCommands(program: Command, hooks: PlatformCommandHooks = {}): Command {
  registerAccountCommands(program, hooks);
  registerDatasetCommands(program);
  registerAgentCommands(program);
  registerBountyCommands(program);
  registerRunCommands(program, hooks);
  registerBoardCommands(program);
  registerOperatorCommands(program);
  return refuseRepeatedOptions(program);
}
