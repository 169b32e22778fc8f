/**
 * SQL over HTTP, read-only (issue 13 items 1-2): `GET /sql/db?sql=<superjson {sql, params}>`,
 * the request `@ponder/client`'s `createClient(url + "/sql").db` sends. It replaces Ponder's
 * own `client()` middleware, which ran PGlite statements outside any read-only transaction
 * and cached its verdicts by a 10-hex-digit hash prefix.
 *
 * Every statement: (1) passes `checkReadOnlySelect` (one SELECT over the indexer's tables, its
 * operators, functions, constants, numeric sizes and largest value (`maxValueChars`) bounded before the planner folds any
 * constant); (2) runs in a READ ONLY transaction; (3) is refused, before it runs, when the
 * planner's estimate exceeds `maxPlanCost`, when its work estimate (`workOf`: the plan's rows
 * x the statement's expressions x its largest value) exceeds `maxPlanWork`, or when what its
 * accumulating aggregates would hold exceeds `maxAggregatedChars`; (4) on PostgreSQL runs
 * under `statement_timeout`; (5) is read through a cursor, at most `maxRows` rows and
 * `maxAnswerBytes` (more is refused). PGlite runs inside the Node process and cannot interrupt
 * a statement (no `statement_timeout`; a JavaScript timer cannot fire while a statement runs,
 * it holds the thread), so there lower bounds (`maxPlanCostPglite`, `maxPlanWorkPglite`) are
 * what bound a statement's time. A resource error of the database itself (SQLSTATE 53xxx,
 * 54xxx) answers 400 `query_too_expensive` or 503 `server_busy`, never a 500.
 *
 * `/sql/live` (live queries) is not served: it answers 404 with code `not_served`.
 *
 * On PGlite `/sql/db` is not served unless `INDEXER_UNSAFE_SQL_ON_PGLITE=true` (issue 13 re-probe 6,
 * O2): the estimates are the planner's, and a 2.4 KB SELECT it underestimated (`a.x + 0 = a.x`
 * priced at 0.5 % of the rows) held PGlite, and every other request, 20 s; four copies of its
 * CTE would have run for hours. It answers 501 `not_served` saying so.
 */
import { types as pgliteTypes } from "@electric-sql/pglite";
import type { Context } from "hono";
import pg from "pg";
import superjson, { type SuperJSONResult } from "superjson";
import { z } from "zod";
import { QUERY_LIMITS, QueryRefused, queryRefusedBody } from "../../lib/limits";
import { ACCUMULATING_FUNCTIONS, COLUMN_CHARS } from "../../lib/sqlExpressions";
import { checkReadOnlySelect, type StatementShape } from "../../lib/sqlGuard";
import type { TableColumns } from "../../lib/sqlScope";

/** Text without U+0000: PostgreSQL refuses a NUL in text, and the guard's parser stops at one (probe13 B3). */
const noNul = (what: string) =>
  z.string().refine((v) => !v.includes("\u0000"), { message: `${what} contains a NUL character (U+0000)` });

/** One value a statement's `$n` may take: a scalar (what drizzle binds), never an object (probe13 B3: 500). */
const SqlScalar = z.union([
  noNul("a string parameter"),
  z.number().finite(),
  z.bigint(),
  z.boolean(),
  z.null(),
  z.date(),
]);

/** What `@ponder/client` sends in `?sql=` (superjson of drizzle's query). */
const SqlRequest = z.object({
  sql: noNul("the statement"),
  // a scalar, or a flat array of scalars (a PostgreSQL array parameter); nothing nested deeper
  params: z.array(z.union([SqlScalar, z.array(SqlScalar)])).default([]),
  typings: z.array(z.unknown()).optional(),
});

interface Rows {
  rows: Record<string, unknown>[];
}
interface SqlSession {
  query(
    sql: string,
    params?: unknown[],
    options?: { parsers?: Record<number, (text: string) => unknown> },
  ): Promise<Rows>;
}
/** A node-postgres session's query with its own type parsers (`types` of a query config). */
interface PgQueryWithTypes {
  query(config: {
    text: string;
    types: { getTypeParser(oid: number, format?: string): (text: string) => unknown };
  }): Promise<Rows>;
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

/** The indexer's schema (`--schema`), from Ponder's build (`globalThis.PONDER_NAMESPACE_BUILD`). */
function indexerSchema(): string {
  const schema = (globalThis as { PONDER_NAMESPACE_BUILD?: { schema?: unknown } }).PONDER_NAMESPACE_BUILD
    ?.schema;
  if (typeof schema !== "string" || schema === "") throw new Error("sql: Ponder's schema name is not known");
  return schema;
}

/** `name` as a quoted SQL identifier. */
function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * The settings every statement runs with, whatever the server's (`set_config(.., true)`: this
 * transaction only): the PostgreSQL defaults for the time zone, the date style, the interval style,
 * the float digits and the locale of numbers and month names.
 */
