/**
 * probeD1 F20: stored answers had no byte bound. One free account published 40 tasks with
 * `max_attempts: 1000` and stored 12 MB per run (answers of 100,000 characters, within the pack
 * allowance), up to 1,000 runs per agent. Publish now bounds what one agent may store on a benchmark:
 * `max_attempts x run tasks x max_answer_bytes <= ANSWER_BYTES_PER_AGENT` (the allowance is lowered
 * to fit, and a benchmark whose allowance would fall under MIN_ANSWER_BYTES is refused naming
 * max_attempts).
 */
import { afterEach, describe, expect, it } from "vitest";
import { ANSWER_BYTES_PER_AGENT, MAX_ANSWER_LENGTH, MIN_ANSWER_BYTES } from "../src/pack-budget.js";
import {
  DEFAULT_ANSWER_BYTES_ALL_ACCOUNTS,
  DEFAULT_ANSWER_BYTES_PER_ACCOUNT,
  runStartBytes,
} from "../src/runs.js";
import { receiptReserveBytes } from "../src/store/answer-totals.js";
import { sql } from "kysely";
import {
  cities,
  cleanup,
  freshPostgresTarget,
  openAt,
  openTemp,
  rejection,
  tempDir,
  TEST_ENGINE,
  type Harness,
  undoMigration0011,
} from "./helpers.js";

afterEach(cleanup);

const TEMPLATE = "What is the answer for {payload.city} #{payload.index}?";

describe("stored answer bytes of one agent on one benchmark (probeD1 F20)", () => {
  it("max_attempts 1000 over 40 tasks: max_answer_bytes is lowered so 1000 runs store at most the bound", async () => {
    const platform = await openTemp();
    try {
      const ds = await platform.createDataset(cities(40, "fill"));
      const { slug, config } = await platform.publish(ds.dataset_id, {
        title: "Fill",
        prompt_template: TEMPLATE,
        grader_type: "exact",
        max_attempts: 1000,
      });
      const tasks = 40; // public_tasks_per_run unset: every task is in every run
      expect(config.max_answer_bytes! * 1000 * tasks).toBeLessThanOrEqual(ANSWER_BYTES_PER_AGENT);
      expect(config.max_answer_bytes).toBeGreaterThanOrEqual(MIN_ANSWER_BYTES);
      expect((await platform.real.benchmarkDetail(slug)).max_answer_bytes).toBe(config.max_answer_bytes);
    } finally {
      await platform.close();
    }
  });

  it("the default 3 attempts over 40 tasks keep the whole character limit (6 bytes a character)", async () => {
    const platform = await openTemp();
    try {
      const ds = await platform.createDataset(cities(40, "small"));
      const { config } = await platform.publish(ds.dataset_id, {
        title: "Small",
        prompt_template: TEMPLATE,
        grader_type: "exact",
      });
      expect(config.max_answer_bytes).toBe(6 * MAX_ANSWER_LENGTH);
    } finally {
      await platform.close();
    }
  });

  it("an allowance that would fall under MIN_ANSWER_BYTES is refused at publish, naming max_attempts and the bound", async () => {
    const platform = await openTemp();
    try {
      const tasks = Math.floor(ANSWER_BYTES_PER_AGENT / (1000 * MIN_ANSWER_BYTES)) + 1;
      const ds = await platform.createDataset(cities(tasks, "too-many"));
      const e = await rejection(
        platform.publish(ds.dataset_id, {
          title: "Too many",
          prompt_template: TEMPLATE,
          grader_type: "exact",
          max_attempts: 1000,
        }),
      );
      expect(e.code).toBe("invalid_option");
      expect(e.details).toMatchObject({
        field: "max_attempts",
        limit: "answer_bytes_per_agent",
        answer_bytes_per_agent: ANSWER_BYTES_PER_AGENT,
        max_attempts: 1000,
        run_tasks: tasks,
        min_answer_bytes: MIN_ANSWER_BYTES,
      });
      expect(e.message).toMatch(/max_attempts/);
      expect(await platform.listBenchmarks()).toEqual([]);
    } finally {
      await platform.close();
    }
  });
});

