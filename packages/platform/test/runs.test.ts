import { composite, parseJson, receiptHash } from "@bench-bounty/evidence";
import { afterEach, describe, expect, it } from "vitest";
import { runPlan } from "../src/runs.js";
import { MAX_ANSWER_LENGTH } from "../src/pack-budget.js";
import { citiesAnswer } from "../src/testing.js";
import { cities, cleanup, manualClock, openTemp, promptAgent, rejection, type Harness } from "./helpers.js";

afterEach(cleanup);

const TEMPLATE = "What is the answer for {payload.city} #{payload.index}?";

async function setup(
  opts: { n?: number; publicPerRun?: number; maxAttempts?: number; publicFraction?: string } = {},
) {
  const clock = manualClock();
  const platform = await openTemp({ clock: clock.now, answerSaltSeed: "answers" });
  const ds = await platform.createDataset(cities(opts.n ?? 12));
  const res = await platform.publish(ds.dataset_id, {
    title: "Cities",
    prompt_template: TEMPLATE,
    grader_type: "exact",
    seed: "plan",
    public_fraction: opts.publicFraction ?? "0.5",
    time_budget_seconds: 100,
    ...(opts.publicPerRun ? { public_tasks_per_run: opts.publicPerRun } : {}),
    ...(opts.maxAttempts ? { max_attempts: opts.maxAttempts } : {}),
  });
  return { platform, clock, slug: res.slug };
}

async function answerAll(platform: Harness, runId: string) {
  const tasks = await platform.runTasks(runId);
  return await platform.submit(
    runId,
    tasks.map((t) => ({ ordinal: t.ordinal, answer_text: promptAgent(t.prompt) })),
  );
}

describe("run plans", () => {
  // probe32 A-F5: 3 per run of 2 public tasks was published and the detail advertised 3
  it("public_tasks_per_run over the public tasks is refused naming it; at most all of them is published", async () => {
    const e = await setup({ n: 12, publicPerRun: 7 }).catch((err: unknown) => err);
    expect(e).toMatchObject({
      code: "invalid_option",
      details: { field: "public_tasks_per_run", public_tasks: 6 },
      message:
        "public_tasks_per_run is 7 but the benchmark has 6 public tasks (public_fraction 0.5 of 12 rows): give at most 6, or leave it out to serve every public task",
    });
    const { platform, slug } = await setup({ n: 12, publicPerRun: 6 });
    expect((await platform.getBenchmark(slug)).config.public_tasks_per_run).toBe(6);
  });

  it("private tasks fixed in bank order first, then a seeded shuffle of a subset of the public tasks", async () => {
    const { platform, slug } = await setup({ n: 12, publicPerRun: 4 });
    const tasks = await platform.testSet(slug);
    const priv = tasks.filter((t) => t.visibility === "private").map((t) => t.ordinal);
    const pub = new Set(tasks.filter((t) => t.visibility === "public").map((t) => t.ordinal));
    const started = await platform.startRun(slug, "alice");
    const plan = (await platform.getRun(started.run.id)).plan;
    expect(plan.slice(0, priv.length)).toEqual(priv);
    expect(plan).toHaveLength(priv.length + 4);
    for (const o of plan.slice(priv.length)) expect(pub.has(o)).toBe(true);
    // the served tasks are the plan's prompts, with run ordinals, and never gold
    expect(started.tasks.map((t) => t.prompt)).toEqual(plan.map((o) => tasks[o]!.prompt));
    expect(started.tasks.map((t) => t.ordinal)).toEqual(plan.map((_, i) => i));
    expect(JSON.stringify(started)).not.toContain("answer-");
  });

  it("is deterministic per (benchmark, agent, attempt) and differs between attempts", async () => {
    const a = await setup({ n: 20 });
    const b = await setup({ n: 20 });
    const planA = (await a.platform.getRun((await a.platform.startRun(a.slug, "alice")).run.id)).plan;
    const planB = (await b.platform.getRun((await b.platform.startRun(b.slug, "alice")).run.id)).plan;
    expect(planB).toEqual(planA);
    const bench = await a.platform.getBenchmark(a.slug);
    const tasks = await a.platform.testSet(a.slug);
    expect(runPlan(bench, tasks, "alice", 1)).toEqual(planA);
    const second = runPlan(bench, tasks, "alice", 2);
    expect(second.slice(0, 10)).toEqual(planA.slice(0, 10)); // private part fixed
    expect(second.slice(10)).not.toEqual(planA.slice(10)); // public part reshuffled
    expect([...second.slice(10)].sort()).toEqual([...planA.slice(10)].sort());
    expect(runPlan(bench, tasks, "bob", 1)).not.toEqual(planA);
  });
});

