/**
 * `/sql/db` (src/api/sql.ts) without Ponder: a standalone PGlite, or a fresh schema of the
 * PostgreSQL database at `databaseUrl`, with a few tables shaped like the indexer's, handed
 * to the handler the way Ponder hands it its database (`globalThis.PONDER_DATABASE`). For
 * fast tests and the probes' benchmark (bench/sqlProbes.ts); the live tests run the real indexer.
 */
import { PGlite } from "@electric-sql/pglite";
import { Hono } from "hono";
import pg from "pg";
import superjson from "superjson";
import type { TableColumns } from "../../lib/sqlScope";
import { sqlDb } from "../../src/api/sql";

/** The tables of the harness (a subset of the indexer's columns): name → columns. */
export const HARNESS_TABLES: TableColumns = new Map([
  ["bounty", ["id", "author", "token", "pool", "status", "created_block"]],
  ["award_winner", ["bounty_id", "place", "account", "amount", "awarded_block"]],
  ["anchor", ["digest", "kind", "anchorer", "block_number"]],
]);

const DDL = [
  "CREATE TABLE bounty (id bigint PRIMARY KEY, author text NOT NULL, token text NOT NULL, pool numeric(78) NOT NULL, status text NOT NULL, created_block bigint NOT NULL)",
  "CREATE TABLE award_winner (bounty_id bigint NOT NULL, place integer NOT NULL, account text NOT NULL, amount numeric(78) NOT NULL, awarded_block bigint NOT NULL, PRIMARY KEY (bounty_id, place))",
  "CREATE TABLE anchor (digest text PRIMARY KEY, kind text NOT NULL, anchorer text NOT NULL, block_number bigint NOT NULL)",
];

/** Bounties `from..to`, each awarded to two winners, and one anchor per bounty. */
function seed(to: number, from = 1): string[] {
  const hex = (n: number, len: number) => `0x${n.toString(16).padStart(len, "0")}`;
  const rows: string[] = [];
  for (let i = from; i <= to; i++) {
    const author = hex(i % 7, 40);
    rows.push(
      `INSERT INTO bounty VALUES (${i}, '${author}', '${hex(1, 40)}', ${i * 1_000_000}, '${i % 3 === 0 ? "Funded" : "Awarded"}', ${100 + i})`,
      `INSERT INTO award_winner VALUES (${i}, 1, '${hex(i % 11, 40)}', ${i * 600_000}, ${200 + i}), (${i}, 2, '${hex(i % 13, 40)}', ${i * 400_000}, ${200 + i})`,
      `INSERT INTO anchor VALUES ('${hex(i, 64)}', '${hex(1, 64)}', '${author}', ${300 + i})`,
    );
  }
  return rows;
}

/**
 * probe17 B-F7 (`python3 /tmp/probe17b/scripts/sql-fanout.py levels k`): one anchor's digest built
 * `k` times over by `jsonb_build_array` in each of `levels` one-row CTEs (a value of 68 x k^levels
 * characters; level 4 at k = 90 grew a PostgreSQL backend to 19 GB: never run it unguarded).
 */
export function fanoutStatement(levels: number, k: number): string {
  let q = "WITH l0 AS (SELECT digest AS j FROM anchor LIMIT 1)";
  for (let i = 1; i <= levels; i++)
    q += `, l${i} AS (SELECT jsonb_build_array(${Array(k).fill("j").join(",")}) AS j FROM l${i - 1})`;
  return `${q} SELECT octet_length(j::text) AS n FROM l${levels}`;
}

export interface SqlHarness {
  /** `GET /sql/db` with raw SQL, as `@ponder/client` sends it. */
  sql(text: string, params?: unknown[]): Promise<{ status: number; body: Record<string, any> }>;
  /** `GET /sql/db` with `sql=` exactly this text (a hand-made superjson document). */
  raw(param: string): Promise<{ status: number; body: Record<string, any> }>;
  stop(): Promise<void>;
}

/**
 * Starts the harness.
 * @param databaseUrl - PostgreSQL (a fresh schema, dropped by `stop`); undefined: PGlite in memory.
 * @param bounties - rows to seed (each with two winners and one anchor).
 * @param unsafeSqlOnPglite - serve `/sql/db` on PGlite (the indexer's `INDEXER_UNSAFE_SQL_ON_PGLITE`).
 * @param options - `role`: on PostgreSQL, a role created for the harness's schema with `SELECT`
 *   on its tables only, which statements run as (`INDEXER_SQL_ROLE`); dropped by `stop`. `grants`:
 *   what the role is given (default `USAGE` on the schema and `SELECT` on every table): `usage`
 *   false leaves out the schema's `USAGE`, `tables` names the only tables it may read.
 */
