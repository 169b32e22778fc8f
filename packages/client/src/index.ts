/**
 * `@bench-bounty/client`: a typed client of the bench-bounty HTTP API (`bench-bounty serve`), for the
 * runner's remote mode, the demo, the web app and tests. It speaks `fetch` only; a refusal becomes an
 * {@link ApiError} carrying the server's `{code, message, details}` and the HTTP status.
 *
 * ```ts
 * const anon = new BenchBountyClient({ baseUrl: "http://127.0.0.1:8787" });
 * const { api_key } = await anon.register({ name: "my-agent" });
 * const me = anon.withKey(api_key);
 * const { run, tasks } = await me.startRun("cities-1a2b3c4d");
 * await me.submit(run.id, tasks.map((t) => ({ ordinal: t.ordinal, answer_text: "..." })));
 * const score = await me.finalize(run.id);
 * ```
 *
 * @packageDocumentation
 */

import { PACK_LIMITS } from "@bench-bounty/evidence";
import { AnswerTooLargeError, fetchWithin, readBodyWithin } from "@bench-bounty/verifier/body";
import { joinRoute, urlOrigin } from "@bench-bounty/verifier/url";
import type {
  AccountView,
  ErrorBody,
  AttachedBounty,
  AwardEvidenceResult,
  AwardResult,
  BenchmarkDetail,
  BenchmarkListItem,
  FinalizeResult,
  Leaderboard,
  PublishResult,
  RelayedClaim,
  Registration,
  RunView,
  RunsPage,
  ServedTask,
  StartedRun as StartedRunAll,
  submitAnswers,
  TaskScores,
  VerificationRecord,
} from "@bench-bounty/platform";

// The answers' shapes have one definition: the platform's, which the server serves as returned (its
// response types, and the account view the server builds). Type-only: nothing of the platform (nor its
// native SQLite binding) is loaded by this client at run time.
export type {
  AttachedBounty,
  AwardEvidenceResult,
  AwardResult,
  BenchmarkDetail,
  FinalizeResult,
  Leaderboard,
  PublishResult,
  RelayedClaim,
  Registration,
  RunView,
  RunsPage,
  TaskScores,
};
/** A task as served (never gold). */
export type Task = ServedTask;

/**
 * `POST /benchmarks/:slug/runs`: the run and the first page of its tasks (at most 4 MiB of them, the
 * server's `RUN_TASKS_PAGE_BYTES`); `next_offset` the ordinal of the next page
 * ({@link BenchBountyClient.restOfTasks}), null when `tasks` holds every task (absent from servers
 * before pages: every task).
 */
export type StartedRun = StartedRunAll & { task_count?: number; next_offset?: number | null };

/** `GET /benchmarks/runs/:id/tasks?offset=`: one page of a run's tasks and the ordinals answered so far. */
export interface RunTasksPage {
  run_id: string;
  tasks: Task[];
  answered_ordinals: number[];
  task_count?: number;
  offset?: number;
  /** The ordinal of the next page's first task; null (or absent) on the last page. */
  next_offset?: number | null;
}

/** The most times {@link BenchBountyClient.restOfTasks} waits out a 429 `rate_limited` per page. */
const PAGE_RETRIES = 10;

/** Options of {@link BenchBountyClient.restOfTasks}. */
export interface TaskPagesOptions {
  /**
   * The most tasks a run has, the tasks before `from` included: past it the answer is refused
   * (`invalid_answer`), nothing more read. The platform's `MAX_DATASET_ROWS` (a run has a task per row of
   * its test set; 100,000): the caller passes it, since this client loads nothing of the platform at run time.
   */
  maxTasks: number;
  /**
   * The most UTF-8 bytes of prompts the pages read may hold (default `PACK_LIMITS.maxTestSetBytes` of
   * `@bench-bounty/evidence`, the most a publish renders: probe38 W-F3, 100,000 tasks of 64 KiB prompts were
   * read to gigabytes): past it the answer is refused (`invalid_answer`), nothing more read.
   */
  maxPromptBytes?: number;
  /** Stops the paging at once, a page's request and a `Retry-After` wait too: {@link ApiError} `aborted`. */
  signal?: AbortSignal;
}
/** `POST /benchmarks/runs/:id/submissions`. */
export type SubmitResult = Awaited<ReturnType<typeof submitAnswers>>;
/** An item of `GET /benchmarks`. */
export type BenchmarkSummary = BenchmarkListItem;
/** An account as shown to its owner. */
export type Account = AccountView;

/** The error body of every refusal (one definition: the platform's). */
export type { ErrorBody };

/**
 * The most bytes of a JSON answer the client reads by default ({@link ClientOptions.maxAnswerBytes}):
 * 256 MiB, `PACK_LIMITS.maxTestSetBytes`. The largest legitimate JSON answer is a run's tasks (`POST
 * /benchmarks/:slug/runs`, `GET /benchmarks/runs/:id/tasks`): every prompt of the test set, less than
 * the test set's canonical bytes (no gold, no salt), which publishing keeps within that limit.
 */
