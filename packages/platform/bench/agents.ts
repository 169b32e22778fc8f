/**
 * Bench fixtures: a CPU-time loop, a fresh store with one published benchmark, and the agents a seeded
 * board's runs belong to (one per three runs, owned by the operator account), inserted straight into
 * the store inside the caller's transaction.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Platform } from "../src/platform.js";
import type { Tables } from "../src/store.js";

/**
 * A platform on a fresh store in a temporary folder (`prefix` names it) with one `exact` benchmark of
 * `tasks` tasks (`Q {payload.i}`, gold `a{i}`), published by the local operator with `publish`'s extra
 * options (e.g. `public_fraction`).
 */
export async function benchBenchmark(
  prefix: string,
  tasks: number,
  publish: { public_fraction?: string } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const platform = await Platform.open({ dir });
  const op = platform.localOperator();
  const ds = await platform.createDataset(op, {
    name: "bench",
    rows: Array.from({ length: tasks }, (_, i) => ({
      decision_ts: "2026-01-01T00:00:00Z",
      payload: { i },
      label: `a${i}`,
    })),
  });
  const { slug } = await platform.publish(op, ds.dataset_id, {
    title: "Bench",
    prompt_template: "Q {payload.i}",
    grader_type: "exact",
    ...publish,
  });
  return { dir, platform, op, slug };
}

/** The scores of a seeded run (SPEC 6 decimal strings) and its wall clock (`"12.000"`). */
export interface BenchScores {
  rank_accuracy: string;
  score_public: string;
  score_composite: string;
  score_composite_public: string;
  wall_seconds: string;
}

/**
 * Inserts finalized run `run-<i>` of benchmark `slug` straight into the store: agent `agent-<i % agents>`
 * (attempt counted per agent), the operator's account, plan `plan`, `scores`, no queries or spend.
 */
export async function insertBenchRun(
  t: Tables,
  p: { i: number; slug: string; agents: number; plan: number[]; scores: BenchScores },
): Promise<void> {
  const { i, agents } = p;
  await t.db
    .insertInto("runs")
    .values({
      run_id: `run-${i}`,
      slug: p.slug,
      agent_id: `agent-${i % agents}`,
      account_id: "acct_operator",
      attempt: Math.floor(i / agents) + 1,
      status: "finalized",
      plan_json: JSON.stringify(p.plan),
      started_at_ms: i,
      finalized_at_ms: i + 1000,
      answer_salt: "00",
      receipt_json: "{}",
      receipt_hash: "0x" + i.toString(16).padStart(64, "0"),
      ...p.scores,
      queries_used: 0,
      usdc_spent: "0.000000",
    })
    .execute();
}

/** Inserts `agent-0 .. agent-(ceil(runs / 3) - 1)`; returns how many. */
export async function insertBenchAgents(t: Tables, runs: number): Promise<number> {
  const agents = Math.ceil(runs / 3);
  await t.db
    .insertInto("agents")
    .values(
      Array.from({ length: agents }, (_, a) => ({
        agent_id: `agent-${a}`,
        owner_account_id: "acct_operator",
        withdrawal_address: null,
        is_author_agent: 0,
        created_at: "2026-01-01T00:00:00Z",
      })),
    )
    .execute();
  return agents;
}

/**
 * Calls `fn` once to warm up, then repeatedly for `seconds` of wall time; returns the calls made and
 * the process CPU time they took, in ms.
 */
export async function cpuTimed(
  fn: () => Promise<unknown>,
  seconds: number,
): Promise<{ calls: number; cpuMs: number }> {
  await fn();
  let calls = 0;
  const t0 = process.cpuUsage();
  const w0 = performance.now();
  while (performance.now() - w0 < seconds * 1000) {
    await fn();
    calls++;
  }
  const cpu = process.cpuUsage(t0);
  return { calls, cpuMs: (cpu.user + cpu.system) / 1000 };
}
