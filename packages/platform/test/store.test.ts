/**
 * The store on the engine under test (SQLite, or PostgreSQL with `BB_TEST_ENGINE=postgres`):
 * refusals before any write, migrations applied once, all-or-nothing transactions, and two stores on
 * one database (two processes' views of it) racing the steps where a race could double something.
 */
import BetterSqlite3 from "better-sqlite3";
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { takeFileLock } from "../src/store/file-lock.js";
import { sql } from "kysely";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { Platform, type PlatformOptions } from "../src/platform.js";
import { maxRankedRows } from "../src/pack-budget.js";
import { LockWaitExpired, Store } from "../src/store.js";
import { postgresFailure, type StoreTarget } from "../src/store/engine.js";
import type { Principal } from "../src/identity/principal.js";
import {
  cities,
  CITIES_PUBLISH,
  cleanup,
  freshPostgresTarget,
  holdLockInChild,
  openTemp,
  promptAgent,
  rejection,
  tempDir,
  TEST_ENGINE,
} from "./helpers.js";

afterEach(cleanup);

/** A fresh, empty database of the engine under test, and a way to run raw SQL on it. */
async function freshDatabase(): Promise<{
  target: StoreTarget | { dir: string };
  label: RegExp;
  exec(sql: string): Promise<void>;
  tables(): Promise<string[]>;
}> {
  if (TEST_ENGINE === "postgres") {
    const target = await freshPostgresTarget();
    const run = async <T>(f: (c: pg.Client) => Promise<T>): Promise<T> => {
      const c = new pg.Client({ connectionString: target.url, options: `-c search_path=${target.schema}` });
      await c.connect();
      try {
        return await f(c);
      } finally {
        await c.end();
      }
    };
    return {
      target,
      // host, port, database and schema: never the user (probe16 B-F2 addendum)
      label: /postgresql 127\.0\.0\.1:5432\/\w+ \(schema \w+\)/,
      exec: (sql) => run(async (c) => void (await c.query(sql))),
      tables: () =>
        run(async (c) =>
          (
            await c.query<{ t: string }>(
              "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1",
            )
          ).rows.map((r) => r.t),
        ),
    };
  }
  const dir = tempDir();
  const file = join(dir, "platform.sqlite");
  const raw = <T>(f: (d: BetterSqlite3.Database) => T): T => {
    const d = new BetterSqlite3(file);
    try {
      return f(d);
    } finally {
      d.close();
    }
  };
  return {
    target: { dir },
    label: /platform\.sqlite/,
    exec: async (sql) => raw((d) => void d.exec(sql)),
    tables: async () =>
      raw((d) =>
        (
          d.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
            name: string;
          }[]
        ).map((r) => r.name),
      ),
  };
}