const PINNED_SETTINGS = `SELECT ${[
  ["TimeZone", "UTC"],
  ["DateStyle", "ISO, MDY"],
  ["IntervalStyle", "postgres"],
  ["extra_float_digits", "1"],
  ["lc_numeric", "C"],
  ["lc_time", "C"],
]
  .map(([name, value]) => `pg_catalog.set_config('${name}', '${value}', true)`)
  .join(", ")}`;

const CURSOR = "bench_bounty_sql";
const PREPARED = "bench_bounty_sql_params";

/** The type PostgreSQL infers for one `$n` of a statement: its OID, its name and, for an array type, its element's OID. */
interface ParameterType {
  oid: number;
  name: string;
  elem: number | null;
}

/**
 * The types PostgreSQL infers for the statement's `$1..$n` (from a prepared statement, deallocated
 * before returning; no parameter value is sent).
 */
async function parameterTypes(tx: SqlSession, sql: string): Promise<ParameterType[]> {
  await tx.query(`PREPARE ${PREPARED} AS ${sql}`);
  try {
    const { rows } = await tx.query(
      `SELECT t.oid::int AS oid, pg_catalog.format_type(t.oid, NULL) AS name,
              CASE WHEN t.typcategory = 'A' THEN t.typelem::int END AS elem
         FROM pg_catalog.pg_prepared_statements s,
              unnest(s.parameter_types) WITH ORDINALITY AS p(type, ord), pg_catalog.pg_type t
        WHERE s.name = '${PREPARED}' AND t.oid = p.type ORDER BY p.ord`,
    );
    return rows as unknown as ParameterType[];
  } finally {
    await tx.query(`DEALLOCATE ${PREPARED}`);
  }
}

/** Whether PGlite's serializer for `oid` takes `value` (it throws a plain Error, or a TypeError, when not). */
function pgliteSerializes(oid: number, value: unknown): boolean {
  const serialize = (pgliteTypes.serializers as Record<number, ((v: unknown) => string) | undefined>)[oid];
  if (serialize === undefined) return true; // PGlite sends String(value): the database parses it
  try {
    serialize(value);
    return true;
  } catch {
    // whatever PGlite's serializer throws (Error "Invalid input for boolean type", a TypeError), the value does not fit
    return false;
  }
}

/**
 * Refuses a parameter that does not fit the type PostgreSQL infers for its placeholder: an array
 * where a scalar is read, or a scalar where an array is read (on both databases, so they answer
 * alike: PostgreSQL read `["a","b"]` as the text `{"a","b"}`), and on PGlite a value its serializer
 * refuses (`true` for text, `"yes"` for boolean). PGlite's serializer threw a plain error there,
 * which left its connection out of step with the database: a 500, and the next statements failed
 * too (probeD2 F6). Otherwise the database parses the values and refuses with a SQLSTATE (22P02).
 * @throws QueryRefused `invalid_query` naming the parameter (`$2`) and the type it is read as
 */
async function checkParameters(
  tx: SqlSession,
  sql: string,
  params: unknown[],
  dialect: Driver["dialect"],
): Promise<void> {
  if (params.length === 0) return;
  const types = await parameterTypes(tx, sql);
  const serializes = (oid: number, value: unknown) => dialect !== "pglite" || pgliteSerializes(oid, value);
  params.forEach((value, i) => {
    const type = types[i];
    if (type === undefined || value === null) return;
    const refuse = (what: string): never => {
      throw new QueryRefused(
        "invalid_query",
        `parameter $${i + 1} is ${what}, and the statement reads it as ${type.name}`,
      );
    };
    if (type.elem === null) {
      if (Array.isArray(value)) refuse("an array");
      if (!serializes(type.oid, value)) refuse(`a ${typeof value}`);
    } else {
      if (!Array.isArray(value)) refuse(`a ${typeof value} (not an array)`);
      for (const x of value as unknown[])
        if (x !== null && !serializes(type.elem, x)) refuse(`an array holding a ${typeof x}`);
    }
  });
}

