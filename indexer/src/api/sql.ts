/**
 * SQL over HTTP, read-only (issue 13 items 1-2): `GET /sql/db?sql=<superjson {sql, params}>`,
 * the request `@ponder/client`'s `createClient(url + "/sql").db` sends. It replaces Ponder's
 * own `client()` middleware, which ran PGlite statements outside any read-only transaction
 * and cached its verdicts by a 10-hex-digit hash prefix.
 *
 * Every statement: (1) passes `checkReadOnlySelect` (one SELECT over the indexer's tables, its
 * operators, functions and numeric sizes bounded before the planner folds any constant);
 * (2) runs in a READ ONLY transaction; (3) is refused when the planner's estimate exceeds
 * `maxPlanCost`; (4) on PostgreSQL runs under `statement_timeout`; (5) is read through a
 * cursor, at most `maxRows` rows (more is refused). PGlite runs inside the Node process and
 * cannot interrupt a statement (no `statement_timeout`; a JavaScript timer cannot fire while a
 * statement runs, it holds the thread), so there a far lower plan-cost bound
 * (`maxPlanCostPglite`, calibrated to about 5 s), the relation bound and the function allowlist
 * are what bound a statement's time.
 *
 * `/sql/live` (live queries) is not served: it answers 404 with code `not_served`.
 */
import type { Context } from "hono";
import superjson from "superjson";
import { z } from "zod";
import { QUERY_LIMITS, QueryRefused, queryRefusedBody } from "../../lib/limits";
import { checkReadOnlySelect } from "../../lib/sqlGuard";

/** What `@ponder/client` sends in `?sql=` (superjson of drizzle's query). */
const SqlRequest = z.object({
  sql: z.string(),
  params: z.array(z.unknown()).default([]),
  typings: z.array(z.unknown()).optional(),
});

interface Rows {
  rows: Record<string, unknown>[];
}
interface SqlSession {
  query(sql: string, params?: unknown[]): Promise<Rows>;
}
/** The parts of Ponder's database handle this module uses (`globalThis.PONDER_DATABASE.driver`). */
type Driver =
  | { dialect: "pglite"; instance: { transaction<T>(fn: (tx: SqlSession) => Promise<T>): Promise<T> } }
  | {
      dialect: "postgres";
      readonly: { connect(): Promise<SqlSession & { release(error?: Error): void }> };
    };

function driver(): Driver {
  const d = (globalThis as { PONDER_DATABASE?: { driver: Driver } }).PONDER_DATABASE?.driver;
  if (d === undefined) throw new Error("sql: not running inside Ponder");
  return d;
}

const CURSOR = "bench_bounty_sql";

/** Plan-cost check, cursor and row cap, inside an already-open READ ONLY transaction. */
async function runInTransaction(
  tx: SqlSession,
  sql: string,
  params: unknown[],
  dialect: Driver["dialect"],
): Promise<Rows> {
  // Ponder's PGlite turns sequential scans and nested loops off, which adds PostgreSQL's
  // disable_cost (1e10) to every such plan: turn them on for this transaction only, so
  // the estimate below is the statement's real cost.
  await tx.query("SET LOCAL enable_seqscan = on");
  await tx.query("SET LOCAL enable_nestloop = on");
  const plan = await tx.query(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  const cost = planCost(plan.rows[0]);
  // PGlite cannot interrupt a running statement: its (lower) cost limit is its time bound
  const limit = dialect === "pglite" ? "maxPlanCostPglite" : "maxPlanCost";
  const maxCost = QUERY_LIMITS.sql[limit];
  if (cost > maxCost) {
    throw new QueryRefused(
      "limit_exceeded",
      `the planner estimates this statement at ${Math.round(cost)} cost units (at most ${maxCost}${
        dialect === "pglite" ? " on the embedded PGlite, which cannot interrupt a statement" : ""
      }): add a WHERE, a LIMIT or fewer joins`,
      limit,
      maxCost,
    );
  }
  await tx.query(`DECLARE ${CURSOR} NO SCROLL CURSOR FOR ${sql}`, params);
  const maxRows = QUERY_LIMITS.sql.maxRows;
  const result = await tx.query(`FETCH ${maxRows + 1} FROM ${CURSOR}`);
  if (result.rows.length > maxRows) {
    throw new QueryRefused(
      "limit_exceeded",
      `the result has more than ${maxRows} rows: add a LIMIT`,
      "maxRows",
      maxRows,
    );
  }
  await tx.query(`CLOSE ${CURSOR}`);
  return { rows: result.rows };
}

function planCost(row: Record<string, unknown> | undefined): number {
  const raw = row?.["QUERY PLAN"];
  const doc = (typeof raw === "string" ? JSON.parse(raw) : raw) as { Plan?: { "Total Cost"?: number } }[];
  const cost = doc?.[0]?.Plan?.["Total Cost"];
  if (typeof cost !== "number") throw new Error("sql: EXPLAIN gave no total cost");
  return cost;
}

/** Runs a guarded statement read-only and bounded (see the module comment). */
async function runBounded(sql: string, params: unknown[]): Promise<Rows> {
  const d = driver();
  if (d.dialect === "pglite") {
    return d.instance.transaction(async (tx) => {
      await tx.query("SET TRANSACTION READ ONLY");
      return runInTransaction(tx, sql, params, "pglite");
    });
  }
  const client = await d.readonly.connect();
  try {
    await client.query("BEGIN READ ONLY");
    await client.query(`SET LOCAL statement_timeout = ${QUERY_LIMITS.sql.statementTimeoutMs}`);
    const rows = await runInTransaction(client, sql, params, "postgres");
    await client.query("COMMIT");
    client.release();
    return rows;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined); // the connection may be broken: released with the error below
    client.release(e instanceof Error ? e : undefined);
    throw e;
  }
}

