/**
 * probe14 D2-F25: `/sql/db` answered `SELECT CURRENT_ROLE`, `current_user`, `session_user`,
 * `current_catalog`, `current_schema` with the database server's own facts (the role statements run
 * as, the database's name). SQL over HTTP reads the indexer's tables: each of these is refused 400
 * `not_read_only` naming it, on PGlite and (with TEST_DATABASE_URL) PostgreSQL, as `version()` and
 * `current_setting()` already were; the clock (`now()`, `CURRENT_TIMESTAMP`, ...) is still served.
 * probe15 B-F4: so are the system columns (`tableoid`, `ctid`, `xmin`, `xmax`, `cmin`, `cmax`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSqlHarness, type SqlHarness } from "./helpers/sqlHarness";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

/** Each statement and the name its refusal must give. */
const SERVER_FACTS: [string, string][] = [
  ["SELECT CURRENT_ROLE AS r", "CURRENT_ROLE"],
  ["SELECT current_user", "CURRENT_USER"],
  ["SELECT session_user", "SESSION_USER"],
  ["SELECT user AS u FROM bounty LIMIT 1", "USER"],
  ["SELECT current_catalog", "CURRENT_CATALOG"],
  ["SELECT current_schema", "CURRENT_SCHEMA"],
  // a yes/no oracle over the role, in a WHERE of a table read
  ["SELECT id FROM bounty WHERE CURRENT_ROLE = 'postgres' LIMIT 1", "CURRENT_ROLE"],
  ["SELECT id FROM bounty WHERE id IN (SELECT b.id FROM bounty b WHERE session_user LIKE 'p%')", "SESSION_USER"],
  ["SELECT version()", "version()"],
  ["SELECT current_setting('server_version')", "current_setting()"],
  ["SELECT current_database()", "current_database()"],
  ["SELECT system_user", "system_user()"],
  ["SELECT inet_server_addr()", "inet_server_addr()"],
  // probe15 B-F4: the system columns (transaction ids, the table's OID, the row's location)
  ["SELECT tableoid, ctid, xmin, xmax, cmin, cmax FROM bounty LIMIT 1", "tableoid"],
  ["SELECT xmin FROM bounty LIMIT 1", "xmin"],
  ["SELECT max(xmin::text::int8) AS x FROM bounty", "xmin"],
  ["SELECT id FROM bounty WHERE xmax::text <> '' LIMIT 1", "xmax"],
  ["SELECT id FROM bounty ORDER BY ctid LIMIT 1", "ctid"],
  ["SELECT b.cmin FROM bounty b LIMIT 1", "cmin"],
  ['SELECT "cmax" FROM bounty LIMIT 1', "cmax"],
];

function serverFacts(label: string, databaseUrl: string | undefined) {
  describe(`/sql/db refuses the database server's facts on ${label} (probe14 D2-F25)`, () => {
    let h: SqlHarness;
    beforeAll(async () => {
      h = await startSqlHarness(databaseUrl, 5, true);
    });
    afterAll(async () => {
      await h?.stop();
    });

    it.each(SERVER_FACTS)("refuses %s naming %s", async (text, name) => {
      const r = await h.sql(text);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("not_read_only");
      expect(r.body.error.message).toContain(name);
      expect(r.body.rows).toBeUndefined();
    });

    it("names why: the indexer's tables are served, not the server's role, database or settings", async () => {
      const r = await h.sql("SELECT current_user");
      expect(r.body.error.message).toBe(
        "CURRENT_USER is not allowed: SQL over HTTP reads the indexer's tables, not facts of the database server (its roles, database, schema or settings)",
      );
    });

    it("still serves the clock and the indexer's tables", async () => {
      const r = await h.sql(
        "SELECT id, CURRENT_TIMESTAMP > to_timestamp(0) AS t, now() >= CURRENT_DATE AS d, LOCALTIMESTAMP(0) IS NOT NULL AS l FROM bounty ORDER BY id LIMIT 1",
      );
      expect(r.status).toBe(200);
      expect(r.body.rows[0]).toMatchObject({ t: true, d: true, l: true });
      expect(String(r.body.rows[0].id)).toBe("1");
    });
  });
}

/**
 * The same class: a value's text showed the server's TimeZone (`now()::text`, `to_char(now(), 'TZ')`,
 * `extract(timezone ...)`) and DateStyle (how `'01/02/2020'::date` is read). Every statement now runs
 * with the PostgreSQL defaults pinned (UTC, `ISO, MDY`), whatever the server's settings.
 */
function pinnedSettings(label: string, databaseUrl: string | undefined) {
  describe(`/sql/db answers the same whatever the server's TimeZone and DateStyle, on ${label}`, () => {
    let h: SqlHarness;
    beforeAll(async () => {
      h = await startSqlHarness(databaseUrl, 5, true, {
        session: { timeZone: "Asia/Kolkata", dateStyle: "SQL, DMY" },
      });
    });
    afterAll(async () => {
      await h?.stop();
    });

    it("shows UTC and reads dates month first", async () => {
      const r = await h.sql(
        "SELECT to_char(to_timestamp(0), 'TZ') AS tz, to_timestamp(0)::text AS t, extract(timezone from now()) AS e, '01/02/2020'::date::text AS d",
      );
      expect(r.status).toBe(200);
      expect(r.body.rows[0]).toMatchObject({ tz: "UTC", t: "1970-01-01 00:00:00+00", d: "2020-01-02" });
      expect(String(r.body.rows[0].e)).toBe("0");
    });
  });
}

serverFacts("PGlite", undefined);
pinnedSettings("PGlite", undefined);
if (TEST_DATABASE_URL !== undefined && TEST_DATABASE_URL !== "")
  pinnedSettings("PostgreSQL", TEST_DATABASE_URL);
if (TEST_DATABASE_URL !== undefined && TEST_DATABASE_URL !== "")
  serverFacts("PostgreSQL", TEST_DATABASE_URL);
