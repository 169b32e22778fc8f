/**
 * Leaderboards (seed "Compete on Benchmarks", step 7; SPEC 7.1 and 6.1 v1.1). Two boards:
 *
 * - the **public board**, served while the benchmark is open: rows ordered and shown by
 *   `score_composite_public` (the composite over the public accuracy), then the rest of the 7.1 tuple
 *   with `score_public`; nothing on it is computed from private tasks;
 * - the **final board**, served once the benchmark is closed (and to its author at any time): the 7.1
 *   order on the ranking `score_composite` (private accuracy when the bank has private tasks), with
 *   `rank_accuracy` and `receipt_url`. It is the input of the award.
 *
 * Both keep the best row per agent (evidence `rankRows`). A board is cached per process and invalidated
 * by the store's `benchmarks.board_version`, which finalize, close, award, the bounty and the anchors
 * (of the commitment and of receipts: a receipt hash shows once anchored, `reveal.ts`) increase in their writes: a board read costs one indexed read of that counter until the next
 * change, in any process.
 */
import { rankRows, type Hex, type RankedRow, type RunRow } from "@bench-bounty/evidence";
import type { BenchmarkRecord, LeaderboardVisibility, PlatformContext } from "./context.js";
import { buyerOnlyHides, forbid, isAuthorOf } from "./identity/access.js";
import type { Principal } from "./identity/principal.js";
import { PlatformError } from "./errors.js";
import { checkPage } from "./paging.js";
import { isOpen } from "./publish.js";
import { isAuthorAgent } from "./agents.js";
import { shownDigest, withheldDigests } from "./reveal.js";
import { isoMillis } from "./time.js";

/** One row of the public board (one per agent). */
export interface PublicBoardRow {
  rank: number;
  agent_id: string;
  is_author_agent: boolean;
  run_id: string;
  score_public: string;
  score_composite_public: string;
  queries_used: number;
  wall_seconds: string;
  achieved_at: string;
  attempts_used: number;
  usdc_spent: string;
  /** Null while its anchor is pending (`reveal.ts`, probe14 D3-F8). */
  receipt_hash: Hex | null;
}

/** One row of the final board (one per agent): the public row plus the private figures. */
export interface LeaderboardRow extends RunRow {
  rank: number;
  attempts_used: number;
  score_composite_public: string;
  rank_accuracy: string;
  usdc_spent: string;
  /** Null while its anchor is pending (`reveal.ts`, probe14 D3-F8). */
  receipt_hash: Hex | null;
  receipt_url: string;
}

/** A leaderboard of a benchmark. */
export type Leaderboard = BoardVisibility &
  BoardVersion &
  (
    | {
        slug: string;
        status: string;
        open: boolean;
        board: "public";
        ranked_on: "public_composite";
        rows: PublicBoardRow[];
      }
    | {
        slug: string;
        status: string;
        open: boolean;
        board: "final";
        /** `private_composite` when the bank has private tasks, else `public_composite`. */
        ranked_on: "private_composite" | "public_composite";
        rows: LeaderboardRow[];
      }
  );

/**
 * Who may see the board (the compete seed, section 7): a `buyer_only` benchmark answers everyone but
 * its author (the buyer) with `leaderboard_visible: false` and no rows.
 */
export interface BoardVisibility {
  leaderboard_visibility: LeaderboardVisibility;
  leaderboard_visible: boolean;
}

/**
 * Which board a page was cut from (probe21 A-F6: a reader appending pages showed an agent twice after a
 * finalize between two reads, and final rows under a public board's header after the close).
 */
export interface BoardVersion {
  /**
   * Opaque; the same on every page of one board, and another once the board may have changed (a
   * finalize, the close, the award, an anchor: the store's `board_version`; the board's kind and the
   * open flag). Compare for equality only: a reader reads the next page only while it stays the same.
   */
  board_version: string;
}

/**
 * The {@link BoardVersion} of the `want` board of a benchmark at the store's `version`; `null` for the
 * hidden board of a `buyer_only` benchmark, whose version is a constant (probe29 A-F1: the store's counter
 * there told every stranger how many runs were finalized, and when).
 */