/** PostgreSQL error classes a user's statement can cause (42 syntax/undefined, 22 data, 25006 read-only, 57014 timeout). */
function refusalOf(e: unknown): QueryRefused | undefined {
  if (e instanceof QueryRefused) return e;
  const code = (e as { code?: unknown })?.code;
  const message = e instanceof Error ? e.message : String(e);
  if (code === "57014") {
    const ms = QUERY_LIMITS.sql.statementTimeoutMs;
    return new QueryRefused(
      "limit_exceeded",
      `the statement ran longer than ${ms} ms`,
      "statementTimeoutMs",
      ms,
    );
  }
  if (code === "25006") return new QueryRefused("not_read_only", message);
  if (typeof code === "string" && /^(42|22|21|0A)/.test(code))
    return new QueryRefused("invalid_query", message);
  return undefined;
}

/**
 * Handler of `GET /sql/db`.
 * @returns 200 `{ rows }`; 400 `{ error: { code, message, limit?, max? } }` for a refused or failing statement.
 * @throws Error for what is not the caller's fault (answered 500 by the app's error handler).
 */
export async function sqlDb(c: Context, tables: ReadonlySet<string>): Promise<Response> {
  const names = Object.keys(c.req.queries());
  const unknown = names.filter((n) => n !== "sql");
  const raw = c.req.query("sql");
  let request: z.infer<typeof SqlRequest>;
  try {
    if (unknown.length > 0)
      throw new QueryRefused("invalid_query", `unknown parameter "${unknown[0]}" (allowed: sql)`);
    if (raw === undefined)
      throw new QueryRefused(
        "invalid_query",
        'missing "sql" parameter: superjson of { sql, params }, as @ponder/client sends',
      );
    const parsed = SqlRequest.safeParse(parseSuperjson(raw));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new QueryRefused(
        "invalid_query",
        `"sql" parameter: ${issue.path.join(".") || "(root)"}: ${issue.message}`,
      );
    }
    request = parsed.data;
    await checkReadOnlySelect(request.sql, tables, request.params);
    return c.json(jsonSafe(await runBounded(request.sql, request.params)) as object);
  } catch (e) {
    const refusal = refusalOf(e);
    if (refusal === undefined) throw e;
    return c.json(queryRefusedBody(refusal), 400);
  }
}

function parseSuperjson(raw: string): unknown {
  try {
    return superjson.parse(raw);
  } catch {
    // The caller's parameter: whatever JSON.parse or superjson's deserializer throws, it is malformed.
    throw new QueryRefused("invalid_query", '"sql" parameter is not JSON (superjson of { sql, params })');
  }
}

/** bigint → decimal string, for JSON. */
function jsonSafe(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? x.toString() : x)));
}