/** Plan checks, cursor and row cap, inside an already-open READ ONLY transaction. */
async function runInTransaction(
  tx: SqlSession,
  sql: string,
  params: unknown[],
  shape: StatementShape,
  dialect: Driver["dialect"],
): Promise<Rows> {
  // Ponder's PGlite turns sequential scans and nested loops off, which adds PostgreSQL's
  // disable_cost (1e10) to every such plan: turn them on for this transaction only, so
  // the estimate below is the statement's real cost.
  // only the indexer's schema (pg_catalog is still searched first, implicitly: the guard's name
  // resolution, sqlScope.ts, is what keeps catalog relations out; this drops public and $user)
  await tx.query(`SET LOCAL search_path TO ${quoteIdent(indexerSchema())}`);
  // the server's settings never show in an answer (probe14 D2-F25's class): a value's text showed
  // its TimeZone (`now()::text`, `to_char(.., 'TZ')`) and a date's reading its DateStyle; the
  // PostgreSQL defaults, for this transaction only
  await tx.query(PINNED_SETTINGS);
  await tx.query("SET LOCAL enable_seqscan = on");
  await tx.query("SET LOCAL enable_nestloop = on");
  await checkParameters(tx, sql, params, dialect);
  const plan = planOf((await tx.query(`EXPLAIN (VERBOSE, FORMAT JSON) ${sql}`, params)).rows[0]);
  const planCost = plan["Total Cost"];
  if (typeof planCost !== "number") throw new Error("sql: EXPLAIN gave no total cost");
  // the planner's row counts are those of the tables' last ANALYZE: scaled to their present sizes
  const sizes = await tableSizes(tx, new Set(scannedTables(plan)));
  const growth = planGrowth(scannedTables(plan), sizes);
  const cost = planCost * growth;
  // PGlite cannot interrupt a running statement: its (lower) cost limit is its time bound
  const limit = dialect === "pglite" ? "maxPlanCostPglite" : "maxPlanCost";
  const maxCost = QUERY_LIMITS.sql[limit];
  if (cost > maxCost) {
    throw new QueryRefused(
      "limit_exceeded",
      `the planner estimates this statement at ${Math.round(cost)} cost units${
        growth > 1 ? " (at the tables' present sizes)" : ""
      } (at most ${maxCost}${
        dialect === "pglite" ? " on the embedded PGlite, which cannot interrupt a statement" : ""
      }): add a WHERE, a LIMIT or fewer joins`,
      limit,
      maxCost,
    );
  }
  checkWork(rowsHandled(plan) * growth, shape, dialect);
  checkAggregated(aggregatedChars(plan, sizes, shape), shape);
  await tx.query(`DECLARE ${CURSOR} NO SCROLL CURSOR FOR ${sql}`, params);
  const maxRows = QUERY_LIMITS.sql.maxRows;
  const result = await fetchExact(tx, `FETCH ${maxRows + 1} FROM ${CURSOR}`, dialect);
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

/**
 * The type oids of `json`, `jsonb` and their arrays: their values are served as PostgreSQL's text of
 * them, never parsed here (probe29 B-F3: parsed with `JSON.parse`, a uint256 amount inside
 * `row_to_json` / `json_build_object` came back rounded to a double, and a duplicate key dropped).
 */
const JSON_TEXT_OIDS = new Set([114, 3802, 199, 3807]);

/** Runs `sql` (the cursor's FETCH) with the JSON types read as text ({@link JSON_TEXT_OIDS}). */
function fetchExact(tx: SqlSession, sql: string, dialect: Driver["dialect"]): Promise<Rows> {
  const asText = (text: string): string => text;
  if (dialect === "pglite")
    return tx.query(sql, [], {
      parsers: Object.fromEntries([...JSON_TEXT_OIDS].map((oid) => [oid, asText])),
    });
  return (tx as unknown as PgQueryWithTypes).query({
    text: sql,
    types: {
      getTypeParser: (oid, format) =>
        JSON_TEXT_OIDS.has(oid) ? asText : pg.types.getTypeParser(oid, format as "text"),
    },
  });
}

/** A node of `EXPLAIN (FORMAT JSON)` (the fields read here). */
interface PlanNode {
  "Node Type"?: string;
  "Parent Relationship"?: string;
  "Plan Rows"?: number;
  "Total Cost"?: number;
  /** The table a scan node reads. */
  "Relation Name"?: string;
  /** The CTE a `CTE Scan` reads. */
  "CTE Name"?: string;
  /** `SubPlan 1`, `InitPlan 2`, `CTE name`. */
  "Subplan Name"?: string;
  /** An aggregate's strategy (`Plain`: one row). */
  Strategy?: string;
  /** What the node computes (`EXPLAIN VERBOSE`). */
  Output?: string[];
  Plans?: PlanNode[];
}

function planOf(row: Record<string, unknown> | undefined): PlanNode {
  const raw = row?.["QUERY PLAN"];
  const doc = (typeof raw === "string" ? JSON.parse(raw) : raw) as { Plan?: PlanNode }[];
  const plan = doc?.[0]?.Plan;
  if (plan === undefined) throw new Error("sql: EXPLAIN gave no plan");
  return plan;
}

/** Most rows of one table counted to compare its size with the planner's belief (`tableGrowth`). */
const COUNTED_ROWS_CAP = 1_000_000;

/** The tables a plan reads, once per scan of them (the `Relation Name` of its nodes, subplans included). */
export function scannedTables(node: PlanNode): string[] {
  const own = node["Relation Name"] === undefined ? [] : [node["Relation Name"]];
  return [...own, ...(node.Plans ?? []).flatMap(scannedTables)];
}

/** A table's rows now (counted up to {@link COUNTED_ROWS_CAP}) and how many times more than the planner believes (>= 1). */
interface TableSize {
  rows: number;
  growth: number;
}

/**
 * The size of each table a plan scans. The planner's row counts come from the table's last
 * ANALYZE (rows per page, times its pages now): a table that has grown since, within its pages
 * or with denser rows, is underestimated by that factor in every scan, and a join by the
 * product of its scans' factors (probe16 B-F5: 23 anchors analyzed at 5, a 5-way cross join
 * estimated 2,000 times too low, ran until `statement_timeout` on PostgreSQL, 1.8 GB, and out
 * of memory on PGlite). Counts at most {@link COUNTED_ROWS_CAP} rows of each table, so past
 * that size the growth is a lower bound.
 * @param tables - names of the indexer's tables (in the transaction's `search_path`).
 * @returns table name → its size.
 */
async function tableSizes(tx: SqlSession, tables: ReadonlySet<string>): Promise<Map<string, TableSize>> {
  const sizes = new Map<string, TableSize>();
  for (const table of tables) {
    const name = quoteIdent(table);
    const believed = planOf((await tx.query(`EXPLAIN (FORMAT JSON) SELECT FROM ${name}`)).rows[0])[
      "Plan Rows"
    ];
    const { rows } = await tx.query(
      `SELECT count(*)::float8 AS n FROM (SELECT FROM ${name} LIMIT ${COUNTED_ROWS_CAP}) AS counted`,
    );
    const actual = Number(rows[0]?.n ?? 0);
    sizes.set(table, { rows: actual, growth: Math.max(1, actual / Math.max(1, believed ?? 1)) });
  }
  return sizes;
}

/**
 * The factor by which a plan's row counts (and cost) are to be scaled to the tables' present
 * sizes: the product of the growth of every table scan (a join's rows grow as the product of
 * its inputs'), capped at 1e12 (far past every limit).
 */
export function planGrowth(scans: readonly string[], sizes: ReadonlyMap<string, TableSize>): number {
  return Math.min(
    1e12,
    scans.reduce((product, table) => product * (sizes.get(table)?.growth ?? 1), 1),
  );
}

/** The accumulating aggregates as `EXPLAIN VERBOSE` prints them in a node's output (`array_agg(`). */
const ACCUMULATING_CALL = new RegExp(`\\b(?:${[...ACCUMULATING_FUNCTIONS].join("|")})\\(`, "g");

/**
 * Rows a plan node can emit whatever its filters keep: a table scan its whole table, a join the
 * product of its inputs, a plain aggregate one row, a `VALUES` list its rows, a CTE scan its
 * CTE's bound; anything else what its inputs can emit. The planner's estimate of a filter is a
 * guess (`x + 0 = x` is priced at 0.5 % of the rows and keeps all), so what an accumulating
 * aggregate holds is bounded from this, not from the estimate.
 * @param ctes - CTE name → its plan (the `InitPlan` named `CTE name`).
 */
export function unfilteredRows(
  node: PlanNode,
  sizes: ReadonlyMap<string, TableSize>,
  ctes: ReadonlyMap<string, PlanNode>,
): number {
  const table = node["Relation Name"];
  if (table !== undefined) return sizes.get(table)?.rows ?? Math.max(1, node["Plan Rows"] ?? 1);
  const cte = node["CTE Name"] === undefined ? undefined : ctes.get(node["CTE Name"]);
  if (cte !== undefined) return unfilteredRows(cte, sizes, ctes);
  if (node["Node Type"] === "Aggregate" && node.Strategy === "Plain") return 1;
  const main = (node.Plans ?? []).filter(
    (c) => c["Parent Relationship"] !== "SubPlan" && c["Parent Relationship"] !== "InitPlan",
  );
  if (main.length === 0) return Math.max(1, node["Plan Rows"] ?? 1);
  const bounds = main.map((c) => unfilteredRows(c, sizes, ctes));
  const joins = /Nested Loop|Join/.test(node["Node Type"] ?? "");
  return Math.min(
    1e15,
    bounds.reduce((a, b) => (joins ? a * b : a + b), joins ? 1 : 0),
  );
}

/** Every node of a plan, subplans included. */
function planNodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(planNodes)];
}

