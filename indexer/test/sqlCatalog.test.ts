/**
 * Issue 13 re-probe 6, O1 and O11, through `/sql/db` on PGlite and (with TEST_DATABASE_URL)
 * PostgreSQL: a WITH query's name never reaches the catalog relation of that name, and `x.f`
 * never calls a function. Each statement answered 200 with catalog rows (or a function's value)
 * before the guard resolved names in their scope (lib/sqlScope.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSqlHarness, type SqlHarness } from "./helpers/sqlHarness";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

const CATALOG_READS = [
  // the probe's: a non-recursive CTE naming itself (superuser's SCRAM hash on PostgreSQL)
  "WITH pg_authid AS (SELECT rolname, rolpassword FROM pg_authid) SELECT * FROM pg_authid WHERE rolname = current_user",
  // other sessions' SQL
  "WITH pg_stat_activity AS (SELECT query FROM pg_stat_activity) SELECT * FROM pg_stat_activity",
  // a CTE used before its declaration
  "WITH a AS (SELECT name, setting FROM pg_settings), pg_settings AS (SELECT 1 AS x) SELECT * FROM a",
  // a CTE declared in an inner query, the name used outside it
  "SELECT tablename FROM pg_tables WHERE EXISTS (WITH pg_tables AS (SELECT 1 AS t) SELECT 1 FROM pg_tables)",
  "SELECT s.x, schemaname FROM (WITH pg_stats AS (SELECT 1 AS x) SELECT x FROM pg_stats) s, pg_stats",
  "WITH x AS (WITH pg_hba_file_rules AS (SELECT 1 AS y) SELECT y FROM pg_hba_file_rules) SELECT * FROM pg_hba_file_rules",
];

const FUNCTION_CALLS = [
  "SELECT w.pg_typeof, w.pg_column_size FROM award_winner w",
  "SELECT (w).num_nulls FROM award_winner w",
  "WITH c AS (SELECT account FROM award_winner) SELECT c.num_nonnulls FROM c",
];

function catalogSafety(label: string, databaseUrl: string | undefined) {
  describe(`/sql/db name resolution on ${label}`, () => {
    let h: SqlHarness;
    beforeAll(async () => {
      h = await startSqlHarness(databaseUrl, 5);
    });
    afterAll(async () => {
      await h?.stop();
    });

    it.each(CATALOG_READS)("refuses %s", async (text) => {
      const r = await h.sql(text);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("not_read_only");
      expect(r.body.error.message).toMatch(
        /is neither one of the indexer's tables .* nor a WITH query in scope here/,
      );
    });

    it.each(FUNCTION_CALLS)("refuses %s", async (text) => {
      const r = await h.sql(text);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("not_read_only");
    });

    it("still serves CTEs, subqueries and qualified columns over the indexer's tables", async () => {
      const r = await h.sql(
        "WITH a AS (SELECT bounty_id, amount FROM award_winner), b AS (SELECT a.bounty_id, sum(a.amount) AS total FROM a GROUP BY a.bounty_id) " +
          "SELECT b.bounty_id, b.total, x.status FROM b JOIN bounty x ON x.id = b.bounty_id WHERE b.bounty_id IN (SELECT a.bounty_id FROM a) ORDER BY b.bounty_id LIMIT 2",
      );
      expect(r.status).toBe(200);
      expect(r.body.rows).toHaveLength(2);
      expect([String(r.body.rows[0].bounty_id), String(r.body.rows[0].total)]).toEqual(["1", "1000000"]);
    });
  });
}

describe("/sql/db on PGlite without INDEXER_UNSAFE_SQL_ON_PGLITE (issue 13 re-probe 6, O2)", () => {
  it("answers 501 not_served naming PostgreSQL and the opt-in, before parsing anything", async () => {
    const h = await startSqlHarness(undefined, 5, false);
    try {
      for (const text of ["SELECT id FROM bounty", "not even SQL"]) {
        const r = await h.sql(text);
        expect(r.status).toBe(501);
        expect(r.body.error.code).toBe("not_served");
        expect(r.body.error.message).toMatch(
          /PostgreSQL \(DATABASE_URL\).*INDEXER_UNSAFE_SQL_ON_PGLITE=true/,
        );
      }
    } finally {
      await h.stop();
    }
  });

  it.runIf(TEST_DATABASE_URL !== undefined && TEST_DATABASE_URL !== "")(
    "PostgreSQL serves it without the opt-in",
    async () => {
      const h = await startSqlHarness(TEST_DATABASE_URL, 5, false);
      try {
        expect((await h.sql("SELECT id FROM bounty ORDER BY id")).status).toBe(200);
      } finally {
        await h.stop();
      }
    },
  );
});

describe.runIf(TEST_DATABASE_URL !== undefined && TEST_DATABASE_URL !== "")(
  "/sql/db on PostgreSQL with INDEXER_SQL_ROLE",
  () => {
    it("runs statements as that role (SELECT on the tables only), not as the connection's", async () => {
      // CURRENT_USER is refused (probe14 D2-F25): the role shows in what it may read
      const role = `bb_sql_reader_${process.pid}`;
      const h = await startSqlHarness(TEST_DATABASE_URL, 5, false, {
        role,
        grants: { tables: ["bounty", "award_winner"] },
      });
      try {
        const r = await h.sql("SELECT count(*) AS n FROM bounty");
        expect(r.status).toBe(200);
        expect(String(r.body.rows[0].n)).toBe("5");
        const anchors = await h.sql("SELECT count(*) AS n FROM anchor");
        expect(anchors.status).toBe(503);
        expect(anchors.body.error.message).toContain("INDEXER_SQL_ROLE lacks SELECT on table anchor");
      } finally {
        await h.stop();
      }
      const plain = await startSqlHarness(TEST_DATABASE_URL, 5, false);
      try {
        expect((await plain.sql("SELECT count(*) AS n FROM anchor")).status).toBe(200);
      } finally {
        await plain.stop();
      }
    });
  },
);

catalogSafety("PGlite", undefined);
if (TEST_DATABASE_URL !== undefined && TEST_DATABASE_URL !== "")
  catalogSafety("PostgreSQL", TEST_DATABASE_URL);
