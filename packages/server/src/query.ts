/**
 * Query parameters of the REST routes. Only the paged lists have some: their page (`offset`, `limit`).
 * Every route's query string is checked by `defineRoute` against the names its `query` schema
 * declares (none by default). The edge reads the query string strictly ({@link readQuery}: a name the route does not declare, an
 * array form such as `offset[]`, a name given twice or a number not written canonically is 400
 * `invalid_query` naming the parameter); the range is the platform's rule (`checkPage`).
 */
import {
  BENCHMARKS_PAGE_MAX,
  BENCHMARKS_PAGE_SIZE,
  BOARD_PAGE_MAX,
  BOARD_PAGE_SIZE,
  RUNS_PAGE_MAX,
  RUNS_PAGE_SIZE,
  TASK_SCORES_IDS_MAX,
  TASK_SCORES_PAGE_MAX,
  TASK_SCORES_PAGE_SIZE,
} from "@bench-bounty/platform";
import { z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.js";
import { RUN_TASKS_PAGE_MIB as PAGE_MIB } from "./domain.js";
import { EdgeError } from "./errors.js";

/**
 * The most digits of a whole number in a query string (a page's `offset`, `limit`): 15, so every one is
 * a safe integer (2^53-1 has 16 digits). The one bound of a page argument: the REST query
 * ({@link CANONICAL_WHOLE}) and the MCP tools' arguments ({@link MAX_WHOLE}) take the same numbers.
 */
export const MAX_WHOLE_DIGITS = 15;

/** The largest whole number a page argument takes, REST or MCP: 999,999,999,999,999 ({@link MAX_WHOLE_DIGITS} nines), inclusive. */
export const MAX_WHOLE = 10 ** MAX_WHOLE_DIGITS - 1;

/**
 * A whole number as the query string must write it: decimal digits without a sign, a leading zero
 * (but `0` itself), an exponent, a base prefix or white space, at most {@link MAX_WHOLE_DIGITS} digits
 * (a safe integer, at most {@link MAX_WHOLE}). The one definition: the anonymous leaderboard fast path
 * (`public-reads.ts`) reads pages with it too.
 */
export const CANONICAL_WHOLE = `(?:0|[1-9][0-9]{0,${MAX_WHOLE_DIGITS - 1}})`;
const WHOLE = new RegExp(`^${CANONICAL_WHOLE}$`);

/**
 * The OpenAPI description of a paged list's parameters (`offset`, `limit`): `first` says what `offset`
 * counts, `size` and `max` are the default and largest `limit`.
 */
function pageQuery(first: string, size: number, max: number) {
  const text = pageDescriptions(first, size, max);
  return z.object({
    offset: z.string().optional().openapi({ description: text.offset, example: "0" }),
    limit: z
      .string()
      .optional()
      .openapi({ description: text.limit, example: String(size) }),
  });
}

/**
 * The descriptions of a paged list's `offset` and `limit` (the REST query's and the MCP tools'
 * arguments): `first` says what `offset` counts, `size` and `max` are the default and largest `limit`
 * (the platform's page constants, `checkPage`).
 */
export function pageDescriptions(
  first: string,
  size: number,
  max: number,
): { offset: string; limit: string } {
  return {
    offset: `${first} (default 0)`,
    limit: `rows per page, 1 to ${max} (default ${size}); follow next_offset for the rest`,
  };
}

/** The OpenAPI description of the leaderboard's page parameters. */
export const BoardPageQuery = pageQuery(
  "0-based rank position of the page's first row",
  BOARD_PAGE_SIZE,
  BOARD_PAGE_MAX,
);
/** The OpenAPI description of the benchmark list's page parameters (`GET /benchmarks`). */
export const BenchmarksPageQuery = pageQuery(
  "0-based position of the page's first benchmark (oldest first)",
  BENCHMARKS_PAGE_SIZE,
  BENCHMARKS_PAGE_MAX,
);
/** The OpenAPI description of the page parameters of the caller's runs (`GET /benchmarks/runs/mine`). */
export const RunsPageQuery = pageQuery(
  "0-based position of the page's first run (newest first)",
  RUNS_PAGE_SIZE,
  RUNS_PAGE_MAX,
);

/**
 * The OpenAPI description of the per-task credits' parameters (`GET /benchmarks/:slug/task-scores`): a
 * page (`offset`, `limit`), or the runs of a leaderboard page by id (`run_ids`).
 */
export const TaskScoresPageQuery = pageQuery(
  "0-based position of the page's first finalized run (start order); a page holds at most 20,000 run-task cells",
  TASK_SCORES_PAGE_SIZE,
  TASK_SCORES_PAGE_MAX,
).extend({
  run_ids: z
    .string()
    .optional()
    .openapi({
      description: `instead of a page: up to ${TASK_SCORES_IDS_MAX} run ids, comma-separated (a leaderboard page's rows), answered in the order asked, as many as 20,000 run-task cells hold (the answer's limit); next_offset is the position in the list of the first id left`,
      example: "run-0123456789abcdef,run-fedcba9876543210",
    }),
});

/**
 * What a per-task credits request asks for: a page (`offset`, `limit`, as {@link pageOf}) or the runs
 * `run_ids` (comma-separated; their form and count are the platform's rule, `taskScoresOfIds`).
 * @throws EdgeError 400 `invalid_query` naming the parameter ({@link readQuery}), `run_ids` given with
 *   `offset` or `limit`
 */
export function taskScoresQueryOf(
  c: Context<AppEnv>,
): { page: { offset: number; limit: number } } | { run_ids: string[] } {
  const query = readQuery(c, ["offset", "limit", "run_ids"]);
  if (query.run_ids === undefined)
    return {
      page: {
        offset: wholeNumber(query, "offset", 0),
        limit: wholeNumber(query, "limit", TASK_SCORES_PAGE_SIZE),
      },
    };
  if (query.offset !== undefined || query.limit !== undefined)
    throw refuse("run_ids", "query parameter run_ids names the runs: it takes no offset or limit");
  return { run_ids: query.run_ids.split(",") };
}

/** 400 `invalid_query` naming the parameter. */
function refuse(name: string, message: string, value?: string): EdgeError {
  return new EdgeError("invalid_query", message, {
    parameter: name,
    ...(value !== undefined ? { value: value.slice(0, 64) } : {}),
  });
}

/**
 * The query string of a route that declares `allowed` parameters, each value read once.
 * @throws EdgeError 400 `invalid_query` naming the parameter: a name outside `allowed` (an array form
 *   `offset[]` or `offset[0]` included), one given more than once, or an empty name (`parameter: ""`)
 */
export function readQuery(c: Context<AppEnv>, allowed: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  // `?=`, `?&`, `?a=1&`: a parameter without a name, which `queries()` drops (probe8 P5); a bare `?` is no query
  const q = c.req.url.indexOf("?");
  if (q >= 0 && q < c.req.url.length - 1)
    for (const part of c.req.url.slice(q + 1).split("&"))
      if (part === "" || part.startsWith("="))
        throw refuse("", "a query parameter has an empty name (`?=`, `?&` or a stray `&`)");
  for (const [name, values] of Object.entries(c.req.queries())) {
    if (!allowed.includes(name))
      throw refuse(
        name,
        `unknown query parameter ${name.slice(0, 64)} (${allowed.length ? `allowed: ${allowed.join(", ")}` : "this route takes none"})`,
      );
    if (values.length > 1) throw refuse(name, `query parameter ${name} is given ${values.length} times`);
    out[name] = values[0]!;
  }
  return out;
}

/**
 * Middleware of a GET route that is not a `defineRoute` one (the OpenAPI document, the web app's
 * paths): its query string is read by {@link readQuery} with the names `allowed` (none by default),
 * so an unknown parameter is 400 `invalid_query` there too (probe8 P5: they were ignored).
 */
export function strictQuery(allowed: readonly string[] = []): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    readQuery(c, allowed);
    await next();
  };
}

