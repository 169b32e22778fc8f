/**
 * Bounds on what one expression of a `/sql/db` statement may cost (issue 13 re-probe F1).
 *
 * The planner folds constant expressions while it plans (so during the `EXPLAIN` whose
 * estimate is the plan-cost limit), and it prices every operator at `cpu_operator_cost`
 * whatever the size of its operands: `length((9.0::numeric ^ 130000)::text)` is estimated
 * at 0.01 units and took 4 s to plan on PGlite (25 such terms froze the indexer 52 s, and on
 * PostgreSQL 15 a 2 s `statement_timeout` fired only after 19 s: numeric code does not check
 * for interrupts). So the cost of an expression is bounded here, before anything runs:
 * - operators come from {@link ALLOWED_OPERATORS} (comparison, `+ - * / %`, `||`, LIKE,
 *   JSON `->`/`->>`): no `^` (numeric power), `|/`, `||/`, `@`, bit or geometric operators;
 * - every numeric value starts small: a numeric literal, a numeric-looking string constant
 *   (`'1e1000'::numeric`), a parameter, a `numeric(p, s)` type and the digits argument of
 *   `round`/`trunc` are each at most `maxNumericDigits` digits written out;
 * - operators that make a value longer than its operands (`*`, `/`, `%`, `||`, `concat`,
 *   `concat_ws`) are at most `maxGrowingOperators` per statement: a chain of them costs the
 *   square of its length per row (measured on PGlite, 10,000 rows: 32 `*` ran 8.7 s, 500
 *   `||` 136 s, each under 15,000 estimated units).
 * Functions that amplify (`repeat`, `lpad`, `replace`) or hide a regular expression
 * (`substring(text from pattern)`, `regexp_*`) are not on the function allowlist (`sqlGuard.ts`).
 */
import { QUERY_LIMITS, QueryRefused } from "./limits";

/** Binary and prefix operators a statement may use (`!=` is parsed as `<>`). */
export const ALLOWED_OPERATORS: ReadonlySet<string> = new Set([
  "=",
  "<>",
  "<",
  ">",
  "<=",
  ">=",
  "+",
  "-",
  "*",
  "/",
  "%",
  "||",
  "~~", // LIKE
  "~~*", // ILIKE
  "!~~", // NOT LIKE
  "!~~*", // NOT ILIKE
  "->",
  "->>",
]);

/** Kinds of operator expression (`A_Expr.kind`) allowed, each with the allowlisted operator names it carries. */
const ALLOWED_KINDS: ReadonlySet<string> = new Set([
  "AEXPR_OP",
  "AEXPR_OP_ANY",
  "AEXPR_OP_ALL",
  "AEXPR_DISTINCT",
  "AEXPR_NOT_DISTINCT",
  "AEXPR_NULLIF",
  "AEXPR_IN",
  "AEXPR_LIKE",
  "AEXPR_ILIKE",
  "AEXPR_BETWEEN",
  "AEXPR_NOT_BETWEEN",
  "AEXPR_BETWEEN_SYM",
  "AEXPR_NOT_BETWEEN_SYM",
]);

/** Operators whose result can be longer than their operands. */
const GROWING_OPERATORS: ReadonlySet<string> = new Set(["*", "/", "%", "||"]);
/** Functions whose result can be longer than their arguments (each counts as one growing operator). */
export const GROWING_FUNCTIONS: ReadonlySet<string> = new Set(["concat", "concat_ws"]);

/** Aggregates that keep every value they are fed (their state grows with the rows). */
export const ACCUMULATING_FUNCTIONS: ReadonlySet<string> = new Set([
  "array_agg",
  "string_agg",
  "json_agg",
  "jsonb_agg",
  "json_object_agg",
  "jsonb_object_agg",
]);

/** Functions whose result holds all their arguments (a value as long as their sum). */
export const BUILDING_FUNCTIONS: ReadonlySet<string> = new Set([
  "concat",
  "concat_ws",
  "json_build_array",
  "jsonb_build_array",
  "json_build_object",
  "jsonb_build_object",
  "to_json",
  "to_jsonb",
  "row_to_json",
]);

/** Longest value a column of the indexer holds (characters): a 66-character hash, a 78-digit amount, an event id. */
export const COLUMN_CHARS = 100;

/**
 * What the expression checks count over one statement, for the work estimate made with the
 * plan (`src/api/sql.ts`).
 */
