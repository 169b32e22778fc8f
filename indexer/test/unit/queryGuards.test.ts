/** The SQL read-only guard and the GraphQL limits on their own (the live tests run them through HTTP). */
import { describe, expect, it } from "vitest";
import { checkGraphqlLimits } from "../../lib/graphqlLimits";
import { QUERY_LIMITS, QueryRefused } from "../../lib/limits";
import { checkReadOnlySelect } from "../../lib/sqlGuard";
import { fanoutStatement } from "../helpers/sqlHarness";

const TABLES = new Map([
  ["bounty", ["id", "author", "token", "pool", "status", "created_block"]],
  ["award_winner", ["bounty_id", "place", "account", "amount"]],
  ["anchor", ["digest", "kind", "anchorer", "block_number"]],
  ["anomaly", ["id", "message"]],
]);

async function refusal(sql: string): Promise<QueryRefused> {
  try {
    await checkReadOnlySelect(sql, TABLES);
  } catch (e) {
    if (e instanceof QueryRefused) return e;
    throw e;
  }
  throw new Error(`accepted: ${sql}`);
}

/** One case per statement: each passes the guard (with `params` bound). */
function acceptsEach(cases: string[], params: unknown[] = []): void {
  it.each(cases)("accepts %s", async (sql) => {
    await expect(checkReadOnlySelect(sql, TABLES, params)).resolves.toHaveProperty("expressions");
  });
}

/** One case per statement: each is refused `not_read_only` with a message matching `message`. */
function refusesEach(cases: string[], message: RegExp): void {
  it.each(cases)("refuses %s", async (sql) => {
    const e = await refusal(sql);
    expect(e.code).toBe("not_read_only");
    expect(e.message).toMatch(message);
  });
}

describe("checkReadOnlySelect", () => {
  // probe24: the parser keeps `$n` in 32 bits: `$99999999999` was refused as "parameters up to
  // $1215752191", and `$2147483648` (read as a negative number) counted as no parameter at all
  it.each(["$99999999999", "$2147483648", "$65536", "$000000000000000000000000000065536"])(
    "refuses %s in one line naming it and the maxParameterIndex limit",
    async (placeholder) => {
      const e = await refusal(`SELECT id FROM bounty WHERE id = ${placeholder}`);
      expect(e.code).toBe("limit_exceeded");
      expect(e.limit).toBe("maxParameterIndex");
      expect(e.max).toBe(65_535);
      const shown = placeholder.length > 21 ? `${placeholder.slice(0, 21)}...` : placeholder;
      expect(e.message).toBe(
        `parameter ${shown} is over $65535, the highest parameter number (maxParameterIndex)`,
      );
    },
  );

  it("refuses $0 naming it, and counts $65535 as written", async () => {
    const e = await refusal("SELECT id FROM bounty WHERE id = $0");
    expect(e.code).toBe("invalid_query");
    expect(e.message).toBe("parameter $0: parameters are numbered from $1");
    const shape = await checkReadOnlySelect("SELECT 'é' AS x, id FROM bounty WHERE id = $65535", TABLES);
    expect(shape.parameters).toBe(65_535);
  });

  acceptsEach([
    "SELECT id, status FROM bounty WHERE status = $1 ORDER BY id DESC LIMIT 5",
    'select "bounty"."id", count(*) from "bounty" left join "award_winner" on "award_winner"."bounty_id" = "bounty"."id" group by 1',
    "WITH w AS (SELECT account, sum(amount) AS s FROM award_winner GROUP BY account) SELECT * FROM w ORDER BY s DESC",
    "SELECT coalesce(max(pool), 0), lower(author) FROM bounty WHERE id IN (SELECT bounty_id FROM award_winner)",
    "SELECT id FROM bounty WHERE author LIKE '0xab%' UNION ALL SELECT bounty_id FROM award_winner",
  ]);

  it.each([
    ["UPDATE bounty SET pool = 0", "not_read_only"],
    ["COMMENT ON TABLE bounty IS 'x'", "not_read_only"],
    ["DROP TABLE bounty", "not_read_only"],
    ["SELECT 1; DELETE FROM bounty", "not_read_only"],
    ["WITH x AS (DELETE FROM bounty RETURNING id) SELECT * FROM x", "not_read_only"],
    ["WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT * FROM r", "not_read_only"],
    ["SELECT * INTO t2 FROM bounty", "not_read_only"],
    ["SELECT * FROM bounty FOR UPDATE", "not_read_only"],
    ["SELECT pg_sleep(1)", "not_read_only"],
    ["SELECT pg_catalog.pg_sleep(1)", "not_read_only"],
    ["SELECT public.count(*) FROM bounty", "not_read_only"],
    ["SELECT set_config('a', 'b', false)", "not_read_only"],
    ["SELECT * FROM generate_series(1, 10)", "not_read_only"],
    ["SELECT * FROM pg_catalog.pg_user", "not_read_only"],
    ["SELECT * FROM other_schema.bounty", "not_read_only"],
    ["SELECT * FROM _ponder_meta", "not_read_only"],
    ["SELECT * FROM bounty WHERE author ~ 'x'", "not_read_only"],
    ["SELECT * FROM bounty WHERE author SIMILAR TO 'x'", "not_read_only"],
    ["SELECT 1 FROM bounty a, bounty b, bounty c, bounty d, bounty e, bounty f, bounty g", "limit_exceeded"],
    ["SELEC 1", "invalid_query"],
    ["", "invalid_query"],
    ["x".repeat(QUERY_LIMITS.sql.maxChars + 1), "limit_exceeded"],
  ])("refuses %s", async (sql, code) => {
    expect((await refusal(sql)).code).toBe(code);
  });
});