/**
 * What the accumulating aggregates of a plan can hold at once (characters), whatever its filters
 * keep: for every `Aggregate` or `WindowAgg` node computing `array_agg`, `string_agg`,
 * `json_agg`... (as `EXPLAIN VERBOSE` prints its output), and every `ARRAY(SubPlan n)`, the rows
 * its input can emit ({@link unfilteredRows}) x the longest value that input can carry
 * ({@link valueCharsOf}): the statement's largest value for a plain row, and for a row carrying
 * an aggregate built below it that aggregate's own bound, so an aggregate of aggregates is bounded
 * by the product (probe26 B-F2: a string_agg of a string_agg over a join with `VALUES` built 107,824,200
 * characters when each inner value was counted as the statement's largest column value).
 */
export function aggregatedChars(
  plan: PlanNode,
  sizes: ReadonlyMap<string, TableSize>,
  shape: Pick<StatementShape, "valueChars" | "nestedAccumulators">,
): number {
  const nodes = planNodes(plan);
  const ctes = new Map(
    nodes.flatMap((n) => {
      const name = /^CTE (.+)$/.exec(n["Subplan Name"] ?? "")?.[1];
      return name === undefined ? [] : [[name, n] as const];
    }),
  );
  const arraySubplans = new Set(
    nodes.flatMap((n) =>
      [...JSON.stringify(n.Output ?? []).matchAll(/ARRAY\((SubPlan \d+)\)/g)].map((m) => m[1]),
    ),
  );
  const valueOf = valueCharsOf(sizes, ctes, shape.valueChars);
  let held = 0;
  for (const n of nodes) {
    if (n["Subplan Name"] !== undefined && arraySubplans.has(n["Subplan Name"]))
      held += unfilteredRows(n, sizes, ctes) * valueOf(n);
    const calls = accumulatingCalls(n);
    const input = (n.Plans ?? []).find((c) => c["Parent Relationship"] === "Outer");
    if (calls > 0 && input !== undefined) held += calls * unfilteredRows(input, sizes, ctes) * valueOf(input);
  }
  return held;
}