export const MAX_ANSWER_BYTES: number = PACK_LIMITS.maxTestSetBytes;

/**
 * The most bytes of a request body `bench-bounty serve` takes on its ordinary routes (answers included:
 * `POST /benchmarks/runs/:id/submissions`): 4 MiB, the server's `DEFAULT_LIMITS.bodyBytes` (its test
 * checks they agree), past which it answers 413 `body_too_large`. The remote runner splits a batch's
 * answers into the fewest submissions within it.
 */
export const MAX_REQUEST_BODY_BYTES = 4 * 1024 * 1024;

/** The most bytes of a refusal's body (a non-2xx answer) the client reads: 1 MiB (the server's are a few KiB). */
export const MAX_ERROR_BYTES = 1024 * 1024;

/**
 * A refusal of the server; or, with status 0, a base URL that is not an http(s) URL or carries
 * userinfo (code `invalid_base_url`, thrown by the constructor) or a transport failure (code `network_error`) or
 * a request or wait the caller's `AbortSignal` stopped (code `aborted`); or
 * an answer of status 2xx that is not JSON (code `invalid_answer`: another server at the base URL); or an
 * answer longer than the client reads (code `answer_too_large`, `details: {http_status, limit_bytes,
 * option}`: the read stops at the limit, the rest is never buffered).
 * A message names the server by its origin and the route only, never the base URL's userinfo, path
 * or query.
 */
export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
    /** Seconds to wait (429), from `Retry-After`. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }
}

/** Options of {@link BenchBountyClient}. */
export interface ClientOptions {
  /**
   * `http://127.0.0.1:8787` (no trailing slash needed). Each route is joined after its path and
   * before its query (`https://proxy.example/bb/?token=T` is read as
   * `https://proxy.example/bb/api/v1/...?token=T`; the fragment is dropped): the verifier's
   * `joinRoute`, one rule for every base URL. Userinfo (`http://user:pw@host/`) is refused: fetch
   * would send it as `Authorization: Basic`, which bench-bounty serve answers 401 (its key is
   * {@link ClientOptions.apiKey}); `bench-bounty run --server` refuses it alike.
   */
  baseUrl: string;
  /** The API key, sent as `X-API-Key`. */
  apiKey?: string;
  /**
   * Per-request timeout in ms (default 30000), from the request's start to the last byte of its answer,
   * headers and body together: a server that drips its body is cut off at it (`network_error`).
   */
  timeoutMs?: number;
  /**
   * Most bytes of a JSON answer (and of the verification report) read, default
   * {@link MAX_ANSWER_BYTES} (256 MiB); past it the call fails with `answer_too_large`.
   */
  maxAnswerBytes?: number;
  /**
   * Most bytes of the door's pack ({@link BenchBountyClient.awardEvidence}) read, default
   * `PACK_LIMITS.maxPackBytes` (512 MiB: no verifier reads a larger pack); past it `answer_too_large`.
   */
  maxPackBytes?: number;
  /** `fetch` to use (default the global one). */
  fetch?: typeof fetch;
}

/** A page of a paged list: `offset` (0-based position, default 0), `limit` (rows: a board 1..10,000, the caller's runs 1..1,000; default 100). */
export interface BoardPage {
  offset?: number;
  limit?: number;
}

/** The query string of a page (empty for the default page). */
function pageQuery(page: BoardPage | undefined): string {
  const q = new URLSearchParams();
  if (page?.offset !== undefined) q.set("offset", String(page.offset));
  if (page?.limit !== undefined) q.set("limit", String(page.limit));
  const text = q.toString();
  return text ? `?${text}` : "";
}

/**
 * Whether a page's `next_offset` follows it: absent or null (the last page), or the offset right after
 * its items, which a page naming a next one must hold (an empty page naming a next one pages forever,
 * probe38 W-F2; a next offset past the page's end skips items, W-F4). The one rule of every paged
 * answer of the API (task pages, list pages, a start's first page).
 * @param offset the page's offset (ordinal or item index)
 * @param count the page's number of items
 * @param next the page's `next_offset` as answered (any JSON value)
 */
export function nextOffsetFollows(offset: number, count: number, next: unknown): boolean {
  return next === undefined || next === null || (count > 0 && next === offset + count);
}

/** The most items {@link everyPage} collects (100 pages of 1,000): past it, read with the page methods. */
export const MAX_LIST_ITEMS = 100_000;