function boardVersionOf(version: number | null, want: "public" | "final", open: boolean): string {
  return `${want}-${open ? "open" : "closed"}-${version ?? "hidden"}`;
}

/** URL of a run's receipt at the evidence door (SPEC 8 `receipt_url`). */
export function receiptUrl(ctx: PlatformContext, slug: string, runId: string): string {
  return `${ctx.publicBaseUrl.replace(/\/+$/, "")}/api/v1/benchmarks/${slug}/runs/${runId}/receipt`;
}

/** Finalized runs with `is_author_agent` per {@link isAuthorAgent} (one rule with the award). */
async function finalizedRows(ctx: PlatformContext, slug: string) {
  const rows = await ctx.store.runs.boardSource(slug);
  return rows.map(({ owner_account_id, author_account_id, ...r }) => ({
    ...r,
    is_author_agent: isAuthorAgent(
      { is_author_agent: r.is_author_agent === 1, owner_account_id },
      author_account_id,
    ),
  }));
}

/** Final-board rows with every field (rank_accuracy included): the input of the award. */
export async function rankedRuns(ctx: PlatformContext, slug: string): Promise<RankedRow<LeaderboardRow>[]> {
  const rows = (await finalizedRows(ctx, slug)).map((r) => ({
    agent_id: r.agent_id,
    is_author_agent: r.is_author_agent,
    run_id: r.run_id,
    score_composite: r.score_composite,
    score_composite_public: r.score_composite_public,
    score_public: r.score_public,
    queries_used: r.queries_used,
    wall_seconds: r.wall_seconds,
    achieved_at: isoMillis(r.finalized_at_ms),
    rank_accuracy: r.rank_accuracy,
    usdc_spent: r.usdc_spent,
    receipt_hash: r.receipt_hash as Hex,
    receipt_url: receiptUrl(ctx, slug, r.run_id),
    rank: 0,
    attempts_used: 0,
  }));
  // attempts_used (from rankRows) counts the agent's finalized attempts.
  return rankRows(rows);
}

/** Public-board rows: ranked by the public composite (SPEC 6.1); no private figure is read into them. */
export async function publicBoardRows(ctx: PlatformContext, slug: string): Promise<PublicBoardRow[]> {
  const rows = (await finalizedRows(ctx, slug)).map((r) => ({
    agent_id: r.agent_id,
    is_author_agent: r.is_author_agent,
    run_id: r.run_id,
    // rankRows orders on score_composite: give it the public composite.
    score_composite: r.score_composite_public,
    score_public: r.score_public,
    queries_used: r.queries_used,
    wall_seconds: r.wall_seconds,
    achieved_at: isoMillis(r.finalized_at_ms),
    usdc_spent: r.usdc_spent,
    receipt_hash: r.receipt_hash as Hex,
  }));
  return rankRows(rows).map(({ score_composite, ...r }) => ({
    rank: r.rank,
    agent_id: r.agent_id,
    is_author_agent: r.is_author_agent,
    run_id: r.run_id,
    score_public: r.score_public,
    score_composite_public: score_composite,
    queries_used: r.queries_used,
    wall_seconds: r.wall_seconds,
    achieved_at: r.achieved_at,
    attempts_used: r.attempts_used,
    usdc_spent: r.usdc_spent,
    receipt_hash: r.receipt_hash,
  }));
}

/** Options of {@link leaderboard}. */
export interface LeaderboardOptions {
  /** The caller (the author may ask for the final board while open). */
  viewer?: Principal | null;
  /** Which board (default: public while open, final once closed); `final` while open is for the author only. */
  board?: "public" | "final" | undefined;
  /** One page of rows (default: every row); see {@link BoardPage}. */
  page?: { offset: number; limit: number } | undefined;
}

/** Rows per page of a paged board when the caller names no `limit` (the REST and MCP default). */
export const BOARD_PAGE_SIZE = 100;
/** Largest `limit` of one page: a board of up to this many agents is one request. */
export const BOARD_PAGE_MAX = 10_000;