/** How many accumulating calls an `Aggregate` or `WindowAgg` node computes (0 for any other node). */
function accumulatingCalls(n: PlanNode): number {
  if (n["Node Type"] !== "Aggregate" && n["Node Type"] !== "WindowAgg") return 0;
  return JSON.stringify(n.Output ?? []).match(ACCUMULATING_CALL)?.length ?? 0;
}

/**
 * The longest value (characters) a row of a plan node can carry, bounded from below: a scan's
 * column, `plainChars` (the statement's largest value); an accumulating aggregate's result, the rows
 * its input can emit x its input's longest value (each call); any node, plus the sum of the longer
 * values its inputs (subplans and a CTE's plan included) carry, as an expression may join them.
 * @param plainChars - the statement's largest value for a column or expression ({@link StatementShape.valueChars}).
 */
function valueCharsOf(
  sizes: ReadonlyMap<string, TableSize>,
  ctes: ReadonlyMap<string, PlanNode>,
  plainChars: number,
): (node: PlanNode) => number {
  const memo = new Map<PlanNode, number>();
  const seen = new Set<PlanNode>();
  const valueOf = (node: PlanNode): number => {
    const known = memo.get(node);
    if (known !== undefined) return known;
    if (seen.has(node)) return plainChars; // a recursive CTE's own scan: its rows are bounded elsewhere
    seen.add(node);
    const cte = node["CTE Name"] === undefined ? undefined : ctes.get(node["CTE Name"]);
    const inputs = [...(node.Plans ?? []), ...(cte !== undefined ? [cte] : [])];
    // what the inputs carry beyond a plain value: aggregates built below, which an expression may join
    const below = inputs.reduce((sum, c) => sum + (valueOf(c) > plainChars ? valueOf(c) : 0), 0);
    const calls = accumulatingCalls(node);
    const input = (node.Plans ?? []).find((c) => c["Parent Relationship"] === "Outer");
    const built =
      calls > 0 && input !== undefined ? calls * unfilteredRows(input, sizes, ctes) * valueOf(input) : 0;
    const value = Math.min(1e18, Math.max(plainChars, built + below));
    memo.set(node, value);
    return value;
  };
  return valueOf;
}

/** Nodes that read all their input before they emit a row (a LIMIT above them does not cut their input). */
const BLOCKING_NODES = new Set([
  "Sort",
  "Incremental Sort",
  "Aggregate",
  "Hash",
  "WindowAgg",
  "SetOp",
  "Gather Merge",
]);

/**
 * Rows the executor handles for a plan, estimated: every node's `Plan Rows` times the times
 * it runs (the inner side of a nested loop once per outer row, a correlated SubPlan once per
 * row its parent evaluates it on, every pair of a join; a Materialize's input once), a LIMIT
 * cutting what streams below it.
 * @param loops - times this node runs; `fraction` - the share of its rows a LIMIT above lets it emit.
 */