export interface ExpressionTally {
  /** Operators that lengthen a value (bounded by `maxGrowingOperators`). */
  growing: number;
  /** Expression nodes (calls, operators, casts, CASE, sublinks...): the work done per row is at most this many steps. */
  expressions: number;
  /** Calls of {@link ACCUMULATING_FUNCTIONS} and `ARRAY(SELECT ...)`. */
  accumulators: number;
  /** Those of them inside a subquery or CTE: their value, as long as all the rows they read, can be worked through on every row of the outer query. */
  nestedAccumulators: number;
  /** Subqueries and CTEs being walked (0 in the outermost SELECT). */
  subqueryDepth: number;
  /** Arguments beyond the first of the building functions, array and row constructors. */
  buildingArgs: number;
  /** Longest leaf value (characters): a column, a string constant or parameter, a type's length. */
  largestLeaf: number;
  /** Growing operators and building arguments of the query level being walked (its value is 1 + this times its inputs'). */
  levelGrowth: number;
  /** Product over the query levels walked so far of (1 + their growth): how many times its longest leaf a value may be. */
  valueFactor: number;
}

/** A tally with nothing counted yet. */
export function emptyTally(): ExpressionTally {
  return {
    growing: 0,
    expressions: 0,
    accumulators: 0,
    nestedAccumulators: 0,
    subqueryDepth: 0,
    buildingArgs: 0,
    largestLeaf: COLUMN_CHARS,
    levelGrowth: 0,
    valueFactor: 1,
  };
}

/**
 * The largest value (characters) the statement can build on one row, estimated: its longest
 * leaf times, for every query level walked (the statement, each CTE and subquery), 1 + the
 * growing operators and building arguments of that level. A level's value is at most that many
 * times its inputs', and its inputs may be values built at another level (a CTE it reads), so
 * the factors multiply (probe17 B-F7); for levels that do not feed one another it is an
 * overestimate. Call it once the whole statement is walked.
 */
export function valueChars(t: ExpressionTally): number {
  return t.largestLeaf * t.valueFactor;
}

/**
 * Counts `n` building arguments (a building function's or constructor's arguments beyond the
 * first, a whole row's columns): each makes the value one input longer.
 */
export function countBuilding(tally: ExpressionTally, n: number): void {
  tally.buildingArgs += n;
  tally.levelGrowth += n;
}

/**
 * Walks one query level (`walkLevel` walks its body) and multiplies the value factor by its
 * growth; the enclosing level's count is kept for when it resumes.
 */
export function withLevel(tally: ExpressionTally, walkLevel: () => void): void {
  const outer = tally.levelGrowth;
  tally.levelGrowth = 0;
  walkLevel();
  tally.valueFactor = Math.min(1e15, tally.valueFactor * (1 + tally.levelGrowth));
  tally.levelGrowth = outer;
}

/**
 * Refuses a statement whose largest value, estimated ({@link valueChars}), is over `maxValueChars`.
 * @throws QueryRefused `limit_exceeded` naming `maxValueChars`.
 */
export function checkValueChars(tally: ExpressionTally): void {
  const max = QUERY_LIMITS.sql.maxValueChars;
  const chars = valueChars(tally);
  if (chars > max) {
    throw new QueryRefused(
      "limit_exceeded",
      `a value of this statement may be about ${Math.round(chars)} characters (at most ${max}): values built (json_build_array, json_build_object, to_json, concat, ||, ARRAY[...], ROW(...), a whole row) from values built at another level (a CTE or subquery) grow as the product of their arguments; build once, from columns`,
      "maxValueChars",
      max,
    );
  }
}

/**
 * Refuses a string constant or parameter longer than `maxConstantChars`, and records its length.
 * @param where - what the value is, for the message (`string constant`, `parameter $2`).
 */
export function checkStringSize(text: string, where: string, tally: ExpressionTally): void {
  const max = QUERY_LIMITS.sql.maxConstantChars;
  if (text.length > max) {
    throw new QueryRefused(
      "limit_exceeded",
      `${where} of ${text.length} characters (at most ${max}): a long format, pattern or literal is worked through on every row`,
      "maxConstantChars",
      max,
    );
  }
  tally.largestLeaf = Math.max(tally.largestLeaf, text.length);
}

/**
 * Checks one operator expression (`A_Expr`) and counts it.
 * @throws QueryRefused `not_read_only` for an operator off the allowlist or a regular
 *   expression; `limit_exceeded` (`maxGrowingOperators`) past the growing-operator bound.
 */
export function checkOperator(n: Record<string, unknown>, tally: ExpressionTally): void {
  const names = ((n.name as { String?: { sval?: string } }[] | undefined) ?? []).map(
    (f) => f.String?.sval ?? "",
  );
  const kind = String(n.kind ?? "");
  const op = names.at(-1) ?? "";
  if (kind === "AEXPR_SIMILAR" || /^!?~\*?$/.test(op)) {
    throw new QueryRefused(
      "not_read_only",
      "regular expression operators (~, SIMILAR TO) are not allowed; use LIKE",
    );
  }
  if (!ALLOWED_KINDS.has(kind))
    throw new QueryRefused("not_read_only", `${kind} expressions are not allowed`);
  const betweenLike = kind.includes("BETWEEN");
  if (!betweenLike && (names.length !== 1 || !ALLOWED_OPERATORS.has(op))) {
    throw new QueryRefused(
      "not_read_only",
      `operator ${names.join(".")} is not allowed (allowed: ${[...ALLOWED_OPERATORS].join(" ")}, IN, BETWEEN, IS DISTINCT FROM, LIKE/ILIKE)`,
    );
  }
  if (kind === "AEXPR_OP" && GROWING_OPERATORS.has(op)) countGrowing(tally, op);
}