/**
 * Every item of a paged list: `read` called with `{offset, limit: 1000}` from offset 0, then at each
 * page's `next_offset` until it is null (or absent); the items under `key` of each page, in order.
 * Bounded while paging (as the run's task pages, probe38 B-F2): each `next_offset` must be the offset
 * after the page's items, and at most {@link MAX_LIST_ITEMS} items are kept, so a server whose pages
 * never end costs a bounded amount of memory.
 * @throws ApiError `invalid_answer` (naming `where`) when a page is not a list, a `next_offset` does not
 *   follow its page, or the list passes {@link MAX_LIST_ITEMS} (`details.max_items`: read it page by page)
 */
async function everyPage<K extends string, T>(
  read: (page: { offset: number; limit: number }) => Promise<Record<K, T[]> & { next_offset: number | null }>,
  key: K,
  where: string,
): Promise<T[]> {
  const items: T[] = [];
  const malformed = (what: string, details: Record<string, unknown> = {}) =>
    new ApiError(0, "invalid_answer", `${where}: ${what}`, details);
  // a server that does not page (no `next_offset`) answers in one page
  for (let offset: number | null | undefined = 0; typeof offset === "number"; ) {
    const page = await read({ offset, limit: 1000 });
    const got = page[key];
    if (!Array.isArray(got)) throw malformed(`the page from offset ${offset} has no ${key} list`);
    const next = page.next_offset;
    if (!nextOffsetFollows(offset, got.length, next))
      throw malformed(
        `next_offset ${next} does not follow offset ${offset} and its ${got.length} items (the next page starts at ${offset + got.length})`,
      );
    if (items.length + got.length > MAX_LIST_ITEMS)
      throw malformed(
        `the list has more than ${MAX_LIST_ITEMS} items: read it page by page (the *Page methods)`,
        { max_items: MAX_LIST_ITEMS },
      );
    for (const item of got) items.push(item);
    offset = next;
  }
  return items;
}

const enc = encodeURIComponent;

/** The typed client. Every method throws {@link ApiError} on a refusal. */
export class BenchBountyClient {
  /** The base URL as given (its path or query may carry a key: print {@link urlOrigin} of it, never it). */
  readonly baseUrl: string;
  /**
   * @throws ApiError status 0, `invalid_base_url`, naming the option `baseUrl` (never its value, which
   *   may carry a password or a key), when `baseUrl` is not an absolute http(s) URL with a host; and
   *   with `details.part: "userinfo"` when it carries userinfo (probe14 D2-F17: sent as Basic auth,
   *   which the server answers 401); `invalid_option` naming `maxAnswerBytes` or `maxPackBytes` when
   *   one is not a positive integer
   */
  constructor(private readonly opts: ClientOptions) {
    let u: URL | null;
    try {
      u = new URL(opts.baseUrl);
    } catch (e) {
      if (!(e instanceof TypeError)) throw e; // TypeError: not a URL at all
      u = null;
    }
    if (u === null || (u.protocol !== "http:" && u.protocol !== "https:") || u.hostname === "")
      throw new ApiError(
        0,
        "invalid_base_url",
        "baseUrl must be an absolute http:// or https:// URL (the value given is not printed: it may carry a key)",
        { field: "baseUrl" },
      );
    if (u.username !== "" || u.password !== "")
      throw new ApiError(
        0,
        "invalid_base_url",
        `baseUrl must not carry userinfo (${u.origin}: bench-bounty serve takes no Basic auth; the API key is ` +
          `apiKey, sent as X-API-Key; the value given is not printed)`,
        { field: "baseUrl", part: "userinfo" },
      );
    for (const option of ["maxAnswerBytes", "maxPackBytes"] as const) {
      const v = opts[option];
      if (v !== undefined && !(Number.isSafeInteger(v) && v > 0))
        throw new ApiError(
          0,
          "invalid_option",
          `${option} must be a positive integer number of bytes, got ${String(v)}`,
          { field: option },
        );
    }
    this.baseUrl = opts.baseUrl;
  }

  /** The same client with another key. */
  withKey(apiKey: string): BenchBountyClient {
    return new BenchBountyClient({ ...this.opts, apiKey });
  }

