#!/usr/bin/env node
/**
 * `bench-bounty-verify`: the verifier on its own.
 *   bench-bounty-verify [verify] <pack|-|url> [--rpc URL] [--indexer URL] [--policy offline|onchain|full] [--json] [--out FILE]
 *   bench-bounty-verify verify-receipt EXECUTE.json --jwks FILE|URL [--input FILE --output FILE] [--rpc URL]
 * @packageDocumentation
 */
import { Command } from "commander";
import { registerVerifierCommands, reportError } from "./cli.js";
import { VERIFIER_VERSION } from "./version.js";

const program = new Command("bench-bounty-verify")
  .description("verify bench-bounty awards and compute receipts without trusting the platform")
  .version(VERIFIER_VERSION);
registerVerifierCommands(program, { verifyIsDefault: true });
program.parseAsync(process.argv).catch((e: unknown) => {
  process.exitCode = reportError(e, { stderr: process.stderr }, "bench-bounty-verify");
});
