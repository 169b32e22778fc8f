/**
 * Benchmark (issue 13 item 9): leaderboard() calls per second at 10,000 finalized runs, cached (the
 * board is rebuilt only when finalize, close or award bump `benchmarks.board_version`) against the
 * baseline of rebuilding it on every call, measured in the same run on the same store.
 *
 *   npx pnpm@12.4.2 --filter @bench-bounty/platform bench
 *
 * The runs are written straight into the store (scores drawn at random), which is what the board reads;
 * finalizing 10,000 runs through the API would measure finalize instead.
 */
import { rmSync } from "node:fs";
import { leaderboard, publicBoardRows } from "../src/leaderboard.js";
import { benchBenchmark, cpuTimed, insertBenchAgents, insertBenchRun } from "./agents.js";

const RUNS = Number(process.env.RUNS ?? 10_000);
const SECONDS = Number(process.env.SECONDS_PER_CASE ?? 2);

const { dir, platform, slug } = await benchBenchmark("bb-bench-lb-", 4);
const d4 = (n: number) => (n / 10000).toFixed(4);
await platform.ctx.store.tx(async (t) => {
  const agents = await insertBenchAgents(t, RUNS);
  for (let i = 0; i < RUNS; i++) {
    const r = () => Math.floor(Math.random() * 10001);
    await insertBenchRun(t, {
      i,
      slug,
      agents,
      plan: [0, 1, 2, 3],
      scores: {
        rank_accuracy: d4(r()),
        score_public: d4(r()),
        score_composite: d4(r()),
        score_composite_public: d4(r()),
        wall_seconds: `${1 + (i % 900)}.000`,
      },
    });
  }
});

async function measure(label: string, fn: () => Promise<unknown>): Promise<number> {
  const { calls: n, cpuMs } = await cpuTimed(fn, SECONDS);
  const perSec = n / (cpuMs / 1000);
  console.log(
    `${label.padEnd(44)} ${String(n).padStart(8)} calls  ${perSec.toFixed(1).padStart(10)} calls/CPU-s`,
  );
  return perSec;
}

console.log(`leaderboard at ${RUNS} finalized runs (${Math.ceil(RUNS / 3)} agents), ${SECONDS}s per case`);
const baseline = await measure("baseline: rebuild the public board every call", () =>
  publicBoardRows(platform.ctx, slug),
);
const cached = await measure("leaderboard(): cached, invalidated by version", () =>
  leaderboard(platform.ctx, slug),
);
console.log(`ratio cached / baseline: ${(cached / baseline).toFixed(1)}x`);
await platform.close();
rmSync(dir, { recursive: true, force: true });
