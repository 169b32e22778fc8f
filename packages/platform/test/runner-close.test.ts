/**
 * probe37 A-F2: a runner overtaken by the close (a submit refused `benchmark_closed`) finalizes the run,
 * so the answers it gave before the close are ranked, `run` and `resume` alike; a finalize refused then
 * is said plainly, with its code.
 */
import { afterEach, describe, expect, it } from "vitest";
import { PlatformError } from "../src/errors.js";
import { readCheckpoint, resumeRun, runBenchmark, type AgentSpec } from "../src/runner.js";
import { cities, cleanup, openAt, promptAgent, tempDir } from "./helpers.js";

afterEach(cleanup);

async function store() {
  const platform = await openAt({ dir: tempDir() });
  const ds = await platform.createDataset(cities(12));
  const res = await platform.publish(ds.dataset_id, {
    title: "Cities",
    prompt_template: "What is the answer for {payload.city} #{payload.index}?",
    grader_type: "exact",
    seed: "close",
    time_budget_seconds: 60,
  });
  return { platform, slug: res.slug };
}

/** An in-process agent that calls `before(n)` before its n-th answer (0-based). */
function agentWith(before: (n: number) => Promise<void>): AgentSpec {
  let n = 0;
  return {
    kind: "function",
    name: "closing-agent",
    answer: async (task) => {
      await before(n++);
      return promptAgent(task.prompt);
    },
  };
}

describe("the benchmark closes while the runner runs", () => {
  it("run: the answers given before the close are finalized and ranked; nothing after it is asked", async () => {
    const { platform, slug } = await store();
    let asked = 0;
    const r = await runBenchmark(
      await platform.backend("closer"),
      slug,
      "closer",
      agentWith(async (n) => {
        asked++;
        if (n === 4) await platform.closeBenchmark(slug); // the fifth answer comes after the close
      }),
    );
    expect(asked).toBe(5); // the sixth task is never asked
    expect(r.interrupted).toBe(false);
    expect(r.closed).toMatchObject({
      answered: 4,
      details: { rule: "benchmark_closed", closed_by: "status" },
    });
    expect(r.closed!.message).toMatch(/is closed/);
    expect(r.finalized).toMatchObject({ status: "finalized", counts: { tasks: 12, answered: 4 } });
    const run = await platform.getRun(r.run_id);
    expect(run.status).toBe("finalized");
    expect(r.outcomes.filter((o) => o.status === "answered").map((o) => o.ordinal)).toEqual([0, 1, 2, 3]);
    const board = await platform.leaderboard(slug);
    expect(JSON.stringify(board)).toContain(r.run_id);
  });

  it("resume after the close finalizes the run with its answers given before it", async () => {
    const { platform, slug } = await store();
    const backend = await platform.backend("resumer");
    const first = await runBenchmark(
      backend,
      slug,
      "resumer",
      agentWith(async (n) => {
        if (n === 3) throw new Error("agent down");
      }),
      { invalidAnswerPolicy: "abort" },
    ).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(PlatformError);
    expect((first as PlatformError).code).toBe("agent_failed");
    const runId = (first as PlatformError).details.run_id as string;
    expect((await platform.getRun(runId)).status).toBe("in_progress");
    await platform.closeBenchmark(slug);

    const r = await resumeRun(
      backend,
      runId,
      agentWith(async () => {}),
    );
    expect(r.closed).toMatchObject({ answered: 3 });
    expect(r.finalized).toMatchObject({ status: "finalized", counts: { answered: 3 } });
    expect((await platform.getRun(runId)).status).toBe("finalized");
    expect(Object.keys(readCheckpoint(backend, runId).outcomes).sort()).toEqual(["0", "1", "2"]);
  });

  it("a finalize refused after the close is thrown with its code, saying the benchmark closed first", async () => {
    const { platform, slug } = await store();
    const local = await platform.backend("late");
    const backend = Object.assign(
      Object.create(Object.getPrototypeOf(local) as object) as typeof local,
      local,
      {
        finalize: () =>
          Promise.reject(new PlatformError("benchmark_awarded", `benchmark ${slug} is awarded`, { slug })),
      },
    );
    const e = await runBenchmark(
      backend,
      slug,
      "late",
      agentWith(async (n) => {
        if (n === 2) await platform.closeBenchmark(slug);
      }),
    ).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PlatformError);
    expect((e as PlatformError).code).toBe("benchmark_awarded");
    expect((e as PlatformError).message).toMatch(
      /is closed.*had 2 of 12 tasks answered before the close, but its finalize was refused, so it is not ranked: benchmark \S+ is awarded/,
    );
    expect((e as PlatformError).details).toMatchObject({ closed: { rule: "benchmark_closed" } });
  });
});
