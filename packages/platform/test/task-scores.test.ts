/**
 * Per-task credit after close (issue 17: the per-task score tables; SPEC 4, 5, 6, 6.1): runs finalized
 * while open carry `credit: null` in their receipts, so the platform regrades them once the benchmark
 * closes. Who may read it at each stage (open: the author only; closed: everyone the board is for;
 * buyer_only: the author only), that the credits are the graders' (checked against the gold and the
 * answers the test itself submitted) and behind the stored scores, and that a damaged store is refused.
 */
import { afterEach, describe, expect, it } from "vitest";
import { MAX_TASK_SCORE_CELLS, gaosTaskScores, taskScoresPageRuns } from "../src/task-scores.js";
import { cities, cleanup, manualClock, openTemp, rejection, type Harness } from "./helpers.js";

afterEach(cleanup);

const OPTIONS = {
  title: "Cities",
  prompt_template: "Q {payload.city} #{payload.index}",
  grader_type: "exact",
  public_fraction: "0.5",
  max_attempts: 2,
  seed: "task-scores",
} as const;

/** What one agent submitted, by run ordinal (a missing ordinal is unanswered). */
type Submitted = Map<number, string>;

/**
 * Plays one run: `pick(i, right)` chooses the answer of run ordinal `i` (null: leave it unanswered).
 * @returns the run id, its plan (bank ordinals) and what was submitted
 */
async function play(
  h: Harness,
  slug: string,
  agent: string,
  pick: (i: number, right: string) => string | null,
  finalize = true,
) {
  const gold = new Map((await h.testSet(slug)).map((t) => [t.prompt, (t.gold as { value: string }).value]));
  const s = await h.startRun(slug, agent);
  const submitted: Submitted = new Map();
  for (const t of s.tasks) {
    const a = pick(t.ordinal, gold.get(t.prompt)!);
    if (a !== null) submitted.set(t.ordinal, a);
  }
  await h.submit(
    s.run.id,
    [...submitted].map(([ordinal, answer_text]) => ({ ordinal, answer_text })),
  );
  if (finalize) await h.finalize(s.run.id);
  return { runId: s.run.id, plan: (await h.getRun(s.run.id)).plan, submitted };
}

/** The credits an exact grader must give (an independent expectation: equal text scores 1/1). */
async function expectedCredits(h: Harness, slug: string, plan: number[], submitted: Submitted) {
  const bank = await h.testSet(slug);
  return plan.map((bankOrdinal, i) => ({
    ordinal: i,
    bank_ordinal: bankOrdinal,
    visibility: bank[bankOrdinal]!.visibility,
    credit: submitted.get(i) === (bank[bankOrdinal]!.gold as { value: string }).value ? "1/1" : "0/1",
  }));
}

/** `credits` as served to a non-author before the award: private tasks' credit null (probe36 C-F2). */
function withheld<T extends { visibility: string; credit: string | null }>(credits: T[]): T[] {
  return credits.map((t) => (t.visibility === "private" ? { ...t, credit: null } : t));
}

async function bench(h: Harness, extra: Record<string, unknown> = {}) {
  const ds = await h.createDataset(cities(8));
  return (await h.publish(ds.dataset_id, { ...OPTIONS, ...extra })).slug;
}

