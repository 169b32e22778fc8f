/**
 * The runner's remote backend: {@link HttpRunBackend} implements the platform's `RunBackend` over the
 * HTTP API with `@bench-bounty/client`, so `bench-bounty run SLUG --server URL --api-key KEY --agent CMD`
 * competes like a stranger's agent (same agent protocol, progress, timeouts, checkpoints, resume).
 * {@link HttpAccountKeys} is `account keys | issue-key | revoke --server URL --api-key KEY`'s.
 * A refusal of the server becomes the PlatformError of the same code, so the runner treats it exactly
 * as a local refusal (an `invalid_answers` marks the task invalid, a `run_in_progress` stops).
 */
import { ApiError, BenchBountyClient, MAX_REQUEST_BODY_BYTES, nextOffsetFollows } from "@bench-bounty/client";
import { urlOrigin } from "@bench-bounty/verifier/url";
import {
  AGENT_ID_RE,
  MAX_DATASET_ROWS,
  PlatformError,
  RUN_ID_PATTERN,
  redactRpc,
  type IssuedKey,
  type KeyListing,
  type FinalizeResult,
  type RunBackend,
  type RunView,
  type ServedTask,
  type StartedRun,
  type SubmitResult,
} from "@bench-bounty/platform";
import type { RemoteAccountKeys } from "@bench-bounty/platform/cli";