/** Publishes a 4-task benchmark (every task in every run) titled `title` on `platform`; its slug. */
async function publishFourTasks(platform: Harness, title: string): Promise<string> {
  const ds = await platform.createDataset(cities(4, title.toLowerCase()));
  const spec = { title, prompt_template: TEMPLATE, grader_type: "exact" as const };
  return (await platform.publish(ds.dataset_id, spec)).slug;
}

/** A 4-task benchmark on a fresh store with the stored-answer bounds `o`. */
async function quotaBench(o: {
  answerBytesPerAccount?: number | null;
  answerBytesAllAccounts?: number | null;
}) {
  const platform = await openTemp(o);
  return { platform, slug: await publishFourTasks(platform, "Quota") };
}
const answer = (ordinal: number, bytes: number) => ({ ordinal, answer_text: "x".repeat(bytes) });
/** What the start of a run of 4 tasks charges the stored-answer quotas (its plan and receipt reserve). */
const R = runStartBytes([0, 1, 2, 3]);

/** Sum of the bytes the runs of `account` store: answers, plan_json and receipt_json (or its reserve). */
async function storedBytesOf(platform: Harness, account: string): Promise<number> {
  const db = platform.ctx.store.db;
  const runs = await db
    .selectFrom("runs")
    .select(["run_id", "plan_json", "receipt_json"])
    .where("account_id", "=", account)
    .execute();
  let n = 0;
  for (const r of runs) {
    const answers = await db
      .selectFrom("answers")
      .select("answer_text")
      .where("run_id", "=", r.run_id)
      .execute();
    for (const a of answers) n += Buffer.byteLength(a.answer_text, "utf8");
    n += Buffer.byteLength(r.plan_json, "utf8");
    n +=
      r.receipt_json === null
        ? receiptReserveBytes((JSON.parse(r.plan_json) as number[]).length)
        : Buffer.byteLength(r.receipt_json, "utf8");
  }
  return n;
}