describe("start / submit / finalize", () => {
  it("one run in progress per agent, and max_attempts", async () => {
    const { platform, slug } = await setup({ maxAttempts: 2 });
    const r1 = await platform.startRun(slug, "alice");
    expect(await rejection(platform.startRun(slug, "alice"))).toMatchObject({
      code: "run_in_progress",
      details: { run_id: r1.run.id },
    });
    await platform.startRun(slug, "bob"); // another agent is independent
    await answerAll(platform, r1.run.id);
    await platform.finalize(r1.run.id);
    const r2 = await platform.startRun(slug, "alice");
    expect(r2.run.attempt).toBe(2);
    await platform.finalize(r2.run.id);
    expect(await rejection(platform.startRun(slug, "alice"))).toMatchObject({
      code: "max_attempts_reached",
      details: { max_attempts: 2 },
    });
  });

  it("submit refuses unknown, stale and duplicate ordinals and empty answers with machine-readable details, storing nothing", async () => {
    const { platform, slug } = await setup({ n: 12, publicPerRun: 1 });
    const run = (await platform.startRun(slug, "alice")).run.id;
    const n = (await platform.runTasks(run)).length;
    const e = await rejection(
      platform.submit(run, [
        { ordinal: 0, answer_text: "fine" },
        { ordinal: n, answer_text: "stale" },
        { ordinal: 1, answer_text: " \u3000\n" },
        { ordinal: 0, answer_text: "again" },
        { ordinal: "2", answer_text: "x" },
        { ordinal: 2, answer_text: 5 },
      ]),
    );
    expect(e.code).toBe("invalid_answers");
    expect(e.details.valid_ordinals).toEqual({ min: 0, max: n - 1 });
    expect((e.details.errors as { index: number; code: string }[]).map((x) => [x.index, x.code])).toEqual([
      [1, "unknown_ordinal"],
      [2, "empty_answer"],
      [3, "duplicate_ordinal"],
      [4, "bad_ordinal"],
      [5, "not_a_string"],
    ]);
    expect((await platform.runAnswers(run)).size).toBe(0);
  });

  it("every refused answer names its JSON path and field; answer_too_long names its limit (probe27 A-F4)", async () => {
    const { platform, slug } = await setup({ n: 12, publicPerRun: 1 });
    const run = (await platform.startRun(slug, "alice")).run.id;
    const n = (await platform.runTasks(run)).length;
    const e = await rejection(
      platform.submit(run, [
        { ordinal: 0, answer_text: "fine" },
        { ordinal: 1, answer_text: "a".repeat(MAX_ANSWER_LENGTH + 1) },
        { ordinal: n, answer_text: "stale" },
        { ordinal: 2, answer_text: "" },
        "not an object",
      ]),
    );
    expect(e.code).toBe("invalid_answers");
    expect(e.details.errors).toEqual([
      expect.objectContaining({
        index: 1,
        code: "answer_too_long",
        field: "answer_text",
        path: "$.answers[1].answer_text",
        limit: "max_answer_length",
        max_answer_length: MAX_ANSWER_LENGTH,
        answer_length: MAX_ANSWER_LENGTH + 1,
      }),
      expect.objectContaining({
        index: 2,
        code: "unknown_ordinal",
        field: "ordinal",
        path: "$.answers[2].ordinal",
      }),
      expect.objectContaining({
        index: 3,
        code: "empty_answer",
        field: "answer_text",
        path: "$.answers[3].answer_text",
      }),
      expect.objectContaining({ index: 4, code: "not_an_object", path: "$.answers[4]" }),
    ]);
    expect((await platform.runAnswers(run)).size).toBe(0);
  });

  // probe34 B-F1: an answer of U+1E030 (Unicode 15.0) was graded 1 by the platform (Node's tables) and 0
  // by the independent Python check (Unicode 14.0): the award could not be regraded alike
  it("an answer holding a code point not assigned in Unicode 14.0.0 is refused naming it (probe34 B-F1)", async () => {
    const { platform, slug } = await setup({ n: 4 });
    const run = (await platform.startRun(slug, "alice")).run.id;
    const e = await rejection(
      platform.submit(run, [
        { ordinal: 0, answer_text: "fine \u{1faf6}" }, // HEART HANDS, Unicode 14.0
        { ordinal: 1, answer_text: "ab\u{1e030}" },
      ]),
    );
    expect(e.code).toBe("invalid_answers");
    expect(e.message).toMatch(
      /^answers\[1\]: answer_text holds U\+1E030 \(at UTF-16 offset 2\), a code point not assigned in Unicode 14\.0\.0: norm\(\) \(SPEC 5\)/,
    );
    expect(e.details.errors).toEqual([
      expect.objectContaining({
        index: 1,
        ordinal: 1,
        code: "unassigned_code_point",
        field: "answer_text",
        path: "$.answers[1].answer_text",
        code_point: "U+1E030",
        offset: 2,
        unicode_version: "14.0.0",
      }),
    ]);
    expect((await platform.runAnswers(run)).size).toBe(0);
    await platform.submit(run, [{ ordinal: 0, answer_text: "fine \u{1faf6}" }]);
    expect((await platform.runAnswers(run)).size).toBe(1);
  });

  // probe39 B-F2: "ΑʕΣ" is αʕς by Python 3.11's tables (U+0295 cased in Unicode 14.0) and αʕσ by Node 20's
  // (neither in 17.0): the platform graded 0.5 what the independent checker grades 0.75
  it("an answer holding a capital sigma of unstable Final_Sigma context is refused naming it (probe39 B-F2)", async () => {
    const { platform, slug } = await setup({ n: 4 });
    const run = (await platform.startRun(slug, "alice")).run.id;
    const e = await rejection(
      platform.submit(run, [
        { ordinal: 0, answer_text: "\u0391\u0295\u03a3" },
        { ordinal: 1, answer_text: "\u0391\u{1171e}\u03a3" },
        { ordinal: 2, answer_text: "\u0391\u02e4\u03a3" },
        { ordinal: 3, answer_text: "ΟΔΥΣΣΕΥΣ σοφός" },
      ]),
    );
    expect(e.code).toBe("invalid_answers");
    expect(e.message).toMatch(
      /^answers\[0\]: answer_text holds a capital sigma U\+03A3 \(at UTF-16 offset 2 of its NFKC form\) whose Final_Sigma context meets U\+0295 \(at offset 1 of that form\), cased in Unicode 14\.0\.0 and neither in this runtime's/,
    );
    const item = (index: number, code_point: string, sigma_offset: number) =>
      expect.objectContaining({
        index,
        ordinal: index,
        code: "unstable_final_sigma",
        field: "answer_text",
        path: `$.answers[${index}].answer_text`,
        code_point,
        offset: 1,
        sigma_offset,
        unicode_version: "14.0.0",
      });
    expect(e.details.errors).toEqual([item(0, "U+0295", 2), item(1, "U+1171E", 3), item(2, "U+0295", 2)]);
    expect((await platform.runAnswers(run)).size).toBe(0);
    // plain Greek text with sigmas is taken
    await platform.submit(run, [{ ordinal: 3, answer_text: "ΟΔΥΣΣΕΥΣ σοφός" }]);
    expect((await platform.runAnswers(run)).size).toBe(1);
  });

  // probe36 A-F8: the empty_answer check (a White_Space trim) scanned an over-long answer before its bound
  it("an over-long answer is refused by its bound before its text is scanned (probe36 A-F8)", async () => {
    const { platform, slug } = await setup({ n: 4 });
    const run = (await platform.startRun(slug, "alice")).run.id;
    const e = await rejection(
      platform.submit(run, [{ ordinal: 0, answer_text: " ".repeat(MAX_ANSWER_LENGTH + 1) }]),
    );
    expect(e.details.errors).toEqual([
      expect.objectContaining({
        index: 0,
        code: "answer_too_long",
        path: "$.answers[0].answer_text",
        max_answer_length: MAX_ANSWER_LENGTH,
      }),
    ]);
    expect((await platform.runAnswers(run)).size).toBe(0);
  });

  // probe36 A-F9: 50,000 alternating combining marks were accepted and NFKC at finalize held the event
  // loop for seconds (quadratic canonical reordering)
  it("an answer with a run of more than 30 combining marks is refused naming it, nothing stored (probe36 A-F9)", async () => {
    const { platform, slug } = await setup({ n: 4 });
    const run = (await platform.startRun(slug, "alice")).run.id;
    const ok = `caf\u00e9 a${"\u0301\u0316".repeat(15)}`; // 30 in a row: accepted
    const e = await rejection(
      platform.submit(run, [
        { ordinal: 0, answer_text: ok },
        { ordinal: 1, answer_text: `xa${"\u0301\u0316".repeat(25000)}` },
      ]),
    );
    expect(e.code).toBe("invalid_answers");
    expect(e.message).toMatch(
      /^answers\[1\]: answer_text holds a run of more than 30 combining characters \(non-starters, UAX #15 Stream-Safe Text Format; Unicode 14\.0\.0\) starting at UTF-16 offset 2/,
    );
    await expectLongRunRefusedAlone(platform, run, e, ok, { offset: 2 });
  });

  // probe36 V-F2: the same marks written as JSON escapes in a json_fields answer passed the scan of the
  // raw text, and norm (at finalize, in every regrade) read them decoded: seconds of NFKC per finalize
  it("a json_fields answer whose string member decodes to a run of more than 30 combining marks is refused naming it (probe36 V-F2)", async () => {
    const platform = await openTemp({ answerSaltSeed: "answers" });
    const rows = [0, 1].map((i) => ({
      decision_ts: `2026-01-0${i + 1}T00:00:00Z`,
      payload: { city: "X", index: i },
      label: { v: "x" },
    }));
    const ds = await platform.createDataset({ name: "j", rows });
    const { slug } = await platform.publish(ds.dataset_id, {
      title: "Fields",
      prompt_template: TEMPLATE,
      grader_type: "json_fields",
      seed: "plan",
      public_fraction: "0.5",
      time_budget_seconds: 100,
    });
    const run = (await platform.startRun(slug, "alice")).run.id;
    const ok = `{"v":"a${"\\u0301\\u0316".repeat(15)}"}`; // 30 in a row once decoded: accepted
    const long = `{"v":"x","w":"a${"\\u0301\\u0316".repeat(16)}"}`;
    expect(long).not.toMatch(/[\u0300-\u036f]/); // no mark as written
    const e = await rejection(
      platform.submit(run, [
        { ordinal: 0, answer_text: ok },
        { ordinal: 1, answer_text: long },
      ]),
    );
    expect(e.code).toBe("invalid_answers");
    expect(e.message).toMatch(
      /^answers\[1\]: answer_text holds, in the decoded string of its JSON member \$\.w, a run of more than 30 combining characters \(non-starters, UAX #15 Stream-Safe Text Format; Unicode 14\.0\.0\) starting at UTF-16 offset 1 of that string/,
    );
    await expectLongRunRefusedAlone(platform, run, e, ok, { member: "$.w", offset: 1 });
    // to a task of another grader norm reads the text as written, which holds no mark: accepted
    const other = await setup({ n: 4 });
    const exactRun = (await other.platform.startRun(other.slug, "alice")).run.id;
    expect(await other.platform.submit(exactRun, [{ ordinal: 0, answer_text: long }])).toMatchObject({
      accepted: 1,
    });
  });

  it("submit upserts are idempotent per ordinal", async () => {
    const { platform, slug } = await setup({ n: 4 });
    const run = (await platform.startRun(slug, "alice")).run.id;
    expect(await platform.submit(run, [{ ordinal: 0, answer_text: "a" }])).toMatchObject({
      accepted: 1,
      answered: 1,
    });
    expect(await platform.submit(run, [{ ordinal: 0, answer_text: "a" }])).toMatchObject({
      accepted: 1,
      answered: 1,
    });
    await platform.submit(run, [
      { ordinal: 0, answer_text: "b" },
      { ordinal: 1, answer_text: "c" },
    ]);
    expect([...(await platform.runAnswers(run))]).toEqual([
      [0, "b"],
      [1, "c"],
    ]);
  });

  it("finalize: wall clock from start to finalize in ms, composite from the evidence library, receipt hashed", async () => {
    const { platform, clock, slug } = await setup({ n: 12 });
    const run = (await platform.startRun(slug, "alice")).run.id;
    await answerAll(platform, run);
    clock.advance(12_345);
    const f = await platform.finalize(run);
    expect(f.wall_seconds).toBe("12.345");
    const stored = await platform.getRun(run);
    // SPEC 6.1: while open, finalize serves the public composite only, never the private one or the receipt
    expect(f.score_composite).toBeUndefined();
    expect(f.receipt).toBeUndefined();
    const expected = (rank_accuracy: string) =>
      composite({
        rank_accuracy,
        wall_seconds: "12.345",
        usdc_spent: "0.000000",
        speed_weight: "0.3",
        cost_weight: "0",
        time_budget_seconds: 100,
        cost_budget_usdc: null,
      });
    expect(f.score_composite_public).toBe(expected(f.score_public));
    expect(stored.score_composite).toBe(expected(stored.rank_accuracy!));
    const receipt = stored.receipt!;
    expect(f.receipt_hash).toBe(receiptHash(receipt));
    expect(receipt).toMatchObject({
      schema: "bench-bounty.receipt.v1",
      run_id: run,
      benchmark_slug: slug,
      attempt: 1,
      queries_used: 0,
      usdc_spent: "0.000000",
    });
    expect(receipt.started_at).toBe("2026-01-01T00:00:00.000Z");
    expect(receipt.finalized_at).toBe("2026-01-01T00:00:12.345Z");
    // while open: credits null in the receipt
    expect(receipt.tasks.every((t) => t.credit === null)).toBe(true);
    // stored receipt round-trips byte-identically
    expect(receiptHash(parseJson(JSON.stringify(stored.receipt)) as never)).toBe(f.receipt_hash);
  });

  it("finalize returns aggregate numbers only while attempts remain; per-task public credits once they are used up", async () => {
    const { platform, slug } = await setup({ n: 12, maxAttempts: 2 });
    const r1 = (await platform.startRun(slug, "alice")).run.id;
    await answerAll(platform, r1);
    const f1 = await platform.finalize(r1);
    expect(f1.attempts_remaining).toBe(1);
    expect(f1.per_task).toBeUndefined();
    expect(f1.rank_accuracy).toBeUndefined();
    const r2 = (await platform.startRun(slug, "alice")).run.id;
    await answerAll(platform, r2);
    const f2 = await platform.finalize(r2);
    expect(f2.attempts_remaining).toBe(0);
    expect(f2.per_task!.every((t) => t.visibility === "public")).toBe(true);
    expect(f2.per_task).toHaveLength(f2.counts.public);
    expect(f2.rank_accuracy).toBeUndefined(); // private correctness stays hidden until close
  });

  it("a second finalize is 409, and unanswered tasks score 0 with a null digest", async () => {
    const { platform, slug } = await setup({ n: 6 });
    const run = (await platform.startRun(slug, "alice")).run.id;
    await platform.submit(run, [{ ordinal: 0, answer_text: "x" }]);
    const f = await platform.finalize(run);
    expect(f.counts.answered).toBe(1);
    expect((await platform.getRun(run)).receipt!.tasks.slice(1).every((t) => t.answer_digest === null)).toBe(
      true,
    );
    expect((await platform.getRun(run)).rank_accuracy).toBe("0.0000");
    const e = await rejection(platform.finalize(run));
    expect(e).toMatchObject({ code: "already_finalized" });
    expect((await rejection(platform.submit(run, [{ ordinal: 1, answer_text: "late" }]))).code).toBe(
      "run_not_in_progress",
    );
  });

  it("submit refuses a batch longer than the run before looking at any item (probe4 submit-cpu: 130,000 duplicates)", async () => {
    const { platform, slug } = await setup({ n: 8 });
    const run = (await platform.startRun(slug, "alice")).run.id;
    const n = (await platform.runTasks(run)).length;
    let visited = 0;
    const item = { answer_text: "x" } as Record<string, unknown>;
    Object.defineProperty(item, "ordinal", {
      enumerable: true,
      get: () => {
        visited++;
        return 0;
      },
    });
    const e = await rejection(
      platform.submit(
        run,
        Array.from({ length: 130_000 }, () => item),
      ),
    );
    expect(e.code).toBe("invalid_answers");
    expect(e.details).toMatchObject({
      field: "answers",
      limit: "run_tasks",
      max_answers: n,
      answers: 130_000,
    });
    expect(e.details.errors).toBeUndefined();
    expect(visited).toBe(0); // refused on the length alone
    expect(e.message).toContain(`at most ${n} answers`);
    // a batch of exactly n is looked at item by item: n - 1 duplicates of ordinal 0
    const dup = await rejection(
      platform.submit(
        run,
        Array.from({ length: n }, () => ({ ordinal: 0, answer_text: "x" })),
      ),
    );
    expect((dup.details.errors as { code: string }[]).map((x) => x.code)).toEqual(
      Array.from({ length: n - 1 }, () => "duplicate_ordinal"),
    );
    expect((await platform.finalize(run)).counts.answered).toBe(0); // nothing was stored
  });

  it("submit is refused once the benchmark has closed, for a run left in progress (probe4 late-run)", async () => {
    const { platform, slug } = await setup({ n: 8 });
    const run = (await platform.startRun(slug, "alice")).run.id;
    await platform.submit(run, [{ ordinal: 0, answer_text: "before" }]);
    await platform.closeBenchmark(slug);
    const e = await rejection(platform.submit(run, [{ ordinal: 1, answer_text: "after the close" }]));
    expect(e).toMatchObject({
      code: "benchmark_closed",
      details: { rule: "benchmark_closed", run_id: run, slug },
    });
    const f = await platform.finalize(run);
    expect(f.counts.answered).toBe(1); // the refused answer was not stored
  });

  it("after close: no new runs; finalize reveals credits and private accuracy", async () => {
    const { platform, slug } = await setup({ n: 8 });
    const run = (await platform.startRun(slug, "alice")).run.id;
    await answerAll(platform, run);
    await platform.closeBenchmark(slug);
    expect((await rejection(platform.startRun(slug, "bob"))).code).toBe("benchmark_closed");
    const f = await platform.finalize(run);
    expect(f.score_composite).toBe((await platform.getRun(run)).score_composite);
    // the receipt: public credits; private ones null (receipts are served once closed; probe36 C-F2)
    expect(
      f.receipt!.tasks.filter((t) => t.visibility === "public").every((t) => /^\d+\/\d+$/.test(t.credit!)),
    ).toBe(true);
    expect(f.receipt!.tasks.filter((t) => t.visibility === "private").every((t) => t.credit === null)).toBe(
      true,
    );
    expect(f.rank_accuracy).toBe((await platform.getRun(run)).rank_accuracy);
    // per_task: public credits only; private ones wait for the award (probe36 C-F2)
    expect(f.per_task).toHaveLength(f.counts.public);
    expect(f.per_task!.every((t) => t.visibility === "public")).toBe(true);
  });
});

describe("leaderboard", () => {
  it("ranks the public board by the public composite while open (SPEC 6.1), the final board by SPEC 7.1 once closed", async () => {
    const { platform, clock, slug } = await setup({ n: 12, maxAttempts: 3 });
    const play = async (agent: string, ms: number, answer: (p: string) => string) => {
      const run = (await platform.startRun(slug, agent)).run.id;
      const tasks = await platform.runTasks(run);
      await platform.submit(
        run,
        tasks.map((t) => ({ ordinal: t.ordinal, answer_text: answer(t.prompt) })),
      );
      clock.advance(ms);
      return await platform.finalize(run);
    };
    const perfect = citiesAnswer;
    await play("slow-perfect", 50_000, perfect); // acc 1, slow
    await play("fast-perfect", 1_000, perfect); // acc 1, fast: best
    await play("mediocre", 1_000, promptAgent);
    const better = await play("mediocre", 500, perfect); // second attempt is its best
    const lb = await platform.leaderboard(slug);
    expect(lb).toMatchObject({ board: "public", ranked_on: "public_composite" });
    expect(lb.rows.map((r) => [r.rank, r.agent_id, r.attempts_used])).toEqual([
      [1, "mediocre", 2],
      [2, "fast-perfect", 1],
      [3, "slow-perfect", 1],
    ]);
    expect(lb.rows[0]!.run_id).toBe(better.run_id);
    for (const r of lb.rows) {
      expect(r).not.toHaveProperty("rank_accuracy");
      expect(r).not.toHaveProperty("score_composite");
    }
    await platform.closeBenchmark(slug);
    const final = await platform.leaderboard(slug);
    expect(final).toMatchObject({ board: "final", ranked_on: "private_composite" });
    expect(final.board === "final" && final.rows[0]!.rank_accuracy).toBe("1.0000");
  });
});

// probe24 C-F5: a finalize after the award was only prepared (nothing sent) was told the benchmark "is awarded"
describe("finalize after the award's ranking is frozen", () => {
  it("says the award is prepared, sent, or awarded, as it is (benchmark_awarded, details.award_status)", async () => {
    const { platform, slug } = await setup({ n: 4 });
    const run = await platform.startRun(slug, "alice");
    await answerAll(platform, run.run.id);
    const awards = platform.ctx.store.awards;
    await awards.insertPrepared({
      slug,
      rank_derivation_json: "{}",
      ranking_digest: `0x${"0".repeat(64)}`,
      winners_json: "[]",
      created_at: "2026-01-01T00:00:00.000Z",
    });
    const refusal = () => rejection(platform.finalize(run.run.id));
    const prepared = await refusal();
    expect(prepared).toMatchObject({
      code: "benchmark_awarded",
      details: { slug, award_status: "prepared" },
    });
    expect(prepared.message).toBe(
      `the award of benchmark ${slug} is prepared (not sent yet): its ranking is fixed, so late runs are not scored`,
    );
    expect(prepared.message).not.toMatch(/is awarded/);
    await awards.markSent(slug, `0x${"1".repeat(64)}`);
    expect((await refusal()).message).toMatch(/is sent and not confirmed yet: its ranking is fixed/);
    await awards.markConfirmed(slug, `0x${"1".repeat(64)}`, 7);
    expect(await refusal()).toMatchObject({
      code: "benchmark_awarded",
      message: `benchmark ${slug} is awarded; late runs are not scored`,
      details: { award_status: "confirmed" },
    });
    expect((await platform.getRun(run.run.id)).status).toBe("in_progress");
  });
});

/**
 * `e` refused answer 1 of a two-answer submit for its run of combining marks (`where`: its offset and,
 * for a json_fields member, the member), nothing stored; answer 0 (`ok`) alone is then taken.
 */
async function expectLongRunRefusedAlone(
  platform: Harness,
  run: string,
  e: { details: Record<string, unknown> },
  ok: string,
  where: { offset: number; member?: string },
): Promise<void> {
  expect(e.details.errors).toEqual([
    expect.objectContaining({
      index: 1,
      ordinal: 1,
      code: "combining_run_too_long",
      field: "answer_text",
      path: "$.answers[1].answer_text",
      ...where,
      limit: "max_non_starter_run",
      max_non_starter_run: 30,
    }),
  ]);
  expect((await platform.runAnswers(run)).size).toBe(0);
  await platform.submit(run, [{ ordinal: 0, answer_text: ok }]);
  expect((await platform.runAnswers(run)).size).toBe(1);
}
