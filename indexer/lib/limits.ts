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
     * Highest placeholder `$n` a statement may use: the most parameters PostgreSQL's protocol binds
     * (a 16-bit count). The parser wraps a larger `n` to 32 bits (`$99999999999` read as $1215752191,
     * `$2147483648` as a negative number), so the placeholder is read from the SQL text (probe24).
     */
    maxParameterIndex: 65_535,
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
     * Longest string constant or string parameter (characters): a to_char or to_timestamp
     * format, a LIKE pattern or a padded literal is worked through on every row, a cost the
     * planner does not see (a 3,000-character to_char format over 1M rows ran 20.9 s on
     * PGlite). Our longest value is a 66-character hash.
     */
    maxConstantChars: 256,
    /**
     * Longest format of `to_char` / `to_timestamp` (characters; the format must be a string
     * constant): PostgreSQL parses a format longer than 128 characters again on every row
     * (a 256-character to_char format over 1M rows ran over 60 s on PGlite).
     */
    maxFormatChars: 64,
    /**
     * Most operators that lengthen a value (`*`, `/`, `%`, `||`, `concat`, `concat_ws`) in one
     * statement: the planner prices them as if cheap, but a chain of them costs the square of
     * its length on every row (see `sqlExpressions.ts`).
     */
    maxGrowingOperators: 8,
    /**
     * Largest value one row may build, estimated before anything runs (characters, see
     * `sqlExpressions.ts` `valueChars`): its longest leaf x, for every query level (the statement,
     * each CTE and subquery), 1 + the arguments its building functions (`json(b)_build_array`,
     * `json(b)_build_object`, `to_json(b)`, `concat`...), `ARRAY[...]`, `ROW(...)`, whole rows and
     * growing operators add. A value built from values built at another level grows as the
     * product: 90-argument `jsonb_build_array` over 4 one-row CTEs grew a PostgreSQL backend to
     * 19 GB past `statement_timeout` (JSON building does not check for interrupts) and got it
     * OOM-killed (probe17 B-F7).
     */
    maxValueChars: 500_000,
    /** Largest planner estimate (PostgreSQL cost units of `EXPLAIN`) a statement may have. */
    maxPlanCost: 2_000_000,
    /**
     * The same on the embedded PGlite, which runs a statement on the indexer's own thread and
     * cannot interrupt it (no `statement_timeout`): here the estimate is the only time bound.
     * Measured on the 2-core test machine (see the README): a cross join estimated at 1.54M
     * units ran 151 s (~0.1 ms per unit), so 50,000 units bound a statement to about 5 s.
     */
    maxPlanCostPglite: 50_000,
    /**
     * Largest work estimate of a statement, checked before it runs (see `src/api/sql.ts`
     * `workOf`): rows the executor handles (every node of the plan, times its loops, a LIMIT
     * counted) x (1 + expressions in the statement) x (its largest value / 100 characters,
     * at least 1). The planner prices a function call at 0.0025 units whatever it does, so
     * its cost estimate alone let a 3,000-character to_char format over 1M rows through.
     */
    maxPlanWork: 200_000_000,
    /**
     * The same on the embedded PGlite, which cannot interrupt a statement: measured on the
     * 2-core test machine (README), about 5 s of the slowest per-row work we found.
     */
    maxPlanWorkPglite: 20_000_000,
    /**
     * Largest estimate of what the statement's accumulating aggregates (`array_agg`,
     * `string_agg`, `json_agg`, ...) and `ARRAY(SELECT ...)` hold at once (characters):
     * their count x the rows the executor handles x the largest value, and apart from the
     * planner's guesses: the rows each one's input can emit whatever its filters keep (whole
     * tables, a join their product) x the largest value. 64 array_agg of 10 MiB values grew the
     * indexer to 2.2 GB (PGlite's memory never shrinks back); a 5-way cross join behind filters
     * the planner priced at 0.5 % each, 879 MB on PostgreSQL (probe16 B-F5).
     */
    maxAggregatedChars: 50_000_000,
    /** Largest answer of `/sql/db` (bytes of JSON); more is refused, not cut. */
    maxAnswerBytes: 16_000_000,
    /** PostgreSQL `statement_timeout` of one `/sql/db` statement (milliseconds). */
    statementTimeoutMs: 5_000,
  },
  /** How much query work (`/sql/db`, `POST /graphql`) runs at once: `lib/workGate.ts`. */
  load: {
    /** Queries running at once; more wait in arrival order. */
    maxActiveQueries: 4,
    /** Queries waiting; one more is refused at once (503 `server_busy`). */
    maxQueuedQueries: 32,
    /** Queries of one client (IPv4 address or IPv6 /64) running or waiting; one more is 429. */
    maxQueriesPerClient: 4,
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
   * @param code - `limit_exceeded` (a size limit above), `not_read_only` / `invalid_query`,
   *   `query_too_expensive` (the database refused it for a limit of its own, SQLSTATE 54xxx/53400)
   *   or `server_busy` (the database ran out of memory, disk or connections, SQLSTATE 53xxx), or
   *   `sql_misconfigured` (the role of `INDEXER_SQL_ROLE` cannot be taken or may not read the
   *   indexer's tables: the operator's error, answered 503).
   * @param limit - name of the limit (e.g. `maxDepth`), when `code` is `limit_exceeded`.
   * @param max - its value.
   * @param locations - where in a GraphQL document the problem is (its syntax error's line and column).
   */
  constructor(
    readonly code:
      | "limit_exceeded"
      | "not_read_only"
      | "invalid_query"
      | "query_too_expensive"
      | "server_busy"
      | "sql_misconfigured",
    message: string,
    readonly limit?: string,
    readonly max?: number,
    readonly locations?: readonly { line: number; column: number }[],
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