// probe28 A-F4: receipts (~175 bytes per task, answered or not) and plans were in no storage bound: an
// empty run of a 12,000-task benchmark stored 2.1 MB, uncounted. They count in the answer budget now:
// the plan and a reserve for the receipt at start (refused past a bound, nothing stored), the receipt's
// real bytes in place of the reserve at finalize (never refused: the run is not lost).
describe("a run's plan and receipt count in the stored-answer quotas (probe28 A-F4)", () => {
  it("runs that store receipts count against the budget; past it the start is refused naming the limit", async () => {
    // room for one start (R) and 500 bytes more: the first run's receipt (over 1000 bytes) leaves no
    // room for a second start
    const { platform, slug } = await quotaBench({ answerBytesPerAccount: R + 500 });
    try {
      const alice = (await platform.principal("alice")).account_id;
      const first = (await platform.startRun(slug, "alice")).run.id;
      expect(await platform.ctx.store.runs.answerBytesOf(alice)).toBe(R);
      await platform.finalize(first); // no answer: the receipt alone
      const receipt = (
        await platform.ctx.store.db
          .selectFrom("runs")
          .select("receipt_json")
          .where("run_id", "=", first)
          .executeTakeFirstOrThrow()
      ).receipt_json!;
      const used = R - receiptReserveBytes(4) + Buffer.byteLength(receipt, "utf8");
      expect(Buffer.byteLength(receipt, "utf8")).toBeGreaterThan(1000); // stored, and counted:
      expect(await platform.ctx.store.runs.answerBytesOf(alice)).toBe(used);
      expect(await platform.ctx.store.answerTotals.get(`account:${alice}`)).toBe(used);
      expect(await platform.ctx.store.answerTotals.get("all")).toBe(used);
      expect(await storedBytesOf(platform, alice)).toBe(used);
      const e = await rejection(platform.startRun(slug, "alice"));
      expect(e.code).toBe("answer_quota_exceeded"); // REST/MCP: 413 (server errors.ts)
      expect(e.details).toEqual({
        limit: "answer_bytes_per_account",
        limit_bytes: R + 500,
        used_bytes: used,
        run_start_bytes: R,
      });
      expect(e.message).toMatch(/answer_bytes_per_account/);
      // nothing of the refused start is stored: one run, the counters unchanged
      expect(await platform.listRuns(slug, "alice")).toHaveLength(1);
      expect(await platform.ctx.store.answerTotals.get(`account:${alice}`)).toBe(used);
      // another account has its own budget
      expect((await platform.startRun(slug, "bob")).run.attempt).toBe(1);
    } finally {
      await platform.close();
    }
  });

  it("migration 0013 counts the plans and receipts (or reserves) of the runs stored before it", async () => {
    const where =
      TEST_ENGINE === "postgres"
        ? { database: await freshPostgresTarget(), runsDir: tempDir() }
        : { dir: tempDir() };
    const before = await openAt(where);
    const slug = await publishFourTasks(before, "Records");
    const done = (await before.startRun(slug, "alice")).run.id;
    await before.submit(done, [answer(0, 700)]);
    await before.finalize(done);
    await before.submit((await before.startRun(slug, "alice")).run.id, [answer(1, 30)]);
    const alice = (await before.principal("alice")).account_id;
    const stored = await storedBytesOf(before, alice);
    expect(stored).toBeGreaterThan(700 + 30 + R); // a receipt and a plan besides the answers
    // back to the schema before 0013: answer_bytes of the answers alone, the counters too
    await undoMigration0011(before.ctx.store.db);
    expect(await before.ctx.store.runs.answerBytesOf(alice)).toBe(730);
    await sql`UPDATE answer_bytes_totals SET bytes = 730`.execute(before.ctx.store.db);
    await before.close();
    const after = await openAt(where);
    try {
      expect(await after.ctx.store.runs.answerBytesOf(alice)).toBe(stored);
      expect(await after.ctx.store.answerTotals.get(`account:${alice}`)).toBe(stored);
      expect(await after.ctx.store.answerTotals.get("all")).toBe(stored);
    } finally {
      await after.close();
    }
  });

  it("all accounts together: a start past --answer-bytes-all is refused naming that limit", async () => {
    const { platform, slug } = await quotaBench({ answerBytesAllAccounts: R + 100 });
    try {
      await platform.startRun(slug, "alice");
      const e = await rejection(platform.startRun(slug, "bob"));
      expect(e.code).toBe("answer_quota_exceeded");
      expect(e.details).toEqual({
        limit: "answer_bytes_all_accounts",
        limit_bytes: R + 100,
        used_bytes: R,
        run_start_bytes: R,
      });
      expect(await platform.listRuns(slug, "bob")).toHaveLength(0);
    } finally {
      await platform.close();
    }
  });
});

