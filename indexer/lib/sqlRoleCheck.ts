/**
 * The start-up check of `INDEXER_SQL_ROLE` (probe14 D2-F12): on PostgreSQL, `ponder.config.ts` asks
 * the database, before Ponder starts, whether the role exists and whether the connection's role may
 * take it (`SET LOCAL ROLE` needs membership); without that every `/sql/db` statement would be
 * refused. The grants on the schema and its tables (which Ponder creates at its start) are checked
 * by `/sql/db` itself, which answers 503 `sql_misconfigured` naming the missing one.
 */
import pg from "pg";

/** One query with parameters (a `pg` client's `query`). */
export type RoleQuery = (sql: string, params: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

/**
 * What keeps the connection's role from taking `role`, in words naming the fix, or null when it may.
 * @param query - runs a statement as the connection's role.
 */
export async function sqlRoleProblem(query: RoleQuery, role: string): Promise<string | null> {
  const { rows } = await query(
    `SELECT r.oid IS NOT NULL AS found,
            r.oid IS NOT NULL AND pg_catalog.pg_has_role(current_user, r.oid, 'MEMBER') AS member
       FROM (SELECT 1) AS one LEFT JOIN pg_catalog.pg_roles r ON r.rolname = $1`,
    [role],
  );
  const row = rows[0] ?? {};
  if (row.found !== true)
    return `role "${role}" does not exist: create it (CREATE ROLE ${role} NOLOGIN) with the grants of the indexer README, or unset INDEXER_SQL_ROLE`;
  if (row.member !== true)
    return `the connection's role is not a member of role "${role}", so it cannot take it: GRANT ${role} TO <the connection's role>`;
  return null;
}

/**
 * {@link sqlRoleProblem} on the database at `connectionString`; null too when the database cannot be
 * reached (Ponder reports that itself when it starts).
 */
export async function checkSqlRoleAtStart(connectionString: string, role: string): Promise<string | null> {
  const client = new pg.Client({ connectionString });
  try {
    await client.connect();
  } catch {
    // whatever the connection fails with, Ponder's own start reports it with its context
    await client.end().catch(() => undefined);
    return null;
  }
  try {
    return await sqlRoleProblem((sql, params) => client.query(sql, params), role);
  } finally {
    await client.end().catch(() => undefined);
  }
}
