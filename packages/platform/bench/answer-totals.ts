/**
 * Benchmark (probe15 A-F5): a submit's stored-answer quota check at RUNS stored runs. The quotas now
 * read and update counter rows (`answer_bytes_totals`, O(1)); the baseline, measured in the same run
 * on the same store, is the same submit plus what every submit did before: the sum of
 * `runs.answer_bytes` over every run of every account but the operator's.
 *
 *   npx pnpm@12.4.2 --filter @bench-bounty/platform bench:answers
 *   RUNS=1000000 SECONDS_PER_CASE=3 ... (defaults 200,000 runs, 2 s per case; SQLite)
 *
 * The runs are written straight into the store (answer bytes 0: only their number matters to the sum).
 */
import { rmSync } from "node:fs";
import { sql } from "kysely";
import { benchBenchmark, insertBenchAgents, insertBenchRun } from "./agents.js";
import { OPERATOR_ACCOUNT_ID } from "../src/identity/principal.js";

const RUNS = Number(process.env.RUNS ?? 200_000);
const SECONDS = Number(process.env.SECONDS_PER_CASE ?? 2);

const { dir, platform, slug } = await benchBenchmark("bb-bench-answers-", 4);
const scores = {
  rank_accuracy: "0.5000",
  score_public: "0.5000",
  score_composite: "0.5000",
  score_composite_public: "0.5000",
  wall_seconds: "1.000",
};
await platform.ctx.store.tx(async (t) => {
  const agents = await insertBenchAgents(t, 3000); // 1,000 agents (one statement), attempts up to RUNS / 1,000
  for (let i = 0; i < RUNS; i++) await insertBenchRun(t, { i, slug, agents, plan: [0, 1, 2, 3], scores });
});
const { api_key } = await platform.createAccount({ name: "bench-competitor" });
const me = await platform.authenticate(api_key);
const run = (await platform.startRun(me, slug, "bench-competitor")).run.id;

/** Submits answer 0 again, 10 or 11 bytes in turn: every submit adds or gives back a byte. */
let turn = 0;
const submit = () => platform.submit(me, run, [{ ordinal: 0, answer_text: "x".repeat(10 + (turn++ % 2)) }]);
/** The former all-accounts check: the sum over every run (store/runs.ts before probe15 A-F5). */
const formerSum = () =>
  platform.ctx.store.tx((t) =>
    sql`SELECT SUM(answer_bytes) AS bytes FROM runs WHERE account_id <> ${OPERATOR_ACCOUNT_ID}`.execute(t.db),
  );

async function measure(label: string, fn: () => Promise<unknown>): Promise<number> {
  await fn();
  let calls = 0;
  const w0 = performance.now();
  while (performance.now() - w0 < SECONDS * 1000) {
    await fn();
    calls++;
  }
  const ms = (performance.now() - w0) / calls;
  console.log(`${label.padEnd(58)} ${String(calls).padStart(7)} submits  ${ms.toFixed(3).padStart(9)} ms each`);
  return ms;
}

console.log(`one submit at ${RUNS} stored runs (SQLite), ${SECONDS}s per case`);
const baseline = await measure("baseline: submit + the former SUM over every run", async () => {
  await formerSum();
  await submit();
});
const now = await measure("submit: counters in answer_bytes_totals", submit);
console.log(`ratio baseline / counters: ${(baseline / now).toFixed(1)}x`);
await platform.close();
rmSync(dir, { recursive: true, force: true });
