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
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { leaderboard, publicBoardRows } from "../src/leaderboard.js";
import { Platform } from "../src/platform.js";

const RUNS = Number(process.env.RUNS ?? 10_000);
const SECONDS = Number(process.env.SECONDS_PER_CASE ?? 2);

const dir = mkdtempSync(join(tmpdir(), "bb-bench-lb-"));
const platform = Platform.open({ dir });
const op = platform.localOperator();
const ds = await platform.createDataset(op, {
  name: "bench",
  rows: Array.from({ length: 4 }, (_, i) => ({
    decision_ts: "2026-01-01T00:00:00Z",
    payload: { i },
    label: `a${i}`,
  })),
});
const { slug } = await platform.publish(op, ds.dataset_id, {
  title: "Bench",
  prompt_template: "Q {payload.i}",
  grader_type: "exact",
});
const db = platform.ctx.store.db;
const d4 = (n: number) => (n / 10000).toFixed(4);
db.transaction(() => {
  const agent = db.prepare(
    "INSERT INTO agents (agent_id, owner_account_id, withdrawal_address, is_author_agent, created_at) VALUES (?, 'acct_operator', NULL, 0, '2026-01-01T00:00:00Z')",
  );
  const run = db.prepare(
    `INSERT INTO runs (run_id, slug, agent_id, account_id, attempt, status, plan_json, started_at_ms, finalized_at_ms, answer_salt,
       receipt_json, receipt_hash, rank_accuracy, score_public, score_composite, score_composite_public, wall_seconds, queries_used, usdc_spent)
     VALUES (?, ?, ?, 'acct_operator', ?, 'finalized', '[0,1,2,3]', ?, ?, '00', '{}', ?, ?, ?, ?, ?, ?, 0, '0.000000')`,
  );
  const agents = Math.ceil(RUNS / 3);
  for (let a = 0; a < agents; a++) agent.run(`agent-${a}`);
  for (let i = 0; i < RUNS; i++) {
    const r = () => Math.floor(Math.random() * 10001);
    run.run(
      `run-${i}`,
      slug,
      `agent-${i % agents}`,
      Math.floor(i / agents) + 1,
      i,
      i + 1000,
      "0x" + i.toString(16).padStart(64, "0"),
      d4(r()),
      d4(r()),
      d4(r()),
      d4(r()),
      `${1 + (i % 900)}.000`,
    );
  }
})();

function measure(label: string, fn: () => unknown): number {
  fn();
  let n = 0;
  const t0 = process.cpuUsage();
  const w0 = performance.now();
  while (performance.now() - w0 < SECONDS * 1000) {
    fn();
    n++;
  }
  const cpu = process.cpuUsage(t0);
  const perSec = n / ((cpu.user + cpu.system) / 1e6);
  console.log(
    `${label.padEnd(44)} ${String(n).padStart(8)} calls  ${perSec.toFixed(1).padStart(10)} calls/CPU-s`,
  );
  return perSec;
}

console.log(`leaderboard at ${RUNS} finalized runs (${Math.ceil(RUNS / 3)} agents), ${SECONDS}s per case`);
const baseline = measure("baseline: rebuild the public board every call", () =>
  publicBoardRows(platform.ctx, slug),
);
const cached = measure("leaderboard(): cached, invalidated by version", () =>
  leaderboard(platform.ctx, slug),
);
console.log(`ratio cached / baseline: ${(cached / baseline).toFixed(1)}x`);
await platform.close();
rmSync(dir, { recursive: true, force: true });