export function rowsHandled(node: PlanNode, loops = 1, fraction = 1): number {
  const rows = Math.max(1, node["Plan Rows"] ?? 1);
  const type = node["Node Type"] ?? "";
  const children = node.Plans ?? [];
  let total = rows * loops * fraction;
  const main = children.filter(
    (c) => c["Parent Relationship"] !== "SubPlan" && c["Parent Relationship"] !== "InitPlan",
  );
  const mainRows = main.map((c) => Math.max(1, c["Plan Rows"] ?? 1));
  const outerRows = mainRows[0] ?? 1;
  // rows a filter or target list of this node is evaluated on (a join's filter on every pair)
  const inputRows =
    mainRows.length >= 2 && /Nested Loop|Join/.test(type)
      ? mainRows[0]! * mainRows[1]!
      : mainRows.reduce((a, b) => a + b, 0);
  for (const child of children) {
    const rel = child["Parent Relationship"];
    const childRows = Math.max(1, child["Plan Rows"] ?? 1);
    let childLoops = loops;
    let childFraction = BLOCKING_NODES.has(type) ? 1 : fraction;
    if (type === "Limit") childFraction = Math.min(1, (rows * fraction) / childRows);
    if (rel === "InitPlan") [childLoops, childFraction] = [1, 1];
    else if (rel === "SubPlan")
      [childLoops, childFraction] = [loops * Math.max(rows, inputRows) * fraction, 1];
    else if (type === "Materialize") childLoops = 1;
    else if (rel === "Inner" && type === "Nested Loop") {
      childLoops = loops * outerRows * fraction;
      childFraction = 1;
    }
    total += rowsHandled(child, childLoops, childFraction);
  }
  return total;
}

/**
 * The work estimate of a statement: rows the executor handles x (1 + its expression nodes) x
 * its largest value in units of a column's length (at least 1). An accumulating aggregate in a
 * subquery makes a value as long as all the rows it reads, which the outer query may work
 * through on every row: its largest value is then rows x the largest value.
 */
export function workOf(rows: number, shape: StatementShape): number {
  const chars = shape.nestedAccumulators > 0 ? rows * shape.valueChars : shape.valueChars;
  return rows * (1 + shape.expressions) * Math.max(1, Math.ceil(chars / COLUMN_CHARS));
}

/**
 * Refuses a plan whose work estimate or aggregated size is over its limit.
 * @throws QueryRefused `limit_exceeded` naming `maxPlanWork`(`Pglite`) or `maxAggregatedChars`.
 */
function checkWork(rows: number, shape: StatementShape, dialect: Driver["dialect"]): void {
  const limit = dialect === "pglite" ? "maxPlanWorkPglite" : "maxPlanWork";
  const max = QUERY_LIMITS.sql[limit];
  const work = workOf(rows, shape);
  if (work > max) {
    throw new QueryRefused(
      "limit_exceeded",
      `the work estimate of this statement is ${Math.round(work)} (about ${Math.round(rows)} rows x ${
        1 + shape.expressions
      } expressions x values up to ${shape.valueChars} characters; at most ${max}${
        dialect === "pglite" ? " on the embedded PGlite, which cannot interrupt a statement" : ""
      }): add a WHERE, a LIMIT, fewer joins or simpler expressions`,
      limit,
      max,
    );
  }
  checkAggregated(shape.accumulators * rows * shape.valueChars, shape);
}

/**
 * Refuses a statement whose accumulating aggregates could hold more than `maxAggregatedChars`.
 * @param held - characters, from the plan's estimate or whatever its filters keep ({@link aggregatedChars}).
 * @throws QueryRefused `limit_exceeded` naming `maxAggregatedChars`.
 */
function checkAggregated(held: number, shape: StatementShape): void {
  const maxChars = QUERY_LIMITS.sql.maxAggregatedChars;
  if (held > maxChars) {
    throw new QueryRefused(
      "limit_exceeded",
      `the ${shape.accumulators} accumulating aggregate(s) (array_agg, string_agg, json_agg, ARRAY(SELECT ...)) of this statement could hold about ${Math.round(
        held,
      )} characters (the rows they may read, whatever the filters keep, x values up to ${shape.valueChars} characters; at most ${maxChars}): aggregate fewer rows (a smaller table, a correlated subquery per key rather than over a join)`,
      "maxAggregatedChars",
      maxChars,
    );
  }
}

/** Runs a guarded statement read-only and bounded (see the module comment). */
async function runBounded(
  sql: string,
  params: unknown[],
  shape: StatementShape,
  role: string | undefined,
): Promise<Rows> {
  const d = driver();
  if (d.dialect === "pglite") {
    return d.instance.transaction(async (tx) => {
      await tx.query("SET TRANSACTION READ ONLY");
      return runInTransaction(tx, sql, params, shape, "pglite");
    });
  }
  const client = await d.readonly.connect();
  try {
    await client.query("BEGIN READ ONLY");
    await client.query(`SET LOCAL statement_timeout = ${QUERY_LIMITS.sql.statementTimeoutMs}`);
    if (role !== undefined)
      await client.query(`SET LOCAL ROLE ${quoteIdent(role)}`).catch((e: unknown) => {
        throw roleRefusal(e, role, "set");
      });
    const rows = await runInTransaction(client, sql, params, shape, "postgres").catch((e: unknown) => {
      // the guard lets only the indexer's tables and public functions through, so under the role
      // insufficient_privilege (42501) is a missing SELECT, and an undefined table (42P01) a schema
      // its search_path skipped for want of USAGE: grants the README asks for (probe14 D2-F12)
      const code = (e as { code?: unknown })?.code;
      if (role === undefined) throw e;
      if (code === "42501") throw roleRefusal(e, role, "read");
      if (code === "42P01") throw roleRefusal(e, role, "schema");
      throw e;
    });
    await client.query("COMMIT");
    client.release();
    return rows;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined); // the connection may be broken: released with the error below
    client.release(e instanceof Error ? e : undefined);
    throw e;
  }
}

