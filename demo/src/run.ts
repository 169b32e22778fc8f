/**
 * The demo's run: the whole prize lifecycle of one benchmark on a local Base-profile chain, each step
 * through the project's own packages, tasks and network service (no shortcuts around the protocol),
 * one module per phase under `phases/`:
 *
 * 1. `01-start`: `@bench-bounty/devchain` (chain id 8453, test USDC at the Base USDC address, both
 *    contracts from the Ignition module), the Ponder indexer (embedded PGlite) and `bench-bounty serve`
 *    (REST, MCP, the evidence door, the web leaderboard) in its own process;
 * 2. `02-publish`: the author uploads `seattle-weather.csv` and publishes over `POST /api/v1/datasets`
 *    and `/benchmark`; the commitment is anchored;
 * 3. `03-lock`: the author locks a `top_n_split` USDC prize with an EIP-2612 permit (`hardhat bounty:lock`);
 * 4. `04-compete`: agents with their own accounts and keys compete over REST (the remote runner, the
 *    one-line script) and MCP; every receipt is anchored at finalize;
 * 5. `05-close` and `06-award`: the chain clock passes `closesAt`; the operator awards over the API
 *    (winners, ranking digest), the pack is minted, anchored and served by the door;
 * 6. `07-claim`: the winners claim (`hardhat bounty:claim`); place 1 holds no ETH and is paid by a
 *    relayed `claimWithSig`;
 * 7. `08-index`: the indexer catches up; its award must equal the chain's `Awarded` log;
 * 8. `09-verify`: `@bench-bounty/verifier` fetches the pack from the door and verifies it under `full`.
 *
 * Amounts are base units (`bigint`, USDC has 6 decimals); times are unix seconds unless named `Ms`.
 */
import { BenchBountyClient } from "@bench-bounty/client";
import { ensureWritableDir, type LeaderboardRow } from "@bench-bounty/platform";
import { existsSync, lstatSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeAtomically } from "./chain-tools.js";
import type { DemoContext, DemoPhase } from "./context.js";
import { busyBasePort, DemoOptionError, OUTPUT_FILES, type DemoOptions } from "./options.mjs";
import { formatSeconds, PhaseRunner, type PhaseContext, type PhaseResult } from "./phase-runner.js";
import { startPhase } from "./phases/01-start.js";
import { publishPhase } from "./phases/02-publish.js";
import { lockPhase } from "./phases/03-lock.js";
import { competePhase } from "./phases/04-compete.js";
import { closePhase } from "./phases/05-close.js";
import { awardPhase } from "./phases/06-award.js";
import { claimPhase } from "./phases/07-claim.js";
import { indexPhase } from "./phases/08-index.js";
import { verifyPhase } from "./phases/09-verify.js";
import { ProcessRegistry } from "./processes.js";
import { printSummary, renderReport } from "./report.js";
import type { DemoIo, DemoResult } from "./result.js";

export { AGENTS_DIR } from "./phases/04-compete.js";
export { INDEPENDENT_CHECK, runIndependentCheck, type IndependentCheck } from "./independent.js";
export type { ChainAward, ClaimRecord, DemoIo, DemoResult, IndexerAward } from "./result.js";
export { renderReport } from "./report.js";

/** The lifecycle, in order: each phase runs after the one before it succeeded. */
export const LIFECYCLE: readonly DemoPhase[] = [
  startPhase,
  publishPhase,
  lockPhase,
  competePhase,
  closePhase,
  awardPhase,
  claimPhase,
  indexPhase,
  verifyPhase,
];

/** Name of the last phase, which also runs (unnumbered) after a failure. */
const OUTPUTS_PHASE = "write outputs";

/** The phase names, in order (progress output and report). */
export const PHASES: readonly string[] = [...LIFECYCLE.map((p) => p.name), OUTPUTS_PHASE];

/**
 * Runs the demo end to end. Never throws for a failed phase: the failure is in `phases` and `ok` is false
 * (the phases after it are `skipped`). Everything started is stopped before returning unless `io.hold`.
 */