describe("checkReadOnlySelect: a cast names a base type only (issue 13 re-probe 7, N4)", () => {
  refusesEach(
    [
      "SELECT 'bounty'::regclass",
      "SELECT 'postgres'::regrole",
      "SELECT 'now'::regproc",
      "SELECT 'int4'::regtype",
      "SELECT 'public'::regnamespace",
      "SELECT 1::oid::pg_catalog.regclass",
      "SELECT CAST('bounty' AS regclass)",
      "SELECT '(x)'::public.probe7_secret_gold",
      "SELECT '(x)'::probe7_secret_gold",
      "SELECT id FROM bounty WHERE author = 'x'::other_schema.t",
      "SELECT ARRAY['bounty']::regclass[]",
    ],
    /type .* is not allowed/,
  );

  acceptsEach([
    "SELECT id::text, pool::numeric(20, 0), created_block::int8 FROM bounty",
    "SELECT CAST(author AS character varying(50)), '1'::int, '{1}'::int[] FROM bounty",
    "SELECT interval '1 day', '2026-01-01'::date, '2026-01-01'::timestamptz, 'x'::char, true::bool, 1::double precision",
    "SELECT '{}'::jsonb, '{}'::json, 'x'::pg_catalog.text",
  ]);
});

describe("checkReadOnlySelect: names resolve in their scope (issue 13 re-probe 6, O1)", () => {
  refusesEach(
    [
      // a CTE naming itself: non-recursive, so its inner pg_authid is the catalog's
      "WITH pg_authid AS (SELECT rolname, rolpassword FROM pg_authid) SELECT * FROM pg_authid",
      // a CTE used before its declaration (in an earlier sibling)
      "WITH a AS (SELECT * FROM pg_stat_activity), pg_stat_activity AS (SELECT 1 AS x) SELECT * FROM a",
      // a CTE declared in an inner query, used outside it
      "SELECT * FROM pg_settings WHERE EXISTS (WITH pg_settings AS (SELECT 1) SELECT 1 FROM pg_settings)",
      "SELECT * FROM (WITH pg_stats AS (SELECT 1 AS x) SELECT x FROM pg_stats) s, pg_stats",
      "WITH x AS (WITH pg_hba_file_rules AS (SELECT 1 AS y) SELECT y FROM pg_hba_file_rules) SELECT * FROM pg_hba_file_rules",
      // the CTE's name in a set operation's other arm, before the WITH
      "SELECT usename FROM pg_user UNION ALL (WITH pg_user AS (SELECT 'x' AS usename) SELECT usename FROM pg_user)",
      "WITH bounty AS (SELECT 1 AS id) SELECT * FROM pg_class",
    ],
    /relation "pg_\w+" is neither one of the indexer's tables/,
  );

  acceptsEach([
    "WITH a AS (SELECT id FROM bounty), b AS (SELECT id FROM a) SELECT * FROM b",
    "WITH a AS (SELECT id FROM bounty) SELECT * FROM a WHERE id IN (SELECT id FROM a)",
    "WITH a AS (SELECT id FROM bounty) SELECT (WITH b AS (SELECT id FROM a) SELECT count(*) FROM b)",
    "WITH a AS (SELECT id FROM bounty) SELECT id FROM a UNION ALL SELECT id FROM a",
    "WITH bounty AS (SELECT id FROM bounty WHERE id > 1) SELECT id FROM bounty",
    "WITH bounty AS (SELECT b.id FROM bounty b) SELECT bounty.id FROM bounty",
  ]);
});

