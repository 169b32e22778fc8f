/**
 * The read-only guard of SQL over HTTP (`/sql/db`, issue 13 item 1).
 *
 * A statement is parsed with PostgreSQL's own parser (`libpg-query`, the PostgreSQL 16
 * grammar, the version PGlite embeds) and accepted only when it is exactly one `SELECT`
 * (optionally `WITH ... SELECT`) built from an allowlist of node types: no data-modifying
 * or recursive CTE, no `SELECT INTO`, no `FOR UPDATE`, no set-returning `FROM` function,
 * only the functions of {@link ALLOWED_FUNCTIONS} (pure, cheap, no sleep, no I/O, no
 * settings) and the clock's value functions (no `CURRENT_ROLE`, `CURRENT_USER`, `SESSION_USER`,
 * `CURRENT_CATALOG`, `CURRENT_SCHEMA`: {@link ALLOWED_VALUE_FUNCTIONS}), and only the indexer's own tables (unqualified) and the CTEs in scope, each `x.f`
 * a real column (`sqlScope.ts`: name resolution). Every statement is checked
 * in full on every request: nothing is cached by a hash prefix (Ponder 0.16.10 cached its
 * verdict by 10 hex digits of sha256, which let a colliding SELECT smuggle an UPDATE).
 *
 * The guard is the first of two locks: the statement then runs in a READ ONLY transaction
 * (`src/api/sql.ts`), so a write the guard missed would still be refused by the database.
 */
import { parse } from "libpg-query";
import { QUERY_LIMITS, QueryRefused } from "./limits";
import {
  ACCUMULATING_FUNCTIONS,
  BUILDING_FUNCTIONS,
  GROWING_FUNCTIONS,
  checkConstant,
  checkFormatArgument,
  checkOperator,
  checkParams,
  checkScaleArgument,
  checkTypeName,
  checkValueChars,
  countBuilding,
  countGrowing,
  emptyTally,
  valueChars,
  withLevel,
  type ExpressionTally,
} from "./sqlExpressions";
import { resolveNames, type Resolution, type TableColumns } from "./sqlScope";

/** Parse-tree node types that are a step of work on every row they are evaluated for. */
const EXPRESSION_NODES: ReadonlySet<string> = new Set([
  "A_Expr",
  "A_ArrayExpr",
  "A_Indirection",
  "BoolExpr",
  "NullTest",
  "BooleanTest",
  "SubLink",
  "TypeCast",
  "FuncCall",
  "CaseExpr",
  "CoalesceExpr",
  "MinMaxExpr",
  "NullIfExpr",
  "RowExpr",
  "CollateClause",
]);

/**
 * What an accepted statement may cost per row, for the work estimate made with its plan
 * (`src/api/sql.ts`): see {@link ExpressionTally}.
 */
export interface StatementShape {
  /** Expression nodes of the statement (at least the steps done on one row). */
  expressions: number;
  /** Accumulating aggregates and `ARRAY(SELECT ...)` (each keeps every value it is fed). */
  accumulators: number;
  /** Those of them in a subquery or CTE (their value may be worked through on every outer row). */
  nestedAccumulators: number;
  /** Estimated largest value one row can carry (characters), at least a column's. */
  valueChars: number;
  /** The highest `$n` the statement uses (0: none); the HTTP route requires exactly that many parameters. */
  parameters: number;
}

/** Parse-tree node types a read-only SELECT may contain. */
const ALLOWED_NODES = new Set([
  "SelectStmt",
  "ResTarget",
  "ColumnRef",
  "A_Star",
  "A_Const",
  "A_Expr",
  "A_ArrayExpr",
  "A_Indirection",
  "A_Indices",
  "String",
  "Integer",
  "Float",
  "Boolean",
  "BitString",
  "List",
  "ParamRef",
  "BoolExpr",
  "NullTest",
  "BooleanTest",
  "SubLink",
  "TypeCast",
  "TypeName",
  "FuncCall",
  "SortBy",
  "RangeVar",
  "RangeSubselect",
  "JoinExpr",
  "Alias",
  "CaseExpr",
  "CaseWhen",
  "CoalesceExpr",
  "MinMaxExpr",
  "NullIfExpr",
  "RowExpr",
  "SQLValueFunction",
  "CollateClause",
  "WindowDef",
  "GroupingSet",
  "WithClause",
  "CommonTableExpr",
]);

/**
 * Functions a statement may call (bare or `pg_catalog.`-qualified): pure and cheap, none that
 * amplifies its input (`repeat`, `lpad`, `replace`: two nested `replace` of 1,000-character
 * constants took 13 s to plan on PGlite) or takes a regular expression (`substring(s from
 * pattern)`, `regexp_*`; `substr` and `left`/`right` cut strings).
 */