  /** One request; JSON in and out. */
  async request<T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
    signal?: AbortSignal,
  ): Promise<T> {
    const res = await this.raw(method, path, body, headers, signal);
    const text = await this.text(res, method, path, signal);
    if (!res.ok) throw errorOf(res, text);
    if (text === "") return null as T;
    const answer = safeJson(text);
    if (answer === null && text.trim() !== "null")
      throw new ApiError(
        0,
        "invalid_answer",
        `${method} ${urlOrigin(this.baseUrl)}${routeOf(path)}: http ${res.status} with an answer that is not JSON: ` +
          `not bench-bounty serve's API (check the base URL)`,
        { http_status: res.status },
      );
    return answer as T;
  }

  /**
   * Reads an answer's body within its limit: a refusal's (non-2xx) within {@link MAX_ERROR_BYTES},
   * else within the `option`'s (probe14 D2-F13: a server could make the client buffer any amount).
   * @throws ApiError `answer_too_large` (`details: {http_status, limit_bytes, option}`) past the
   *   limit, the rest unread; `network_error` for a failure while reading (the timeout, a cut
   *   connection), naming the origin and the route like a failure before the headers (probeD2 F13);
   *   `aborted` when `signal` (the one the request was made with) aborted the read
   */
  private async bytes(
    res: Response,
    method: string,
    path: string,
    option: "maxAnswerBytes" | "maxPackBytes" = "maxAnswerBytes",
    signal?: AbortSignal,
  ): Promise<Uint8Array> {
    const [limit, name] = !res.ok
      ? [MAX_ERROR_BYTES, "(error body)"]
      : option === "maxPackBytes"
        ? [this.opts.maxPackBytes ?? PACK_LIMITS.maxPackBytes, option]
        : [this.opts.maxAnswerBytes ?? MAX_ANSWER_BYTES, option];
    const where = `${method} ${urlOrigin(this.baseUrl)}${routeOf(path)}`;
    try {
      return await readBodyWithin(res, limit, "answer");
    } catch (e) {
      if (e instanceof AnswerTooLargeError)
        throw new ApiError(
          0,
          "answer_too_large",
          `${where}: the answer is ${
            e.declared === null ? "more than" : `${e.declared} bytes, more than`
          } the client's limit of ${limit} bytes (${name === "(error body)" ? `a refusal's body, http ${res.status}` : name}${
            e.declared === null ? "; refused while reading, the rest not read" : ""
          }): not an answer of bench-bounty serve (check the base URL)`,
          { http_status: res.status, limit_bytes: limit, option: name },
        );
      if (signal?.aborted) throw abortedError(where);
      throw new ApiError(
        0,
        "network_error",
        `${where}: reading the answer failed: ${transportFailure(e, "", this.opts.apiKey)}`,
      );
    }
  }

  /** {@link bytes} as UTF-8 text (a malformed sequence becomes U+FFFD, as `Response.text()` does). */
  private async text(res: Response, method: string, path: string, signal?: AbortSignal): Promise<string> {
    return new TextDecoder().decode(await this.bytes(res, method, path, "maxAnswerBytes", signal));
  }

  /**
   * One request, the Response as is (the door's bytes, 304s). A redirect is never followed (the API
   * key would go to whatever origin it names, probeD2 F19): a 3xx is returned as it is, and
   * {@link request} refuses it naming the Location's origin. Its body is not read: a caller reading
   * it bounds the read itself (the methods of this client read within {@link ClientOptions.maxAnswerBytes}).
   * The whole exchange, headers and body, ends within {@link ClientOptions.timeoutMs}: past it the body
   * errors with the verifier's `AnswerTimeoutError` (`@bench-bounty/verifier/body`, `fetchWithin`).
   * `signal` aborts the exchange, its body too: {@link ApiError} `aborted` (status 0).
   */
  async raw(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
    signal?: AbortSignal,
  ): Promise<Response> {
    // the route after the base's path, before its query (probeD2 F3: the route was appended to the
    // whole base, after its query or into its fragment); the constructor refused userinfo
    const joined = joinRoute(this.baseUrl, path);
    const h: Record<string, string> = { ...headers };
    if (this.opts.apiKey) h["x-api-key"] = this.opts.apiKey;
    if (body !== undefined) h["content-type"] = "application/json";
    try {
      // the timeout runs to the body's last byte (fetchWithin: a dripped body is cut off at it, and
      // a garbage collection cannot lose it as it lost AbortSignal.timeout's, probe27 B-F6)
      return await fetchWithin(
        joined.url,
        {
          method,
          headers: h,
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          redirect: "manual",
        },
        { what: "answer", timeoutMs: this.opts.timeoutMs ?? 30_000, ...(signal ? { signal } : {}) },
        this.opts.fetch ?? fetch,
      );
    } catch (e) {
      if (signal?.aborted) throw abortedError(`${method} ${urlOrigin(this.baseUrl)}${routeOf(path)}`);
      throw new ApiError(
        0,
        "network_error",
        `${method} ${urlOrigin(this.baseUrl)}${routeOf(path)}: ${transportFailure(e, joined.url, this.opts.apiKey)}`,
      );
    }
  }

  register(
    input: { name?: string; agent_id?: string; withdrawal_address?: string } = {},
  ): Promise<Registration> {
    return this.request("POST", "/api/v1/accounts", input);
  }
  me(): Promise<Account> {
    return this.request("GET", "/api/v1/accounts/me");
  }
  setWithdrawalAddress(address: string): Promise<Account> {
    return this.request("PUT", "/api/v1/accounts/me/withdrawal-address", { withdrawal_address: address });
  }
  registerAgent(agentId: string, opts: { is_author_agent?: boolean } = {}): Promise<Account> {
    return this.request("POST", "/api/v1/accounts/me/agents", { agent_id: agentId, ...opts });
  }
  /**
   * Issues one more API key for the caller's account (`POST /api/v1/accounts/me/keys`, no body): the
   * account (its `keys[]` listing the new one) and the new key, `api_key`, in this answer only (the server
   * keeps its hash). An account holds at most 20 active keys (`MAX_ACTIVE_KEYS`).
   * @throws ApiError 409 `too_many_keys` (`details.max_active_keys`: revoke one first), 403 `forbidden`
   *   for the operator key (it has no account keys), 401 `unauthenticated` without a key
   */
  issueKey(): Promise<Registration> {
    return this.request("POST", "/api/v1/accounts/me/keys");
  }
  /**
   * Revokes one of the caller's keys by its prefix as `me().keys[].key_prefix` lists it (`DELETE
   * /api/v1/accounts/me/keys/{key_prefix}`, the segment encoded; idempotent): the account, the key listed
   * with its `revoked_at`. The key in use may go while another is active. Give the prefix, never the whole
   * key: a URL is logged, and the server refuses a whole key (422).
   * @throws ApiError 404 `unknown_key` (not one of the caller's keys: `details.key_prefix`; not a prefix:
   *   `details.field`), 409 `last_active_key` (issue a key first), 422 `invalid_request` for a whole key
   *   (`details.field: "key_prefix"`), 403 for the operator key, 401 without a key
   */
  revokeKey(keyPrefix: string): Promise<Account> {
    return this.request("DELETE", `/api/v1/accounts/me/keys/${enc(keyPrefix)}`);
  }

  /** One page of the benchmark list, oldest first (`offset` default 0, `limit` 1..1,000, default 100). */
  listBenchmarksPage(
    page?: BoardPage,
  ): Promise<{ benchmarks: BenchmarkSummary[]; offset: number; limit: number; next_offset: number | null }> {
    return this.request("GET", `/api/v1/benchmarks${pageQuery(page)}`);
  }
  /**
   * Every benchmark, oldest first: the pages of {@link listBenchmarksPage} followed by `next_offset`.
   * @throws ApiError as each page's request; `invalid_answer` past {@link MAX_LIST_ITEMS} or for pages that
   *   do not follow each other
   */
  async listBenchmarks(): Promise<{ benchmarks: BenchmarkSummary[] }> {
    return {
      benchmarks: await everyPage(
        (page) => this.listBenchmarksPage(page),
        "benchmarks",
        `GET ${urlOrigin(this.baseUrl)}/api/v1/benchmarks`,
      ),
    };
  }
  benchmark(slug: string): Promise<BenchmarkDetail> {
    return this.request("GET", `/api/v1/benchmarks/${enc(slug)}`);
  }
  corpus(slug: string): Promise<{ slug: string; documents: unknown[]; note?: string }> {
    return this.request("GET", `/api/v1/benchmarks/${enc(slug)}/corpus`);
  }
  /** One page of the board (default: the first 100 rows; follow `next_offset` for the rest). */
  leaderboard(slug: string, page?: BoardPage): Promise<Leaderboard> {
    return this.request("GET", `/api/v1/benchmarks/${enc(slug)}/leaderboard${pageQuery(page)}`);
  }
  /** The commitment; `commit_root` is null while its anchor is pending (shown once anchored). */
  commitment(
    slug: string,
  ): Promise<{ slug: string; commit_root: string | null; leaf_count: number; commitment_anchor: unknown }> {
    return this.request("GET", `/api/v1/benchmarks/${enc(slug)}/commitment`);
  }
  receipt(slug: string, runId: string): Promise<{ receipt: unknown; receipt_hash: string }> {
    return this.request("GET", `/api/v1/benchmarks/${enc(slug)}/runs/${enc(runId)}/receipt`);
  }
  /**
   * One page of per-task credit of the finalized runs, regraded (default the first 100 runs, lowered so
   * that runs x tasks <= 20,000: the answer's `limit`; follow `next_offset` for the rest). Served once
   * closed; the author at any time; a `buyer_only` board: the author only.
   * @throws ApiError 404 `task_scores_withheld`, 403 `forbidden`, 422 `invalid_option` (`offset`, `limit`)
   */
  taskScores(slug: string, page?: BoardPage): Promise<TaskScores> {
    return this.request("GET", `/api/v1/benchmarks/${enc(slug)}/task-scores${pageQuery(page)}`);
  }
  /**
   * The door's answer as the platform gives it: `{kind: "pack", bytes, pack_hash, pack_size}` (the hash
   * from the ETag, the size in bytes), or `{kind: "unavailable", reason, message}` with the SPEC 8 reason while there is none (a 404,
   * or the 503 `pack_pending` while a confirmed award's pack is minted). Any other refusal throws;
   * a pack over {@link ClientOptions.maxPackBytes} throws `answer_too_large`, the rest unread.
   */
  async awardEvidence(slug: string): Promise<AwardEvidenceResult> {
    const path = `/api/v1/benchmarks/${enc(slug)}/award-evidence`;
    const res = await this.raw("GET", path);
    if (res.status === 200) {
      const bytes = await this.bytes(res, "GET", path, "maxPackBytes");
      return {
        kind: "pack",
        bytes,
        pack_hash: (res.headers.get("etag") ?? "").replace(/"/g, "") as `0x${string}`,
        pack_size: bytes.byteLength,
      };
    }
    const text = await this.text(res, "GET", path);
    const body = safeJson(text) as Partial<AwardEvidenceRefusal> | null;
    const e = body?.error;
    if (e?.code === "award_evidence_unavailable" && typeof e.reason === "string")
      return {
        kind: "unavailable",
        reason: e.reason,
        message: e.message ?? "",
        ...(e.details && typeof e.details === "object" ? { details: e.details } : {}),
      };
    throw errorOf(res, text);
  }

  startRun(slug: string, opts: { agent_id?: string } = {}): Promise<StartedRun> {
    return this.request("POST", `/api/v1/benchmarks/${enc(slug)}/runs`, opts);
  }
  submit(runId: string, answers: { ordinal: number; answer_text: string }[]): Promise<SubmitResult> {
    return this.request("POST", `/api/v1/benchmarks/runs/${enc(runId)}/submissions`, { answers });
  }
  finalize(runId: string): Promise<FinalizeResult> {
    return this.request("POST", `/api/v1/benchmarks/runs/${enc(runId)}/finalize`);
  }
  run(runId: string): Promise<RunView> {
    return this.request("GET", `/api/v1/benchmarks/runs/${enc(runId)}`);
  }
  /**
   * One page of the tasks of the caller's run from ordinal `offset` (default 0) on, and the ordinals answered.
   * @param signal aborts the request (its answer's body too): {@link ApiError} `aborted`
   */
  runTasks(runId: string, offset = 0, signal?: AbortSignal): Promise<RunTasksPage> {
    return this.request(
      "GET",
      `/api/v1/benchmarks/runs/${enc(runId)}/tasks${offset === 0 ? "" : `?offset=${offset}`}`,
      undefined,
      {},
      signal,
    );
  }
  /**
   * The tasks of the caller's run from ordinal `from` to the last, page by page (`runTasks` while
   * `next_offset` is a number): what a start's `next_offset` (or a first page's) leaves to read. The
   * tasks read before, ordinals `0..from-1`, count against `opts.maxTasks`. A 429 `rate_limited` (the
   * answer bytes' charge, `Retry-After`) is waited out, at most 10 times per page. A run's task ordinals
   * are `0..task_count-1` in order, so each page must hold the ordinals from its offset on, one after
   * the other, and name the next as its `next_offset`; the total is bounded while paging, so a server
   * whose pages never end costs at most `opts.maxTasks` tasks of memory (probe38 B-F2).
   * @throws ApiError as `runTasks`; `invalid_answer` (naming the route and the origin) when a page does
   *   not start at the offset asked, holds an ordinal that repeats, goes back or skips (`details.ordinal`),
   *   names a `next_offset` that is not the ordinal after its last task, or would make the run more
   *   than `opts.maxTasks` tasks (`details.max_tasks`: nothing past it is read); `aborted` once
   *   `opts.signal` aborts (a page's request and a `Retry-After` wait stop at once; probe38 B-F3)
   */
  async restOfTasks(runId: string, from: number, opts: TaskPagesOptions): Promise<Task[]> {
    const { maxTasks, signal } = opts;
    const maxPromptBytes = opts.maxPromptBytes ?? PACK_LIMITS.maxTestSetBytes;
    let promptBytes = 0;
    const where = `GET ${urlOrigin(this.baseUrl)}/api/v1/benchmarks/runs/:id/tasks`;
    const malformed = (what: string, details: Record<string, unknown> = {}) =>
      new ApiError(0, "invalid_answer", `${where}: ${what}: not bench-bounty serve's run tasks`, details);
    if (from > maxTasks)
      throw malformed(`the run has more than ${maxTasks} tasks (the most a run has)`, {
        max_tasks: maxTasks,
      });
    const out: Task[] = [];
    let offset: number | null = from;
    while (offset !== null) {
      const at: number = offset;
      const page = await this.withRetries(() => this.runTasks(runId, at, signal), signal, where);
      const next = page.next_offset ?? null;
      if (!Array.isArray(page.tasks)) throw malformed(`the page from offset ${at} has no tasks list`);
      // the run's total, checked before the page is kept: nothing past it is held
      if (from + out.length + page.tasks.length > maxTasks)
        throw malformed(`the run has more than ${maxTasks} tasks (the most a run has)`, {
          max_tasks: maxTasks,
        });
      for (const [i, t] of page.tasks.entries()) {
        const ordinal = (t as { ordinal?: unknown } | null)?.ordinal;
        if (ordinal !== at + i)
          throw malformed(
            `the page from offset ${at} has ordinal ${JSON.stringify(ordinal) ?? "(none)"} at tasks[${i}], ` +
              `not ${at + i} (an ordinal that repeats, goes back or skips)`,
            { offset: at, index: i, ordinal: ordinal ?? null },
          );
      }
      if (!nextOffsetFollows(at, page.tasks.length, next))
        throw malformed(
          `next_offset ${String(next)} does not follow offset ${at} and its ${page.tasks.length} tasks ` +
            `(the next page starts at ordinal ${at + page.tasks.length})`,
        );
      // the prompts' bytes, checked before the page is kept (probe38 W-F3)
      for (const t of page.tasks) {
        const prompt = (t as { prompt?: unknown }).prompt;
        if (typeof prompt === "string") promptBytes += Buffer.byteLength(prompt);
      }
      if (promptBytes > maxPromptBytes)
        throw malformed(
          `the run's prompts pass ${maxPromptBytes} bytes (the most a published test set renders)`,
          {
            max_prompt_bytes: maxPromptBytes,
          },
        );
      for (const t of page.tasks) out.push(t);
      offset = next;
    }
    return out;
  }
  /**
   * `read()`, waiting out each 429 `rate_limited` by its `Retry-After` (at most {@link PAGE_RETRIES}
   * times); `signal` ends a wait at once. @throws ApiError `aborted` (naming `where`) once `signal` aborts
   */
  private async withRetries<T>(
    read: () => Promise<T>,
    signal: AbortSignal | undefined,
    where: string,
  ): Promise<T> {
    for (let i = 0; ; i++) {
      try {
        return await read();
      } catch (e) {
        if (!(e instanceof ApiError) || e.code !== "rate_limited" || i >= PAGE_RETRIES) throw e;
        await abortableSleep(1000 * Math.min(Math.max(e.retryAfter ?? 1, 1), 60), signal, where);
      }
    }
  }
  /** One page of the caller's runs, newest first (`offset` default 0, `limit` 1..1,000, default 100). */
  runsMinePage(page?: BoardPage): Promise<RunsPage> {
    return this.request("GET", `/api/v1/benchmarks/runs/mine${pageQuery(page)}`);
  }
  /**
   * Every run of the caller, newest first: the pages of {@link runsMinePage} followed by `next_offset`
   * (1,000 runs a request). @throws ApiError as each page's request; `invalid_answer` past
   * {@link MAX_LIST_ITEMS} or for pages that do not follow each other
   */
  async runsMine(): Promise<{ runs: RunView[] }> {
    return {
      runs: await everyPage(
        (page) => this.runsMinePage(page),
        "runs",
        `GET ${urlOrigin(this.baseUrl)}/api/v1/benchmarks/runs/mine`,
      ),
    };
  }

  validateDataset(
    dataset: unknown,
  ): Promise<{ ok: boolean; row_count: number; content_hash: string | null; errors: unknown[] }> {
    return this.request("POST", "/api/v1/datasets/validate", dataset);
  }
  datasetFormats(): Promise<Record<string, unknown>> {
    return this.request("GET", "/api/v1/datasets/formats");
  }
  createDataset(dataset: unknown): Promise<{
    dataset_id: string;
    name: string;
    content_hash: string;
    row_count: number;
    created_at: string;
  }> {
    return this.request("POST", "/api/v1/datasets", dataset);
  }
  /**
   * Publishes the dataset's benchmark (its owner only): the detail plus the publication
   * (`PublishResult`: `dataset_id`, `disclosure`, `duplicate_prompts` for the author only, ...).
   */
  publish(datasetId: string, options: Record<string, unknown>): Promise<BenchmarkDetail & PublishResult> {
    return this.request("POST", `/api/v1/datasets/${enc(datasetId)}/benchmark`, options);
  }
  /**
   * Attaches an on-chain bounty to the benchmark (`POST /benchmarks/:slug/bounty`): its author, or the
   * operator naming the bounty's on-chain `author` (required of anyone but the benchmark's author: 422
   * naming `author` without it, 409 `bounty_mismatch` for another address). A bounty whose award window
   * is under 3600 s is refused 422 `award_window_too_short` (probe38 C-F1).
   */
  attachBounty(
    slug: string,
    input: { bounty_id: string; author?: string; pool_base_units?: string },
  ): Promise<AttachedBounty> {
    return this.request("POST", `/api/v1/benchmarks/${enc(slug)}/bounty`, input);
  }
  award(slug: string): Promise<AwardResult> {
    return this.request("POST", `/api/v1/benchmarks/${enc(slug)}/award`);
  }

  /** The stored verification of the award pack (404 `verification_unavailable` before a pack). */
  verification(slug: string): Promise<Verification> {
    return this.request("GET", `/api/v1/benchmarks/${enc(slug)}/verification`);
  }
  /** The stored verification report's exact bytes (404 `verification_pending` before one is stored). */
  async verificationReport(slug: string): Promise<Uint8Array> {
    const path = `/api/v1/benchmarks/${enc(slug)}/verification/report`;
    const res = await this.raw("GET", path);
    if (!res.ok) throw errorOf(res, await this.text(res, "GET", path));
    return this.bytes(res, "GET", path);
  }
  /** Queues a verification again (the benchmark's author or the operator; 202). */
  requestVerification(slug: string): Promise<Verification> {
    return this.request("POST", `/api/v1/benchmarks/${enc(slug)}/verification`);
  }
  /** One page of the board as `gaos.leaderboard-entry.v2` rows (paged like {@link leaderboard}). */
  entries(
    slug: string,
    page?: BoardPage,
  ): Promise<{
    schema: "gaos.leaderboard-entry.v2";
    entries: Record<string, unknown>[];
    total_rows: number;
    offset: number;
    limit: number;
    next_offset: number | null;
  }> {
    return this.request("GET", `/api/v1/benchmarks/${enc(slug)}/entries${pageQuery(page)}`);
  }
  /**
   * Relays a winner's signed claim (SPEC 1.1 `claimWithSig`): the operator's signer pays the gas.
   * `deadline` in unix seconds; `signature` over `Claim(bountyId, account, to, nonces(account), deadline)`.
   */
  relayClaim(
    slug: string,
    claim: { account: string; to: string; deadline: string | bigint; signature: string },
  ): Promise<RelayedClaim> {
    return this.request("POST", `/api/v1/benchmarks/${enc(slug)}/claims/relay`, {
      ...claim,
      deadline: claim.deadline.toString(),
    });
  }
}