describe(`the store on ${TEST_ENGINE}`, () => {
  it("refuses a non-empty database without the marker, before writing anything, naming it", async () => {
    const db = await freshDatabase();
    await db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY)");
    const e = await rejection(Store.open(db.target));
    expect(e.code).toBe("invalid_store");
    expect(e.message).toMatch(db.label);
    expect(e.message).not.toMatch(/postgres:|\*\*\*/);
    expect(e.message).toMatch(/without the store's marker meta\.schema_version \(tables: notes\)/);
    expect(await db.tables()).toEqual(["notes"]);
  });

  it("refuses an unknown schema version, and version 2 with a message saying it is not migrated", async () => {
    for (const [version, why] of [
      ["9", /schema version 9, this platform reads version 3/],
      ["2", /schema version 2 .*does not migrate version 2/],
    ] as const) {
      const db = await freshDatabase();
      await db.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
      await db.exec(`INSERT INTO meta (key, value) VALUES ('schema_version', '${version}')`);
      const e = await rejection(Store.open(db.target));
      expect(e.code).toBe("invalid_store");
      expect(e.message).toMatch(why);
      expect(await db.tables()).toEqual(["meta"]);
    }
  });

  it("creates the schema once (versioned migrations) and reopens it", async () => {
    const db = await freshDatabase();
    const s1 = await Store.open(db.target);
    await s1.close();
    const s2 = await Store.open(db.target);
    try {
      const applied = await s2.db
        .selectFrom("meta")
        .select("value")
        .where("key", "=", "schema_version")
        .executeTakeFirstOrThrow();
      expect(applied.value).toBe("3");
      expect(await db.tables()).toEqual(
        expect.arrayContaining([
          "accounts",
          "runs",
          "answers",
          "packs",
          "verification_jobs",
          "kysely_migration",
        ]),
      );
      expect(await s2.accounts.get("acct_operator")).toMatchObject({ name: "operator" });
    } finally {
      await s2.close();
    }
  });

  it("the all-accounts finalize count reads runs through the index runs_by_finalize (migration 0003)", async () => {
    const db = await freshDatabase();
    const s = await Store.open(db.target);
    try {
      const count = "SELECT count(*) FROM runs WHERE account_id != 'acct_operator' AND finalized_at_ms >= 1";
      const plan = await s.db.transaction().execute(async (trx) => {
        if (TEST_ENGINE !== "postgres") return sql.raw(`EXPLAIN QUERY PLAN ${count}`).execute(trx);
        await sql`SET LOCAL enable_seqscan = off`.execute(trx); // an empty table is scanned otherwise
        return sql.raw(`EXPLAIN ${count}`).execute(trx);
      });
      expect(JSON.stringify(plan.rows)).toContain("runs_by_finalize");
      const n = await s.runs.finalizedSinceAll("acct_operator", 1);
      expect(n).toBe(0);
    } finally {
      await s.close();
    }
  });

  it("a benchmark's finalized runs are paged through the index runs_by_benchmark_started (migration 0009)", async () => {
    const db = await freshDatabase();
    const s = await Store.open(db.target);
    try {
      const page =
        "SELECT run_id FROM runs WHERE slug = 'b' AND status = 'finalized' ORDER BY started_at_ms, run_id LIMIT 10 OFFSET 5000";
      const plan = await s.db.transaction().execute(async (trx) => {
        if (TEST_ENGINE !== "postgres") return sql.raw(`EXPLAIN QUERY PLAN ${page}`).execute(trx);
        await sql`SET LOCAL enable_seqscan = off`.execute(trx); // an empty table is scanned otherwise
        return sql.raw(`EXPLAIN ${page}`).execute(trx);
      });
      const text = JSON.stringify(plan.rows);
      expect(text).toContain("runs_by_benchmark_started");
      // read in the index's order: no sort of the benchmark's runs
      expect(text).not.toMatch(/TEMP B-TREE FOR ORDER BY|"Sort/);
      expect(await s.runs.finalizedOfBenchmark("b", { offset: 0, limit: 10 })).toEqual([]);
    } finally {
      await s.close();
    }
  });

  // probe26 A-F2: the door's 200 read the whole pack per request (~69 MB held per reader of a 60 MB pack)
  it("a stored pack is read once for all its readers, when one first asks, and handed out in chunks", async () => {
    const h = await openTemp();
    try {
      const op = h.real.localOperator();
      const ds = await h.real.createDataset(op, cities(3));
      const { slug } = await h.real.publish(op, ds.dataset_id, CITIES_PUBLISH);
      // every byte value, and a size that is not a multiple of the chunk
      const bytes = new Uint8Array(10_000 + 7).map((_, i) => (i * 31 + 7) % 256);
      const hash = `0x${"cd".repeat(32)}` as const;
      await h.ctx.store.packs.insertIfAbsent({
        slug,
        bytes,
        pack_hash: hash,
        created_at: "2026-01-01T00:00:00Z",
      });
      let reads = 0;
      const read = h.ctx.store.packs.bytes.bind(h.ctx.store.packs);
      h.ctx.store.packs.bytes = (s, ph) => {
        reads += 1;
        return read(s, ph);
      };
      const readers = Array.from({ length: 5 }, () =>
        h.real.awardEvidenceChunks(slug, hash, bytes.byteLength, 4096)[Symbol.asyncIterator](),
      );
      expect(reads).toBe(0); // nothing read before a chunk is asked for (a refused answer reads nothing)
      const all = await Promise.all(
        readers.map(async (it) => {
          const parts: Uint8Array[] = [];
          for (let next = await it.next(); !next.done; next = await it.next()) parts.push(next.value);
          return parts;
        }),
      );
      expect(reads).toBe(1); // five concurrent readers, one read of the store
      for (const parts of all) {
        expect(parts.map((p) => p.byteLength)).toEqual([4096, 4096, 1815]);
        expect(Buffer.concat(parts).equals(Buffer.from(bytes))).toBe(true);
        // views of the one copy, not copies of it
        expect(new Set(parts.map((p) => p.buffer)).size).toBe(1);
      }
      expect(all[0]![0]!.buffer).toBe(all[4]![0]!.buffer);
      // a later reader takes the kept copy; the default chunk (1 MiB) hands this small pack at once
      const whole: Uint8Array[] = [];
      for await (const p of h.real.awardEvidenceChunks(slug, hash, bytes.byteLength)) whole.push(p);
      expect(reads).toBe(1);
      expect(whole).toHaveLength(1);
      expect(Buffer.from(whole[0]!).equals(Buffer.from(bytes))).toBe(true);
      // another hash: a fault, never other bytes, and not kept (asked again, read again)
      for (const n of [2, 3]) {
        const other = h.real.awardEvidenceChunks(slug, `0x${"00".repeat(32)}`, 10);
        await expect(other[Symbol.asyncIterator]().next()).rejects.toThrow(/no pack 0x0{64} of .* is stored/);
        expect(reads).toBe(n);
      }
      // a size the stored bytes do not have: a fault
      const longer = h.real.awardEvidenceChunks(slug, hash, bytes.byteLength + 5);
      await expect(longer[Symbol.asyncIterator]().next()).rejects.toThrow(/has 10007 bytes, not 10012/);
    } finally {
      await h.close();
    }
  });
  it("a transaction that fails half-way leaves nothing behind", async () => {
    const db = await freshDatabase();
    const s = await Store.open(db.target);
    try {
      const boom = s.tx(async (t) => {
        await t.agents.insertIfAbsent(
          {
            agent_id: "half",
            owner_account_id: "acct_operator",
            withdrawal_address: null,
            is_author_agent: false,
          },
          "2026-01-01T00:00:00Z",
        );
        expect(await t.agents.get("half")).not.toBeNull();
        throw new Error("crash in the middle");
      });
      await expect(boom).rejects.toThrow("crash in the middle");
      expect(await s.agents.get("half")).toBeNull();
    } finally {
      await s.close();
    }
  });

  it.skipIf(TEST_ENGINE !== "postgres")(
    "a bounded transaction whose deadline passes after its last statement is rolled back at COMMIT: server_busy, nothing written (probe21 A-F5)",
    async () => {
      const db = await freshDatabase();
      const s = await Store.open(db.target);
      const agent = (agent_id: string) => ({
        agent_id,
        owner_account_id: "acct_operator",
        withdrawal_address: null,
        is_author_agent: false,
      });
      try {
        const locksBy = Date.now() + 1_000;
        const late = s.tx(
          async (t) => {
            await t.agents.insertIfAbsent(agent("late"), "2026-01-01T00:00:00Z");
            // no statement meets the deadline: only the check before COMMIT can
            await new Promise((resolve) => setTimeout(resolve, locksBy - Date.now() + 50));
          },
          { locksBy },
        );
        await expect(late).rejects.toMatchObject({
          code: "server_busy",
          details: { retry_after_seconds: 5 },
        });
        expect(await s.agents.get("late")).toBeNull();
        // before its deadline the same write commits
        await s.tx((t) => t.agents.insertIfAbsent(agent("in-time"), "2026-01-01T00:00:00Z"), {
          locksBy: Date.now() + 30_000,
        });
        expect(await s.agents.get("in-time")).not.toBeNull();
      } finally {
        await s.close();
      }
    },
  );

  it("withLock with waitMs gives up on a held lock (LockWaitExpired) without letting anyone in early", async () => {
    const db = await freshDatabase();
    // two stores on one database: two processes' views on PostgreSQL, one process's on SQLite
    const s1 = await Store.open(db.target);
    const s2 = await Store.open(db.target);
    try {
      const events: string[] = [];
      let releaseA!: () => void;
      const aHolds = new Promise<void>((r) => (releaseA = r));
      let aStarted!: () => void;
      const started = new Promise<void>((r) => (aStarted = r));
      const a = s1.withLock("award:x", async () => {
        events.push("a in");
        aStarted();
        await aHolds;
        events.push("a out");
      });
      await started;
      // b waits 150 ms, then gives up; its fn never runs
      const b: unknown = await s2
        .withLock("award:x", async () => void events.push("b in"), { waitMs: 150 })
        .catch((e: unknown) => e);
      expect(b).toBeInstanceOf(LockWaitExpired);
      expect(b).toMatchObject({ lock: "award:x", waitMs: 150 });
      // c waits without a bound on the store that gave up: it must still wait for a
      const c = s2.withLock("award:x", async () => void events.push("c in"));
      await new Promise((r) => setTimeout(r, 100));
      expect(events).toEqual(["a in"]);
      releaseA();
      await Promise.all([a, c]);
      expect(events).toEqual(["a in", "a out", "c in"]);
      // once free, a bounded wait takes it at once; and on PostgreSQL the session is back to no lock_timeout
      await s2.withLock("award:x", async () => void events.push("d in"), { waitMs: 150 });
      expect(events.at(-1)).toBe("d in");
      if (TEST_ENGINE === "postgres") {
        const r = await sql<{ t: string }>`SELECT current_setting('lock_timeout') AS t`.execute(s2.db);
        expect(r.rows[0]!.t).toBe("0");
      }
    } finally {
      await s1.close();
      await s2.close();
    }
  });
});

describe("withLock across processes (probe19 A-F9: on SQLite it held only within the process)", () => {
  it("another process holding a lock makes this one wait (LockWaitExpired past waitMs) until it lets go or dies", async () => {
    const db = await freshDatabase();
    const where = "dir" in db.target ? db.target : { database: db.target };
    const store = await Store.open(db.target);
    try {
      const other = await holdLockInChild(where, "award:x");
      const early = await store
        .withLock("award:x", async () => "entered", { waitMs: 300 })
        .catch((e: unknown) => e);
      expect(early).toBeInstanceOf(LockWaitExpired);
      expect(early).toMatchObject({ lock: "award:x", waitMs: 300 });
      // another name is free meanwhile
      expect(await store.withLock("award:y", async () => "y", { waitMs: 300 })).toBe("y");
      // a caller without a bound waits until the other process lets go
      let entered = false;
      const waiting = store.withLock("award:x", async () => void (entered = true));
      await new Promise((r) => setTimeout(r, 300));
      expect(entered).toBe(false);
      await other.release();
      await waiting;
      expect(entered).toBe(true);
      // a holder that dies (SIGKILL, no release) lets the lock go with it
      const dying = await holdLockInChild(where, "award:x");
      expect(
        await store.withLock("award:x", async () => "in", { waitMs: 200 }).catch((e: unknown) => e),
      ).toBeInstanceOf(LockWaitExpired);
      await dying.kill();
      expect(await store.withLock("award:x", async () => "in", { waitMs: 20_000 })).toBe("in");
      // and this process's hold keeps another process out
      let releaseMine!: () => void;
      let mineHeld!: () => void;
      const held = new Promise<void>((r) => (mineHeld = r));
      const mine = store.withLock("award:x", async () => {
        mineHeld();
        await new Promise<void>((r) => (releaseMine = r));
      });
      await held;
      const third = holdLockInChild(where, "award:x");
      let thirdHeld = false;
      void third.then(() => (thirdHeld = true));
      await new Promise((r) => setTimeout(r, 1_000));
      expect(thirdHeld).toBe(false);
      releaseMine();
      await mine;
      await (await third).release();
    } finally {
      await store.close();
    }
  });
});

if (TEST_ENGINE === "postgres") {
  describe("the PostgreSQL store's connection errors", () => {
    // probe15 B-F15: a masked part (options=***) was quoted by PostgreSQL's own message, and the user named
    it("names the store by host, port and database only, never the user, password or a parameter", async () => {
      const base = new URL(process.env.TEST_DATABASE_URL!);
      const shown = `postgresql ${base.hostname}:${base.port || "5432"}${base.pathname}`;
      const wrongPassword = new URL(base);
      wrongPassword.password = "wrong-secret-pw";
      const badOptions = new URL(base);
      badOptions.searchParams.set("options", '-c search_path="MYSECRET;x');
      const noUser = new URL(base);
      noUser.username = "nosuchuserxyz";
      for (const [url, secrets, why] of [
        [
          wrongPassword,
          ["wrong-secret-pw", `"${base.username}"`, `${base.username}:`],
          /authentication failed: check the user and password \(SQLSTATE 28P01\)/,
        ],
        [
          badOptions,
          ["MYSECRET", "search_path", `"${base.username}"`, `${base.username}:`],
          /SQLSTATE 22023|SQLSTATE 3F000|SQLSTATE 42704/,
        ],
        [noUser, ["nosuchuserxyz"], /authentication failed|role/],
      ] as const) {
        const e = await rejection(Store.open({ engine: "postgres", url: url.href }));
        expect(e.code).toBe("invalid_store");
        expect(e.message).toMatch(
          new RegExp(`^cannot open the PostgreSQL store ${shown.replaceAll(".", "\\.")}: `),
        );
        expect(e.message).toMatch(why);
        for (const secret of secrets) {
          expect(e.message).not.toContain(secret);
          expect(JSON.stringify(e.details)).not.toContain(secret);
        }
      }
    });
  });
}

describe("what a PostgreSQL session that connects but cannot use the store is told (probe17 B-F8)", () => {
  it("a statement timeout in the URL's options (SQLSTATE 57014) is named as what cancels the store's queries", () => {
    expect(postgresFailure({ code: "57014" })).toBe(
      "a statement timeout (statement_timeout in DATABASE_URL's options, or the role's or database's setting) cancels the store's queries (SQLSTATE 57014)",
    );
  });
  it.runIf(TEST_ENGINE === "postgres")(
    "a search path naming no existing schema is SQLSTATE 3F000, not 'cannot connect'",
    async () => {
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.searchParams.set("options", "-c search_path=nope_probe17");
      const e = await rejection(Store.open({ engine: "postgres", url: url.href }));
      expect(e.code).toBe("invalid_store");
      expect(e.message).toMatch(
        /: the store's schema cannot be used: the search path \(DATABASE_URL's options, or the schema the store is opened in\) names no existing schema \(SQLSTATE 3F000\)$/,
      );
      expect(e.message).not.toContain("nope_probe17");
      expect(e.details).toMatchObject({ pg_code: "3F000" });
    },
  );
});

