import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bubblewrapAvailable } from "../src/agent-process.js";
import { runBenchmark } from "../src/runner.js";
import { cities, cleanup, manualClock, openTemp, tempDir, TEST_ENGINE, CITIES_PUBLISH } from "./helpers.js";

afterEach(cleanup);

/** Removes what differs between two agents by construction (ids, hashes salted with the run's secret salt). */
function scrub(v: unknown): unknown {
  return JSON.parse(
    JSON.stringify(v, (k, x: unknown) =>
      ["run_id", "id", "agent_id", "receipt_hash", "account_id"].includes(k) ? "<id>" : x,
    ),
  );
}

describe("SPEC 6.1: throwaway agents learn nothing about a private label while open (issue 13 item 4)", () => {
  it("two agents differing only in their private answer see byte-identical responses", async () => {
    const seen: unknown[][] = [];
    const composites: (string | null)[] = [];
    // probe i answers every public task right, and the private tasks right (i = 0) or wrong (i = 1), on
    // the same benchmark (same seed) at the same instants: only the private answer differs
    for (const [i, privateRight] of [true, false].entries()) {
      const clock = manualClock();
      const h = await openTemp({ clock: clock.now, answerSaltSeed: "x" });
      const ds = await h.createDataset(cities(6));
      const { slug } = await h.publish(ds.dataset_id, {
        ...CITIES_PUBLISH,
        public_fraction: "0.5",
        max_attempts: 1,
        seed: "s",
      });
      const gold = new Map(
        (await h.testSet(slug)).map((t) => [t.prompt, (t.gold as { value: string }).value]),
      );
      const p = h.real;
      const me = await p.authenticate((await p.createAccount({ name: `probe${i}` })).api_key);
      const started = await p.startRun(me, slug, `probe${i}`);
      const answers = started.tasks.map((t) => ({
        ordinal: t.ordinal,
        answer_text: t.visibility === "public" || privateRight ? gold.get(t.prompt)! : "wrong",
      }));
      await p.submit(me, started.run.id, answers);
      clock.advance(1_000);
      const out: unknown[] = [];
      out.push(await p.finalize(me, started.run.id));
      out.push(await p.getRun(me, started.run.id));
      out.push(await p.myRuns(me));
      const board = await p.leaderboard(slug, { viewer: me });
      out.push(board.rows.find((r) => r.agent_id === `probe${i}`));
      out.push(await p.receipt(me, slug, started.run.id).catch((e: Error & { code?: string }) => e.code));
      seen.push(out.map(scrub));
      composites.push((await h.getRun(started.run.id)).score_composite);
    }
    expect(seen[1]).toEqual(seen[0]);
    // and nothing private was served: no private composite, accuracy, private credit or receipt
    const text = JSON.stringify(seen);
    expect(text).not.toMatch(/"score_composite"|"rank_accuracy"|"private","credit"|"receipt":/);
    expect(text).toContain("receipt_withheld");
    // the stored private composites do differ: the sameness above is the secrecy, not a dead probe
    expect(composites[0]).not.toBe(composites[1]);
  });
});