describe("checkReadOnlySelect: x.f is a column of x, never the call f(x) (issue 13 re-probe 6, O11)", () => {
  it.each([
    ["SELECT w.pg_typeof FROM award_winner w", /"pg_typeof" is not a column of "w"/],
    ["SELECT w.pg_column_size FROM award_winner w", /not a column/],
    ["SELECT (w).num_nulls FROM award_winner w", /field selection/],
    ["SELECT (w.account).pg_typeof FROM award_winner w", /field selection/],
    ["SELECT (w).* FROM award_winner w", /field selection/],
    ["SELECT award_winner.pg_typeof FROM award_winner", /not a column/],
    ["WITH c AS (SELECT account FROM award_winner) SELECT c.num_nonnulls FROM c", /not a column of "c"/],
    ["SELECT s.pg_typeof FROM (SELECT account FROM award_winner) s", /not a column of "s"/],
    ["SELECT s.account FROM (SELECT account FROM award_winner) s(x)", /not a column of "s"/],
    ["SELECT nope.id FROM bounty", /"nope" is not a FROM item in scope/],
    ["SELECT a.b.c FROM bounty a", /two parts at most/],
    ["SELECT concat(w) FROM award_winner w", /whole row/],
    ["SELECT count(w.*) FROM award_winner w", /whole row/],
    ["SELECT length(concat(w.*)) FROM award_winner w", /whole row/],
    // two relations called w in scope: pg_typeof is a column of one, a call on the other
    [
      "SELECT (SELECT w.pg_typeof FROM (SELECT 1 AS pg_typeof) w) FROM award_winner w",
      /one of the relations of that name/,
    ],
    [
      "SELECT 1 FROM award_winner w, (SELECT w.pg_typeof FROM (SELECT 1 AS pg_typeof) w) s",
      /one of the relations/,
    ],
    ["SELECT 1 FROM (bounty JOIN award_winner ON true) AS j", /alias on a JOIN/],
  ])("refuses %s", async (sql, message) => {
    const e = await refusal(sql);
    expect(e.code).toBe("not_read_only");
    expect(e.message).toMatch(message);
  });

  acceptsEach([
    "SELECT w.account, w.amount FROM award_winner w WHERE w.place = 1",
    'select "bounty"."id", "bounty_winners"."data" as "winners" from "bounty" left join lateral (select coalesce(json_agg(json_build_array("bounty_winners"."place", "bounty_winners"."account")), \'[]\'::json) as "data" from "award_winner" "bounty_winners" where "bounty_winners"."bounty_id" = "bounty"."id") "bounty_winners" on true',
    "SELECT s.n, s.account FROM (SELECT account, count(*) AS n FROM award_winner GROUP BY account) s",
    "SELECT c.x FROM (SELECT account FROM award_winner) c(x)",
    "SELECT t.* , t.account FROM (SELECT * FROM award_winner) t",
    "SELECT row_to_json(w), to_jsonb(w.*) FROM award_winner w",
    "SELECT w.* FROM award_winner w ORDER BY place",
    "SELECT b.id FROM bounty b WHERE EXISTS (SELECT 1 FROM award_winner w WHERE w.bounty_id = b.id)",
  ]);
});