/** What the runner reads of one answer: the route (for the message) and the check of its shape. */
interface AnswerShape<T> {
  /** `GET /api/v1/benchmarks/runs/:id/tasks` (a template: no id or slug is printed). */
  route: string;
  /** What the answer must hold, in words (`run.id`, `tasks`). */
  what: string;
  ok: (answer: T) => boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
const isTaskList = (v: unknown): boolean =>
  Array.isArray(v) &&
  v.every((t) => isObject(t) && Number.isSafeInteger(t.ordinal) && typeof t.prompt === "string");
/**
 * A run's first page of tasks (a start's, a `tasks` read from offset 0): a task list of at most
 * `MAX_DATASET_ROWS` tasks whose ordinals are 0, 1, 2, ... in order (a run's ordinals are
 * `0..task_count-1`; probe38 B-F2: a repeated ordinal passed). The pages after it are checked alike by
 * the client's `restOfTasks`.
 */
const isFirstTaskPage = (v: unknown): boolean =>
  isTaskList(v) &&
  (v as unknown[]).length <= MAX_DATASET_ROWS &&
  (v as { ordinal: number }[]).every((t, i) => t.ordinal === i);

/**
 * The first page's `next_offset` follows its tasks (probe38 W-F4: a start answering tasks 0-1 with
 * `next_offset: 5` ran 0, 1, 5, 6 as the whole run): the client's {@link nextOffsetFollows} from ordinal 0.
 */
const followsFirstPage = (page: { tasks?: unknown; next_offset?: unknown }): boolean =>
  Array.isArray(page.tasks) && nextOffsetFollows(0, page.tasks.length, page.next_offset);

/**
 * A refusal of the server as the PlatformError of its code, and an answer without what the runner
 * reads (another server at `--server`, probeD2 F3: `Cannot read properties of undefined`, an internal
 * error) as `invalid_answer`; `server` (whose path may hold a key) by its origin only.
 */
async function viaApi<T>(p: Promise<T>, server: string, shape: AnswerShape<T>): Promise<T> {
  try {
    const answer = await p;
    if (!shape.ok(answer))
      throw new ApiError(
        0,
        "invalid_answer",
        `${shape.route} at ${urlOrigin(server)}: the answer has no ${shape.what}: not bench-bounty serve's API (check --server)`,
      );
    return answer;
  } catch (e) {
    if (e instanceof ApiError)
      throw new PlatformError(e.code as never, redactRpc(e.message, server), {
        ...e.details,
        http_status: e.status,
      });
    throw e;
  }
}

/**
 * The refusal of a read of a run's tasks that the runner's interrupt stopped (Ctrl-C, SIGTERM; probe38
 * B-F3): code `interrupted`, the run named in `details.run_id` with `attempt_used: false`, so the CLI prints
 * its `resume` line and exits 130.
 */
function interrupted(message: string, details: Record<string, unknown>): PlatformError {
  return new PlatformError("interrupted", message, details);
}

/** `GET /benchmarks/runs/:id/tasks`: the tasks and the ordinals already answered. */
const RUN_TASKS: AnswerShape<{
  tasks: ServedTask[];
  answered_ordinals: number[];
  next_offset?: number | null;
}> = {
  route: "GET /api/v1/benchmarks/runs/:id/tasks",
  what: "tasks (ordinal, prompt; ordinals 0, 1, ... in order) and answered_ordinals",
  ok: (a) =>
    isObject(a) &&
    isFirstTaskPage(a.tasks) &&
    followsFirstPage(a) &&
    Array.isArray(a.answered_ordinals) &&
    a.answered_ordinals.every((o) => Number.isSafeInteger(o)),
};

/** The pages of `GET /benchmarks/runs/:id/tasks?offset=` after the first: their tasks. */
const RUN_TASK_PAGES: AnswerShape<ServedTask[]> = {
  route: RUN_TASKS.route,
  what: "tasks (ordinal, prompt)",
  ok: isTaskList,
};

/**
 * `answers` cut, in order, into the fewest parts whose submission body (`{"answers": [...]}` as the
 * client sends it, UTF-8) is at most `maxBodyBytes`; an answer too large alone is a part of its own (the
 * server then refuses it: `body_too_large`). An empty list gives no part.
 * @param maxBodyBytes the server's body limit in bytes ({@link MAX_REQUEST_BODY_BYTES})
 */
export function submissionParts<T extends { ordinal: number; answer_text: string }>(
  answers: readonly T[],
  maxBodyBytes: number,
): T[][] {
  const envelope = Buffer.byteLength(JSON.stringify({ answers: [] }), "utf8");
  const parts: T[][] = [];
  let part: T[] = [];
  let bytes = envelope;
  for (const a of answers) {
    const item = Buffer.byteLength(
      JSON.stringify({ ordinal: a.ordinal, answer_text: a.answer_text }),
      "utf8",
    );
    if (part.length > 0 && bytes + item + 1 > maxBodyBytes) {
      parts.push(part);
      part = [];
      bytes = envelope;
    }
    bytes += part.length === 0 ? item : item + 1; // a comma between two items
    part.push(a);
  }
  if (part.length > 0) parts.push(part);
  return parts;
}

/** How many times a submit refused 503 `server_busy` is posted again ({@link HttpRunBackend.submit}). */
export const SUBMIT_RETRIES = 3;
/** The longest `Retry-After` a submit's retry waits, in seconds (a longer one is waited this long). */
export const SUBMIT_RETRY_CAP_SECONDS = 10;

/**
 * `RunBackend` over `bench-bounty serve`, acting as the holder of `apiKey`; its checkpoints and agent
 * logs go to `checkpointDir`, and its agents must not see `privatePaths` (the `--store` directory).
 */
export class HttpRunBackend implements RunBackend {
  private readonly client: BenchBountyClient;
  constructor(
    readonly server: string,
    apiKey: string,
    readonly checkpointDir: string,
    readonly privatePaths: readonly string[],
  ) {
    this.client = new BenchBountyClient({ baseUrl: server, apiKey });
  }
  get where(): string {
    return this.server;
  }
  /**
   * Starts the run and reads every task: the start's first page, then the rest from its `next_offset` on
   * (at most `MAX_DATASET_ROWS` tasks in all, ordinals 0, 1, ... in order: else `invalid_answer`, the
   * rest unread; probe38 B-F2).
   * @param signal stops the paging at once, its `Retry-After` waits too (probe38 B-F3): the run is
   *   started on the server by then, so the refusal is `interrupted` with `details.run_id`, `attempt` and
   *   `attempt_used: false` (no checkpoint is written: resume it with `--agent`, which adopts it)
   */
  async start(slug: string, agentId: string | undefined, signal?: AbortSignal): Promise<StartedRun> {
    // no agent named: the service starts the run as the account's default agent (probe39 A-N2)
    const body = agentId === undefined ? {} : { agent_id: agentId };
    const started = await viaApi(this.client.startRun(slug, body), this.server, {
      route: "POST /api/v1/benchmarks/:slug/runs",
      what: "run (id of the platform's form run-<16 hex>, agent_id (the one asked for, if any), attempt) and tasks (ordinal, prompt; ordinals 0, 1, ... in order)",
      ok: (a) =>
        isObject(a) &&
        isObject(a.run) &&
        // the id names the checkpoint file and the printed resume command: only the platform's form
        // (probe15 B-F1/F2/F3/F8: a hostile server's id wrote outside --store, ran in a pasted command)
        typeof a.run.id === "string" &&
        RUN_ID_PATTERN.test(a.run.id) &&
        // the agent the checkpoint records and the summary prints: an agent id, the one asked for
        typeof a.run.agent_id === "string" &&
        AGENT_ID_RE.test(a.run.agent_id) &&
        (agentId === undefined || a.run.agent_id === agentId) &&
        Number.isSafeInteger(a.run.attempt) &&
        isFirstTaskPage(a.tasks) &&
        followsFirstPage(a) &&
        (a.task_count === undefined || Number.isSafeInteger(a.task_count)),
    });
    const next = started.next_offset;
    const { id, attempt } = started.run;
    const rest = typeof next !== "number" ? [] : await this.restOfStart(id, attempt, next, signal);
    const tasks = [...started.tasks, ...rest];
    // the tasks read are the run's, as many as the start said (probe38 W-F4)
    if (typeof started.task_count === "number" && tasks.length !== started.task_count)
      throw new PlatformError(
        "invalid_answer" as never, // the client's code of an answer that is not the server's (as viaApi's)
        `POST ${urlOrigin(this.server)}/api/v1/benchmarks/:slug/runs: the start says task_count ${started.task_count}, its pages hold ${tasks.length} tasks: not bench-bounty serve's run\n` +
          `run ${id} was started (attempt ${attempt}) and no agent ran; it stays in progress and the attempt is not used up; once the cause is gone, continue it with`,
        { run_id: id, attempt, attempt_used: false, checkpoint: false },
      );
    return { run: started.run, tasks };
  }
  /** The pages of a start after its first (see {@link start}): an interrupt or a failure names the started run. */
  private async restOfStart(
    id: string,
    attempt: number,
    next: number,
    signal: AbortSignal | undefined,
  ): Promise<ServedTask[]> {
    return this.pages(id, next, signal, () =>
      interrupted(
        `run ${id} was started (attempt ${attempt}) and interrupted while its tasks were read, before any agent ran; ` +
          `it stays in progress and the attempt is not used up; continue it with`,
        { run_id: id, attempt, attempt_used: false },
      ),
    ).catch((e: unknown) => {
      // any other failure of the paging (the server unreachable, a malformed page, ...): the run is started on
      // the server and has no checkpoint here yet, so its id and the resume line that adopts it are said
      if (!(e instanceof PlatformError) || e.code === "interrupted") throw e;
      throw new PlatformError(
        e.code,
        `${e.message}\nrun ${id} was started (attempt ${attempt}) before its tasks could all be read, and no agent ran; ` +
          `it stays in progress and the attempt is not used up; once the cause is gone, continue it with`,
        { ...e.details, run_id: id, attempt, attempt_used: false, checkpoint: false },
      );
    });
  }
  /**
   * Every task of the run, page by page (checked as {@link start}'s).
   * @param signal stops the paging at once: `interrupted` with `details.run_id` and `attempt_used: false`
   */
  async tasks(runId: string, signal?: AbortSignal): Promise<ServedTask[]> {
    const stopped = () =>
      interrupted(
        `run ${runId} was interrupted while its tasks were read; it stays in progress; continue it with`,
        {
          run_id: runId,
          attempt_used: false,
        },
      );
    const first = await viaApi(this.client.runTasks(runId, 0, signal), this.server, RUN_TASKS).catch(
      (e: unknown) => {
        throw signal?.aborted ? stopped() : e;
      },
    );
    const next = first.next_offset;
    if (typeof next !== "number") return first.tasks;
    return [...first.tasks, ...(await this.pages(runId, next, signal, stopped))];
  }
  /**
   * The run's tasks from ordinal `from` on (the client's `restOfTasks`, at most `MAX_DATASET_ROWS` tasks
   * with the `from` read before); once `signal` aborts, `stopped()` is thrown instead of the client's `aborted`.
   */
  private async pages(
    runId: string,
    from: number,
    signal: AbortSignal | undefined,
    stopped: () => PlatformError,
  ): Promise<ServedTask[]> {
    try {
      return await viaApi(
        this.client.restOfTasks(runId, from, { maxTasks: MAX_DATASET_ROWS, ...(signal ? { signal } : {}) }),
        this.server,
        RUN_TASK_PAGES,
      );
    } catch (e) {
      if (signal?.aborted) throw stopped();
      throw e;
    }
  }
  async answeredOrdinals(runId: string): Promise<number[]> {
    return (await viaApi(this.client.runTasks(runId), this.server, RUN_TASKS)).answered_ordinals;
  }
  /**
   * `POST /benchmarks/runs/:id/submissions`, every answer of the batch in one request when its body fits
   * the server's limit ({@link MAX_REQUEST_BODY_BYTES}), else in the fewest requests that do, in order
   * ({@link submissionParts}; probe37 A-F3: one request per answer put tasks x round trips on the scored
   * wall clock). Each request stores its answers whole or not at all; a refusal of one stops there (the
   * earlier ones stored), as the PlatformError of its code. A 503 `server_busy` (the server stopping, a lock wait past
   * its deadline: "post it again") is posted again after its `Retry-After` (at most
   * {@link SUBMIT_RETRY_CAP_SECONDS} s), at most {@link SUBMIT_RETRIES} times: a submit stores the whole
   * batch or nothing, by idempotent upserts per ordinal, so the same answers posted again store the same
   * run (probe37 A-N4). Any other refusal, and the last 503, as the PlatformError of its code.
   */
  async submit(runId: string, answers: { ordinal: number; answer_text: string }[]): Promise<SubmitResult> {
    let result: SubmitResult | null = null;
    let accepted = 0;
    for (const part of submissionParts(answers, MAX_REQUEST_BODY_BYTES)) {
      result = await viaApi(
        this.retryBusy(() => this.client.submit(runId, part)),
        this.server,
        {
          route: "POST /api/v1/benchmarks/runs/:id/submissions",
          what: "object",
          ok: isObject,
        },
      );
      accepted += part.length;
    }
    return result === null ? { run_id: runId, accepted: 0, answered: 0, total: 0 } : { ...result, accepted };
  }
  /** `post()`, posted again after each 503 `server_busy`'s `Retry-After` (capped), at most {@link SUBMIT_RETRIES} times. */
  private async retryBusy<T>(post: () => Promise<T>): Promise<T> {
    for (let i = 0; ; i++) {
      try {
        return await post();
      } catch (e) {
        if (!(e instanceof ApiError) || e.status !== 503 || e.code !== "server_busy" || i >= SUBMIT_RETRIES)
          throw e;
        const seconds = Math.min(Math.max(e.retryAfter ?? 1, 1), SUBMIT_RETRY_CAP_SECONDS);
        await new Promise((r) => setTimeout(r, 1000 * seconds));
      }
    }
  }
  finalize(runId: string): Promise<FinalizeResult> {
    return viaApi(this.client.finalize(runId), this.server, {
      route: "POST /api/v1/benchmarks/runs/:id/finalize",
      what: "attempts_remaining",
      ok: (a) => isObject(a) && Number.isSafeInteger(a.attempts_remaining),
    });
  }
  run(runId: string): Promise<RunView> {
    return viaApi(this.client.run(runId), this.server, {
      route: "GET /api/v1/benchmarks/runs/:id",
      what: "status",
      ok: (a) => isObject(a) && typeof a.status === "string",
    });
  }
}

const isKeyList = (v: unknown): v is KeyListing[] =>
  Array.isArray(v) &&
  v.every(
    (k) =>
      isObject(k) &&
      typeof k.key_prefix === "string" &&
      typeof k.created_at === "string" &&
      (k.revoked_at === null || typeof k.revoked_at === "string"),
  );

/**
 * The caller's API keys on `bench-bounty serve` (`account keys | issue-key | revoke --server URL
 * --api-key KEY`), acting as the holder of `apiKey`, through the typed client; answers in the local
 * commands' shapes, a refusal as the PlatformError of the server's code (`too_many_keys`,
 * `last_active_key`, `unknown_key`, ...), an answer without what is read as `invalid_answer`.
 */
export class HttpAccountKeys implements RemoteAccountKeys {
  private readonly client: BenchBountyClient;
  constructor(
    readonly server: string,
    apiKey: string,
  ) {
    this.client = new BenchBountyClient({ baseUrl: server, apiKey });
  }
  /** `GET /api/v1/accounts/me`'s `keys`. */
  async keys(): Promise<KeyListing[]> {
    const me = await viaApi(this.client.me(), this.server, {
      route: "GET /api/v1/accounts/me",
      what: "keys (key_prefix, created_at, revoked_at)",
      ok: (a) => isObject(a) && isKeyList(a.keys),
    });
    return me.keys;
  }
  /** `POST /api/v1/accounts/me/keys`: the new key, as `account issue-key` prints it locally. */
  async issueKey(): Promise<IssuedKey> {
    const r = await viaApi(this.client.issueKey(), this.server, {
      route: "POST /api/v1/accounts/me/keys",
      what: "account.account_id, api_key and key_prefix",
      ok: (a) =>
        isObject(a) &&
        isObject(a.account) &&
        typeof a.account.account_id === "string" &&
        typeof a.api_key === "string" &&
        typeof a.key_prefix === "string",
    });
    return { account_id: r.account.account_id, key_prefix: r.key_prefix, api_key: r.api_key };
  }
  /** `DELETE /api/v1/accounts/me/keys/{key_prefix}`: the key's listing, as `account revoke` prints it locally. */
  async revokeKey(keyPrefix: string): Promise<KeyListing> {
    const account = await viaApi(this.client.revokeKey(keyPrefix), this.server, {
      route: "DELETE /api/v1/accounts/me/keys/:key_prefix",
      what: "keys listing the key revoked",
      ok: (a) => isObject(a) && isKeyList(a.keys) && a.keys.some((k) => k.key_prefix === keyPrefix),
    });
    return account.keys.find((k) => k.key_prefix === keyPrefix)!;
  }
}