// The store file is what this hides: an SQLite store's (a PostgreSQL store is no local file).
describe.runIf(TEST_ENGINE === "sqlite")(
  "a CLI agent gets an allowlisted environment, its own directory, and no sight of the store (issue 13 item 3)",
  () => {
    it("no key or database URL in its environment; cwd is a fresh temp dir; the store is hidden under bubblewrap", async () => {
      const clock = manualClock();
      const h = await openTemp({ clock: clock.now });
      const ds = await h.createDataset(cities(2));
      const { slug } = await h.publish(ds.dataset_id, {
        ...CITIES_PUBLISH,
      });
      const spy = join(tempDir(), "spy.mjs");
      const storeFile = join(h.ctx.store.dir, "platform.sqlite");
      writeFileSync(
        spy,
        `import { existsSync, readFileSync } from "node:fs";
const input = JSON.parse(readFileSync(0, "utf8"));
let store = "unreadable";
try { store = readFileSync(${JSON.stringify(storeFile)}).length > 0 ? "read" : "empty"; } catch (e) { store = e.code; }
const report = JSON.stringify({ env: Object.keys(process.env).sort(), cwd: process.cwd(), home: process.env.HOME, store });
process.stdout.write(JSON.stringify({ answers: input.tasks.map((t) => ({ ordinal: t.ordinal, answer_text: report })) }));
`,
      );
      const saved = { ...process.env };
      process.env.BENCH_BOUNTY_PRIVATE_KEY = "0x" + "ee".repeat(32);
      process.env.BENCH_BOUNTY_AUTHOR_KEY = "0x" + "dd".repeat(32);
      process.env.DATABASE_URL = "postgresql://u:p@localhost/db";
      process.env.BENCH_BOUNTY_API_KEY = "bbk_000000000000_secret";
      try {
        const r = await runBenchmark(await h.backend("spy"), slug, "spy", {
          kind: "command",
          command: `node ${spy}`,
        });
        const answers = await h.runAnswers(r.run_id);
        const report = JSON.parse([...answers.values()][0]!) as {
          env: string[];
          cwd: string;
          home: string;
          store: string;
        };
        for (const k of report.env)
          expect([
            "PATH",
            "LANG",
            "LC_ALL",
            "LC_CTYPE",
            "TZ",
            "TERM",
            "HOME",
            "TMPDIR",
            "PWD",
            "SHLVL",
            "_",
            "OLDPWD",
          ]).toContain(k);
        expect(report.cwd).toMatch(/bb-agent-/);
        expect(report.home).toBe(report.cwd);
        if (bubblewrapAvailable()) expect(report.store).toBe("ENOENT");
        else console.warn("bubblewrap not usable here: the store-hiding assertion is skipped");
      } finally {
        process.env = saved;
      }
    }, 60_000);
  },
);

describe("SPEC 6.1's author exception (probe15 A-F10)", () => {
  it("while open, with attempts left: the author's own finalize carries the private figures, a competitor's none", async () => {
    const h = await openTemp();
    const author = await h.real.authenticate((await h.real.createAccount({ name: "exc-author" })).api_key);
    const ds = await h.real.createDataset(author, cities(6, "exc"));
    const { slug } = await h.real.publish(author, ds.dataset_id, {
      ...CITIES_PUBLISH,
      public_fraction: "0.5",
      max_attempts: 3,
    });
    const finalizeAs = async (name: string) => {
      const who = name === "exc-author" ? author : await h.principal(name);
      const run = await h.real.startRun(who, slug, name);
      return h.real.finalize(who, run.run.id);
    };
    const own = await finalizeAs("exc-author");
    expect(own.attempts_remaining).toBe(2);
    expect(own).toMatchObject({ score_composite: expect.any(String), rank_accuracy: expect.any(String) });
    expect(own.per_task!.some((t) => t.visibility === "private")).toBe(true);
    const rival = await finalizeAs("exc-rival");
    expect(rival.attempts_remaining).toBe(2);
    expect(rival).not.toHaveProperty("score_composite");
    expect(rival).not.toHaveProperty("rank_accuracy");
    expect(rival).not.toHaveProperty("per_task");
    await h.close();
  });
});

// probe25 A-F2: an off-chain store shows a receipt's hash (nothing to anchor it with) and said of it
// "its hash is anchored already" while the run said receipt_anchor_status off_chain
describe("the withheld receipt's message on a store without a chain", () => {
  it("says the receipt comes at close and never that its hash is anchored", async () => {
    const h = await openTemp();
    const author = await h.real.authenticate((await h.real.createAccount({ name: "oc-author" })).api_key);
    const ds = await h.real.createDataset(author, cities(4, "oc"));
    const { slug } = await h.real.publish(author, ds.dataset_id, { ...CITIES_PUBLISH, max_attempts: 1 });
    const rival = await h.principal("oc-rival");
    const run = await h.real.startRun(rival, slug, "oc-rival");
    const done = await h.real.finalize(rival, run.run.id);
    expect(done.receipt_anchor_status).toBe("off_chain");
    const refusal = await h.real.receipt(rival, slug, run.run.id).then(
      () => null,
      (e: Error & { code?: string }) => e,
    );
    expect(refusal).toMatchObject({ code: "receipt_withheld", details: { reason: "withheld_live_contest" } });
    expect(refusal!.message).toBe(`receipts of ${slug} are served once it closes (SPEC 6.1)`);
    await h.close();
  });
});