/**
 * The answer when the role of `INDEXER_SQL_ROLE` cannot be taken (`SET LOCAL ROLE` failed: no such
 * role, or the connection's role is not a member of it) or may not read what the statement reads
 * (SQLSTATE 42501; 42P01, an indexer table not found, when the schema lacks its USAGE): 503 `sql_misconfigured` naming the variable and the missing grant (`USAGE on
 * the indexer's schema`, `SELECT on table t`), never the role's name (a fact of the server, probe14
 * D2-F25); the operator's log (stderr) names the role and the database's message, once per message. Every statement
 * answered 400 `invalid_query` before (probe14 D2-F12), as if the caller's SQL were wrong.
 */
const ROLE_PROBLEMS_LOGGED = new Set<string>();

function roleRefusal(e: unknown, role: string, step: "set" | "schema" | "read"): QueryRefused {
  const message = e instanceof Error ? e.message : String(e);
  // logged once per distinct message: every request would otherwise add the same line
  if (!ROLE_PROBLEMS_LOGGED.has(message) && ROLE_PROBLEMS_LOGGED.size < 100) {
    ROLE_PROBLEMS_LOGGED.add(message);
    console.error(`indexer /sql/db: INDEXER_SQL_ROLE=${role}: ${message} (see the README, INDEXER_SQL_ROLE)`);
  }
  const table = /^permission denied for (?:table|relation) (\S+)$/.exec(message)?.[1];
  const what =
    step === "set"
      ? "cannot be taken (it does not exist, or the connection's role is not a member of it: GRANT <role> TO <the connection's role>)"
      : step === "schema" || /^permission denied for schema /.test(message)
        ? "lacks USAGE on the indexer's schema"
        : table !== undefined
          ? `lacks SELECT on table ${table}`
          : "lacks a grant on the indexer's schema or tables (USAGE on the schema, SELECT on every table)";
  return new QueryRefused(
    "sql_misconfigured",
    `SQL over HTTP is not available: the role of INDEXER_SQL_ROLE ${what} (an operator's configuration error, not the query's: see the indexer README, INDEXER_SQL_ROLE)`,
  );
}

/**
 * PostgreSQL error classes a user's statement can cause (42 syntax/undefined, 22 data, 25006
 * read-only, 57014 timeout, 54 program limits, 53 insufficient resources), and PGlite's own
 * out-of-memory failures.
 */
