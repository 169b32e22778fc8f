/**
 * Lists read one page at a time (the leaderboard, the caller's runs, the benchmark list): a page is
 * rows `offset .. offset + limit - 1` of a list in a stable order; `next_offset` is the offset of the
 * next page, null on the last one. The one check of a page request.
 */
import { PlatformError } from "./errors.js";

/** A page request: the 0-based position of its first row and how many rows at most. */
export interface PageRequest {
  offset: number;
  limit: number;
}

/**
 * Checks a page request: `offset` an integer >= 0, `limit` an integer in 1..`max`.
 * @throws PlatformError `invalid_option` naming the field (`offset` or `limit`)
 */
export function checkPage(page: { offset: unknown; limit: unknown }, max: number): PageRequest {
  const { offset, limit } = page;
  if (typeof offset !== "number" || !Number.isSafeInteger(offset) || offset < 0)
    throw new PlatformError("invalid_option", "offset must be an integer >= 0", { field: "offset" });
  if (typeof limit !== "number" || !Number.isSafeInteger(limit) || limit < 1 || limit > max)
    throw new PlatformError("invalid_option", `limit must be an integer from 1 to ${max}`, {
      field: "limit",
    });
  return { offset, limit };
}

/**
 * The page's `next_offset` from the rows read for it: the caller reads `limit + 1` rows from `offset`
 * (SQL `LIMIT`/`OFFSET`, so the work is bounded by the page), and a row past the page means a next one.
 * Returns the page's rows (at most `limit`) and `next_offset` (null on the last page).
 */
export function pageOfRows<T>(
  rows: readonly T[],
  page: PageRequest,
): { rows: T[]; next_offset: number | null } {
  return {
    rows: rows.slice(0, page.limit),
    next_offset: rows.length > page.limit ? page.offset + page.limit : null,
  };
}