export const ALLOWED_FUNCTIONS = new Set([
  // aggregates
  "count",
  "sum",
  "min",
  "max",
  "avg",
  "bool_and",
  "bool_or",
  "every",
  "array_agg",
  "string_agg",
  "json_agg",
  "jsonb_agg",
  "json_object_agg",
  "jsonb_object_agg",
  // window functions
  "row_number",
  "rank",
  "dense_rank",
  "percent_rank",
  "cume_dist",
  "ntile",
  "lag",
  "lead",
  "first_value",
  "last_value",
  "nth_value",
  // JSON building (what Drizzle's relational queries emit)
  "json_build_array",
  "jsonb_build_array",
  "json_build_object",
  "jsonb_build_object",
  "to_json",
  "to_jsonb",
  "row_to_json",
  "json_array_length",
  "jsonb_array_length",
  // strings
  "lower",
  "upper",
  "length",
  "char_length",
  "octet_length",
  "substr",
  "left",
  "right",
  "concat",
  "concat_ws",
  "trim",
  "btrim",
  "ltrim",
  "rtrim",
  "starts_with",
  "position",
  "strpos",
  // numbers, arrays, times
  "abs",
  "round",
  "floor",
  "ceil",
  "ceiling",
  "trunc",
  "mod",
  "div",
  "sign",
  "array_length",
  "cardinality",
  "array_position",
  "to_timestamp",
  "date_trunc",
  "extract",
  "date_part",
  "to_char",
  "now",
]);

/**
 * The SQL value functions (`SQLValueFunction`, written without parentheses) a statement may use: the
 * clock only (`now()` is allowed too). `CURRENT_ROLE`, `CURRENT_USER`, `USER`, `SESSION_USER`,
 * `CURRENT_CATALOG` and `CURRENT_SCHEMA` answered the database server's own facts (the role
 * statements run as, the database's name: probe14 D2-F25); SQL over HTTP reads the indexer's tables.
 */
const ALLOWED_VALUE_FUNCTIONS: ReadonlySet<string> = new Set([
  "SVFOP_CURRENT_DATE",
  "SVFOP_CURRENT_TIME",
  "SVFOP_CURRENT_TIME_N",
  "SVFOP_CURRENT_TIMESTAMP",
  "SVFOP_CURRENT_TIMESTAMP_N",
  "SVFOP_LOCALTIME",
  "SVFOP_LOCALTIME_N",
  "SVFOP_LOCALTIMESTAMP",
  "SVFOP_LOCALTIMESTAMP_N",
]);

/** The SQL words of the `GroupingSet` kinds the guard refuses. */
const GROUPING_SET_NAMES: Readonly<Record<string, string>> = {
  GROUPING_SET_CUBE: "CUBE",
  GROUPING_SET_ROLLUP: "ROLLUP",
  GROUPING_SET_SETS: "GROUPING SETS",
  GROUPING_SET_SIMPLE: "GROUPING SETS",
};

interface GuardContext extends ExpressionTally {
  names: Resolution;
  relations: number;
}

/**
 * Checks that `sql` is one read-only SELECT over `tables` whose expressions are bounded
 * (`sqlExpressions.ts`).
 * @param sql - the statement text (placeholders `$1..` allowed).
 * @param tables - the tables it may read (the indexer's schema): SQL name → SQL column names.
 * @param params - the values of `$1..` (numbers and strings among them are size-checked).
 * @returns what the statement may cost per row ({@link StatementShape}).
 * @throws QueryRefused `limit_exceeded` (`maxChars`, `maxRelations`, `maxParameterIndex`, `maxNumericDigits`,
 *   `maxTypeLength`, `maxConstantChars`, `maxGrowingOperators`, `maxValueChars`), `invalid_query` (does not
 *   parse, or no statement), `not_read_only` (anything but one plain SELECT, a function or
 *   operator off the allowlist).
 */
