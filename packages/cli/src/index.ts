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
import { readFileSync } from "node:fs";
import { processEnviron } from "@bench-bounty/platform";
import { endOutputQuietlyOnClosedPipe, reportError } from "@bench-bounty/verifier/cli";
import { argvEncodingProblem, buildProgram, refuseEnvironmentNotUtf8 } from "./program.js";

// Node decodes argv lossily (a byte that is not UTF-8 becomes U+FFFD): the raw bytes, where Linux
// shows them, are checked first, so `--title $'T\xffx'` is refused naming it (probe26 B-F6)
const cmdline = (() => {
  try {
    return readFileSync("/proc/self/cmdline");
  } catch {
    return null; // not Linux: Node's decoding stands
  }
})();
const argvProblem = cmdline === null ? null : argvEncodingProblem(cmdline, process.argv.slice(2));
if (argvProblem !== null) {
  process.stderr.write(`error: ${argvProblem}\n`);
  process.exit(1);
}

endOutputQuietlyOnClosedPipe(); // `| head`: the rest of the output is dropped, the exit code stays

// the environment forms of the options likewise: `BENCH_BOUNTY_STORE=$'st\xff'` is refused naming the
// variable where its value would be used (probe32 B-F4)
// (not Linux: no raw environment, Node's decoding stands)
refuseEnvironmentNotUtf8(buildProgram(), processEnviron())
  .parseAsync(process.argv)
  .catch((e: unknown) => {
    process.exitCode = reportError(e, { stderr: process.stderr }, "bench-bounty");
  });