/** Counts one growing operator or function (`what`, for the message). */
export function countGrowing(tally: ExpressionTally, what: string): void {
  const max = QUERY_LIMITS.sql.maxGrowingOperators;
  tally.levelGrowth++;
  if (++tally.growing > max) {
    throw new QueryRefused(
      "limit_exceeded",
      `more than ${max} operators that lengthen a value (* / % || concat), the last one ${what}: a chain of them costs the square of its length on every row`,
      "maxGrowingOperators",
      max,
    );
  }
}

/**
 * Digits of a numeric written out in plain decimal (`1e1000` → 1001, `0.5e-3` → 5; hex, octal
 * and binary integers as their decimal length), or undefined when `text` is not a number.
 */
export function numericDigits(text: string): number | undefined {
  const t = text.trim().replace(/^[+-]/, "").replace(/_/g, "").toLowerCase();
  const based = /^0([xob])([0-9a-f]+)$/.exec(t);
  if (based !== null) {
    const bits = { x: 4, o: 3, b: 1 }[based[1] as "x" | "o" | "b"];
    return Math.ceil(based[2]!.length * bits * Math.LOG10E * Math.LN2);
  }
  const m = /^(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/.exec(t);
  if (m === null || (m[1] === "" && (m[2] ?? "") === "")) return undefined;
  const exp = Number(m[3] ?? 0);
  const intDigits = m[1]!.replace(/^0+/, "").length;
  const fracDigits = (m[2] ?? "").length;
  if (!Number.isFinite(exp)) return Infinity;
  return Math.max(0, intDigits + exp) + Math.max(0, fracDigits - exp);
}

/**
 * Refuses a numeric (literal text, string constant, parameter, type precision) over
 * `maxNumericDigits`; anything that is not a number passes.
 * @param where - what the value is, for the message (`literal`, `parameter $2`).
 */
export function checkNumericSize(text: string, where: string): void {
  const digits = numericDigits(text);
  const max = QUERY_LIMITS.sql.maxNumericDigits;
  if (digits !== undefined && digits > max) {
    const shown = text.length > 40 ? `${text.slice(0, 37)}...` : text;
    throw new QueryRefused(
      "limit_exceeded",
      `${where} ${shown} has ${digits === Infinity ? "too many" : digits} digits written out (at most ${max})`,
      "maxNumericDigits",
      max,
    );
  }
}

/**
 * Checks a constant (`A_Const`): numeric literals and numeric-looking strings (`'1e1000'`),
 * strings and bit strings at most `maxConstantChars`.
 */
export function checkConstant(n: Record<string, unknown>, tally: ExpressionTally): void {
  const fval = (n.fval as { fval?: string } | undefined)?.fval;
  if (typeof fval === "string") checkNumericSize(fval, "numeric literal");
  const sval = (n.sval as { sval?: string } | undefined)?.sval;
  if (typeof sval === "string") {
    checkNumericSize(sval, "string constant");
    checkStringSize(sval, "string constant", tally);
  }
  const bsval = (n.bsval as { bsval?: string } | undefined)?.bsval;
  if (typeof bsval === "string") checkStringSize(bsval, "bit string constant", tally);
}

/**
 * The base types a cast may name (as the parser spells them: `int` is `pg_catalog.int4`). Any other
 * type is refused: the `reg*` types (`'x'::regclass`, `::regrole`, ...) turn a name or number into
 * any relation, role or function of the whole database, and a cast to a table's row type
 * (`'(x)'::public.t`) reaches relations outside the query's tables.
 */
const ALLOWED_TYPES: ReadonlySet<string> = new Set([
  "bool",
  "int2",
  "int4",
  "int8",
  "numeric",
  "decimal",
  "float4",
  "float8",
  "text",
  "varchar",
  "bpchar",
  "char",
  "bit",
  "varbit",
  "bytea",
  "date",
  "time",
  "timetz",
  "timestamp",
  "timestamptz",
  "interval",
  "json",
  "jsonb",
  "uuid",
]);

/**
 * A type named by a cast must be one of {@link ALLOWED_TYPES}, unqualified or in `pg_catalog`.
 * @throws QueryRefused `not_read_only` naming the type.
 */
function checkTypeAllowed(names: (string | undefined)[], n: Record<string, unknown>): void {
  const type = names.at(-1) ?? "";
  const qualifiedOk = names.length === 1 || (names.length === 2 && names[0] === "pg_catalog");
  if (!qualifiedOk || !ALLOWED_TYPES.has(type) || n.pct_type === true) {
    throw new QueryRefused(
      "not_read_only",
      `type ${names.map((x) => x ?? "?").join(".") || "?"} is not allowed: a cast may name only ${[...ALLOWED_TYPES].join(", ")}`,
    );
  }
}

/**
 * Checks a type's modifiers: `numeric(p, s)` / `decimal(p, s)` at most `maxNumericDigits`, any
 * other length (`char(n)`, `varchar(n)`, `bit(n)`) at most `maxTypeLength` (and recorded as a leaf).
 */
export function checkTypeName(n: Record<string, unknown>, tally: ExpressionTally): void {
  const names = ((n.names as { String?: { sval?: string } }[] | undefined) ?? []).map((f) => f.String?.sval);
  const type = names.at(-1) ?? "";
  checkTypeAllowed(names, n);
  if (type === "interval") return; // its modifiers are field masks and a precision, not a length
  const numeric = type === "numeric" || type === "decimal";
  const limit = numeric ? "maxNumericDigits" : "maxTypeLength";
  const max = QUERY_LIMITS.sql[limit];
  for (const m of (n.typmods as { A_Const?: { ival?: { ival?: number } } }[] | undefined) ?? []) {
    const v = m.A_Const?.ival?.ival ?? 0;
    if (Math.abs(v) > max) {
      throw new QueryRefused(
        "limit_exceeded",
        numeric
          ? `numeric(${v}): a numeric type has at most ${max} digits of precision and scale`
          : `${type}(${v}): a type's length is at most ${max}`,
        limit,
        max,
      );
    }
    if (!numeric) tally.largestLeaf = Math.max(tally.largestLeaf, Math.abs(v));
  }
}

/** Functions whose second argument is a format parsed on every call. */
const FORMAT_FUNCTIONS: ReadonlySet<string> = new Set(["to_char", "to_timestamp", "to_date", "to_number"]);

/**
 * The format of `to_char(x, format)` / `to_timestamp(text, format)` must be a string constant
 * of at most `maxFormatChars`.
 * @returns the format's length (each of its characters is a step of work on every row), 0 for other calls.
 * @throws QueryRefused `limit_exceeded` (`maxFormatChars`).
 */
export function checkFormatArgument(name: string, args: unknown[]): number {
  if (!FORMAT_FUNCTIONS.has(name) || args.length < 2) return 0;
  const format = (args[1] as { A_Const?: { sval?: { sval?: string } } }).A_Const?.sval;
  const max = QUERY_LIMITS.sql.maxFormatChars;
  const length = format === undefined ? undefined : (format.sval ?? "").length;
  if (length === undefined || length > max) {
    throw new QueryRefused(
      "limit_exceeded",
      `${name}(x, format): the format must be a string constant of at most ${max} characters${
        length === undefined ? "" : ` (got ${length})`
      }: it is parsed again on every row`,
      "maxFormatChars",
      max,
    );
  }
  return length;
}

/**
 * `round(x, n)` and `trunc(x, n)` set the scale of their result (a later division keeps it):
 * `n` must be an integer literal of at most `maxNumericDigits`.
 */
export function checkScaleArgument(name: string, args: unknown[]): void {
  if ((name !== "round" && name !== "trunc") || args.length < 2) return;
  const ival = (args[1] as { A_Const?: { ival?: { ival?: number } } }).A_Const?.ival;
  const v = ival === undefined ? undefined : (ival.ival ?? 0); // libpg-query leaves 0 out
  const max = QUERY_LIMITS.sql.maxNumericDigits;
  if (v === undefined || Math.abs(v) > max) {
    throw new QueryRefused(
      "limit_exceeded",
      `${name}(x, n): n must be an integer literal between -${max} and ${max}`,
      "maxNumericDigits",
      max,
    );
  }
}

/**
 * Checks the statement's parameters: strings, numbers and bigints that are numbers at most
 * `maxNumericDigits`, strings (and the JSON of anything else) at most `maxConstantChars`.
 */
export function checkParams(params: readonly unknown[], tally: ExpressionTally): void {
  const check = (p: unknown, where: string): void => {
    if (Array.isArray(p)) return p.forEach((x, j) => check(x, `${where}[${j}]`));
    if (typeof p === "string" || typeof p === "number" || typeof p === "bigint")
      checkNumericSize(String(p), where);
    const text = typeof p === "string" ? p : typeof p === "bigint" ? p.toString() : (JSON.stringify(p) ?? "");
    checkStringSize(text, where, tally);
  };
  params.forEach((p, i) => check(p, `parameter $${i + 1}`));
}