export async function checkReadOnlySelect(
  sql: string,
  tables: TableColumns,
  params: readonly unknown[] = [],
): Promise<StatementShape> {
  const max = QUERY_LIMITS.sql.maxChars;
  if (sql.length > max) {
    throw new QueryRefused(
      "limit_exceeded",
      `SQL is ${sql.length} characters (at most ${max})`,
      "maxChars",
      max,
    );
  }
  let tree: { stmts?: { stmt?: Record<string, unknown> }[] };
  try {
    tree = (await parse(sql)) as typeof tree;
  } catch (e) {
    throw new QueryRefused(
      "invalid_query",
      `SQL does not parse: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  const stmts = tree.stmts ?? [];
  if (stmts.length !== 1) {
    throw new QueryRefused(
      stmts.length === 0 ? "invalid_query" : "not_read_only",
      stmts.length === 0
        ? "SQL holds no statement"
        : `SQL holds ${stmts.length} statements (exactly one SELECT is allowed)`,
    );
  }
  const stmt = stmts[0]!.stmt ?? {};
  const kind = Object.keys(stmt)[0] ?? "nothing";
  if (kind !== "SelectStmt") {
    throw new QueryRefused("not_read_only", `only SELECT is allowed, got ${statementName(kind)}`);
  }
  // every FROM name resolved in its scope, and the columns of every FROM item (sqlScope.ts)
  const names = resolveNames(stmt.SelectStmt as Record<string, unknown>, tables);
  const ctx: GuardContext = { names, relations: 0, ...emptyTally() };
  checkParams(params, ctx);
  walk(stmt, ctx, 0);
  checkValueChars(ctx);
  if (ctx.relations > QUERY_LIMITS.sql.maxRelations) {
    const m = QUERY_LIMITS.sql.maxRelations;
    throw new QueryRefused(
      "limit_exceeded",
      `SQL reads ${ctx.relations} relations (at most ${m})`,
      "maxRelations",
      m,
    );
  }
  return {
    expressions: ctx.expressions,
    accumulators: ctx.accumulators,
    nestedAccumulators: ctx.nestedAccumulators,
    valueChars: valueChars(ctx),
    parameters: highestParameter(stmt, sql),
  };
}

/**
 * The highest `$n` of a parsed statement (0 when it uses none), each `n` read from the SQL text at its
 * `ParamRef`'s location (a byte offset): the parser keeps it in 32 bits, so `$99999999999` read as
 * `$1215752191` and the refusal quoted that (probe24).
 * @throws QueryRefused `limit_exceeded` (`maxParameterIndex`) for an `n` over it; `invalid_query` for `$0`
 */
function highestParameter(stmt: unknown, sql: string): number {
  const bytes = Buffer.from(sql, "utf8");
  const max = QUERY_LIMITS.sql.maxParameterIndex;
  let highest = 0;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== "object" || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "ParamRef" && typeof value === "object" && value !== null) {
        const at = (value as { location?: unknown }).location;
        const digits =
          typeof at === "number" ? /^\$([0-9]+)/.exec(bytes.toString("latin1", at, at + 40))?.[1] : undefined;
        if (digits === undefined) continue; // not a `$n` written out: never so in a parsed SELECT
        const shown = digits.length > 20 ? `${digits.slice(0, 20)}...` : digits;
        if (/^0+$/.test(digits))
          throw new QueryRefused("invalid_query", `parameter $${shown}: parameters are numbered from $1`);
        if (digits.replace(/^0+/, "").length > String(max).length || Number(digits) > max)
          throw new QueryRefused(
            "limit_exceeded",
            `parameter $${shown} is over $${max}, the highest parameter number (maxParameterIndex)`,
            "maxParameterIndex",
            max,
          );
        highest = Math.max(highest, Number(digits));
      } else visit(value);
    }
  };
  visit(stmt);
  return highest;
}

/** `UpdateStmt` → `UPDATE`, for messages. */
function statementName(kind: string): string {
  return kind
    .replace(/Stmt$/, "")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toUpperCase();
}

const MAX_TREE_DEPTH = 300;

/** Keys of the parse tree under which a subquery sits (SubLink, FROM subquery, CTE). */
const SUBQUERY_KEYS: ReadonlySet<string> = new Set(["subselect", "subquery", "ctequery"]);

/**
 * Counts an accumulating aggregate; `perRow` when its whole value reaches every row of its own
 * query (`ARRAY(SELECT ...)`, an aggregate `OVER (...)` a window).
 */
function countAccumulator(ctx: GuardContext, perRow: boolean): void {
  ctx.accumulators++;
  if (perRow || ctx.subqueryDepth > 0) ctx.nestedAccumulators++;
}

/** Walks every node: node types are the PascalCase keys of the JSON tree. */
function walk(node: unknown, ctx: GuardContext, depth: number): void {
  if (depth > MAX_TREE_DEPTH) throw new QueryRefused("not_read_only", "SQL is nested too deeply");
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const n of node) walk(n, ctx, depth + 1);
    return;
  }
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (/^[A-Z]/.test(key)) checkNode(key, value as Record<string, unknown>, ctx);
    else if (key === "typeName")
      checkTypeName(value as Record<string, unknown>, ctx); // a cast's type: not wrapped in a TypeName node
    else if (key === "intoClause") throw new QueryRefused("not_read_only", "SELECT INTO is not allowed");
    else if (key === "withClause" && (value as { recursive?: unknown }).recursive === true)
      throw new QueryRefused("not_read_only", "WITH RECURSIVE is not allowed");
    else if (key === "lockingClause")
      throw new QueryRefused("not_read_only", "SELECT ... FOR UPDATE/SHARE is not allowed");
    const subquery = SUBQUERY_KEYS.has(key);
    if (subquery) ctx.subqueryDepth++;
    if (key === "SelectStmt") withLevel(ctx, () => walk(value, ctx, depth + 1));
    else walk(value, ctx, depth + 1);
    if (subquery) ctx.subqueryDepth--;
  }
}

function checkNode(type: string, n: Record<string, unknown>, ctx: GuardContext): void {
  if (!ALLOWED_NODES.has(type)) {
    throw new QueryRefused("not_read_only", `${statementName(type)} is not allowed in a read-only query`);
  }
  if (EXPRESSION_NODES.has(type)) ctx.expressions++;
  switch (type) {
    case "TypeName":
      checkTypeName(n, ctx); // a type not under a cast's `typeName` key
      break;
    case "FuncCall": {
      const names = ((n.funcname as { String?: { sval?: string } }[] | undefined) ?? []).map(
        (f) => f.String?.sval ?? "",
      );
      const name = names.at(-1) ?? "";
      const qualifiedOk = names.length === 1 || (names.length === 2 && names[0] === "pg_catalog");
      if (!qualifiedOk || !ALLOWED_FUNCTIONS.has(name)) {
        throw new QueryRefused("not_read_only", `function ${names.join(".")}() is not allowed`);
      }
      const args = (n.args as unknown[] | undefined) ?? [];
      checkScaleArgument(name, args);
      ctx.expressions += checkFormatArgument(name, args); // to_char works through its format on every row
      if (GROWING_FUNCTIONS.has(name)) countGrowing(ctx, `${name}()`);
      if (ACCUMULATING_FUNCTIONS.has(name)) countAccumulator(ctx, n.over !== undefined);
      if (BUILDING_FUNCTIONS.has(name)) countBuilding(ctx, Math.max(1, args.length - 1));
      return;
    }
    case "A_ArrayExpr":
    case "RowExpr": {
      const items = ((type === "RowExpr" ? n.args : n.elements) as unknown[] | undefined) ?? [];
      countBuilding(ctx, Math.max(1, items.length - 1));
      return;
    }
    case "SubLink":
      if (n.subLinkType === "ARRAY_SUBLINK") countAccumulator(ctx, true);
      return;
    case "SQLValueFunction": {
      const op = String(n.op);
      if (!ALLOWED_VALUE_FUNCTIONS.has(op))
        throw new QueryRefused(
          "not_read_only",
          `${op.replace(/^SVFOP_/, "").replace(/_N$/, "")} is not allowed: SQL over HTTP reads the indexer's tables, not facts of the database server (its roles, database, schema or settings)`,
        );
      return;
    }
    case "RangeVar":
      // resolved by resolveNames (an indexer table or an in-scope CTE); any other is refused
      if (!ctx.names.rangeVars.has(n)) {
        throw new QueryRefused("not_read_only", `relation "${String(n.relname)}" is not allowed here`);
      }
      ctx.relations++;
      return;
    case "ColumnRef":
      // checked by resolveNames in its scope (x.f a real column); any other is refused
      if (!ctx.names.columnRefs.has(n))
        throw new QueryRefused("not_read_only", "a column reference is not allowed here");
      // a whole row is one value as long as all its columns (probe17 B-F7)
      if (ctx.names.wholeRows.has(n)) countBuilding(ctx, ctx.names.wholeRows.get(n)!);
      return;
    case "A_Expr":
      checkOperator(n, ctx);
      return;
    case "A_Const":
      checkConstant(n, ctx);
      return;
    case "RangeSubselect":
      ctx.relations++;
      return;
    case "GroupingSet":
      // `GROUP BY ()` is one empty set; CUBE, ROLLUP and GROUPING SETS cost their planning before
      // the plan cost is known (probe10 R4: CUBE of 12 columns, 4,096 sets, took 1-2 s of EXPLAIN
      // each, then was refused for `maxPlanCost`; 16 at a time stalled the indexer 10 s).
      if (n.kind !== "GROUPING_SET_EMPTY") {
        const name = GROUPING_SET_NAMES[String(n.kind)] ?? "GROUPING SETS";
        throw new QueryRefused(
          "query_too_expensive",
          `GROUP BY ${name} is not served (its planning alone grows with the number of grouping sets; use plain GROUP BY, one query per grouping)`,
        );
      }
      return;
    case "WithClause":
      if (n.recursive === true) throw new QueryRefused("not_read_only", "WITH RECURSIVE is not allowed");
      return;
    case "CommonTableExpr": {
      const q = (n.ctequery ?? {}) as Record<string, unknown>;
      const kind = Object.keys(q)[0] ?? "nothing";
      if (kind !== "SelectStmt") {
        throw new QueryRefused("not_read_only", `a WITH query must be a SELECT, got ${statementName(kind)}`);
      }
      return;
    }
    default:
      return;
  }
}