describe("checkReadOnlySelect: what the planner folds or misprices (issue 13 re-probe F1)", () => {
  it("refuses the probe's 25 terms of numeric power before anything runs", async () => {
    const term = "length((9.0::numeric ^ 130000)::text)";
    const sql = `SELECT ${Array(25).fill(term).join(" + ")} AS x FROM award_winner LIMIT 1`;
    expect(sql.length).toBe(1_035);
    const t = Date.now();
    const e = await refusal(sql);
    expect(Date.now() - t).toBeLessThan(1_000);
    expect(e.code).toBe("not_read_only");
    expect(e.message).toMatch(/^operator \^ is not allowed/);
  });

  it.each([
    ["SELECT |/ pool FROM bounty", "not_read_only", undefined],
    ["SELECT ||/ pool FROM bounty", "not_read_only", undefined],
    ["SELECT @ pool FROM bounty", "not_read_only", undefined],
    ["SELECT pool # 1 FROM bounty", "not_read_only", undefined],
    ["SELECT pool << 1 FROM bounty", "not_read_only", undefined],
    ["SELECT 1 FROM bounty WHERE ARRAY[id] @> ARRAY[1]", "not_read_only", undefined],
    ["SELECT 2.0 ^ 10", "not_read_only", undefined],
    ["SELECT replace(replace(author, 'a', author), 'b', author) FROM bounty", "not_read_only", undefined],
    ["SELECT substring(author from '(a*)*b') FROM bounty", "not_read_only", undefined],
    ["SELECT repeat('x', 1000)", "not_read_only", undefined],
    ["SELECT lpad('x', 100000000)", "not_read_only", undefined],
    ["SELECT length((1e1000 + 1)::text)", "limit_exceeded", "maxNumericDigits"],
    ["SELECT (0.5e-1000 * 3)", "limit_exceeded", "maxNumericDigits"],
    [`SELECT ${"9".repeat(101)}`, "limit_exceeded", "maxNumericDigits"],
    ["SELECT '1e1000'::numeric * 2", "limit_exceeded", "maxNumericDigits"],
    [`SELECT '0x${"f".repeat(100)}'::numeric`, "limit_exceeded", "maxNumericDigits"],
    ["SELECT pool::numeric(1000, 999) / 3 FROM bounty", "limit_exceeded", "maxNumericDigits"],
    ["SELECT round(pool, 2000) / 3 FROM bounty", "limit_exceeded", "maxNumericDigits"],
    ["SELECT a.x::char(10485760) FROM (VALUES (0), (1)) a(x)", "limit_exceeded", "maxTypeLength"],
    ["SELECT author::varchar(1001) FROM bounty", "limit_exceeded", "maxTypeLength"],
    ["SELECT B'1'::bit(83886080)", "limit_exceeded", "maxTypeLength"],
    ["SELECT CAST(author AS character varying(5000)) FROM bounty", "limit_exceeded", "maxTypeLength"],
    ["SELECT round(pool, $1) FROM bounty", "limit_exceeded", "maxNumericDigits"],
    // issue 13 item 2 (h/probe3): constants and formats worked through on every row
    [
      `SELECT count(*) FROM bounty WHERE author LIKE '%${"a".repeat(300)}%'`,
      "limit_exceeded",
      "maxConstantChars",
    ],
    [`SELECT B'${"1".repeat(300)}' AS b`, "limit_exceeded", "maxConstantChars"],
    [`SELECT to_char(pool, '${"9".repeat(65)}') FROM bounty`, "limit_exceeded", "maxFormatChars"],
    [`SELECT to_timestamp(author, '${"FM9".repeat(30)}') FROM bounty`, "limit_exceeded", "maxFormatChars"],
    ["SELECT to_char(pool, author) FROM bounty", "limit_exceeded", "maxFormatChars"],
    ["SELECT to_char(pool, 'FM' || author) FROM bounty", "limit_exceeded", "maxFormatChars"],
    [`SELECT pool${" * (pool + 1)".repeat(9)} FROM bounty`, "limit_exceeded", "maxGrowingOperators"],
    [`SELECT author${" || author".repeat(9)} FROM bounty`, "limit_exceeded", "maxGrowingOperators"],
    [
      `SELECT ${"concat(".repeat(9)}author${")".repeat(9)} FROM bounty`,
      "limit_exceeded",
      "maxGrowingOperators",
    ],
  ])("refuses %s", async (sql, code, limit) => {
    const e = await refusal(sql);
    expect([e.code, e.limit]).toEqual([code, limit]);
  });

  it("reports what a statement may cost per row: expressions, accumulators, its largest value", async () => {
    const shape = await checkReadOnlySelect(
      "SELECT array_agg(author::char(500)), ARRAY(SELECT id FROM bounty), to_char(pool, '9999') FROM bounty",
      TABLES,
    );
    // 2 calls + 1 cast + 1 sublink + the 4 characters of the format
    expect(shape).toEqual({
      expressions: 8,
      accumulators: 2,
      nestedAccumulators: 1,
      valueChars: 500,
      parameters: 0,
    });
    // the highest $n used, which the route requires as many parameters as (probe13 C5)
    const params = await checkReadOnlySelect(
      "SELECT id FROM bounty WHERE id = $2 OR id = $1",
      TABLES,
      [1, 2],
    );
    expect(params.parameters).toBe(2);
    const window = await checkReadOnlySelect("SELECT array_agg(id) OVER () FROM bounty", TABLES);
    expect([window.accumulators, window.nestedAccumulators]).toEqual([1, 1]); // the whole array on every row
    const inner = await checkReadOnlySelect(
      "SELECT (SELECT string_agg(author, '') FROM bounty) FROM bounty",
      TABLES,
    );
    expect([inner.accumulators, inner.nestedAccumulators]).toEqual([1, 1]);
    const top = await checkReadOnlySelect("SELECT author, array_agg(id) FROM bounty GROUP BY author", TABLES);
    expect([top.accumulators, top.nestedAccumulators]).toEqual([1, 0]);
    const built = await checkReadOnlySelect(
      "SELECT json_build_array(id, author, pool), author || id FROM bounty",
      TABLES,
    );
    expect(built.valueChars).toBe(100 * (1 + 1 + 2)); // a column, one growing operator, two more arguments
    const e = await checkReadOnlySelect("SELECT id FROM bounty WHERE author = $1", TABLES, [
      "x".repeat(257),
    ]).then(
      () => undefined,
      (x: unknown) => x as QueryRefused,
    );
    expect(e?.limit).toBe("maxConstantChars");
  });

  it("refuses a numeric parameter over the digit limit, and accepts the usual ones", async () => {
    const sql = "SELECT id FROM bounty WHERE pool > $1";
    for (const p of ["1e1000", 1e300, 10n ** 101n]) {
      const e = await checkReadOnlySelect(sql, TABLES, [p]).then(
        () => undefined,
        (x: unknown) => x as QueryRefused,
      );
      expect(e?.limit, String(p)).toBe("maxNumericDigits");
    }
    const uint256Max = 2n ** 256n - 1n;
    for (const p of [uint256Max, uint256Max.toString(), "Awarded", `0x${"ab".repeat(32)}`, 5, 1.5])
      await expect(checkReadOnlySelect(sql, TABLES, [p])).resolves.toHaveProperty("expressions");
  });

  acceptsEach(
    [
      "SELECT id FROM bounty WHERE id BETWEEN 1 AND 5 AND status IN ('Awarded', 'Funded') AND author IS DISTINCT FROM $1 AND id = ANY($2)",
      "SELECT id FROM bounty WHERE author NOT ILIKE '0xab%' AND awarder NOT LIKE '0x00%' AND pool <> 0 AND pool >= 1",
      `SELECT id FROM bounty WHERE pool = ${(2n ** 256n - 1n).toString()} OR test_set_root = '0x${"ab".repeat(32)}'`,
      "SELECT round(sum(amount) * 100 / max(pool), 2), trunc(avg(amount)), pool::numeric(78, 0) FROM award_winner, bounty",
      "SELECT concat(author, '/', id), author || ':' || id, substr(author, 1, 6), -pool FROM bounty",
    ],
    ["0x00", [1, 2]],
  );
});