describe("a DATABASE_URL pg cannot read (probe16 B-F2)", () => {
  // no server is contacted: the URL is refused as unreadable, never "refused by the server", never echoed
  it.each([
    ["a port out of range", "postgresql://postgres:S3CRETPW@127.0.0.1:99999/db"],
    ["an unclosed IPv6 bracket", "postgresql://postgres:S3CRETPW@[::1/db"],
  ])("%s: named as unreadable, without its user, host or password", async (_why, url) => {
    const e = await rejection(Store.open({ engine: "postgres", url }));
    expect(e.code).toBe("invalid_store");
    expect(e.message).toBe("DATABASE_URL: not a PostgreSQL URL pg can read (the value is not shown)");
    expect(JSON.stringify(e.details)).not.toMatch(/S3CRETPW|postgres:|99999|::1/);
  });

  it("an ssl file the URL names that does not exist: named as such, not as the server's refusal", async () => {
    const url = "postgresql://postgres:S3CRETPW@127.0.0.1:5432/db?sslmode=require&sslcert=/nonexistent/x.crt";
    const e = await rejection(Store.open({ engine: "postgres", url }));
    expect(e.code).toBe("invalid_store");
    expect(e.message).toMatch(/a file the URL's ssl parameters name cannot be read \(ENOENT\)/);
    expect(e.message + JSON.stringify(e.details)).not.toMatch(/S3CRETPW|postgres:|nonexistent/);
  });
});

/**
 * Two platforms on one fresh database, as two `serve` processes would be (PostgreSQL). On SQLite,
 * one platform twice: one `serve` per SQLite store, whose requests race inside the process (two
 * synchronous connections in one thread would wait on each other's lock).
 */
async function twoPlatforms(opts: Partial<PlatformOptions> = {}): Promise<[Platform, Platform]> {
  const db = await freshDatabase();
  if ("dir" in db.target) {
    const one = await Platform.open({ ...opts, dir: db.target.dir });
    return [one, one];
  }
  const target = db.target;
  return [
    await Platform.open({ ...opts, database: target }),
    await Platform.open({ ...opts, database: target }),
  ];
}

describe(`concurrent requests on one ${TEST_ENGINE} database (${TEST_ENGINE === "postgres" ? "two processes" : "one process"})`, () => {
  it("race one agent's start, submit and finalize: one run in progress, one answer per ordinal, one finalize", async () => {
    const [a, b] = await twoPlatforms();
    try {
      const op = a.localOperator();
      const ds = await a.createDataset(op, cities(6));
      const { slug } = await a.publish(op, ds.dataset_id, {
        title: "Race",
        prompt_template: "Q {payload.city} #{payload.index}",
        grader_type: "exact",
        max_attempts: 3,
      });
      const made = await a.createAccount({ name: "racer" });
      const p: Principal = await a.authenticate(made.api_key);
      await a.registerAgent(p, "racer-bot");
      const starts = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).startRun(p, slug, "racer-bot")),
      );
      const won = starts.filter((s) => s.status === "fulfilled");
      expect(won).toHaveLength(1);
      for (const s of starts)
        if (s.status === "rejected") expect(s.reason).toMatchObject({ code: "run_in_progress" });
      const started = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<Platform["startRun"]>>>).value;
      const runId = started.run.id;
      expect((await a.getRun(p, runId)).attempt).toBe(1);
      const answers = started.tasks.map((t) => ({ ordinal: t.ordinal, answer_text: promptAgent(t.prompt) }));
      await Promise.all([
        a.submit(p, runId, answers),
        b.submit(p, runId, answers),
        a.submit(p, runId, answers),
      ]);
      expect((await b.runAnswers(p, runId)).size).toBe(answers.length);
      const finals = await Promise.allSettled([
        a.finalize(p, runId),
        b.finalize(p, runId),
        b.finalize(p, runId),
      ]);
      expect(finals.filter((f) => f.status === "fulfilled")).toHaveLength(1);
      for (const f of finals)
        if (f.status === "rejected") expect(f.reason).toMatchObject({ code: "already_finalized" });
      const board = await b.leaderboard(slug);
      expect(board.rows.map((r) => r.run_id)).toEqual([runId]);
      // the next attempt is attempt 2, from either process
      expect((await b.startRun(p, slug, "racer-bot")).run.attempt).toBe(2);
    } finally {
      await a.close();
      if (b !== a) await b.close();
    }
  });

  it("race 24 new agents' first starts against a cap of 8: exactly 8 start, the rest are benchmark_full", async () => {
    const maxPackBytes = 140_000; // 8 ranked rows (pack-budget.test)
    expect(maxRankedRows(maxPackBytes)).toBe(8);
    // published at the real limit (a 140,000-byte pack leaves no room for the test set's half), then lowered
    const faults: { maxPackBytes?: number } = {};
    const [a, b] = await twoPlatforms({ faults });
    try {
      const op = a.localOperator();
      const ds = await a.createDataset(op, cities(2));
      const { slug } = await a.publish(op, ds.dataset_id, {
        title: "Cap",
        prompt_template: "Q {payload.city} #{payload.index}",
        grader_type: "exact",
      });
      faults.maxPackBytes = maxPackBytes;
      // every agent registered first, so each start reaches the count inside its transaction
      const who: Principal[] = [];
      for (let i = 0; i < 24; i++) {
        const p = await a.authenticate((await a.createAccount({ name: `cap${i}` })).api_key);
        await a.registerAgent(p, `cap${i}-bot`);
        who.push(p);
      }
      const starts = await Promise.allSettled(
        who.map((p, i) => (i % 2 ? a : b).startRun(p, slug, `cap${i}-bot`)),
      );
      expect(starts.filter((s) => s.status === "fulfilled")).toHaveLength(8);
      for (const s of starts)
        if (s.status === "rejected") expect(s.reason).toMatchObject({ code: "benchmark_full" });
      expect(await b.ctx.store.runs.agentCount(slug)).toBe(8);
    } finally {
      await a.close();
      if (b !== a) await b.close();
    }
  });

  it("race one publication of a dataset: one benchmark, the other refused", async () => {
    const [a, b] = await twoPlatforms();
    try {
      const op = a.localOperator();
      const [d1, d2] = await Promise.all([a.createDataset(op, cities(4)), b.createDataset(op, cities(4))]);
      expect(d1.dataset_id).toBe(d2.dataset_id);
      const o = { title: "One", prompt_template: "Q #{payload.index}", grader_type: "exact" as const };
      const r = await Promise.allSettled([a.publish(op, d1.dataset_id, o), b.publish(op, d1.dataset_id, o)]);
      expect(r.filter((x) => x.status === "fulfilled")).toHaveLength(1);
      const refused = r.find((x) => x.status === "rejected") as PromiseRejectedResult;
      expect(["benchmark_exists", "slug_conflict"]).toContain(refused.reason.code);
      expect(await a.listBenchmarks()).toHaveLength(1);
      expect(await a.testSet(op, (await a.listBenchmarks())[0]!.slug)).toHaveLength(4);
    } finally {
      await a.close();
      if (b !== a) await b.close();
    }
  });
});