describe("per-task credit of finalized runs", () => {
  it("is withheld while open from all but the author, then served to everyone with the graders' credits", async () => {
    const clock = manualClock();
    const h = await openTemp({ clock: clock.now });
    const slug = await bench(h);
    const good = await play(h, slug, "good", (_i, right) => right);
    clock.advance(1000); // runs are served by start time (ties by run id, a hash of the slug)
    // wrong on odd ordinals, unanswered on ordinal 2 (scores 0, SPEC 4)
    const mixed = await play(h, slug, "mixed", (i, right) => (i === 2 ? null : i % 2 ? "wrong" : right));
    const receiptBefore = (await h.getRun(mixed.runId)).receipt!;
    expect(receiptBefore.tasks.every((t) => t.credit === null)).toBe(true);

    // open: the run's own agent, another competitor and an anonymous reader are refused
    for (const viewer of [await h.principal("mixed"), await h.principal("good"), null]) {
      const e = await rejection(h.real.taskScores(viewer, slug));
      expect(e.code).toBe("task_scores_withheld");
      expect(e.details).toMatchObject({ reason: "withheld_live_contest", slug });
      expect(JSON.stringify(e)).not.toMatch(/credit|"1\/1"|"0\/1"/);
    }
    // the author sees everything at any time
    const early = await h.real.taskScores(h.op, slug);
    expect(early).toMatchObject({ stage: "open", served_to: "author", open: true });
    expect(early.runs.map((r) => r.run_id)).toEqual([good.runId, mixed.runId]);

    await h.closeBenchmark(slug);
    // closed, not awarded: everyone gets public credits, private ones stay withheld (probe36 C-F2)
    const closed = await h.real.taskScores(null, slug);
    expect(closed).toMatchObject({
      slug,
      stage: "closed",
      served_to: "everyone",
      open: false,
      private_credits: "withheld",
    });
    expect(closed.note).toMatch(/Private tasks' credit is shown once the award reveals the test set/);
    expect(closed.bank.map((t) => t.bank_ordinal)).toEqual([...Array(8).keys()]);
    for (const played of [good, mixed]) {
      const run = closed.runs.find((r) => r.run_id === played.runId)!;
      expect(run.tasks).toEqual(withheld(await expectedCredits(h, slug, played.plan, played.submitted)));
    }
    // the author still sees every credit
    const authors = await h.real.taskScores(h.op, slug);
    expect(authors).toMatchObject({ stage: "closed", private_credits: "shown" });
    expect(authors.note).toMatch(/public and private.*sealed until the award/);
    // once awarded (the pack reveals the test set), everyone sees every credit
    await h.ctx.store.benchmarks.markAwarded(slug);
    const awarded = await h.real.taskScores(null, slug);
    expect(awarded).toMatchObject({ stage: "awarded", served_to: "everyone", private_credits: "shown" });
    expect(awarded.runs).toEqual(authors.runs);
    const byRun = new Map(awarded.runs.map((r) => [r.run_id, r]));
    for (const played of [good, mixed]) {
      const run = byRun.get(played.runId)!;
      expect(run.tasks).toEqual(await expectedCredits(h, slug, played.plan, played.submitted));
    }
    // both visibilities are served once closed, and the mixed run really has right and wrong tasks
    const mixedCredits = byRun.get(mixed.runId)!.tasks;
    expect(new Set(mixedCredits.map((t) => t.visibility))).toEqual(new Set(["public", "private"]));
    expect(new Set(mixedCredits.map((t) => t.credit))).toEqual(new Set(["1/1", "0/1"]));
    expect(mixedCredits[2]!.credit).toBe("0/1");
    // the scores recomputed from the credits are the final board's (the award's input); the same before the award
    expect(closed.runs.map(({ tasks: _t, ...r }) => r)).toEqual(awarded.runs.map(({ tasks: _t, ...r }) => r));
    const board = await h.leaderboard(slug);
    expect(board.board).toBe("final");
    for (const row of board.rows) {
      const run = byRun.get(row.run_id)!;
      expect(run).toMatchObject({
        agent_id: row.agent_id,
        receipt_hash: row.receipt_hash,
        score_public: row.score_public,
        score_composite: (row as { score_composite: string }).score_composite,
        rank_accuracy: (row as { rank_accuracy: string }).rank_accuracy,
      });
    }
    // the anchored receipt did not change: the regrade is served beside it
    expect((await h.getRun(mixed.runId)).receipt).toEqual(receiptBefore);
    // GAOS taskScores: credit as a number by bank ordinal
    const gaos = gaosTaskScores(byRun.get(mixed.runId)!);
    expect(
      Object.keys(gaos)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([...mixed.plan].sort((a, b) => a - b));
    for (const t of mixedCredits) expect(gaos[String(t.bank_ordinal)]).toBe(t.credit === "1/1" ? 1 : 0);
  });

  // probe16 A-F8: every finalized run x every task was one answer (9 runs of 10,010 tasks: 8.2 MB)
  it("is paged over runs (offset/limit, next_offset), a page at most MAX_TASK_SCORE_CELLS run-task cells", async () => {
    const clock = manualClock();
    const h = await openTemp({ clock: clock.now });
    const slug = await bench(h);
    const ids: string[] = [];
    for (const agent of ["p1", "p2", "p3"]) {
      ids.push((await play(h, slug, agent, (_i, right) => right)).runId);
      clock.advance(1000);
    }
    await h.closeBenchmark(slug);
    const first = await h.real.taskScores(null, slug, { offset: 0, limit: 2 });
    expect(first).toMatchObject({ offset: 0, limit: 2, next_offset: 2 });
    expect(first.runs.map((r) => r.run_id)).toEqual(ids.slice(0, 2));
    const second = await h.real.taskScores(null, slug, { offset: 2, limit: 2 });
    expect(second).toMatchObject({ offset: 2, limit: 2, next_offset: null });
    expect(second.runs.map((r) => r.run_id)).toEqual(ids.slice(2));
    expect(second.bank).toEqual(first.bank);
    const all = await h.real.taskScores(null, slug);
    expect(all).toMatchObject({ offset: 0, limit: 100, next_offset: null });
    expect(all.runs.map((r) => r.run_id)).toEqual(ids);
    for (const [page, field] of [
      [{ offset: 0, limit: 1001 }, "limit"],
      [{ offset: -1, limit: 10 }, "offset"],
      [{ offset: 0, limit: 0 }, "limit"],
    ] as const) {
      const e = await rejection(h.real.taskScores(null, slug, page));
      expect(e).toMatchObject({ code: "invalid_option", details: { field } });
    }
    // a page's runs x tasks stays within the cell bound: a bank of 10,010 tasks is one run a page
    expect(MAX_TASK_SCORE_CELLS).toBe(20_000);
    expect(taskScoresPageRuns(1000, 10_010)).toBe(1);
    expect(taskScoresPageRuns(1000, 30_000)).toBe(1);
    expect(taskScoresPageRuns(1000, 100)).toBe(200);
    expect(taskScoresPageRuns(50, 100)).toBe(50);
    expect(taskScoresPageRuns(1000, 8)).toBe(1000);
    expect(taskScoresPageRuns(10, 0)).toBe(10);
  });

  // probe20 F1: the web board found its rows' credits by reading pages from offset 0 (start order, at
  // most 10 pages), so on a large bank most rows showed "not served"
  it("is served by run id (a board page's rows), in the order asked, under the same rule and cell bound", async () => {
    const clock = manualClock();
    const h = await openTemp({ clock: clock.now });
    const slug = await bench(h);
    const ids: string[] = [];
    for (const agent of ["q1", "q2", "q3"]) {
      ids.push((await play(h, slug, agent, (i, right) => (i % 2 ? right : "no"))).runId);
      clock.advance(1000);
    }
    const stranger = "run-0123456789abcdef";
    for (const viewer of [await h.principal("q1"), null]) {
      const e = await rejection(h.real.taskScoresOfIds(viewer, slug, [ids[0]]));
      expect(e).toMatchObject({ code: "task_scores_withheld", details: { reason: "withheld_live_contest" } });
    }
    await h.closeBenchmark(slug);
    const byId = await h.real.taskScoresOfIds(null, slug, [ids[2], stranger, ids[0]]);
    expect(byId).toMatchObject({ slug, stage: "closed", offset: 0, limit: 3, next_offset: null });
    expect(byId.runs.map((r) => r.run_id)).toEqual([ids[2], ids[0]]);
    const paged = new Map((await h.real.taskScores(null, slug)).runs.map((r) => [r.run_id, r]));
    for (const run of byId.runs) expect(run).toEqual(paged.get(run.run_id));
    for (const [runIds, field] of [
      [[], "run_ids"],
      ["run-0123456789abcdef", "run_ids"],
      [Array.from({ length: 101 }, (_, i) => `run-${i.toString(16).padStart(16, "0")}`), "run_ids"],
      [[ids[0], "run-XYZ"], "run_ids[1]"],
      [[ids[0], 7], "run_ids[1]"],
      [[ids[1], ids[0], ids[1]], "run_ids[2]"],
    ] as const) {
      const e = await rejection(h.real.taskScoresOfIds(null, slug, runIds));
      expect(e, JSON.stringify(runIds).slice(0, 40)).toMatchObject({
        code: "invalid_option",
        details: { field },
      });
    }
    // a bank of 201 tasks holds 99 runs an answer (99 x 201 <= 20,000): the 100th id is left for the next ask
    const wide = (
      await h.publish((await h.createDataset(cities(201))).dataset_id, { ...OPTIONS, seed: "wide" })
    ).slug;
    await h.closeBenchmark(wide);
    const hundred = Array.from({ length: 100 }, (_, i) => `run-${i.toString(16).padStart(16, "0")}`);
    expect(await h.real.taskScoresOfIds(null, wide, hundred)).toMatchObject({
      runs: [],
      offset: 0,
      limit: 99,
      next_offset: 99,
    });
  });

  it("includes a run finalized after close (each page is read afresh)", async () => {
    const h = await openTemp();
    const slug = await bench(h);
    const first = await play(h, slug, "first", (_i, right) => right);
    const late = await play(h, slug, "late", (i, right) => (i < 3 ? right : "no"), false);
    await h.closeBenchmark(slug);
    expect((await h.real.taskScores(null, slug)).runs.map((r) => r.run_id)).toEqual([first.runId]);
    await h.finalize(late.runId);
    const after = await h.real.taskScores(null, slug);
    expect(after.runs.map((r) => r.run_id)).toEqual([first.runId, late.runId]);
    const credits = await expectedCredits(h, slug, late.plan, late.submitted);
    expect(after.runs[1]!.tasks).toEqual(withheld(credits));
    expect((await h.real.taskScores(h.op, slug)).runs[1]!.tasks).toEqual(credits);
    // finalized after close, its receipt carries the public credits (SPEC 4: null while open); the private
    // ones stay null, as receipts are served to everyone once closed (probe36 C-F2)
    const receipt = (await h.getRun(late.runId)).receipt!;
    expect(receipt.tasks.map((t) => t.credit)).toEqual(withheld(credits).map((t) => t.credit));
  });

  // probe36 C-F2: after the close, anyone read every private task's credit before (or without) an award:
  // one constant-answer agent per label class read each private label off the table
  it("a constant-answer agent learns no private label from any read before the award; after it, all are served", async () => {
    const clock = manualClock();
    const h = await openTemp({ clock: clock.now });
    const slug = await bench(h, { max_attempts: 1 });
    const bank = await h.testSet(slug);
    const label = (bank.find((t) => t.visibility === "private")!.gold as { value: string }).value;
    const constant = await play(h, slug, "constant", () => label);
    clock.advance(1000);
    // a second one finalized after the close: its finalize answer's per_task
    const s = await h.startRun(slug, "late");
    await h.submit(
      s.run.id,
      s.tasks.map((t) => ({ ordinal: t.ordinal, answer_text: label })),
    );
    await h.closeBenchmark(slug);
    const fin = await h.finalize(s.run.id);
    expect(fin.per_task!.length).toBeGreaterThan(0);
    expect(fin.per_task!.every((t) => t.visibility === "public")).toBe(true);
    const privateOf = <T extends { visibility: string }>(tasks: T[]) =>
      tasks.filter((t) => t.visibility === "private");
    for (const viewer of [await h.principal("constant"), await h.principal("late"), null]) {
      const page = await h.real.taskScores(viewer, slug);
      expect(page).toMatchObject({ stage: "closed", private_credits: "withheld" });
      expect(page.runs).toHaveLength(2);
      for (const run of page.runs) {
        expect(privateOf(run.tasks).length).toBeGreaterThan(0);
        expect(privateOf(run.tasks).every((t) => t.credit === null)).toBe(true);
        expect(run.tasks.some((t) => t.visibility === "public" && t.credit !== null)).toBe(true);
      }
      const ids = page.runs.map((r) => r.run_id);
      const byIds = await h.real.taskScoresOfIds(viewer, slug, ids);
      expect(byIds.runs).toEqual(page.runs);
      const ofRuns = await h.real.taskScoresOfRuns(viewer, slug, ids);
      for (const run of ofRuns.values()) {
        const gaos = gaosTaskScores(run);
        for (const t of privateOf(run.tasks)) expect(gaos[String(t.bank_ordinal)]).toBeUndefined();
        expect(Object.keys(gaos).length).toBe(run.tasks.length - privateOf(run.tasks).length);
      }
    }
    // awarded: the credits are served, the right label's task credited 1/1
    await h.ctx.store.benchmarks.markAwarded(slug);
    const awarded = await h.real.taskScores(null, slug);
    expect(awarded.private_credits).toBe("shown");
    const run = awarded.runs.find((r) => r.run_id === constant.runId)!;
    for (const t of run.tasks) {
      const gold = (bank[t.bank_ordinal]!.gold as { value: string }).value;
      expect(t.credit).toBe(gold === label ? "1/1" : "0/1");
    }
    expect(Object.keys(gaosTaskScores(run)).length).toBe(run.tasks.length);
  });

  it("on a buyer_only board: the author only, before and after close", async () => {
    const h = await openTemp();
    const slug = await bench(h, { leaderboard_visibility: "buyer_only" });
    const run = await play(h, slug, "rival", (_i, right) => right);
    await play(h, slug, "other", () => "wrong");
    for (const stage of ["open", "closed"] as const) {
      if (stage === "closed") await h.closeBenchmark(slug);
      for (const viewer of [await h.principal("other"), await h.principal("rival"), null]) {
        const e = await rejection(h.real.taskScores(viewer, slug));
        expect(e.code, stage).toBe("forbidden");
        expect(e.details).toMatchObject({ rule: "benchmark_author_only", slug });
      }
      const own = await h.real.taskScores(h.op, slug);
      expect(own.stage).toBe(stage);
      expect(own.runs.find((r) => r.run_id === run.runId)!.tasks).toEqual(
        await expectedCredits(h, slug, run.plan, run.submitted),
      );
    }
  });

  it("refuses a store whose answers no longer give the stored scores, and an unknown benchmark", async () => {
    const h = await openTemp();
    const slug = await bench(h);
    const run = await play(h, slug, "victim", (_i, right) => right);
    await h.closeBenchmark(slug);
    // damage the store behind the platform's back: one right answer becomes wrong
    await h.ctx.store.answers.upsert(
      run.runId,
      [{ ordinal: 0, answer_text: "tampered" }],
      "2026-01-02T00:00:00Z",
    );
    await h.ctx.store.benchmarks.bumpBoard(slug);
    const e = await rejection(h.real.taskScores(null, slug));
    expect(e.code).toBe("invalid_store");
    expect(e.details).toMatchObject({ run_id: run.runId });
    expect((await rejection(h.real.taskScores(null, "no-such-bench"))).code).toBe("unknown_benchmark");
  });
});