/** A canonical whole number ({@link CANONICAL_WHOLE}), or `fallback` when absent. @throws EdgeError 400 `invalid_query` naming it */
function wholeNumber(query: Record<string, string>, name: string, fallback: number): number {
  const raw = query[name];
  if (raw === undefined) return fallback;
  if (!WHOLE.test(raw))
    throw refuse(
      name,
      /^[1-9][0-9]*$/.test(raw)
        ? `query parameter ${name} is too large (at most ${MAX_WHOLE_DIGITS} digits)` // canonical, but past the bound (probe14 D1-F9)
        : `query parameter ${name} must be a whole number in decimal digits (no sign, leading zero, exponent or space)`,
      raw,
    );
  return Number(raw);
}

/**
 * The OpenAPI description of `GET /benchmarks/runs/:id/tasks`' parameter: the ordinal of the page's
 * first task (a page holds at most `RUN_TASKS_PAGE_BYTES` of tasks, so it takes no `limit`).
 */
export const RunTasksQuery = z.object({
  offset: z
    .string()
    .optional()
    .openapi({
      description: `ordinal of the page's first task (default 0); a page holds at most ${PAGE_MIB} MiB of tasks, follow next_offset for the rest`,
      example: "0",
    }),
});

/** The `offset` a tasks page's request asks for (default 0). @throws EdgeError 400 `invalid_query` naming it */
export function offsetOf(c: Context<AppEnv>): number {
  return wholeNumber(readQuery(c, ["offset"]), "offset", 0);
}

/**
 * The page a paged list's request asks for (`offset`, `limit`; default the first `size` rows). The
 * range is the platform's rule (`checkPage`).
 * @throws EdgeError 400 `invalid_query` naming the parameter ({@link readQuery}, {@link CANONICAL_WHOLE})
 */
export function pageOf(c: Context<AppEnv>, size: number): { offset: number; limit: number } {
  const query = readQuery(c, ["offset", "limit"]);
  return { offset: wholeNumber(query, "offset", 0), limit: wholeNumber(query, "limit", size) };
}

/** The page a leaderboard request asks for (default: the first {@link BOARD_PAGE_SIZE} rows). @throws as {@link pageOf} */
export function boardPageOf(c: Context<AppEnv>): { offset: number; limit: number } {
  return pageOf(c, BOARD_PAGE_SIZE);
}
