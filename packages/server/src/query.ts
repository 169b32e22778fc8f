/**
 * Query parameters of the REST routes. Only the leaderboard has some: its page (`offset`, `limit`).
 * The edge reads the digits; the range is the platform's rule (`checkBoardPage`).
 */
import { BOARD_PAGE_MAX, BOARD_PAGE_SIZE } from "@bench-bounty/platform";
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "./env.js";
import { EdgeError } from "./errors.js";

/** The OpenAPI description of the leaderboard's page parameters. */
export const BoardPageQuery = z.object({
  offset: z
    .string()
    .optional()
    .openapi({ description: "0-based rank position of the page's first row (default 0)", example: "0" }),
  limit: z
    .string()
    .optional()
    .openapi({
      description: `rows per page, 1 to ${BOARD_PAGE_MAX} (default ${BOARD_PAGE_SIZE}); follow next_offset for the rest`,
      example: String(BOARD_PAGE_SIZE),
    }),
});

/** A whole number query parameter, or `fallback` when absent. @throws EdgeError 422 `invalid_request` naming it */
function wholeNumber(c: Context<AppEnv>, name: string, fallback: number): number {
  const raw = c.req.query(name);
  if (raw === undefined) return fallback;
  if (!/^[0-9]{1,15}$/.test(raw))
    throw new EdgeError("invalid_request", `query parameter ${name} must be a whole number`, {
      parameter: name,
      value: raw.slice(0, 64),
    });
  return Number(raw);
}

/** The page a leaderboard request asks for (default: the first {@link BOARD_PAGE_SIZE} rows). */
export function boardPageOf(c: Context<AppEnv>): { offset: number; limit: number } {
  return { offset: wholeNumber(c, "offset", 0), limit: wholeNumber(c, "limit", BOARD_PAGE_SIZE) };
}
