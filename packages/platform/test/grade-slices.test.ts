/**
 * Grading a run's answers gives the event loop a turn between answers (probe27 A-F6: one finalize of
 * 140 answers of U+FDFA, which NFKC expands 18x, froze `serve` 6.7 s; the first read of the per-task
 * credits after close regraded them again, 8.9 s). Asserted by order, never by time: every grading of
 * an answer (evidence's `gradePrepared`, spied) is logged, and so is every turn of a `setImmediate`
 * ticker running meanwhile; with `gradeSliceMs: 0` a turn lies between any two gradings. The credits
 * and scores are the ones grading at once gives.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { cities, cleanup, manualClock, openTemp, type Harness } from "./helpers.js";
import { gradePlan } from "../src/grading.js";
import { getTasks } from "../src/publish.js";
import { forgetTaskScores } from "../src/task-scores.js";

const log: string[] = [];
vi.mock("@bench-bounty/evidence", async (original) => {
  const real = await original<typeof import("@bench-bounty/evidence")>();
  return {
    ...real,
    gradePrepared: (...args: Parameters<typeof real.gradePrepared>) => {
      if (args[1] !== null) log.push("grade");
      return real.gradePrepared(...args);
    },
  };
});

afterEach(cleanup);

/** Runs `f` with a ticker logging a turn on every pass of the event loop's check phase. */
async function withTicker<T>(f: () => Promise<T>): Promise<T> {
  let on = true;
  const tick = () => {
    if (!on) return;
    log.push("turn");
    setImmediate(tick);
  };
  setImmediate(tick);
  try {
    return await f();
  } finally {
    on = false;
  }
}

/** The gradings logged, and whether every two consecutive ones have a turn between them. */
function gradingsInterleaved(): { gradings: number; interleaved: boolean } {
  const gradings = log.filter((e) => e === "grade").length;
  const seq = log.join(",");
  return { gradings, interleaved: !seq.includes("grade,grade") };
}

const ANSWER = "\uFDFA".repeat(500); // NFKC: 9,000 characters

async function exactRun(h: Harness, tasks: number) {
  const ds = await h.createDataset(cities(tasks));
  const { slug } = await h.publish(ds.dataset_id, {
    title: "Cities",
    prompt_template: "Q {payload.city} #{payload.index}",
    grader_type: "exact",
    public_fraction: "0.5",
    max_attempts: 2,
    seed: "grade-slices",
  });
  return answeredRun(h, slug);
}

/** A run of `slug` by agent `slicer` with every other answer right and the rest U+FDFA. */
async function answeredRun(h: Harness, slug: string) {
  const gold = new Map((await h.testSet(slug)).map((t) => [t.prompt, (t.gold as { value: string }).value]));
  const s = await h.startRun(slug, "slicer");
  // every other answer right, the rest U+FDFA
  await h.submit(
    s.run.id,
    s.tasks.map((t) => ({
      ordinal: t.ordinal,
      answer_text: t.ordinal % 2 === 0 ? gold.get(t.prompt)! : ANSWER,
    })),
  );
  return { slug, runId: s.run.id, tasks: s.tasks.length };
}

describe("grading a run gives the event loop a turn between answers (probe27 A-F6)", () => {
  it("finalize: a turn between any two answers' gradings, the scores of grading at once", async () => {
    const clock = manualClock();
    const h = await openTemp({ clock: clock.now, gradeSliceMs: 0 });
    const { runId, tasks } = await exactRun(h, 12);
    log.length = 0;
    const fin = await withTicker(() => h.finalize(runId));
    const { gradings, interleaved } = gradingsInterleaved();
    expect(gradings).toBeGreaterThanOrEqual(tasks);
    expect(interleaved).toBe(true);
    // the scores are those of grading the stored answers at once
    const run = (await h.ctx.store.runs.get(runId))!;
    const answers = await h.ctx.store.answers.ofRun(runId);
    const bank = await getTasks(h.ctx, run.slug);
    const credits = gradePlan(run.plan, bank, answers).map((g) => g.credit);
    expect(credits.filter((c) => c === "1/1")).toHaveLength(tasks / 2);
    expect(fin.score_public).toBe(run.score_public);
  });

  it("the first read of the per-task credits after close: a turn between any two answers' gradings", async () => {
    const clock = manualClock();
    const h = await openTemp({ clock: clock.now, gradeSliceMs: 0 });
    const { slug, runId, tasks } = await exactRun(h, 12);
    await h.finalize(runId);
    await h.closeBenchmark(slug);
    forgetTaskScores(h.ctx);
    log.length = 0;
    const page = await withTicker(() => h.real.taskScores(h.op, slug)); // the author: every credit
    const { gradings, interleaved } = gradingsInterleaved();
    expect(gradings).toBe(tasks);
    expect(interleaved).toBe(true);
    expect(page.runs[0]!.tasks.filter((t) => t.credit === "1/1")).toHaveLength(tasks / 2);
  });

  it("finalize's transaction reuses a credit only for the same answer (a submission racing finalize is regraded)", async () => {
    const h = await openTemp({ gradeSliceMs: 0 });
    const { slug, runId } = await exactRun(h, 8);
    const run = (await h.ctx.store.runs.get(runId))!;
    const bank = await getTasks(h.ctx, slug);
    const before = await h.ctx.store.answers.ofRun(runId);
    const known = gradePlan(run.plan, bank, before);
    // every answer changed after the credits were graded: right ones wrong, wrong ones right
    const gold = new Map(
      (await h.testSet(slug)).map((t) => [t.ordinal, (t.gold as { value: string }).value]),
    );
    const after = new Map(run.plan.map((b, i) => [i, before.get(i) === ANSWER ? gold.get(b)! : ANSWER]));
    expect(gradePlan(run.plan, bank, after, undefined, known)).toEqual(gradePlan(run.plan, bank, after));
    expect(gradePlan(run.plan, bank, before, undefined, known)).toEqual(known);
  });

  it("concurrent finalizes of one run grade its answers once, as one finalize does (review27 R-F6)", async () => {
    const h = await openTemp({ gradeSliceMs: 0 });
    const one = await exactRun(h, 12);
    log.length = 0;
    await h.finalize(one.runId);
    const alone = log.filter((e) => e === "grade").length;
    expect(alone).toBeGreaterThanOrEqual(one.tasks);
    const { runId } = await answeredRun(h, one.slug);
    log.length = 0;
    const results = await Promise.allSettled([h.finalize(runId), h.finalize(runId), h.finalize(runId)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.flatMap((r) =>
      r.status === "rejected" ? [(r.reason as { code: string }).code] : [],
    );
    expect(refused).toEqual(["already_finalized", "already_finalized"]);
    expect(log.filter((e) => e === "grade").length).toBe(alone);
  });

  it("refuses a gradeSliceMs that is not a number >= 0, naming it", async () => {
    await expect(openTemp({ gradeSliceMs: -1 })).rejects.toMatchObject({
      code: "invalid_option",
      details: { field: "gradeSliceMs" },
    });
  });
});
