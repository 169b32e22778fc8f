#!/usr/bin/env node
/**
 * `bench-bounty`: one CLI for everyone who touches a benchmark prize.
 *
 * - platform commands (author / platform side): `validate`, `publish`, `run`, `resume`,
 *   `leaderboard`, `award`, ... (from `@bench-bounty/platform/cli`);
 * - `serve`: the platform as a network service (REST, MCP, evidence door; `@bench-bounty/server`);
 * - verifier commands (the cold stranger's side): `verify`, `verify-receipt`
 *   (from `@bench-bounty/verifier/cli`).
 *
 * The on-chain scripts of authors and winners (lock, award, claim, reclaim,
 * anchor) are Hardhat tasks: see `deploy/README.md`.
 *
 * @packageDocumentation
 */
import { Command } from "commander";
import { registerPlatformCommands } from "@bench-bounty/platform/cli";
import { registerVerifierCommands, reportError } from "@bench-bounty/verifier/cli";
import { HttpRunBackend } from "./remote.js";
import { registerServeCommand } from "./serve.js";

const program = new Command("bench-bounty").description(
  "on-chain USDC prizes for AI-agent benchmarks: publish, run, award, and verify",
);
registerPlatformCommands(program, {
  remoteBackend: (server, apiKey, checkpointDir) => new HttpRunBackend(server, apiKey, checkpointDir),
});
registerServeCommand(program);
registerVerifierCommands(program);
program.parseAsync(process.argv).catch((e: unknown) => {
  process.exitCode = reportError(e, { stderr: process.stderr }, "bench-bounty");
});
