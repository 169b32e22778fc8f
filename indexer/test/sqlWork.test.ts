/**
 * Issue 13 item 2, the one-query DoS classes of `/sql/db` the h/probe3 re-probe found: per-row
 * work the planner prices as cheap (a long to_char format over a VALUES cross join ran 20.9 s on
 * the PGlite indexer), aggregates that hold every padded value (2.2 GB, then a 500), and the
 * database's own resource errors. Through the handler on a standalone PGlite and (with
 * TEST_DATABASE_URL) PostgreSQL: each is refused before it runs, 400 naming the limit, fast.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUERY_LIMITS } from "../lib/limits";
import { refusalOf, rowsHandled, workOf } from "../src/api/sql";
import { fanoutStatement, startSqlHarness, type SqlHarness } from "./helpers/sqlHarness";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const values = (n: number) => Array.from({ length: n }, (_, i) => `(${i})`).join(",");
const v100 = `WITH v(x) AS (VALUES ${values(100)})`;

function sqlWork(label: string, databaseUrl: string | undefined) {
  const pglite = databaseUrl === undefined;
  const work = pglite ? "maxPlanWorkPglite" : "maxPlanWork";
  describe(`/sql/db work bounds on ${label}`, () => {
    let h: SqlHarness;
    beforeAll(async () => {
      h = await startSqlHarness(databaseUrl);
    }, 60_000);
    afterAll(() => h?.stop());

    it.each<[string, string, string[]]>([
      // h/probe3 sql-tochar: a 3,000-character format over 100^3 rows
      [
        "the probe's to_char format",
        `${v100} SELECT count(*) AS c FROM v a, v b, v c WHERE to_char(a.x + b.x + c.x, '${"9x".repeat(1500)}') = 'x'`,
        ["maxFormatChars", "maxConstantChars"],
      ],
      // a format within maxConstantChars: parsed again on every row past 128 characters
      [
        "a 256-character to_char format",
        `${v100} SELECT count(*) AS c FROM v a, v b, v c WHERE to_char(a.x + b.x + c.x, '${"9x".repeat(128)}') = 'x'`,
        ["maxFormatChars"],
      ],
      [
        "a to_timestamp format",
        `SELECT to_timestamp(a.x::text, '${"FM9".repeat(30)}') FROM (VALUES (1)) a(x)`,
        ["maxFormatChars"],
      ],
      ["a format from a column", "SELECT to_char(pool, author) FROM bounty", ["maxFormatChars"]],
      // the same kind of rows, a format within maxFormatChars: the work estimate
      [
        "a 64-character to_char format over a cross join",
        `WITH v(x) AS (VALUES ${values(pglite ? 100 : 300)}) SELECT count(*) AS c FROM v a, v b, v c WHERE to_char(a.x + b.x + c.x, '${"9x".repeat(32)}') = 'x'`,
        [work],
      ],
      // h/probe3 sql-pad-memory, at the new maxTypeLength: 1M values of 1,000 characters
      [
        "array_agg of padded values",
        `${v100} SELECT cardinality(array_agg((a.x + b.x + c.x)::char(1000))) AS c FROM v a, v b, v c`,
        [work, "maxAggregatedChars"],
      ],
      [
        "string_agg of padded values over fewer rows",
        `WITH v(x) AS (VALUES ${values(30)}) SELECT length(string_agg((a.x + b.x + c.x)::char(1000), '')) AS c FROM v a, v b, v c`,
        ["maxAggregatedChars"],
      ],
      [
        "four json_agg",
        `WITH v(x) AS (VALUES ${values(30)}) SELECT ${[1, 2, 3, 4].map((k) => `json_array_length(json_agg((a.x + b.x + ${k})::char(1000)))`).join(" + ")} AS c FROM v a, v b, v c`,
        ["maxAggregatedChars"],
      ],
      [
        "ARRAY(SELECT ...) of padded values",
        `WITH v(x) AS (VALUES ${values(30)}) SELECT cardinality(ARRAY(SELECT (a.x + b.x)::char(1000) FROM v a, v b, v c)) AS c`,
        ["maxAggregatedChars", work],
      ],
      // a scalar subquery's aggregate scanned on every row of a join
      [
        "a string_agg scanned on every row",
        `${v100} SELECT count(*) AS c FROM v a, v b WHERE strpos((SELECT string_agg(p.x::char(1000), '') FROM v p, v q), (a.x + b.x)::text) = 0`,
        ["maxAggregatedChars", work],
      ],
      [
        "a window array_agg (the whole array on every row)",
        `WITH v(x) AS (VALUES ${values(30)}) SELECT count(*) FROM (SELECT cardinality(array_agg((a.x + b.x)::char(100)) OVER ()) AS n FROM v a, v b, v c) s`,
        [work, "maxAggregatedChars"],
      ],
      [
        "= ANY of an ARRAY(SELECT ...) on every row",
        `WITH v(x) AS (VALUES ${values(100)}) SELECT count(*) FROM v a, v b WHERE (a.x + b.x) = ANY (ARRAY(SELECT p.x + q.x FROM v p, v q))`,
        [work, "maxAggregatedChars"],
      ],
      // probe26 B-F2: a string_agg of a string_agg of a string_agg over VALUES (80,000,000 characters:
      // 50 x 1,000, then x 40, then x 40): each inner value was counted as one padded value
      [
        "nested string_agg over VALUES",
        `SELECT length(c.s) AS n FROM (SELECT string_agg(b.s, '') AS s FROM (SELECT string_agg(a.s, '') AS s FROM (SELECT string_agg(x::char(1000), '') AS s FROM (VALUES ${values(50)}) v(x)) a, (VALUES ${values(40)}) va(n)) b, (VALUES ${values(40)}) vb(n)) c`,
        pglite ? ["maxAggregatedChars", work] : ["maxAggregatedChars"],
      ],
      ["a long string parameter", "SELECT count(*) FROM bounty WHERE author LIKE $1", ["maxConstantChars"]],
      // probe17 B-F7: jsonb_build_array of built values through one-row CTEs (level 4: 19 GB, OOM-killed)
      ["the probe's jsonb_build_array fan-out over 2 CTEs", fanoutStatement(2, 90), ["maxValueChars"]],
      ["the probe's jsonb_build_array fan-out over 3 CTEs", fanoutStatement(3, 90), ["maxValueChars"]],
      ["the probe's jsonb_build_array fan-out over 4 CTEs", fanoutStatement(4, 90), ["maxValueChars"]],
    ])("refuses %s before it runs, naming the limit", async (_label, text, limits) => {
      const t = Date.now();
      const r = await h.sql(text, text.includes("$1") ? [`%${"a".repeat(300)}%`] : []);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("limit_exceeded");
      expect(limits).toContain(r.body.error.limit);
      expect(r.body.error.max).toBe(QUERY_LIMITS.sql[r.body.error.limit as keyof typeof QUERY_LIMITS.sql]);
      expect(Date.now() - t).toBeLessThan(5_000);
    });

    it("serves the README's and @ponder/client's kinds of query", async () => {
      for (const [text, params] of [
        [
          "SELECT bounty_id, place, account, amount FROM award_winner WHERE place = $1 ORDER BY awarded_block DESC LIMIT 5",
          [1],
        ],
        [
          "SELECT b.id, (SELECT json_agg(json_build_array(w.place, w.account, w.amount)) FROM award_winner w WHERE w.bounty_id = b.id) AS winners FROM bounty b ORDER BY b.id DESC LIMIT 20",
          [],
        ],
        [
          "SELECT account, count(*) AS n, sum(amount) AS total FROM award_winner GROUP BY account ORDER BY total DESC",
          [],
        ],
        [
          "SELECT to_char(to_timestamp(created_block), 'YYYY-MM-DD') AS day, count(*) FROM bounty GROUP BY 1",
          [],
        ],
        ["SELECT array_agg(id ORDER BY id) AS ids, string_agg(author, ',') AS authors FROM bounty", []],
        ["SELECT * FROM anchor ORDER BY block_number DESC LIMIT 3", []],
        [fanoutStatement(1, 90), []], // one level of building: 90 digests
        [
          "SELECT json_build_object('id', b.id, 'winners', (SELECT json_agg(json_build_object('place', w.place, 'account', w.account, 'amount', w.amount)) FROM award_winner w WHERE w.bounty_id = b.id)) AS j FROM bounty b ORDER BY b.id LIMIT 20",
          [],
        ],
        [
          "SELECT a.author, count(*) FROM bounty a JOIN award_winner w ON w.bounty_id = a.id GROUP BY a.author",
          [],
        ],
      ] as [string, unknown[]][]) {
        const r = await h.sql(text, params);
        expect({ text, status: r.status, error: r.body.error }).toEqual({
          text,
          status: 200,
          error: undefined,
        });
        expect(r.body.rows.length).toBeGreaterThan(0);
      }
    });

    it("answers the database's own program-limit error 400 query_too_expensive, not 500", async () => {
      // 54000: an array literal of 7 dimensions (PostgreSQL allows 6)
      const r = await h.sql("SELECT '{{{{{{{1}}}}}}}'::int[] AS a");
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: "query_too_expensive", limit: "SQLSTATE 54000" });
    });

    // probeD2 F6: on PGlite these were 500 `internal` (its parameter serializer throws a plain error:
    // "Invalid input for string type", a TypeError, or the wire's 08P01 for a scalar given as an array)
    it.each<[string, unknown[], string]>([
      ["SELECT id FROM bounty WHERE author = $1", [["a", "b"]], "$1"],
      ["SELECT place FROM award_winner WHERE $1", [[true]], "$1"],
      ["SELECT $1::text AS x FROM bounty", [[]], "$1"],
      ["SELECT id FROM bounty WHERE id = $1 AND author = ANY($2)", [1, 5], "$2"],
      ["SELECT id FROM bounty WHERE author = ANY($1)", [true], "$1"],
      ...(pglite
        ? ([
            // PGlite's serializer refuses these kinds; PostgreSQL parses their text (`true` is a text)
            ["SELECT id FROM bounty WHERE author = $1", [true], "$1"],
            ["SELECT id FROM bounty WHERE $1 AND id = $2", ["yes", 1], "$1"],
            ["SELECT id FROM bounty WHERE author = ANY($1)", [["a", true]], "$1"],
          ] as [string, unknown[], string][])
        : []),
    ])(
      "a parameter that does not fit its placeholder is 400 invalid_query naming it: %s %j",
      async (text, params, name) => {
        const r = await h.sql(text, params);
        expect(r.status).toBe(400);
        expect(r.body.error.code).toBe("invalid_query");
        expect(r.body.error.message).toContain(`parameter ${name}`);
      },
    );

    it("parameters that fit their placeholders are served (arrays where arrays are read, null anywhere)", async () => {
      for (const [text, params] of [
        [
          "SELECT id FROM bounty WHERE author = ANY($1) AND id > $2",
          [["0x0000000000000000000000000000000000000001"], 0],
        ],
        ["SELECT id FROM bounty WHERE author = $1 OR $2::text IS NULL", [null, null]],
        ["SELECT id FROM bounty WHERE author = ANY($1)", [["a", null]]],
        ["SELECT id FROM bounty WHERE created_block > $1 AND $2", [5, true]],
      ] as [string, unknown[]][]) {
        const r = await h.sql(text, params);
        expect({ text, status: r.status, error: r.body.error }).toEqual({
          text,
          status: 200,
          error: undefined,
        });
      }
    });

    it("refuses an answer over maxAnswerBytes", async () => {
      // 5,000 rows within maxRows, each of 4 padded columns
      const text = `WITH v(x) AS (VALUES ${values(71)}) SELECT a.x::char(1000) AS p, b.x::char(1000) AS q, a.x::char(1000) AS r, b.x::char(1000) AS s FROM v a, v b LIMIT 5000`;
      const r = await h.sql(text);
      expect(r.status).toBe(400);
      expect(["maxAnswerBytes", work, "maxAggregatedChars"]).toContain(r.body.error.limit);
    });
  });
}

describe("the work estimate", () => {
  it("counts a nested loop's inner side once per outer row, a LIMIT's share, and a Materialize's input once", () => {
    const scan = (rows: number, rel: string) => ({
      "Node Type": "Seq Scan",
      "Plan Rows": rows,
      "Parent Relationship": rel,
    });
    const cross = {
      "Node Type": "Nested Loop",
      "Plan Rows": 10_000,
      Plans: [
        scan(100, "Outer"),
        {
          "Node Type": "Materialize",
          "Plan Rows": 100,
          "Parent Relationship": "Inner",
          Plans: [scan(100, "Outer")],
        },
      ],
    };
    expect(rowsHandled(cross)).toBe(10_000 + 100 + 100 * 100 + 100);
    const limited = { "Node Type": "Limit", "Plan Rows": 10, Plans: [{ ...scan(1_000, "Outer") }] };
    expect(rowsHandled(limited)).toBe(10 + 10);
    const sorted = {
      "Node Type": "Limit",
      "Plan Rows": 10,
      Plans: [
        {
          "Node Type": "Sort",
          "Plan Rows": 1_000,
          "Parent Relationship": "Outer",
          Plans: [scan(1_000, "Outer")],
        },
      ],
    };
    expect(rowsHandled(sorted)).toBe(10 + 10 + 1_000); // the sort reads all its input
    // a correlated subquery in a join's filter runs once per pair of the join
    const sub = { "Node Type": "Result", "Plan Rows": 1, "Parent Relationship": "SubPlan" };
    const filtered = { ...cross, "Plan Rows": 50, Plans: [scan(100, "Outer"), scan(100, "Inner"), sub] };
    expect(rowsHandled(filtered)).toBe(50 + 100 + 100 * 100 + 100 * 100);
    expect(
      workOf(1_000, {
        expressions: 4,
        accumulators: 0,
        nestedAccumulators: 0,
        valueChars: 250,
        parameters: 0,
      }),
    ).toBe(1_000 * 5 * 3);
    // an aggregate in a subquery: its value (all the rows it reads) may be scanned on every outer row
    expect(
      workOf(1_000, {
        expressions: 4,
        accumulators: 1,
        nestedAccumulators: 1,
        valueChars: 100,
        parameters: 0,
      }),
    ).toBe(1_000 * 5 * 1_000);
  });

  it("maps the database's resource errors to refusals, never to an unknown error", () => {
    const e = (code: string) => Object.assign(new Error("x"), { code });
    expect(refusalOf(e("54001"))?.code).toBe("query_too_expensive");
    expect(refusalOf(e("53400"))?.code).toBe("query_too_expensive");
    expect(refusalOf(e("53200"))?.code).toBe("server_busy");
    expect(refusalOf(e("53100"))?.code).toBe("server_busy");
    expect(refusalOf(Object.assign(new Error("Aborted(OOM)"), { name: "RuntimeError" }))?.code).toBe(
      "server_busy",
    );
    expect(refusalOf(e("XX000"))).toBeUndefined();
  });
});

function staleStatistics(label: string, databaseUrl: string | undefined) {
  const pglite = databaseUrl === undefined;
  const work = pglite ? "maxPlanWorkPglite" : "maxPlanWork";
  // probe16 B-F5: the tables had grown since their last ANALYZE (23 anchors, statistics of 5), so
  // the planner's estimates of a 5-way cross join were 4.6^5 = 2,000 times too low: every bound
  // made from them let it run (PostgreSQL: 1.8 GB in 5 s; PGlite: 20 s, then out of memory)
  describe(`/sql/db on ${label}, on tables grown since their last ANALYZE`, () => {
    let stale: SqlHarness;
    beforeAll(async () => {
      stale = await startSqlHarness(databaseUrl, 23, true, { analyzedAt: 5 });
    }, 60_000);
    afterAll(() => stale?.stop());

    it("refuses the probe's array_agg over a cross join of concatenations before it runs", async () => {
      const r = await stale.sql(
        "SELECT length(array_agg(a.digest || b.digest || c.digest || d.digest || e.digest)::text) FROM anchor a, anchor b, anchor c, anchor d, anchor e",
      );
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("limit_exceeded");
      expect(["maxAggregatedChars", work, pglite ? "maxPlanCostPglite" : "maxPlanCost"]).toContain(
        r.body.error.limit,
      );
    });

    it("refuses a string_agg over a smaller cross join (280,000 rows of 264 characters)", async () => {
      const r = await stale.sql(
        "SELECT length(string_agg(a.digest || b.digest || c.digest || d.digest, ',')) AS n FROM anchor a, anchor b, anchor c, anchor d",
      );
      expect(r.body.error).toMatchObject({ code: "limit_exceeded" });
      expect(["maxAggregatedChars", work]).toContain(r.body.error.limit);
    });

    // the planner prices `x + 0 = x` at 0.5 % of the rows: five such filters made the same cross
    // join (fresh statistics, 50 anchors) look like a few rows; it ran to statement_timeout, 879 MB
    const filters = ["a", "b", "c", "d", "e"]
      .map((t) => `${t}.block_number + 0 = ${t}.block_number`)
      .join(" AND ");
    const joined = "a.digest || b.digest || c.digest || d.digest || e.digest";
    const from = "FROM anchor a, anchor b, anchor c, anchor d, anchor e";
    it.each([
      ["an array_agg", `SELECT length(array_agg(${joined})::text) ${from} WHERE ${filters}`],
      ["an ARRAY(SELECT ...)", `SELECT cardinality(ARRAY(SELECT ${joined} ${from} WHERE ${filters})) AS n`],
      [
        "a string_agg in a CTE",
        `WITH s(t) AS (SELECT string_agg(${joined}, '') ${from} WHERE ${filters}) SELECT length(t) FROM s`,
      ],
      [
        "a window json_agg",
        `SELECT count(*) FROM (SELECT json_agg(${joined}) OVER () AS j ${from} WHERE ${filters} LIMIT 1) w`,
      ],
    ])("refuses %s fed through filters the planner misjudges before it runs", async (_label, text) => {
      const r = await stale.sql(text);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("limit_exceeded");
      // the work estimate already counts an aggregate's value worked through on every row
      expect(
        text.startsWith("SELECT length(array_agg") ? ["maxAggregatedChars"] : ["maxAggregatedChars", work],
      ).toContain(r.body.error.limit);
    });

    it("still serves ordinary statements over those tables", async () => {
      for (const text of [
        "SELECT array_agg(digest ORDER BY block_number) AS d FROM anchor",
        "SELECT b.id, (SELECT json_agg(json_build_array(w.place, w.account)) FROM award_winner w WHERE w.bounty_id = b.id) AS winners FROM bounty b ORDER BY b.id DESC LIMIT 20",
        "SELECT a.author, count(*) FROM bounty a JOIN award_winner w ON w.bounty_id = a.id GROUP BY a.author",
        "SELECT count(*) AS n FROM anchor a, anchor b",
      ]) {
        const r = await stale.sql(text);
        expect({ text, status: r.status, error: r.body.error }).toEqual({
          text,
          status: 200,
          error: undefined,
        });
      }
    });
  });
}

sqlWork("PGlite", undefined);
staleStatistics("PGlite", undefined);
if (TEST_DATABASE_URL !== undefined && TEST_DATABASE_URL !== "") {
  sqlWork("PostgreSQL", TEST_DATABASE_URL);
  staleStatistics("PostgreSQL", TEST_DATABASE_URL);
}