/**
 * Where a page sits on its board: rows `offset` .. `offset + rows.length - 1` (0-based, in rank
 * order) of `total_rows`; `next_offset` is the offset of the next page, null on the last one.
 */
export interface BoardPage {
  total_rows: number;
  offset: number;
  limit: number;
  next_offset: number | null;
}

/** One page of a leaderboard: the board's fields, its rows `offset .. offset + limit - 1`, and where. */
export type LeaderboardPage = Leaderboard & BoardPage;

interface CacheEntry {
  version: number;
  open: boolean;
  status: string;
  board: Leaderboard;
  /** Pages cut from `board`, by `offset:limit` (bounded: {@link PAGES_CACHED}). */
  pages: Map<string, LeaderboardPage>;
}
/** Pages kept per cached board (the default page and a reader's walk through the board). */
const PAGES_CACHED = 64;
const caches = new WeakMap<PlatformContext, Map<string, CacheEntry>>();
/** Boards being built, by cache key and version: concurrent readers of a new version share one build. */
const building = new WeakMap<PlatformContext, Map<string, Promise<CacheEntry>>>();

/**
 * Checks a board page request: `offset` an integer >= 0, `limit` an integer in 1..{@link BOARD_PAGE_MAX}.
 * @throws PlatformError `invalid_option` naming the field (`offset` or `limit`)
 */
export function checkBoardPage(page: { offset: unknown; limit: unknown }): { offset: number; limit: number } {
  return checkPage(page, BOARD_PAGE_MAX);
}

/** Cuts one page from a board (frozen: cached and shared like the board). */
function cutPage(board: Leaderboard, offset: number, limit: number): LeaderboardPage {
  const total = board.rows.length;
  const rows = Object.freeze(board.rows.slice(offset, offset + limit));
  return Object.freeze({
    ...board,
    rows,
    total_rows: total,
    offset,
    limit,
    next_offset: offset + limit < total ? offset + limit : null,
  }) as LeaderboardPage;
}

/** The page of a cached board (cut once per board version; a bounded number kept). */
function pageOf(entry: CacheEntry, page: { offset: number; limit: number }): LeaderboardPage {
  const key = `${page.offset}:${page.limit}`;
  let hit = entry.pages.get(key);
  if (hit) return hit;
  hit = cutPage(entry.board, page.offset, page.limit);
  if (entry.pages.size >= PAGES_CACHED) entry.pages.clear();
  entry.pages.set(key, hit);
  return hit;
}

/**
 * The leaderboard of a benchmark: the public board while open, the final board once closed (SPEC 6.1).
 * The author may ask for `board: "final"` while open. With `page`, one page of it ({@link BoardPage}:
 * the rows keep their board-wide `rank`). The same object is returned until the board changes.
 * @throws PlatformError `unknown_benchmark`, `forbidden` (`benchmark_author_only`) for the final
 *   board of an open benchmark asked by anyone else, `invalid_option` for a bad `page` (naming the field)
 */
