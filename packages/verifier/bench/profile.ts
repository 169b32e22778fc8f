/**
 * One off-chain verification of the cached benchmark pack, for a CPU profile (a script,
 * not a test): run `npx pnpm@12.4.2 bench:verifier` once so the pack is cached, then
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profile.ts [tasks=100000]
 *   npx tsx ../evidence/bench/profile-summary.ts /tmp/prof/<file>.cpuprofile
 *
 * (`--trace-gc` instead of `--cpu-prof` lists the collections). Prints CPU ms of the run.
 */
import { readFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { verifyPack } from "../src/index.js";

const tasks = process.argv[2] ?? "100000";
const bytes = readFileSync(join(os.tmpdir(), "bench-bounty-verifier-bench-v1", `pack-${tasks}.json`));
const c0 = process.cpuUsage();
const report = await verifyPack({ source: bytes });
const c = process.cpuUsage(c0);
console.log(
  `verify ${tasks} tasks: ${((c.user + c.system) / 1000).toFixed(0)} ms cpu, policy met: ${String(report.policy_met)}`,
);
