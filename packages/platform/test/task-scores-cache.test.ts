/**
 * Per-task credit is graded once per finalized run (probe19 A-F10: every `task-scores` request, a 304
 * included, regraded its whole page, ~0.3 s of event loop for a 5,000-task run; the entries route did
 * the same for every new `limit`/`offset`). The grader is counted through a spy on `gradePlanSliced`; the
 * cached answers must equal, byte for byte, a cold build, and a finalize or an award must show.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as grading from "../src/grading.js";
import { forgetTaskScores } from "../src/task-scores.js";
import { cities, cleanup, manualClock, openTemp, type Harness } from "./helpers.js";

vi.mock("../src/grading.js", async (original) => {
  const real = await original<typeof import("../src/grading.js")>();
  return { ...real, gradePlanSliced: vi.fn(real.gradePlanSliced) };
});

const graded = vi.mocked(grading.gradePlanSliced);

afterEach(cleanup);
beforeEach(() => {
  graded.mockClear();
});

/** Publishes an 8-task bank and plays `agents` runs (all right but the second half of each). */
async function closedBenchmark(h: Harness, clock: { advance(ms: number): void }, agents: string[]) {
  const ds = await h.createDataset(cities(8));
  const { slug } = await h.publish(ds.dataset_id, {
    title: "Cities",
    prompt_template: "Q {payload.city} #{payload.index}",
    grader_type: "exact",
    public_fraction: "0.5",
    max_attempts: 1,
    seed: "task-scores-cache",
  });
  const gold = new Map((await h.testSet(slug)).map((t) => [t.prompt, (t.gold as { value: string }).value]));
  const runIds: string[] = [];
  for (const agent of agents) runIds.push(await playOne(h, slug, agent, gold, true));
  clock.advance(1000);
  return { slug, gold, runIds };
}

async function playOne(
  h: Harness,
  slug: string,
  agent: string,
  gold: Map<string, string>,
  finalize: boolean,
) {
  const s = await h.startRun(slug, agent);
  await h.submit(
    s.run.id,
    s.tasks.map((t) => ({ ordinal: t.ordinal, answer_text: t.ordinal < 4 ? gold.get(t.prompt)! : "no" })),
  );
  if (finalize) await h.finalize(s.run.id);
  return s.run.id;
}

const bytes = (v: unknown) => JSON.stringify(v);

describe("per-task credit is graded once per finalized run", () => {
  it("serves a repeated page, another page and the entries' runs without regrading, equal to a cold build", async () => {
    const clock = manualClock();
    const h = await openTemp({ clock: clock.now });
    const { slug, runIds } = await closedBenchmark(h, clock, ["c1", "c2", "c3"]);
    await h.closeBenchmark(slug);
    graded.mockClear();

    const first = await h.real.taskScores(null, slug, { offset: 0, limit: 2 });
    expect(graded).toHaveBeenCalledTimes(2);
    const again = await h.real.taskScores(null, slug, { offset: 0, limit: 2 });
    // the same frozen object: the edge serialises and hashes it once (its ETag, a 304, costs no regrade)
    expect(again).toBe(first);
    expect(Object.isFrozen(again)).toBe(true);
    const other = await h.real.taskScores(null, slug, { offset: 1, limit: 5 });
    expect(graded).toHaveBeenCalledTimes(3); // the third run only
    const ofRuns = await h.real.taskScoresOfRuns(null, slug, runIds);
    expect(graded).toHaveBeenCalledTimes(3); // the entries' runs: graded already
    // by run id (a Map: no order promised; run ids are keyed with the store's secret, probe29 A-F9)
    expect([...ofRuns.keys()].sort()).toEqual([...runIds].sort());

    // byte for byte what a cold build (nothing cached) answers
    forgetTaskScores(h.ctx);
    const coldFirst = await h.real.taskScores(null, slug, { offset: 0, limit: 2 });
    const coldOther = await h.real.taskScores(null, slug, { offset: 1, limit: 5 });
    expect(graded).toHaveBeenCalledTimes(3 + 3);
    expect(bytes(first)).toBe(bytes(coldFirst));
    expect(bytes(other)).toBe(bytes(coldOther));
    forgetTaskScores(h.ctx);
    const coldOfRuns = await h.real.taskScoresOfRuns(null, slug, runIds);
    expect(bytes([...ofRuns])).toBe(bytes([...coldOfRuns]));
  });

  it("shows a run finalized after the page was cached, and the award", async () => {
    const clock = manualClock();
    const h = await openTemp({ clock: clock.now });
    const { slug, gold } = await closedBenchmark(h, clock, ["d1"]);
    const late = await playOne(h, slug, "late", gold, false);
    await h.closeBenchmark(slug);
    const before = await h.real.taskScores(null, slug);
    expect(before.runs).toHaveLength(1);
    expect(before.stage).toBe("closed");
    await h.finalize(late);
    graded.mockClear();
    const after = await h.real.taskScores(null, slug);
    expect(after.runs.map((r) => r.run_id)).toContain(late);
    expect(graded).toHaveBeenCalledTimes(1); // the late run only
    await h.ctx.store.benchmarks.markAwarded(slug);
    const awarded = await h.real.taskScores(null, slug);
    expect(awarded).toMatchObject({ stage: "awarded", status: "awarded", private_credits: "shown" });
    expect(graded).toHaveBeenCalledTimes(1);
    // the same grading: before the award private credits were withheld (probe36 C-F2), now served
    expect(after.private_credits).toBe("withheld");
    const hidden = awarded.runs.map((r) => ({
      ...r,
      tasks: r.tasks.map((t) => (t.visibility === "private" ? { ...t, credit: null } : t)),
    }));
    expect(bytes(hidden)).toBe(bytes(after.runs));
    expect(awarded.runs.flatMap((r) => r.tasks).every((t) => t.credit !== null)).toBe(true);
  });

  it("keeps the open rules: the author's page while open is cached per board version, others refused", async () => {
    const clock = manualClock();
    const h = await openTemp({ clock: clock.now });
    const { slug, gold } = await closedBenchmark(h, clock, ["e1"]);
    const own = await h.real.taskScores(h.op, slug);
    expect(own.stage).toBe("open");
    await expect(h.real.taskScores(null, slug)).rejects.toMatchObject({ code: "task_scores_withheld" });
    await expect(h.real.taskScores(await h.principal("e1"), slug)).rejects.toMatchObject({
      code: "task_scores_withheld",
    });
    await playOne(h, slug, "e2", gold, true);
    expect((await h.real.taskScores(h.op, slug)).runs).toHaveLength(2);
  });
});
