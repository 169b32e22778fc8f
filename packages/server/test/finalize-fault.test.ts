/**
 * kill -9 of `bench-bounty serve` at an exact step of a finalize over HTTP (inside the finalize
 * transaction, after the run row is updated, before the commit: the test entry
 * `fixtures/fault-serve.mjs` arms `finalizeBeforeCommit`), then a restart on the same store: the run is
 * still in progress with every answer, no receipt; finalizing it again succeeds once (a second is
 * 409), and the board has it once. The random-timing kill of many finalizes is test/crash.test.ts.
 * On the engine under test (`--store DIR` or `DATABASE_URL` on a fresh PostgreSQL schema).
 */
import { afterAll, describe, expect, it } from "vitest";
import { call, citiesAnswer, publishCities, register } from "./helpers.js";
import { cleanupServes, freshStore, startServe, stopServe } from "./serve-process.js";

const OPERATOR = { BENCH_BOUNTY_OPERATOR_KEY: "bb_op_finalize_fault_0123456789abcdef0123" };
afterAll(cleanupServes);

describe("kill -9 of serve inside a finalize, then a restart", { timeout: 120_000 }, () => {
  it("the run stays in progress with every answer and no receipt; finalize then succeeds exactly once", async () => {
    const store = await freshStore();
    const doomed = await startServe(store, { fault: "finalizeBeforeCommit", env: OPERATOR });
    const { slug } = await publishCities(doomed.url, 12, "finfault");
    const agent = await register(doomed.url, "finfault-agent");
    const s = await call(doomed.url, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: agent.key });
    expect(s.status, s.text).toBe(201);
    const runId = s.json.run.id as string;
    const answers = s.json.tasks.map((t: any) => ({
      ordinal: t.ordinal,
      answer_text: citiesAnswer(t.prompt),
    }));
    const sub = await call(doomed.url, "POST", `/api/v1/benchmarks/runs/${runId}/submissions`, {
      key: agent.key,
      body: { answers },
    });
    expect(sub.status, sub.text).toBe(200);
    const lost = await call(doomed.url, "POST", `/api/v1/benchmarks/runs/${runId}/finalize`, {
      key: agent.key,
    }).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(Error);
    expect(await doomed.exited).toBe("SIGKILL");
    expect(doomed.output()).toContain(`fault-serve: finalizeBeforeCommit reached for ${runId}`);

    const healed = await startServe(store, { env: OPERATOR });
    const u = healed.url;
    const view = await call(u, "GET", `/api/v1/benchmarks/runs/${runId}`, { key: agent.key });
    expect(view.status, view.text).toBe(200);
    expect(view.json.status).toBe("in_progress");
    expect(view.json.receipt_hash ?? null).toBeNull();
    const tasks = await call(u, "GET", `/api/v1/benchmarks/runs/${runId}/tasks`, { key: agent.key });
    expect([...tasks.json.answered_ordinals].sort((a: number, b: number) => a - b)).toEqual(
      answers.map((a: { ordinal: number }) => a.ordinal),
    );
    expect((await call(u, "GET", `/api/v1/benchmarks/${slug}/leaderboard`)).json.rows).toHaveLength(0);
    const fin = await call(u, "POST", `/api/v1/benchmarks/runs/${runId}/finalize`, { key: agent.key });
    expect(fin.status, fin.text).toBe(200);
    expect(fin.json.score_public).toBe("1.0000");
    const again = await call(u, "POST", `/api/v1/benchmarks/runs/${runId}/finalize`, { key: agent.key });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe("already_finalized");
    const board = await call(u, "GET", `/api/v1/benchmarks/${slug}/leaderboard`);
    expect(board.json.rows.map((r: any) => r.run_id)).toEqual([runId]);
    const after = await call(u, "GET", `/api/v1/benchmarks/runs/${runId}`, { key: agent.key });
    expect(after.json.receipt_hash).toMatch(/^0x[0-9a-f]{64}$/);
    await stopServe(healed);
  });
});
