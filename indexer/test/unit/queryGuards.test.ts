/** The SQL read-only guard and the GraphQL limits on their own (the live tests run them through HTTP). */
import { describe, expect, it } from "vitest";
import { checkGraphqlLimits } from "../../lib/graphqlLimits";
import { QUERY_LIMITS, QueryRefused } from "../../lib/limits";
import { checkReadOnlySelect } from "../../lib/sqlGuard";

const TABLES = new Set(["bounty", "award_winner", "anchor", "anomaly"]);

async function refusal(sql: string): Promise<QueryRefused> {
  try {
    await checkReadOnlySelect(sql, TABLES);
  } catch (e) {
    if (e instanceof QueryRefused) return e;
    throw e;
  }
  throw new Error(`accepted: ${sql}`);
}

describe("checkReadOnlySelect", () => {
  it.each([
    "SELECT id, status FROM bounty WHERE status = $1 ORDER BY id DESC LIMIT 5",
    'select "bounty"."id", count(*) from "bounty" left join "award_winner" on "award_winner"."bounty_id" = "bounty"."id" group by 1',
    "WITH w AS (SELECT account, sum(amount) AS s FROM award_winner GROUP BY account) SELECT * FROM w ORDER BY s DESC",
    "SELECT coalesce(max(pool), 0), lower(author) FROM bounty WHERE id IN (SELECT bounty_id FROM award_winner)",
    "SELECT id FROM bounty WHERE author LIKE '0xab%' UNION ALL SELECT bounty_id FROM award_winner",
  ])("accepts %s", async (sql) => {
    await expect(checkReadOnlySelect(sql, TABLES)).resolves.toBeUndefined();
  });

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

describe("checkGraphqlLimits", () => {
  it("accepts the README's query", () => {
    expect(() =>
      checkGraphqlLimits(
        '{ bountyRecords(where: { status: Awarded }, orderBy: "id", orderDirection: "desc", limit: 5) { totalCount items { id token pool winners { items { place account amount claimTx } } } } }',
      ),
    ).not.toThrow();
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
});