if (TEST_ENGINE === "sqlite") {
  describe("the SQLite store's write lock held by another process (probe17 A-F7)", () => {
    it("a write past the busy timeout is refused server_busy (retry_after_seconds), nothing written", async () => {
      const dir = tempDir();
      const platform = await Platform.open({ dir });
      const other = new BetterSqlite3(join(dir, "platform.sqlite"));
      try {
        const op = platform.localOperator();
        other.exec("BEGIN IMMEDIATE"); // a second writer (the CLI) holding the write lock
        const e = await rejection(platform.createDataset(op, cities(3)));
        expect(e).toMatchObject({ code: "server_busy", details: { retry_after_seconds: 5 } });
        expect(e.message).toMatch(/nothing was written/);
        other.exec("ROLLBACK");
        expect((await platform.myDatasets(op)).datasets).toEqual([]);
        // the lock released: the same write goes through
        await platform.createDataset(op, cities(3));
        expect((await platform.myDatasets(op)).datasets).toHaveLength(1);
      } finally {
        other.close();
        await platform.close();
      }
    });

    // probe20 F3: SQLite's busy timeout waited synchronously: every other request waited with it
    it("a write waiting for the lock leaves the event loop free, and goes through once the lock is let go", async () => {
      const dir = tempDir();
      const platform = await Platform.open({ dir });
      const other = new BetterSqlite3(join(dir, "platform.sqlite"));
      try {
        const op = platform.localOperator();
        other.exec("BEGIN IMMEDIATE");
        let ticks = 0;
        const ticker = setInterval(() => void ticks++, 20);
        const write = platform.createDataset(op, cities(3));
        // the other writer lets go after 1 s, from a timer: it can fire only if the wait does not block
        const released = new Promise<number>((r) =>
          setTimeout(() => {
            other.exec("ROLLBACK");
            r(ticks);
          }, 1_000),
        );
        const ticksWhileHeld = await released;
        await write;
        clearInterval(ticker);
        expect(ticksWhileHeld).toBeGreaterThan(5);
        expect((await platform.myDatasets(op)).datasets).toHaveLength(1);
      } finally {
        other.close();
        await platform.close();
      }
    });

    // probe21 A-F1/B-F3: a waiting write kept the store's one connection for its whole busy wait, so every
    // read queued behind it (and behind each queued write's wait in turn: 3 waiting writes, a read 19.6 s)
    const agentNamed = (agent_id: string) => ({
      agent_id,
      owner_account_id: "acct_operator",
      withdrawal_address: null,
      is_author_agent: false,
    });
    /** Two writes of `s` started while `other` holds the write lock: each is in its busy wait on return. */
    async function twoWaitingWrites(s: Store, order: string[]): Promise<Promise<unknown>[]> {
      const writes = ["w1", "w2"].map((id) =>
        s
          .tx((t) => t.agents.insertIfAbsent(agentNamed(id), "2026-01-01T00:00:00Z"))
          .then(
            () => void order.push(`${id} written`),
            (e: unknown) => {
              order.push(`${id} refused`);
              throw e;
            },
          ),
      );
      // the writes' `begin immediate` ran (microtasks only) and met the lock: they wait on timers now
      await new Promise((r) => setImmediate(r));
      return writes;
    }

    /** Runs `fn` on a fresh store while a second connection (another process, the CLI) holds its write lock. */
    async function whileAnotherHoldsTheLock(
      fn: (s: Store, letGo: () => void) => Promise<void>,
    ): Promise<void> {
      const dir = tempDir();
      const s = await Store.open({ dir });
      const other = new BetterSqlite3(join(dir, "platform.sqlite"));
      try {
        other.exec("BEGIN IMMEDIATE");
        await fn(s, () => other.exec("ROLLBACK"));
      } finally {
        other.close();
        await s.close();
      }
    }

    it("reads answer while writes wait for the lock; the writes go through once it is let go", async () => {
      await whileAnotherHoldsTheLock(async (s, letGo) => {
        const order: string[] = [];
        const writes = await twoWaitingWrites(s, order);
        await Promise.all(
          [1, 2, 3].map((n) => s.agents.get("w1").then((a) => void order.push(`read ${n}: ${a === null}`))),
        );
        // every read answered while both writes still waited for the other process's lock
        expect(order).toEqual(["read 1: true", "read 2: true", "read 3: true"]);
        letGo();
        await Promise.all(writes);
        expect(order.slice(3).sort()).toEqual(["w1 written", "w2 written"]);
        expect(await s.agents.get("w2")).not.toBeNull();
      });
    });

    it("writes kept waiting past the bound are each refused server_busy, nothing written; reads went on", async () => {
      await whileAnotherHoldsTheLock(async (s, letGo) => {
        const order: string[] = [];
        const writes = (await twoWaitingWrites(s, order)).map((w) => rejection(w));
        await s.agents.get("w1");
        order.push("read");
        for (const e of await Promise.all(writes)) expect(e).toMatchObject({ code: "server_busy" });
        expect(order[0]).toBe("read");
        letGo();
        expect(await s.agents.get("w1")).toBeNull();
        expect(await s.agents.get("w2")).toBeNull();
      });
    });
  });
}