describe("checkGraphqlLimits", () => {
  it("accepts the README's query", () => {
    expect(() =>
      checkGraphqlLimits(
        '{ bountyRecords(where: { status: Awarded }, orderBy: "id", orderDirection: "desc", limit: 5) { totalCount items { id token pool winners { items { place account amount claimTx } } } } }',
      ),
    ).not.toThrow();
  });

  it("refuses a limit under 1 (literal, variable, a variable's default) naming the field (probe18 F6)", () => {
    const refusal = (q: string, v?: Record<string, unknown>) => {
      try {
        checkGraphqlLimits(q, v);
      } catch (e) {
        return [(e as QueryRefused).code, (e as Error).message];
      }
      return undefined;
    };
    // Ponder asks for limit + 1 rows: -2 and less were every row, and the estimate counted none
    expect(refusal("{ anchors(limit: -2) { items { digest } } }")).toEqual([
      "invalid_query",
      "anchors(limit: -2): limit must be an integer from 1 to 1000",
    ]);
    expect(refusal("{ anchors(limit: 0) { items { digest } } }")?.[0]).toBe("invalid_query");
    expect(refusal("query($l: Int) { anchors(limit: $l) { items { digest } } }", { l: -5 })?.[1]).toMatch(
      /^anchors\(limit: -5\)/,
    );
    expect(
      refusal("query($l: Int = -3) { a(limit: 5) { items { b(limit: $l) { items { id } } } } }")?.[1],
    ).toMatch(/^b\(limit: -3\)/);
    // a given variable overrides its default; 1 is the least page
    expect(
      refusal("query($l: Int = -3) { anchors(limit: $l) { items { digest } } }", { l: 1 }),
    ).toBeUndefined();
  });

  it("names the limit a query goes over", () => {
    const limit = (q: string, v?: Record<string, unknown>) => {
      try {
        checkGraphqlLimits(q, v);
      } catch (e) {
        return (e as QueryRefused).limit;
      }
      return undefined;
    };
    expect(limit("{ a(limit: 1000) { items { b(limit: 1000) { items { id } } } } }")).toBe(
      "maxEstimatedRows",
    );
    expect(
      limit("query($n: Int) { a(limit: $n) { items { b(limit: $n) { items { id } } } } }", { n: 1000 }),
    ).toBe("maxEstimatedRows");
    expect(
      limit("fragment F on X { b(limit: 1000) { items { id } } } { a(limit: 1000) { items { ...F } } }"),
    ).toBe("maxEstimatedRows");
    expect(
      limit(
        `{ ${"a { ".repeat(QUERY_LIMITS.graphql.maxDepth + 1)}id${" }".repeat(QUERY_LIMITS.graphql.maxDepth + 1)} }`,
      ),
    ).toBe("maxDepth");
    expect(limit(`{ ${Array.from({ length: 11 }, (_, i) => `x${i}: a { id }`).join(" ")} }`)).toBe(
      "maxAliases",
    );
    expect(limit(`{ a { ${"id ".repeat(QUERY_LIMITS.graphql.maxTokens)} } }`)).toBe("maxTokens");
  });

  // issue 13 re-probe F2: a page's `items` hidden in a fragment was not counted
  it.each([
    [
      "an inline fragment",
      "{ awardWinners(limit: 1000) { ... on awardWinnerPage { items { place bounty { winners(limit: 1000) { ... on awardWinnerPage { items { place account } } } } } } } }",
    ],
    [
      "named fragments",
      "query { awardWinners(limit: 1000) { ...P } } fragment P on awardWinnerPage { items { place bounty { winners(limit: 1000) { ...Q } } } } fragment Q on awardWinnerPage { items { place account } }",
    ],
    [
      "a fragment nested in an inline fragment",
      "{ awardWinners(limit: 1000) { ... { ...P } } } fragment P on awardWinnerPage { ... on awardWinnerPage { items { bounty { winners(limit: 1000) { ... { items { place } } } } } } }",
    ],
  ])("counts the pages whose items sit in %s", (_label, q) => {
    let error: QueryRefused | undefined;
    try {
      checkGraphqlLimits(q);
    } catch (e) {
      error = e as QueryRefused;
    }
    expect(error?.limit).toBe("maxEstimatedRows");
    expect(error?.message).toMatch(/about 1001000 rows/);
  });

  it("ends on cyclic fragments and refuses a fragment bomb by its expanded size, fast", () => {
    expect(() =>
      checkGraphqlLimits("{ a { ...A } } fragment A on X { id ...B } fragment B on X { id ...A }"),
    ).not.toThrow();
    // ten fragments each spreading the next ten times: 10^10 fields once expanded
    const frags = Array.from(
      { length: 10 },
      (_, i) =>
        `fragment F${i} on X { ${
          i === 9
            ? "id"
            : Array(10)
                .fill(`...F${i + 1}`)
                .join(" ")
        } }`,
    );
    const t = Date.now();
    let error: QueryRefused | undefined;
    try {
      checkGraphqlLimits(`{ a { ...F0 } } ${frags.join(" ")}`);
    } catch (e) {
      error = e as QueryRefused;
    }
    expect(Date.now() - t).toBeLessThan(1_000);
    expect(error?.limit).toBe("maxExpandedFields");
  });
});

