/**
 * Benchmark: per-task credit after close (`taskScores`, issue 17) at RUNS finalized runs of a 12-task
 * bank (TASKS, default 12): the cold build (regrade every run from its stored answers, recompute and check its scores)
 * against the baseline of rebuilding the public leaderboard from the same store in the same run, and
 * the cached reads (probe19 A-F10): the same page again (kept whole until `board_version` moves) and a
 * new page of runs already graded (each finalized run is graded once and its credits kept): the
 * page cache dropped before each call.
 *
 *   npx pnpm@12.4.2 --filter @bench-bounty/platform exec tsx bench/task-scores.ts
 *
 * The runs and answers are written straight into the store with the scores `scoreGraded` gives them
 * (taskScores refuses a store whose regrade disagrees), which is what a finalize stores.
 */
import { rmSync } from "node:fs";
import { gradePlan, scoreGraded } from "../src/grading.js";
import { publicBoardRows } from "../src/leaderboard.js";
import { benchBenchmark, cpuTimed, insertBenchAgents, insertBenchRun } from "./agents.js";
import { forgetTaskScores, taskScores } from "../src/task-scores.js";

const RUNS = Number(process.env.RUNS ?? 2_000);
const SECONDS = Number(process.env.SECONDS_PER_CASE ?? 2);
const TASKS = Number(process.env.TASKS ?? 12);

const { dir, platform, op, slug } = await benchBenchmark("bb-bench-ts-", TASKS, { public_fraction: "0.67" });
const b = await platform.getBenchmark(slug);
const tasks = await platform.testSet(op, slug);
const plan = tasks.map((t) => t.ordinal);
await platform.ctx.store.tx(async (t) => {
  const agents = await insertBenchAgents(t, RUNS);
  for (let i = 0; i < RUNS; i++) {
    const answers = new Map(
      plan.map((o, k) => [k, Math.random() < 0.6 ? (tasks[o]!.gold as { value: string }).value : "wrong"]),
    );
    const wall = `${1 + (i % 500)}.000`;
    const s = scoreGraded(b, gradePlan(plan, tasks, answers), wall, "0.000000");
    await insertBenchRun(t, {
      i,
      slug,
      agents,
      plan,
      scores: {
        rank_accuracy: s.accuracyValue,
        score_public: s.publicScore,
        score_composite: s.compositeScore,
        score_composite_public: s.compositePublic,
        wall_seconds: wall,
      },
    });
    await t.db
      .insertInto("answers")
      .values(
        [...answers].map(([ordinal, answer_text]) => ({
          run_id: `run-${i}`,
          ordinal,
          answer_text,
          updated_at: "2026-01-01T00:00:00Z",
        })),
      )
      .execute();
  }
});
await platform.closeBenchmark(op, slug);

async function measure(label: string, fn: () => Promise<unknown>): Promise<number> {
  const { calls: n, cpuMs } = await cpuTimed(fn, SECONDS);
  const msPerCall = cpuMs / n;
  console.log(
    `${label.padEnd(66)} ${String(n).padStart(7)} calls  ${msPerCall.toFixed(3).padStart(10)} CPU-ms/call`,
  );
  return msPerCall;
}

console.log(`taskScores at ${RUNS} finalized runs x ${TASKS} tasks, closed, ${SECONDS}s per case`);
const board = await measure("baseline: rebuild the public board every call", () =>
  publicBoardRows(platform.ctx, slug),
);
// The uncached path: every kept grading and page dropped before each call (what every request cost
// before probe19 A-F10), against the cached ones.
const cold = await measure("uncached: one page of 1,000 runs (regrade, check its scores)", () => {
  forgetTaskScores(platform.ctx);
  return taskScores(platform.ctx, null, slug, { offset: 0, limit: 1000 });
});
const repeat = await measure("cached: the same page again (a repeat, a 304)", () =>
  taskScores(platform.ctx, null, slug, { offset: 0, limit: 1000 }),
);
const other = await measure("cached grading: the page rebuilt from kept credits (no regrade)", () => {
  forgetTaskScores(platform.ctx, "pages");
  return taskScores(platform.ctx, null, slug, { offset: 0, limit: 1000 });
});
console.log(`uncached page / board rebuild: ${(cold / board).toFixed(1)}x`);
console.log(`uncached page / repeated page: ${(cold / repeat).toFixed(0)}x`);
console.log(`uncached page / new page of graded runs: ${(cold / other).toFixed(1)}x`);
await platform.close();
rmSync(dir, { recursive: true, force: true });