/** `GET /benchmarks/:slug/verification`: the job and, once stored, the report's facts (SPEC 9). */
export type Verification = VerificationRecord;

/** The door's refusal body: code `award_evidence_unavailable` and the SPEC 8 reason. */
interface AwardEvidenceRefusal {
  error: {
    code: string;
    message?: string;
    reason: Extract<AwardEvidenceResult, { kind: "unavailable" }>["reason"];
    /** The reason's facts (`awarded_elsewhere`: `award_tx`, `award_block`, the digests), `reason` too. */
    details?: Record<string, unknown>;
  };
}

/** The {@link ApiError} `aborted` of a request (or a wait) the caller's signal stopped, naming `where` (method, origin, route). */
function abortedError(where: string): ApiError {
  return new ApiError(0, "aborted", `${where}: stopped: the caller aborted (an interrupt)`);
}

/**
 * Waits `ms` milliseconds, or until `signal` aborts.
 * @throws ApiError `aborted` (naming `where`) when `signal` aborts, at once (already aborted: without waiting)
 */
function abortableSleep(ms: number, signal: AbortSignal | undefined, where: string): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortedError(where));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError(where));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** A route without its query (a query may carry a value the caller did not mean to print). */
function routeOf(path: string): string {
  return path.split("?")[0]!;
}

