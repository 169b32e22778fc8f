/**
 * The `bench-bounty` program: the platform commands, `serve` and the verifier commands on one
 * commander program. The bin (`index.ts`) parses `process.argv` with it; the crash tests' entry
 * (`packages/server/test/fixtures/fault-serve.mjs`) builds it with fault hooks.
 */
import { Command } from "commander";
import type { FaultHooks } from "@bench-bounty/platform";
import { registerPlatformCommands } from "@bench-bounty/platform/cli";
import { registerVerifierCommands } from "@bench-bounty/verifier/cli";
import { HttpRunBackend } from "./remote.js";
import { registerServeCommand } from "./serve.js";

/** Options of {@link buildProgram}. */
export interface ProgramOptions {
  /**
   * Test only: fault-injection hooks handed to the platform `serve` opens (crash tests make the
   * process kill itself at a named step). The `bench-bounty` bin never sets them; a hook can only
   * stop the process, never change what an award pays or to whom.
   */
  faults?: FaultHooks;
}

/** The whole `bench-bounty` command line. */
export function buildProgram(opts: ProgramOptions = {}): Command {
  const program = new Command("bench-bounty").description(
    "on-chain USDC prizes for AI-agent benchmarks: publish, run, award, and verify",
  );
  registerPlatformCommands(program, {
    remoteBackend: (server, apiKey, checkpointDir, privatePaths) =>
      new HttpRunBackend(server, apiKey, checkpointDir, privatePaths),
  });
  registerServeCommand(program, opts.faults ? { faults: opts.faults } : {});
  registerVerifierCommands(program);
  return program;
}
