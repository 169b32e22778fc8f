/**
 * probe14 D2-F12: with `INDEXER_SQL_ROLE` naming a role without the grants on the indexer's schema
 * and tables (or no role at all), every `/sql/db` statement answered 400 `invalid_query`, as if the
 * caller's SQL were wrong. It now answers 503 `sql_misconfigured` naming the variable and the
 * missing grant (never the role's name: probe14 D2-F25), and the operator's log names the role.
 * PostgreSQL only (TEST_DATABASE_URL): PGlite has no roles.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startSqlHarness } from "./helpers/sqlHarness";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

describe.runIf(TEST_DATABASE_URL !== undefined && TEST_DATABASE_URL !== "")(
  "/sql/db with an INDEXER_SQL_ROLE that may not read the indexer's tables (probe14 D2-F12)",
  () => {
    const role = `bb_sql_f12_${process.pid}`;
    let logged: string[];
    beforeEach(() => {
      logged = [];
      vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
        logged.push(args.map(String).join(" "));
      });
    });
    afterEach(() => {
      vi.restoreAllMocks();
    });

    /** The answer of `text` with a harness whose role is given `grants`. */
    async function answer(
      text: string,
      options: Parameters<typeof startSqlHarness>[3],
    ): Promise<{ status: number; body: Record<string, any> }> {
      const h = await startSqlHarness(TEST_DATABASE_URL, 5, false, options);
      try {
        return await h.sql(text);
      } finally {
        await h.stop();
      }
    }

    it("no USAGE on the schema: 503 sql_misconfigured naming INDEXER_SQL_ROLE and the grant, not the role", async () => {
      const r = await answer("SELECT count(*) AS n FROM bounty", { role, grants: { usage: false } });
      expect(r.status).toBe(503);
      expect(r.body.error.code).toBe("sql_misconfigured");
      expect(r.body.error.message).toBe(
        "SQL over HTTP is not available: the role of INDEXER_SQL_ROLE lacks USAGE on the indexer's schema " +
          "(an operator's configuration error, not the query's: see the indexer README, INDEXER_SQL_ROLE)",
      );
      expect(JSON.stringify(r.body)).not.toContain(role);
      // without USAGE the schema is skipped by the search_path: the table is "not found"
      expect(logged.join("\n")).toContain(`INDEXER_SQL_ROLE=${role}: relation "bounty" does not exist`);
    });

    it("no SELECT on a table: 503 naming the table", async () => {
      const r = await answer("SELECT b.id, a.kind FROM bounty b JOIN anchor a ON a.anchorer = b.author LIMIT 1", {
        role,
        grants: { tables: ["bounty"] },
      });
      expect(r.status).toBe(503);
      expect(r.body.error.code).toBe("sql_misconfigured");
      expect(r.body.error.message).toContain("the role of INDEXER_SQL_ROLE lacks SELECT on table anchor");
      expect(JSON.stringify(r.body)).not.toContain(role);
    });

    it("the log names the role once per problem, not once per request", async () => {
      const h = await startSqlHarness(TEST_DATABASE_URL, 5, false, { role, grants: { tables: ["bounty"] } });
      try {
        for (let i = 0; i < 3; i++)
          expect((await h.sql("SELECT count(*) AS n FROM award_winner")).status).toBe(503);
      } finally {
        await h.stop();
      }
      expect(logged).toEqual([
        `indexer /sql/db: INDEXER_SQL_ROLE=${role}: permission denied for table award_winner (see the README, INDEXER_SQL_ROLE)`,
      ]);
    });

    it("a role that does not exist: 503 saying so, not invalid_query", async () => {
      const r = await answer("SELECT count(*) AS n FROM bounty", { role, createRole: false });
      expect(r.status).toBe(503);
      expect(r.body.error.code).toBe("sql_misconfigured");
      expect(r.body.error.message).toContain(
        "the role of INDEXER_SQL_ROLE cannot be taken (it does not exist, or the connection's role is not a member of it: GRANT <role> TO <the connection's role>)",
      );
      expect(JSON.stringify(r.body)).not.toContain(role);
      expect(logged.join("\n")).toContain(`INDEXER_SQL_ROLE=${role}: role "${role}" does not exist`);
    });

    it("the caller's own mistakes are still 400 invalid_query under a well-granted role", async () => {
      const r = await answer("SELECT nosuch FROM bounty", { role });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("invalid_query");
      const typed = await answer("SELECT id FROM bounty WHERE id = 'x'", { role });
      expect(typed.status).toBe(400);
      expect(typed.body.error.code).toBe("invalid_query");
    });
  },
);
