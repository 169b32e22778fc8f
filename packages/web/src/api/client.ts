/**
 * The one module that speaks HTTP: typed reads of the bench-bounty API and the indexer.
 * Errors are {@link ApiError} carrying the API's `{error: {code, message, details}}` (or the door's
 * `reason`), so pages can say what the server said.
 *
 * @packageDocumentation
 */
import type {
  BenchmarkDetail,
  BenchmarkSummary,
  IndexedBounty,
  Leaderboard,
  VerificationRecord,
} from "./types.js";
import type { TaskScores } from "./task-scores.js";
import { joinRoute } from "@bench-bounty/verifier/url";

/** Benchmarks per page of the list page (the server's default page). */
export const BENCHMARKS_PAGE = 100;

/** Rows per page of the leaderboard page (the server's default page; it allows up to 10,000). */
export const LEADERBOARD_PAGE = 100;

/** A non-2xx answer or an unreachable API. */
export class ApiError extends Error {
  constructor(
    /** HTTP status (0 when the request did not get an answer). */
    readonly status: number,
    /** The API's error code (`not_found`, `award_evidence_unavailable`, ...), or `network`. */
    readonly code: string,
    message: string,
    /**
     * The door's reason (SPEC 8's `not_awarded`, ..., or `awarded_elsewhere`: Awarded on-chain by an
     * award the service did not prepare, so no pack, ever), when it gave one; shown as it is.
     */
    readonly reason: string | null = null,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

async function request(url: string, headers: Record<string, string> = {}): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { ...headers, accept: "application/json" } });
  } catch (e) {
    throw new ApiError(0, "network", `cannot reach ${url}: ${(e as Error).message}`);
  }
  if (res.ok) return res;
  let code = "http_error";
  let message = `http ${res.status} from ${url}`;
  let reason: string | null = null;
  try {
    const body = (await res.json()) as { error?: { code?: unknown; message?: unknown; reason?: unknown } };
    if (typeof body.error?.code === "string") code = body.error.code;
    if (typeof body.error?.message === "string") message = body.error.message;
    if (typeof body.error?.reason === "string") reason = body.error.reason;
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e; // a non-JSON error body keeps the bare status
  }
  throw new ApiError(res.status, code, message, reason);
}

async function getJson<T>(url: string, headers?: Record<string, string>): Promise<T> {
  return (await (await request(url, headers)).json()) as T;
}

/**
 * One page of a paged API route (the list, a leaderboard, task-scores): `?offset=N&limit=L`, and the
 * answer with `next_offset` the offset of the next page, null on the last page and for a server that
 * sends none (one page). The one paging rule of the app's reads.
 */
async function getPage<T extends { next_offset?: number | null }>(
  url: string,
  offset: number,
  limit: number,
): Promise<T & { next_offset: number | null }> {
  const body = await getJson<T>(`${url}?offset=${offset}&limit=${limit}`);
  return { ...body, next_offset: typeof body.next_offset === "number" ? body.next_offset : null };
}

/** The exact bytes of a response (pack, report downloads). */
async function getBytes(url: string): Promise<Uint8Array> {
  return new Uint8Array(await (await request(url)).arrayBuffer());
}

/** Client of one API origin and, optionally, one indexer. */
export class Api {
  readonly v1: string;
  constructor(
    readonly origin: string,
    readonly indexerUrl: string | null,
  ) {
    this.v1 = `${origin.replace(/\/+$/, "")}/api/v1`;
  }

  private b(slug: string, tail = ""): string {
    return `${this.v1}/benchmarks/${encodeURIComponent(slug)}${tail}`;
  }