export async function leaderboard(
  ctx: PlatformContext,
  slug: string,
  opts: LeaderboardOptions & { page: { offset: number; limit: number } },
): Promise<LeaderboardPage>;
export async function leaderboard(
  ctx: PlatformContext,
  slug: string,
  opts?: LeaderboardOptions,
): Promise<Leaderboard>;
export async function leaderboard(
  ctx: PlatformContext,
  slug: string,
  opts: LeaderboardOptions = {},
): Promise<Leaderboard> {
  const page = opts.page ? checkBoardPage(opts.page) : undefined;
  // One read gives the benchmark and its board's change counter (bumped by finalize, close and award).
  const versioned = await ctx.store.benchmarks.getVersioned(slug);
  if (!versioned) throw new PlatformError("unknown_benchmark", `no benchmark ${slug}`, { slug });
  const { record: b, board_version: version } = versioned;
  const open = await isOpen(ctx, b);
  const want = opts.board ?? (open ? "public" : "final");
  if (want === "final" && open && !isAuthorOf(opts.viewer, b)) {
    forbid("benchmark_author_only", `the final board of ${slug} is served once it closes (SPEC 6.1)`, {
      slug,
    });
  }
  if (buyerOnlyHides(opts.viewer, b)) {
    const hidden = hiddenBoard(b, open, want);
    return page ? cutPage(hidden, page.offset, page.limit) : hidden;
  }
  let cache = caches.get(ctx);
  if (!cache) caches.set(ctx, (cache = new Map()));
  const key = `${want}:${slug}`;
  let entry = cache.get(key);
  if (!entry || entry.version !== version || entry.open !== open || entry.status !== b.status) {
    let inFlight = building.get(ctx);
    if (!inFlight) building.set(ctx, (inFlight = new Map()));
    const buildKey = `${key}:${version}:${open}:${b.status}`;
    let pending = inFlight.get(buildKey);
    if (!pending) {
      pending = freshEntry(ctx, b, open, want, version).finally(() => inFlight.delete(buildKey));
      inFlight.set(buildKey, pending);
    }
    entry = await pending;
    const now = cache.get(key);
    if (!now || now.version <= version) cache.set(key, entry);
  }
  return page ? pageOf(entry, page) : entry.board;
}

/** Builds and freezes a board: every caller shares the cached board, so nobody may change it in place. */
async function freshEntry(
  ctx: PlatformContext,
  b: BenchmarkRecord,
  open: boolean,
  want: "public" | "final",
  version: number,
): Promise<CacheEntry> {
  const board = await buildBoard(ctx, b, open, want, version);
  for (const r of board.rows) Object.freeze(r);
  Object.freeze(board.rows);
  Object.freeze(board);
  return { version, open, status: b.status, board, pages: new Map() };
}

async function buildBoard(
  ctx: PlatformContext,
  b: BenchmarkRecord,
  open: boolean,
  want: "public" | "final",
  version: number,
): Promise<Leaderboard> {
  const seen = {
    leaderboard_visibility: b.config.leaderboard_visibility ?? "public",
    leaderboard_visible: true,
    board_version: boardVersionOf(version, want, open),
  };
  // a receipt hash shows once anchored (reveal.ts): the anchoring bumps the board's version
  const reveal = async <R extends { receipt_hash: Hex | null }>(rows: R[]): Promise<R[]> => {
    const withheld = await withheldDigests(
      ctx.store,
      rows.map((r) => r.receipt_hash),
    );
    return rows.map((r) => ({ ...r, receipt_hash: shownDigest(r.receipt_hash, withheld) }));
  };
  if (want === "public")
    return {
      slug: b.slug,
      status: b.status,
      open,
      board: "public",
      ranked_on: "public_composite",
      ...seen,
      rows: await reveal(await publicBoardRows(ctx, b.slug)),
    };
  return {
    slug: b.slug,
    status: b.status,
    open,
    board: "final",
    ranked_on: b.private_count > 0 ? "private_composite" : "public_composite",
    ...seen,
    rows: await reveal(await rankedRuns(ctx, b.slug)),
  };
}

/**
 * The board of a `buyer_only` benchmark as everyone but its author sees it: no rows, and nothing that
 * moves with the competition (its `board_version` is a constant per board kind and open flag, so its
 * bytes and ETag change only when the benchmark's public status does; probe29 A-F1).
 */
function hiddenBoard(b: BenchmarkRecord, open: boolean, want: "public" | "final"): Leaderboard {
  const hidden = {
    leaderboard_visibility: "buyer_only" as const,
    leaderboard_visible: false,
    board_version: boardVersionOf(null, want, open),
    rows: [],
  };
  return want === "public"
    ? { slug: b.slug, status: b.status, open, board: "public", ranked_on: "public_composite", ...hidden }
    : {
        slug: b.slug,
        status: b.status,
        open,
        board: "final",
        ranked_on: b.private_count > 0 ? "private_composite" : "public_composite",
        ...hidden,
      };
}
