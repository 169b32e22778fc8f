#!/usr/bin/env node
/**
 * `bench-bounty-platform`: the platform's own CLI (the same commands the `bench-bounty` bin composes).
 */
import { Command } from "commander";
import { registerPlatformCommands } from "./cli.js";

const program = new Command("bench-bounty-platform").description(
  "bench-bounty platform: datasets, benchmarks, runs, award, evidence door",
);
registerPlatformCommands(program);
await program.parseAsync(process.argv);