  /**
   * One page of the published and closed benchmarks (drafts are invisible), oldest first:
   * {@link BENCHMARKS_PAGE} from `offset` (probe16 A-F9: the list page read every page on first load;
   * it now reads the first and the next on demand). `next_offset` is null on the last page, and for a
   * server without it (one page). Accepts `{benchmarks}` or `{items}`.
   */
  async benchmarksPage(
    offset: number,
  ): Promise<{ benchmarks: BenchmarkSummary[]; next_offset: number | null }> {
    const body = await getPage<{
      benchmarks?: BenchmarkSummary[];
      items?: BenchmarkSummary[];
      next_offset?: number | null;
    }>(`${this.v1}/benchmarks`, offset, BENCHMARKS_PAGE);
    return { benchmarks: body.benchmarks ?? body.items ?? [], next_offset: body.next_offset };
  }

  benchmark(slug: string): Promise<BenchmarkDetail> {
    return getJson(this.b(slug));
  }

  /**
   * One page of the board: {@link LEADERBOARD_PAGE} rows in rank order from `offset`, with
   * `total_rows` (when the API sends it) and `next_offset` (null on the last page, and for a server
   * without it). probe19 A-F4: the page read the server's default page only and said nothing of the
   * rest; it now reads the first and the next on demand, as the list does.
   */
  leaderboardPage(slug: string, offset: number): Promise<Leaderboard & { next_offset: number | null }> {
    return getPage<Leaderboard>(this.b(slug, "/leaderboard"), offset, LEADERBOARD_PAGE);
  }

  /**
   * Per-task credit of the finalized runs `runIds` (the ranked rows shown: at most a board page,
   * {@link LEADERBOARD_PAGE}), regraded by the server: `GET .../task-scores?run_ids=...`, asked again
   * for the ids an answer left (`next_offset`: a large bank's cell bound holds fewer runs an answer), so
   * the credits are those of exactly the rows shown (probe20 F1: pages read from offset 0 in start order
   * missed most rows of a large bank). The answer's `runs` are the ones found (a row whose run is not
   * among them is shown as not served). Served once the benchmark has closed (SPEC 6.1); a `buyer_only`
   * board's to its author only.
   */
  async taskScores(slug: string, runIds: readonly string[]): Promise<TaskScores> {
    if (runIds.length === 0)
      return { ...(await getPage<TaskScores>(this.b(slug, "/task-scores"), 0, 1)), runs: [] };
    const runs: TaskScores["runs"] = [];
    let left = runIds;
    let answer: TaskScores;
    do {
      const ids = left.map(encodeURIComponent).join(",");
      answer = await getJson<TaskScores>(`${this.b(slug, "/task-scores")}?run_ids=${ids}`);
      runs.push(...answer.runs);
      // each answer covers at least one id (the server's rule); anything else ends the asking
      const next = answer.next_offset;
      left = typeof next === "number" && next > 0 ? left.slice(next) : [];
    } while (left.length > 0);
    return { ...answer, runs };
  }

  /** URL of the award evidence pack at the door (SPEC 8). */
  packUrl(slug: string): string {
    return this.b(slug, "/award-evidence");
  }

  /** The pack as served: the exact bytes. */
  packBytes(slug: string): Promise<Uint8Array> {
    return getBytes(this.packUrl(slug));
  }

  /** The stored verification of the pack (verifier worker). */
  verification(slug: string): Promise<VerificationRecord> {
    return getJson(this.b(slug, "/verification"));
  }

  /** The stored report as served: the exact bytes. */
  reportBytes(slug: string, record: VerificationRecord): Promise<Uint8Array> {
    const url = record.report_url
      ? new URL(record.report_url, this.origin.replace(/\/+$/, "") + "/").toString()
      : this.b(slug, "/verification/report");
    return getBytes(url);
  }

  /** The indexer's view of a bounty (claims, outstanding credit), or null when no indexer is configured. */
  async indexedBounty(bountyId: string): Promise<IndexedBounty | null> {
    if (this.indexerUrl === null) return null;
    // the route joins the indexer URL's path, before its query (`?token=`; probe10 R3), the one rule
    // of the verifier and the server's worker
    const { url, headers } = joinRoute(this.indexerUrl, `/bounties/${encodeURIComponent(bountyId)}`);
    return getJson(url, headers);
  }
}
