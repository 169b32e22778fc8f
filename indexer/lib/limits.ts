/**
 * Every limit the indexer's query endpoints enforce (issue 13 items 1-2), in one place.
 * An over-limit query is answered 400 with `{ error: { code: "limit_exceeded", limit, max, message } }`
 * (SQL) or `{ errors: [{ message, extensions: { code: "limit_exceeded", limit, max } }] }` (GraphQL).
 */
export const QUERY_LIMITS = {
  sql: {
    /** Longest SQL text accepted by `/sql/db` (characters). */
    maxChars: 5_000,
    /** Most rows one `/sql/db` answer carries; more is refused, not cut. */
    maxRows: 5_000,
    /** Most relations (tables, CTEs, subqueries in FROM) one statement may read. */
    maxRelations: 6,
    /**
     * Most digits of a numeric written out (`1e1000` has 1,001): literals, numeric-looking
     * strings, parameters, `numeric(p, s)`, the `n` of `round`/`trunc(x, n)`. A uint256 has 78.
     */
    maxNumericDigits: 100,
    /**
     * Largest length modifier of any other type (`char(n)`, `varchar(n)`, `bit(n)`, `varbit(n)`):
     * a cast pads or builds a value of that many characters or bits on every row, a cost the
     * planner does not see (`x::char(10485760)` over 40 rows held PGlite for minutes). Our
     * longest column is a 66-character hash.
     */
    maxTypeLength: 1_000,
    /**
     * Most operators that lengthen a value (`*`, `/`, `%`, `||`, `concat`, `concat_ws`) in one
     * statement: the planner prices them as if cheap, but a chain of them costs the square of
     * its length on every row (see `sqlExpressions.ts`).
     */
    maxGrowingOperators: 8,
    /** Largest planner estimate (PostgreSQL cost units of `EXPLAIN`) a statement may have. */
    maxPlanCost: 2_000_000,
    /**
     * The same on the embedded PGlite, which runs a statement on the indexer's own thread and
     * cannot interrupt it (no `statement_timeout`): here the estimate is the only time bound.
     * Measured on the 2-core test machine (see the README): a cross join estimated at 1.54M
     * units ran 151 s (~0.1 ms per unit), so 50,000 units bound a statement to about 5 s.
     */
    maxPlanCostPglite: 50_000,
    /** PostgreSQL `statement_timeout` of one `/sql/db` statement (milliseconds). */
    statementTimeoutMs: 5_000,
  },
  graphql: {
    /** Longest request body accepted by `/graphql` (bytes). */
    maxBodyBytes: 20_000,
    /** Deepest selection (fields nested in fields). */
    maxDepth: 12,
    /** Most aliased fields in one operation. */
    maxAliases: 10,
    /** Most lexical tokens in one document. */
    maxTokens: 1_000,
    /**
     * Deepest argument value: objects and lists nested in an argument of the document or in the
     * request's `variables` (a `where` of AND/OR nested 1,900 deep in a variable escaped the token
     * and depth limits, which count the document only).
     */
    maxInputDepth: 16,
    /**
     * Most fields one document may have once its fragments are expanded (a fragment spread
     * n times counts n times): bounds the guard's own work against nested "fragment bombs".
     */
    maxExpandedFields: 5_000,
    /**
     * Largest estimated number of rows one operation may ask for: the product of the page
     * sizes (`limit`, default 50) along each path of nested lists, summed over the paths;
     * a page's `items` counts wherever it sits (directly, in an inline or a named fragment).
     */
    maxEstimatedRows: 100_000,
  },
} as const;

/** A query refused for going over one of {@link QUERY_LIMITS} or for what it tries to do. */
export class QueryRefused extends Error {
  /**
   * @param code - `limit_exceeded` (a size limit above) or `not_read_only` / `invalid_query`.
   * @param limit - name of the limit (e.g. `maxDepth`), when `code` is `limit_exceeded`.
   * @param max - its value.
   */
  constructor(
    readonly code: "limit_exceeded" | "not_read_only" | "invalid_query",
    message: string,
    readonly limit?: string,
    readonly max?: number,
  ) {
    super(message);
    this.name = "QueryRefused";
  }
}

/** The JSON body of a 400 answer for a refused query. */
export function queryRefusedBody(e: QueryRefused): {
  error: { code: string; message: string; limit?: string; max?: number };
} {
  return {
    error: {
      code: e.code,
      message: e.message,
      ...(e.limit === undefined ? {} : { limit: e.limit, max: e.max }),
    },
  };
}