describe("checkReadOnlySelect: grouping sets are refused before planning (probe10 R4)", () => {
  const cube12 = `SELECT count(*) FROM bounty b JOIN award_winner w ON w.bounty_id = b.id GROUP BY CUBE (${[
    "b.id",
    "b.author",
    "b.token",
    "b.pool",
    "b.status",
    "b.created_block",
    "w.place",
    "w.account",
    "w.amount",
    "lower(b.author)",
    "lower(w.account)",
    "b.pool + 1",
  ].join(", ")})`;
  it.each([
    [cube12, "CUBE"],
    ["SELECT status, count(*) FROM bounty GROUP BY CUBE (status, token)", "CUBE"],
    ["SELECT status, count(*) FROM bounty GROUP BY ROLLUP (status, token)", "ROLLUP"],
    ["SELECT status, count(*) FROM bounty GROUP BY GROUPING SETS ((status), (token))", "GROUPING SETS"],
    ["SELECT status, count(*) FROM bounty GROUP BY GROUPING SETS (status, ())", "GROUPING SETS"],
    ["SELECT count(*) FROM bounty GROUP BY author, ROLLUP (status)", "ROLLUP"],
    ["SELECT x FROM (SELECT status AS x FROM bounty GROUP BY CUBE (status)) s", "CUBE"],
    ["WITH c AS (SELECT token FROM bounty GROUP BY ROLLUP (token)) SELECT * FROM c", "ROLLUP"],
    [
      "SELECT id FROM bounty WHERE id IN (SELECT bounty_id FROM award_winner GROUP BY CUBE (bounty_id))",
      "CUBE",
    ],
  ])("refuses %s", async (sql, name) => {
    const e = await refusal(sql);
    expect(e.code).toBe("query_too_expensive");
    expect(e.message).toContain(`GROUP BY ${name} is not served`);
  });

  acceptsEach([
    "SELECT count(*) FROM bounty GROUP BY ()",
    "SELECT status, token, count(*) FROM bounty GROUP BY status, token",
  ]);
});

