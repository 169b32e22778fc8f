/**
 * probe15 A-F5: every submit summed `answer_bytes` over the whole `runs` table (under the lock
 * `answer-bytes:all`): with 1M runs a submit took 200-600 ms and the submits of all accounts ran one
 * after another. The stored-answer totals are now counter rows (`answer_bytes_totals`: one per account,
 * one for all accounts but the operator's) updated in the submit's transaction, O(1) per submit,
 * filled in from the runs by migration 0008. These tests hold the counters to the runs and the
 * refusals to the exact limit, with submits racing (on PostgreSQL: two platforms on one database).
 * The speed is measured by `scripts/bench-answer-totals.mjs`, not here.
 */
import { afterEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { runStartBytes } from "../src/runs.js";
import {
  cities,
  cleanup,
  freshStoreLocation,
  openAt,
  rejection,
  TEST_ENGINE,
  type Harness,
  undoMigration0011,
} from "./helpers.js";

afterEach(cleanup);

const TEMPLATE = "What is the answer for {payload.city} #{payload.index}?";
const answer = (ordinal: number, bytes: number) => ({ ordinal, answer_text: "x".repeat(bytes) });
/** What a 4-task run's start counts besides answers: its plan and receipt reserve (probe28 A-F4). */
const R = runStartBytes([0, 1, 2, 3]);

/** A 4-task benchmark on `h` (every task in every run, 3 attempts). */
async function bench(h: Harness, name: string): Promise<string> {
  const ds = await h.createDataset(cities(4, name));
  return (await h.publish(ds.dataset_id, { title: name, prompt_template: TEMPLATE, grader_type: "exact" }))
    .slug;
}

/** The counter rows, and the same totals summed from the runs (the operator's runs out of `all`). */
async function totals(h: Harness) {
  const db = h.ctx.store.db;
  const counted = new Map<string, number>();
  const rows = await sql<{
    scope: string;
    bytes: number | string;
  }>`SELECT scope, bytes FROM answer_bytes_totals`.execute(db);
  for (const r of rows.rows) if (Number(r.bytes) !== 0) counted.set(r.scope, Number(r.bytes));
  const summed = new Map<string, number>();
  const sums = await sql<{ account_id: string; bytes: number | string }>`
    SELECT account_id, SUM(answer_bytes) AS bytes FROM runs GROUP BY account_id`.execute(db);
  let all = 0;
  for (const r of sums.rows) {
    if (Number(r.bytes) === 0 || r.account_id === h.op.account_id) continue;
    summed.set(`account:${r.account_id}`, Number(r.bytes));
    all += Number(r.bytes);
  }
  if (all !== 0) summed.set("all", all);
  return { counted, summed };
}

describe("stored-answer totals kept as counters (probe15 A-F5)", () => {
  it("the counters agree with the runs after submits, replacements and shrinking answers", async () => {
    const h = await openAt(await freshStoreLocation());
    try {
      const slug = await bench(h, "agree");
      const a = (await h.startRun(slug, "alice")).run.id;
      const b = (await h.startRun(slug, "bob")).run.id;
      await h.submit(a, [answer(0, 700), { ordinal: 1, answer_text: "é".repeat(50) }]);
      await h.submit(b, [answer(0, 300)]);
      await h.submit(a, [answer(0, 10)]); // replaced: 690 bytes given back
      await h.submit(b, [answer(1, 5), answer(2, 6)]);
      const { counted, summed } = await totals(h);
      expect(counted).toEqual(summed);
      expect(summed.get("all")).toBe(2 * R + 10 + 100 + 300 + 11);
    } finally {
      await h.close();
    }
  });

  it("racing submits of many accounts: exactly the limit passes, the counters agree with the runs", async () => {
    const where = await freshStoreLocation();
    const limits = { answerBytesAllAccounts: 8 * R + 5000, answerBytesPerAccount: R + 2000 };
    const h = await openAt({ ...where, ...limits });
    // PostgreSQL: a second platform on the same database, as a second `serve` process
    const h2 = TEST_ENGINE === "postgres" ? await openAt({ ...where, ...limits }) : h;
    try {
      const slug = await bench(h, "race");
      const runs: { h: Harness; run: string }[] = [];
      for (let i = 0; i < 8; i++) {
        const on = i % 2 === 0 ? h : h2;
        runs.push({ h: on, run: (await on.startRun(slug, `racer${i}`)).run.id });
      }
      const results = await Promise.allSettled(runs.map((r) => r.h.submit(r.run, [answer(0, 1000)])));
      const passed = results.filter((r) => r.status === "fulfilled").length;
      expect(passed).toBe(5); // 8 starts and 5 x 1000 = the all-accounts limit exactly
      for (const r of results)
        if (r.status === "rejected")
          expect((r.reason as { details?: { limit?: string } }).details?.limit).toBe(
            "answer_bytes_all_accounts",
          );
      const { counted, summed } = await totals(h);
      expect(counted).toEqual(summed);
      expect(summed.get("all")).toBe(8 * R + 5000);

      // one account racing itself over 3 runs of its agents: 3 starts and 2 x 1000 = its limit exactly
      const me = await h.principal("solo");
      for (const agent of ["solo-2", "solo-3"]) await h.real.registerAgent(me, agent);
      const room = await openAt({
        ...where,
        answerBytesAllAccounts: null,
        answerBytesPerAccount: 3 * R + 2000,
      });
      try {
        const mine = [];
        for (const agent of ["solo", "solo-2", "solo-3"])
          mine.push((await room.real.startRun(me, slug, agent)).run.id);
        const own = await Promise.allSettled(mine.map((run) => room.submit(run, [answer(0, 1000)])));
        expect(own.filter((r) => r.status === "fulfilled")).toHaveLength(2);
        const refused = own.find((r) => r.status === "rejected") as PromiseRejectedResult;
        expect(refused.reason.details).toMatchObject({
          limit: "answer_bytes_per_account",
          limit_bytes: 3 * R + 2000,
          used_bytes: 3 * R + 2000,
        });
        const after = await totals(h);
        expect(after.counted).toEqual(after.summed);
        expect(after.summed.get(`account:${me.account_id}`)).toBe(3 * R + 2000);
      } finally {
        await room.close();
      }
    } finally {
      if (h2 !== h) await h2.close();
      await h.close();
    }
  });

  it("a refused batch changes no counter, and the next one at the limit exactly passes", async () => {
    const h = await openAt({ ...(await freshStoreLocation()), answerBytesAllAccounts: 2 * R + 3000 });
    try {
      const slug = await bench(h, "exact");
      const a = (await h.startRun(slug, "alice")).run.id;
      await h.submit(a, [answer(0, 2000)]);
      const b = (await h.startRun(slug, "bob")).run.id;
      const e = await rejection(h.submit(b, [answer(0, 1001)]));
      expect(e.details).toMatchObject({
        limit: "answer_bytes_all_accounts",
        used_bytes: 2 * R + 2000,
        answer_bytes: 1001,
      });
      expect((await totals(h)).counted.get("all")).toBe(2 * R + 2000);
      expect((await h.submit(b, [answer(0, 1000)])).answered).toBe(1);
      const { counted, summed } = await totals(h);
      expect(counted).toEqual(summed);
      expect(counted.get("all")).toBe(2 * R + 3000);
    } finally {
      await h.close();
    }
  });

  it("migration 0008 fills the counters in from the runs stored before it", async () => {
    const where = await freshStoreLocation();
    const before = await openAt(where);
    const slug = await bench(before, "migrate");
    const a = (await before.startRun(slug, "alice")).run.id;
    const b = (await before.startRun(slug, "bob")).run.id;
    await before.submit(a, [answer(0, 700), { ordinal: 1, answer_text: "é".repeat(50) }]);
    await before.submit(b, [answer(3, 42)]);
    const expected = (await totals(before)).summed;
    // back to the schema before 0008: no table, no later index, 0008 (and the later 0009) not recorded
    await undoMigration0011(before.ctx.store.db);
    await sql`DROP TABLE answer_bytes_totals`.execute(before.ctx.store.db);
    await sql`DROP INDEX runs_by_benchmark_started`.execute(before.ctx.store.db);
    await sql`ALTER TABLE verification_jobs DROP COLUMN observed_indexer`.execute(before.ctx.store.db);
    await sql`DELETE FROM kysely_migration WHERE name IN ('0008_answer_bytes_totals', '0009_runs_by_benchmark_started', '0010_verification_observers')`.execute(
      before.ctx.store.db,
    );
    await before.close();
    const after = await openAt(where);
    try {
      const { counted, summed } = await totals(after);
      expect(summed).toEqual(expected);
      expect(counted).toEqual(expected);
      expect(counted.get("all")).toBe(2 * R + 800 + 42);
    } finally {
      await after.close();
    }
  });
});
