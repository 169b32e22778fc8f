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
import { reportError } from "@bench-bounty/verifier/cli";
import { buildProgram } from "./program.js";

buildProgram()
  .parseAsync(process.argv)
  .catch((e: unknown) => {
    process.exitCode = reportError(e, { stderr: process.stderr }, "bench-bounty");
  });