export function refusalOf(e: unknown): QueryRefused | undefined {
  if (e instanceof QueryRefused) return e;
  const code = (e as { code?: unknown })?.code;
  const message = e instanceof Error ? e.message : String(e);
  if (typeof code === "string" && (/^54/.test(code) || code === "53400")) {
    // 54000 program limit (array or string too large), 54001 statement too complex, 53400 configuration limit (temp_file_limit)
    return new QueryRefused(
      "query_too_expensive",
      `the database refused the statement: ${message} (SQLSTATE ${code})`,
      `SQLSTATE ${code}`,
    );
  }
  if (typeof code === "string" && /^53/.test(code))
    return new QueryRefused(
      "server_busy",
      `the database is out of resources: ${message} (SQLSTATE ${code})`,
      `SQLSTATE ${code}`,
    );
  if (
    e instanceof Error &&
    code === undefined &&
    (e.name === "RuntimeError" || /out of memory|allocation failed/i.test(message))
  )
    return new QueryRefused("server_busy", `the embedded database ran out of memory: ${message}`, "memory");
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

/** How `/sql/db` is served (from the indexer's settings, `lib/settings.ts`). */
export interface SqlOptions {
  /** Serve it on PGlite too (`INDEXER_UNSAFE_SQL_ON_PGLITE`). */
  unsafeSqlOnPglite: boolean;
  /** On PostgreSQL, the role statements run as (`INDEXER_SQL_ROLE`, `SET LOCAL ROLE`); undefined: the connection's. */
  role?: string | undefined;
}

/** The answer of `/sql/db` on PGlite without `INDEXER_UNSAFE_SQL_ON_PGLITE=true`. */
export const PGLITE_NOT_SERVED = {
  error: {
    code: "not_served",
    message:
      "SQL over HTTP is served by an indexer on PostgreSQL (DATABASE_URL) only: the embedded PGlite cannot interrupt a statement, so one the planner underestimates would hold the whole indexer. Use the REST routes or /graphql, or start the indexer with INDEXER_UNSAFE_SQL_ON_PGLITE=true (unsafe for an indexer strangers can reach).",
  },
} as const;

/**
 * Handler of `GET /sql/db`.
 * @param options - see {@link SqlOptions}.
 * @returns 200 `{ rows }`; 501 `not_served` on PGlite without the opt-in; 400 `{ error: { code, message, limit?, max? } }` for a refused or failing statement; 503 `server_busy`, or `sql_misconfigured` when the role of `INDEXER_SQL_ROLE` cannot be taken or lacks a grant.
 * @throws Error for what is not the caller's fault (answered 500 by the app's error handler).
 */
export async function sqlDb(c: Context, tables: TableColumns, options: SqlOptions): Promise<Response> {
  if (driver().dialect === "pglite" && !options.unsafeSqlOnPglite) return c.json(PGLITE_NOT_SERVED, 501);
  const queries = c.req.queries();
  const unknown = Object.keys(queries).filter((n) => n !== "sql");
  const raw = c.req.query("sql");
  let request: z.infer<typeof SqlRequest>;
  try {
    if (unknown.length > 0)
      throw new QueryRefused("invalid_query", `unknown parameter "${unknown[0]}" (allowed: sql)`);
    if ((queries.sql?.length ?? 0) > 1)
      throw new QueryRefused("invalid_query", `parameter "sql" is given ${queries.sql!.length} times`);
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
    const shape = await checkReadOnlySelect(request.sql, tables, request.params);
    // exactly the parameters the statement uses: a mismatch was an unmapped database error, 500 (probe13 C5)
    if (shape.parameters !== request.params.length)
      throw new QueryRefused(
        "invalid_query",
        `the statement uses parameters up to $${shape.parameters} and ${request.params.length} ${request.params.length === 1 ? "is" : "are"} given`,
      );
    const answer = answerJson(await runBounded(request.sql, request.params, shape, options.role));
    return c.body(answer, 200, { "content-type": "application/json" });
  } catch (e) {
    const refusal = refusalOf(e);
    if (refusal === undefined) throw e;
    const unavailable = refusal.code === "server_busy" || refusal.code === "sql_misconfigured";
    return c.json(queryRefusedBody(refusal), unavailable ? 503 : 400);
  }
}

/**
 * The `sql` parameter read: JSON, then superjson's `meta` annotations applied to its `json`.
 * @throws QueryRefused `invalid_query`: `"sql" parameter is not JSON` when the text is not JSON; when it is
 *   but superjson refuses an annotation (`["bigint"]` on `"1e5"`, an unknown class or custom type,
 *   `__proto__` in a path; probe31 B-F5: these were "not JSON" too), naming the annotation's JSON path
 *   (`meta.values."params.0"`), or `meta` when no single annotation is at fault.
 */
function parseSuperjson(raw: string): unknown {
  let doc: unknown;
  try {
    doc = JSON.parse(raw);
  } catch {
    throw new QueryRefused("invalid_query", '"sql" parameter is not JSON (superjson of { sql, params })');
  }
  try {
    return superjson.deserialize(doc as SuperJSONResult);
  } catch {
    // The caller's annotations: whatever superjson's deserializer throws on them, they are refused.
    throw new QueryRefused(
      "invalid_query",
      `"sql" parameter: ${refusedAnnotation(doc)}: superjson cannot apply this annotation to the value it names (superjson of { sql, params })`,
    );
  }
}

/**
 * The JSON path of the first `meta.values` annotation that superjson refuses alone (`meta.values."params.0"`),
 * else `meta` (the annotations together, or `referentialEqualities`).
 */
function refusedAnnotation(doc: unknown): string {
  const { json, meta } = (doc ?? {}) as { json?: unknown; meta?: { values?: unknown } };
  const values = meta?.values;
  if (values !== null && typeof values === "object" && !Array.isArray(values))
    for (const [path, annotation] of Object.entries(values)) {
      try {
        superjson.deserialize({ json, meta: { values: { [path]: annotation } } } as SuperJSONResult);
      } catch {
        return `meta.values.${JSON.stringify(path)}`;
      }
    }
  return "meta";
}

/**
 * The answer's JSON: a bigint as its decimal string, and a number JSON cannot hold (a float8 or float4
 * `Infinity`, `-Infinity`, `NaN`) as PostgreSQL's own text of it, as `to_json` writes it, never `null`
 * (probe28 B-F11: `SELECT 'NaN'::float8` answered `null`, a value the row does not hold).
 * @throws QueryRefused `limit_exceeded` (`maxAnswerBytes`) for a longer answer.
 */
function answerJson(v: Rows): string {
  const text = JSON.stringify(v, (_k, x: unknown) =>
    typeof x === "bigint" || (typeof x === "number" && !Number.isFinite(x)) ? String(x) : x,
  );
  const max = QUERY_LIMITS.sql.maxAnswerBytes;
  const bytes = Buffer.byteLength(text);
  if (bytes > max)
    throw new QueryRefused(
      "limit_exceeded",
      `the answer is ${bytes} bytes of JSON (at most ${max}): select fewer rows or columns`,
      "maxAnswerBytes",
      max,
    );
  return text;
}