describe("SQLite lock files", () => {
  // probe20 F2: a lock file something wrote into made every operation under its lock a 500 "file is not a database"
  it("a lock file that is not empty is replaced and taken; another process is still kept out", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bb-locks-"));
    const modes = { dirMode: 0o700, fileMode: 0o600 };
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `${encodeURIComponent("publish-budget")}.lock`),
      "not a database, a stray write\n".repeat(4),
    );
    const held = await takeFileLock(dir, "publish-budget", Date.now() + 1_000, modes);
    expect(held).not.toBeNull();
    // held: a second taker (its own connection, as another process) waits and gives up at its deadline
    expect(await takeFileLock(dir, "publish-budget", Date.now() + 200, modes)).toBeNull();
    held!.release();
    const again = await takeFileLock(dir, "publish-budget", Date.now() + 1_000, modes);
    expect(again).not.toBeNull();
    again!.release();
  });

  // probe21 A-F4/B-F2: a lock path that is not a usable file made every operation under its lock a 500
  // internal_error with a stack trace (EISDIR, EEXIST, ENOENT)
  const modes = { dirMode: 0o700, fileMode: 0o600 };
  const lockFileIn = (dir: string) => join(dir, `${encodeURIComponent("publish-budget")}.lock`);

  it("a directory at the lock file's path is refused invalid_store naming it and what to do; left as it is", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "bb-locks-")), "platform.sqlite-locks");
    mkdirSync(join(lockFileIn(dir), "inside"), { recursive: true });
    const e = await rejection(takeFileLock(dir, "publish-budget", Date.now() + 1_000, modes));
    expect(e).toMatchObject({
      code: "invalid_store",
      details: { field: "store", path: "platform.sqlite-locks/publish-budget.lock" },
    });
    expect(e.message).toMatch(/platform\.sqlite-locks\/publish-budget\.lock .*is a directory: remove it/);
    expect(lstatSync(join(lockFileIn(dir), "inside")).isDirectory()).toBe(true);
  });

  it("a regular file where the lock directory should be is refused invalid_store naming it", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "bb-locks-")), "platform.sqlite-locks");
    writeFileSync(dir, "a stray file\n");
    const e = await rejection(takeFileLock(dir, "publish-budget", Date.now() + 1_000, modes));
    expect(e).toMatchObject({ code: "invalid_store", details: { path: "platform.sqlite-locks" } });
    expect(e.message).toMatch(/platform\.sqlite-locks .*is not a directory: remove it/);
  });

  it("a symlink at the lock file's path (dangling or not) is replaced by an empty file, never followed", async () => {
    const root = mkdtempSync(join(tmpdir(), "bb-locks-"));
    const dir = join(root, "platform.sqlite-locks");
    mkdirSync(dir);
    mkdirSync(join(root, "elsewhere"));
    // a link to a file not there yet (O_CREAT would create it there), then a link to nowhere
    for (const target of [join(root, "elsewhere", "created"), join(root, "nowhere", "x")]) {
      symlinkSync(target, lockFileIn(dir));
      const held = await takeFileLock(dir, "publish-budget", Date.now() + 1_000, modes);
      expect(held).not.toBeNull();
      expect(lstatSync(lockFileIn(dir)).isFile()).toBe(true);
      expect(existsSync(join(root, "elsewhere", "created"))).toBe(false);
      // still a lock: a second taker gives up at its deadline
      expect(await takeFileLock(dir, "publish-budget", Date.now() + 200, modes)).toBeNull();
      held!.release();
      rmSync(lockFileIn(dir));
    }
  });

  it("a FIFO at the lock file's path is replaced by an empty file (opening it never blocks)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bb-locks-"));
    execFileSync("mkfifo", [lockFileIn(dir)]);
    const held = await takeFileLock(dir, "publish-budget", Date.now() + 1_000, modes);
    expect(held).not.toBeNull();
    expect(lstatSync(lockFileIn(dir)).isFile()).toBe(true);
    held!.release();
  });

  it("a store whose award lock path is a directory refuses withLock invalid_store, and serves the rest", async () => {
    if (TEST_ENGINE !== "sqlite") return;
    const dir = tempDir();
    const store = await Store.open({ dir });
    try {
      mkdirSync(join(dir, "platform.sqlite-locks", `${encodeURIComponent("award:x")}.lock`), {
        recursive: true,
      });
      const e = await rejection(store.withLock("award:x", async () => "in"));
      expect(e).toMatchObject({ code: "invalid_store" });
      expect(await store.withLock("award:y", async () => "in")).toBe("in");
    } finally {
      await store.close();
    }
  });
});