describe("checkReadOnlySelect: values built from built values (probe17 B-F7)", () => {
  it.each([2, 3, 4, 5])(
    "refuses the probe's jsonb_build_array fan-out over %i CTE levels, naming maxValueChars",
    async (levels) => {
      const e = await refusal(fanoutStatement(levels, 90));
      expect([e.code, e.limit, e.max]).toEqual([
        "limit_exceeded",
        "maxValueChars",
        QUERY_LIMITS.sql.maxValueChars,
      ]);
    },
  );

  it.each([
    // the same growth through FROM subqueries, a whole row, array and row constructors, ||
    `SELECT to_jsonb(s) FROM (SELECT ${Array.from({ length: 80 }, (_, i) => `t.j AS c${i}`).join(", ")} FROM (SELECT jsonb_build_array(${Array(80).fill("digest").join(",")}) AS j FROM anchor) t) s`,
    `WITH a AS (SELECT ARRAY[${Array(80).fill("digest").join(",")}] AS j FROM anchor) SELECT ARRAY[${Array(80).fill("j").join(",")}] FROM a`,
    `WITH a AS (SELECT ROW(${Array(80).fill("digest").join(",")}) AS j FROM anchor) SELECT to_json(ROW(${Array(80).fill("a.j").join(",")})) FROM a`,
    `WITH a AS (SELECT json_build_object(${Array.from({ length: 40 }, (_, i) => `'k${i}', digest`).join(",")}) AS j FROM anchor), b AS (SELECT json_build_object(${Array.from({ length: 40 }, (_, i) => `'k${i}', j`).join(",")}) AS j FROM a) SELECT j FROM b`,
  ])("refuses %s", async (sql) => {
    const e = await refusal(sql);
    expect([e.code, e.limit]).toEqual(["limit_exceeded", "maxValueChars"]);
  });

  acceptsEach([
    fanoutStatement(1, 90),
    fanoutStatement(2, 10),
    "SELECT b.id, (SELECT json_agg(json_build_array(w.place, w.account, w.amount)) FROM award_winner w WHERE w.bounty_id = b.id) AS winners FROM bounty b ORDER BY b.id DESC LIMIT 20",
    "SELECT json_build_object('id', b.id, 'winners', (SELECT json_agg(json_build_object('place', w.place, 'account', w.account, 'amount', w.amount)) FROM award_winner w WHERE w.bounty_id = b.id)) FROM bounty b",
  ]);
});