export async function startSqlHarness(
  databaseUrl?: string,
  bounties = 50,
  unsafeSqlOnPglite = true,
  options: {
    role?: string;
    grants?: { usage?: boolean; tables?: readonly string[] };
    /** false: `role` is not created (an `INDEXER_SQL_ROLE` naming no role). */
    createRole?: boolean;
    /**
     * Stale statistics, as a live indexer has (the tables grow after the last ANALYZE): the tables
     * are analyzed when they hold this many bounties, then the rest are inserted.
     */
    analyzedAt?: number;
    /** The database session's TimeZone and DateStyle (a server's settings), e.g. `Asia/Kolkata`, `SQL, DMY`. */
    session?: { timeZone: string; dateStyle: string };
  } = {},
): Promise<SqlHarness> {
  let stopDb: () => Promise<void>;
  const analyzedAt = options.analyzedAt ?? 0;
  const load =
    options.analyzedAt === undefined
      ? [...DDL, ...seed(bounties)]
      : [
          ...DDL,
          ...seed(analyzedAt),
          ...[...HARNESS_TABLES.keys()].map((t) => `ANALYZE ${t}`),
          ...seed(bounties, analyzedAt + 1),
        ];
  if (databaseUrl === undefined) {
    const db = new PGlite();
    // as Ponder's PGlite: sequential scans and nested loops off (sql.ts turns them on per statement)
    await db.exec("SET enable_seqscan = off; SET enable_nestloop = off");
    if (options.session !== undefined)
      await db.exec(
        `SET TimeZone = '${options.session.timeZone}'; SET DateStyle = '${options.session.dateStyle}'`,
      );
    await db.exec(load.join(";\n"));
    (globalThis as Record<string, unknown>).PONDER_DATABASE = { driver: { dialect: "pglite", instance: db } };
    (globalThis as Record<string, unknown>).PONDER_NAMESPACE_BUILD = { schema: "public" };
    stopDb = () => db.close();
  } else {
    const schema = `sql_harness_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.query(`SET search_path = ${schema}`);
    await admin.query(load.join(";\n"));
    const ownRole = options.role !== undefined && options.createRole !== false;
    if (options.role !== undefined) await admin.query(`DROP ROLE IF EXISTS ${options.role}`);
    if (ownRole) {
      await admin.query(`CREATE ROLE ${options.role} NOLOGIN`);
      if (options.grants?.usage !== false)
        await admin.query(`GRANT USAGE ON SCHEMA ${schema} TO ${options.role}`);
      if (options.grants?.tables === undefined)
        await admin.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${schema} TO ${options.role}`);
      else
        for (const table of options.grants.tables)
          await admin.query(`GRANT SELECT ON ${schema}.${table} TO ${options.role}`);
    }
    // no search_path of its own: sql.ts sets it to the indexer's schema in every transaction
    const readonly = new pg.Pool({
      connectionString: databaseUrl,
      max: 2,
      ...(options.session === undefined
        ? {}
        : {
            options: `-c TimeZone=${options.session.timeZone} -c DateStyle=${options.session.dateStyle.replace(/[ ,]+/g, "\\,")}`,
          }),
    });
    (globalThis as Record<string, unknown>).PONDER_DATABASE = { driver: { dialect: "postgres", readonly } };
    (globalThis as Record<string, unknown>).PONDER_NAMESPACE_BUILD = { schema };
    stopDb = async () => {
      await readonly.end();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      if (ownRole) {
        await admin.query(`DROP OWNED BY ${options.role}`);
        await admin.query(`DROP ROLE ${options.role}`);
      }
      await admin.end();
    };
  }
  const app = new Hono();
  app.get("/sql/db", (c) => sqlDb(c, HARNESS_TABLES, { unsafeSqlOnPglite, role: options.role }));
  app.onError((err, c) => c.json({ error: { code: "internal", message: String(err) } }, 500));
  return {
    async sql(text, params = []) {
      const res = await app.request(
        `/sql/db?sql=${encodeURIComponent(superjson.stringify({ sql: text, params }))}`,
      );
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    },
    async raw(param) {
      const res = await app.request(`/sql/db?sql=${encodeURIComponent(param)}`);
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    },
    stop: () => stopDb(),
  };
}
