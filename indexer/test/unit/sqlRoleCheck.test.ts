/**
 * probe14 D2-F12: `INDEXER_SQL_ROLE` naming a role that does not exist, or one the connection's
 * role may not take, is found when the indexer starts (`ponder.config.ts` exits naming the
 * variable), not by every `/sql/db` statement failing. PostgreSQL only (TEST_DATABASE_URL).
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkSqlRoleAtStart, sqlRoleProblem } from "../../lib/sqlRoleCheck";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

describe.runIf(TEST_DATABASE_URL !== undefined && TEST_DATABASE_URL !== "")(
  "the start-up check of INDEXER_SQL_ROLE (probe14 D2-F12)",
  () => {
    const role = `bb_sql_start_${process.pid}`;
    const other = `bb_sql_login_${process.pid}`;
    let admin: InstanceType<typeof pg.Client>;
    beforeAll(async () => {
      admin = new pg.Client({ connectionString: TEST_DATABASE_URL! });
      await admin.connect();
      await admin.query(`CREATE ROLE ${role} NOLOGIN`);
      await admin.query(`CREATE ROLE ${other} NOLOGIN`);
    });
    afterAll(async () => {
      await admin.query(`DROP ROLE IF EXISTS ${role}`);
      await admin.query(`DROP ROLE IF EXISTS ${other}`);
      await admin.end();
    });

    it("a role that does not exist is named with the fix", async () => {
      expect(await checkSqlRoleAtStart(TEST_DATABASE_URL!, `${role}_missing`)).toBe(
        `role "${role}_missing" does not exist: create it (CREATE ROLE ${role}_missing NOLOGIN) with the grants of the indexer README, or unset INDEXER_SQL_ROLE`,
      );
    });

    it("a role the connection's role is a member of passes", async () => {
      expect(await checkSqlRoleAtStart(TEST_DATABASE_URL!, role)).toBeNull();
    });

    it("a role the connection's role may not take is named with the GRANT", async () => {
      // as a role that is not a member of `role` (SET ROLE inside a transaction of the admin connection)
      await admin.query("BEGIN");
      try {
        await admin.query(`SET LOCAL ROLE ${other}`);
        const problem = await sqlRoleProblem((sql, params) => admin.query(sql, params), role);
        expect(problem).toBe(
          `the connection's role is not a member of role "${role}", so it cannot take it: GRANT ${role} TO <the connection's role>`,
        );
      } finally {
        await admin.query("ROLLBACK");
      }
    });

    it("an unreachable database is left to Ponder's own start", async () => {
      expect(await checkSqlRoleAtStart("postgresql://postgres:postgres@127.0.0.1:1/none", role)).toBeNull();
    });
  },
);