export async function runDemo(options: DemoOptions, io: DemoIo = {}): Promise<DemoResult> {
  const log = io.log ?? ((line: string) => console.log(line));
  // The output directory is checked (and created level by level) before anything starts or is sent
  // on-chain: a bad --out is one line naming the option (PlatformError), not a phase-6 ENOTDIR.
  ensureWritableDir(options.outDir, "--out");
  // a busy --base-port port is refused before anything starts (probe39 B-N3; scripts/demo.mjs asks
  // before the set-up too), and --out is left as it is
  assertOutputsReplaceable(options.outDir);
  const busy = await busyBasePort(options.basePort);
  if (busy !== null) throw new DemoOptionError(busy);
  const registry = io.registry ?? new ProcessRegistry();
  const phases = new PhaseRunner(PHASES, log);
  const storeDir = mkdtempSync(join(tmpdir(), "bench-bounty-demo-"));
  const result: DemoResult = {
    ok: false,
    phases: phases.results,
    totalMs: 0,
    files: {},
    stop: () => registry.stopAll((line) => log(`    ${line}`)),
  };
  registry.addStop("demo store", () => {
    // Keep the store (runs, agent logs under runs/) when a phase failed, for the post-mortem.
    if (phases.results.some((r) => r.status === "failed")) log(`    platform store kept at ${storeDir}`);
    else rmSync(storeDir, { recursive: true, force: true });
  });

  log(
    `bench-bounty demo: ${options.size} Seattle weather rows (seed ${options.seed}), ${options.agents.length} agents × ` +
      `${options.attempts} attempts, ${options.prizeUsdc} USDC top_n_split prize`,
  );
  log(`  platform store: ${storeDir}`);
  removeEarlierOutputs(options.outDir, log);

  const ctx: DemoContext = { options, registry, storeDir, result };
  let failed = false;
  for (const phase of LIFECYCLE) {
    try {
      await phases.run(phase.name, (p) => phase.run(ctx, p));
    } catch {
      // The failed phase is recorded and printed by the phase runner; the rest are skipped.
      failed = true;
      break;
    }
  }
  if (failed) phases.skipRest();
  await writeOutputs(ctx, phases, failed, log);

  result.totalMs = phases.elapsedMs();
  result.ok = phases.allOk() && phases.results.length === PHASES.length;
  log(`\n${result.ok ? "✓ demo finished" : "✗ demo FAILED"} in ${formatSeconds(result.totalMs)}`);
  for (const r of phases.results) {
    log(
      `    ${r.status === "ok" ? "✓" : r.status === "failed" ? "✗" : "-"} ${formatSeconds(r.ms).padStart(10)}  ${r.name}${r.status === "skipped" ? " (skipped)" : ""}`,
    );
  }
  if (!io.hold) await result.stop();
  return result;
}

/**
 * Refuses an `outDir` where an output's name is taken by something that is not a file (a directory named
 * `report.md`: probe39 V-N1, the earlier pack was removed, then the report's write failed with Node's raw
 * EISDIR and the demo's store was left behind): checked before anything is removed or started.
 * @throws DemoOptionError naming `--out` and the entry
 */
function assertOutputsReplaceable(outDir: string): void {
  for (const name of Object.values(OUTPUT_FILES)) {
    const path = join(outDir, name);
    let st;
    try {
      st = lstatSync(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw e;
    }
    if (!st.isFile())
      throw new DemoOptionError(
        `--out ${outDir}: ${path} is not a file (${st.isDirectory() ? "a directory" : "not a regular file"}), and the demo writes its ${name} there: move it, or choose another --out`,
      );
  }
}

/**
 * Removes the outputs an earlier run left in `outDir` ({@link OUTPUT_FILES}), saying which: a run writes
 * each of its own only when its phase is reached, so a failed run's FAILED `report.md` stood beside an
 * earlier run's `pack.json` and `verification.json`, which looked current (probe39 B-N3). Every output in
 * `--out` is then this run's.
 */
function removeEarlierOutputs(outDir: string, log: (line: string) => void): void {
  const earlier = Object.values(OUTPUT_FILES).filter((name) => existsSync(join(outDir, name)));
  if (earlier.length === 0) return;
  for (const name of earlier) rmSync(join(outDir, name), { force: true });
  log(`  removed an earlier run's outputs from ${outDir}: ${earlier.join(", ")} (this run writes its own)`);
}

/**
 * The outputs: the tables on the terminal and `report.md`, also after a failure (the report then says
 * which phase failed). After a success this is the last numbered phase.
 */
async function writeOutputs(
  ctx: DemoContext,
  phases: PhaseRunner,
  failedBefore: boolean,
  log: (line: string) => void,
): Promise<void> {
  const { options, result } = ctx;
  const slug = ctx.published?.slug;
  if (ctx.serviceUrl && slug) {
    try {
      const board = await new BenchBountyClient({ baseUrl: ctx.serviceUrl }).leaderboard(slug);
      result.leaderboard = board.rows as unknown as LeaderboardRow[];
    } catch (err) {
      log(`    (no leaderboard to show: ${err instanceof Error ? err.message : String(err)})`);
    }
  }
  const write = async (p: PhaseContext): Promise<void> => {
    const reportFile = join(options.outDir, OUTPUT_FILES.report);
    result.totalMs = phases.elapsedMs();
    printSummary(result, options, log);
    // The report is written inside its own phase: it lists that phase as ok (it is the last step).
    const listed: PhaseResult[] = failedBefore
      ? phases.results
      : [...phases.results, { name: OUTPUTS_PHASE, status: "ok", ms: 0, detail: "this report" }];
    writeAtomically(reportFile, renderReport(result, options, listed, phases.elapsedMs()));
    result.files.report = reportFile;
    for (const [name, file] of Object.entries(result.files)) p.note(`${name.padEnd(13)} ${file}`);
  };
  try {
    if (failedBefore) await write({ note: (l) => log(`    ${l}`), summary: () => {} });
    else await phases.run(OUTPUTS_PHASE, write);
  } catch (err) {
    // After a success the phase runner recorded it; after a failure say why the report is missing.
    if (failedBefore)
      log(`    ✗ could not write the outputs: ${err instanceof Error ? err.message : String(err)}`);
  }
}