/**
 * What went wrong in a fetch, without the URL: fetch's own message may quote the whole URL (`Failed
 * to parse URL from http://user:pw@...`, probeD2 F2), so a message that holds it is not shown.
 */
function transportFailure(e: unknown, url: string, apiKey: string | undefined): string {
  const message = e instanceof Error ? e.message : String(e);
  if ((url !== "" && message.includes(url)) || /parse URL/i.test(message)) return "the URL cannot be fetched";
  // undici quotes a header value it refuses: the key is never printed (probeD2 F24)
  if (apiKey !== undefined && apiKey !== "" && message.includes(apiKey))
    return "the API key holds a character that cannot be sent in a header (the key is not printed)";
  const cause = e instanceof Error ? (e.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === "string" ? `${message} (${cause.code})` : message;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    if (e instanceof SyntaxError) return null; // a body that is not JSON (a proxy's HTML page)
    throw e;
  }
}

function errorOf(res: Response, text: string): ApiError {
  if ([301, 302, 303, 307, 308].includes(res.status)) {
    const location = res.headers.get("location");
    const origin = location === null ? "(no Location)" : urlOrigin(location);
    return new ApiError(
      res.status,
      "redirect_refused",
      `HTTP ${res.status} redirects to ${origin === "(not a URL)" ? "another path" : origin}: ` +
        `not followed, so the API key is never sent to another URL (give the base URL the server answers at)`,
    );
  }
  const body = safeJson(text) as Partial<ErrorBody> | null;
  const retry = res.headers.get("retry-after");
  const e = body?.error;
  return new ApiError(
    res.status,
    e?.code ?? `http_${res.status}`,
    e?.message ?? `HTTP ${res.status}`,
    e?.details ?? {},
    retry !== null && /^\d+$/.test(retry) ? Number(retry) : null,
  );
}