describe("stored answer bytes per account and for all accounts (probe14 D1-F20)", () => {
  it("an account past --answer-bytes-per-account is refused naming the limit, nothing of the batch stored; a replaced answer gives its bytes back", async () => {
    // a run's start counts its plan and receipt reserve too (probe28 A-F4): R bytes per 4-task run
    const { platform, slug } = await quotaBench({ answerBytesPerAccount: R + 2500 });
    try {
      const run = (await platform.startRun(slug, "alice")).run.id;
      await platform.submit(run, [answer(0, 1000), answer(1, 1000)]);
      const e = await rejection(platform.submit(run, [answer(2, 400), answer(3, 600)]));
      expect(e.code).toBe("answer_quota_exceeded");
      expect(e.details).toEqual({
        limit: "answer_bytes_per_account",
        limit_bytes: R + 2500,
        used_bytes: R + 2000,
        answer_bytes: 1000,
      });
      expect(e.message).toMatch(/answer_bytes_per_account/);
      expect([...(await platform.runAnswers(run)).keys()].sort()).toEqual([0, 1]);
      // replacing answer 0 (1000 bytes) by 100 bytes frees 900: the batch fits now (2500 exactly)
      await platform.submit(run, [answer(0, 100)]);
      expect((await platform.submit(run, [answer(2, 400), answer(3, 600)])).answered).toBe(4);
      expect(
        await platform.ctx.store.runs.answerBytesOf((await platform.principal("alice")).account_id),
      ).toBe(R + 2100);
      // the bound is per account: another account stores its own
      const other = (await platform.startRun(slug, "bob")).run.id;
      expect((await platform.submit(other, [answer(0, 2500)])).answered).toBe(1);
    } finally {
      await platform.close();
    }
  });

  it("all accounts together past --answer-bytes-all are refused naming that limit", async () => {
    const { platform, slug } = await quotaBench({ answerBytesAllAccounts: 2 * R + 3000 });
    try {
      const a = (await platform.startRun(slug, "alice")).run.id;
      await platform.submit(a, [answer(0, 2000)]);
      const b = (await platform.startRun(slug, "bob")).run.id;
      const e = await rejection(platform.submit(b, [answer(0, 1001)]));
      expect(e.code).toBe("answer_quota_exceeded");
      expect(e.details).toEqual({
        limit: "answer_bytes_all_accounts",
        limit_bytes: 2 * R + 3000,
        used_bytes: 2 * R + 2000,
        answer_bytes: 1001,
      });
      expect((await platform.runAnswers(b)).size).toBe(0);
      expect((await platform.submit(b, [answer(0, 1000)])).answered).toBe(1);
    } finally {
      await platform.close();
    }
  });

  it("migration 0005 fills in the answer bytes of the runs stored before it", async () => {
    const where =
      TEST_ENGINE === "postgres"
        ? { database: await freshPostgresTarget(), runsDir: tempDir() }
        : { dir: tempDir() };
    const before = await openAt(where);
    const slug = await publishFourTasks(before, "Migrate");
    const run = (await before.startRun(slug, "alice")).run.id;
    await before.submit(run, [answer(0, 700), { ordinal: 1, answer_text: "é".repeat(50) }]);
    const alice = (await before.principal("alice")).account_id;
    // back to the schema before 0005: no column, 0005 (and the later 0006 to 0009) not recorded
    await undoMigration0011(before.ctx.store.db);
    await sql`ALTER TABLE runs DROP COLUMN answer_bytes`.execute(before.ctx.store.db);
    await sql`ALTER TABLE anchors DROP COLUMN squat_json`.execute(before.ctx.store.db);
    await sql`DROP INDEX runs_by_account_started`.execute(before.ctx.store.db);
    await sql`DROP TABLE answer_bytes_totals`.execute(before.ctx.store.db);
    await sql`DROP INDEX runs_by_benchmark_started`.execute(before.ctx.store.db);
    await sql`ALTER TABLE verification_jobs DROP COLUMN observed_indexer`.execute(before.ctx.store.db);
    await sql`DELETE FROM kysely_migration WHERE name IN ('0005_answer_bytes', '0006_anchor_squats', '0007_runs_by_account_started', '0008_answer_bytes_totals', '0009_runs_by_benchmark_started', '0010_verification_observers')`.execute(
      before.ctx.store.db,
    );
    await before.close();
    const after = await openAt(where);
    try {
      expect(await after.ctx.store.runs.answerBytesOf(alice)).toBe(R + 700 + 100); // 0013 ran again too
    } finally {
      await after.close();
    }
  });

  it("defaults to 1 GiB per account and 32 GiB for all; a bad option is refused naming it", async () => {
    expect(DEFAULT_ANSWER_BYTES_PER_ACCOUNT).toBe(1024 ** 3);
    expect(DEFAULT_ANSWER_BYTES_ALL_ACCOUNTS).toBe(32 * 1024 ** 3);
    const platform = await openTemp();
    try {
      expect(platform.ctx.answerBytesPerAccount).toBe(DEFAULT_ANSWER_BYTES_PER_ACCOUNT);
      expect(platform.ctx.answerBytesAllAccounts).toBe(DEFAULT_ANSWER_BYTES_ALL_ACCOUNTS);
    } finally {
      await platform.close();
    }
    for (const field of ["answerBytesPerAccount", "answerBytesAllAccounts"] as const)
      expect((await rejection(openTemp({ [field]: 0 }))).details).toEqual({ field });
  });
});
