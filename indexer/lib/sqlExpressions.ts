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

/** What the expression checks count over one statement. */
export interface ExpressionTally {
  growing: number;
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

/** Checks a constant (`A_Const`): numeric literals and numeric-looking strings (`'1e1000'`). */
export function checkConstant(n: Record<string, unknown>): void {
  const fval = (n.fval as { fval?: string } | undefined)?.fval;
  if (typeof fval === "string") checkNumericSize(fval, "numeric literal");
  const sval = (n.sval as { sval?: string } | undefined)?.sval;
  if (typeof sval === "string") checkNumericSize(sval, "string constant");
}

/** Checks a `numeric(p, s)` / `decimal(p, s)` type: `p` and `s` at most `maxNumericDigits`. */
export function checkTypeName(n: Record<string, unknown>): void {
  const names = ((n.names as { String?: { sval?: string } }[] | undefined) ?? []).map((f) => f.String?.sval);
  const type = names.at(-1) ?? "";
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
  }
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

/** Checks the statement's parameters: strings, numbers and bigints that are numbers at most `maxNumericDigits`. */
export function checkParams(params: readonly unknown[]): void {
  params.forEach((p, i) => {
    if (typeof p === "string" || typeof p === "number" || typeof p === "bigint")
      checkNumericSize(String(p), `parameter $${i + 1}`);
  });
}
