/**
 * The MCP tools (seed "Compete on Benchmarks", fast path): each is a thin call into the same
 * {@link Domain} functions as the REST routes, so no rule exists twice. Results are structured content
 * plus a short text; a refusal is a tool error whose structured content is the REST body
 * `{error: {code, message, details}}`.
 */
import {
  BENCHMARKS_PAGE_MAX,
  BENCHMARKS_PAGE_SIZE,
  BOARD_PAGE_MAX,
  BOARD_PAGE_SIZE,
  RUNS_PAGE_MAX,
  RUNS_PAGE_SIZE,
  MAX_ACTIVE_KEYS,
  MAX_TASK_SCORE_CELLS,
  TASK_SCORES_IDS_MAX,
  TASK_SCORES_PAGE_MAX,
  TASK_SCORES_PAGE_SIZE,
  assertWellFormedText,
  PlatformError,
  SLUG_RE,
  type AwardEvidenceUnavailable,
} from "@bench-bounty/platform";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type ListToolsResult,
  type RequestId,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { JsonValue } from "@bench-bounty/evidence";
import { z } from "zod";
import { RUN_TASKS_PAGE_MIB as PAGE_MIB, type Domain, type Principal, type WriteHow } from "../domain.js";
import { EdgeError, errorResponseOf } from "../errors.js";
import { DEFAULT_LIMITS } from "../middleware/limits.js";
import { jsonText } from "../http.js";
import { MAX_WHOLE, pageDescriptions } from "../query.js";
import { validateBody } from "../route.js";
import { RegisterBody, StartRunBody } from "../schemas.js";
import { TUTORIALS, tutorial } from "../routes/static.js";

/**
 * The bytes an inline `award_evidence` answer holds besides the pack: the JSON-RPC envelope, the text,
 * the hash, size and door URL (a slug is at most 128 characters); an id of kilobytes is the client's
 * own, as with every answer.
 */
export const PACK_ANSWER_OVERHEAD_BYTES = 4 * 1024;

/**
 * The largest award evidence pack (bytes, as stored: canonical JSON, served as they are) the MCP
 * `award_evidence` tool answers inline under an answer limit of `answerBytes` (`Limits.mcpAnswerBytes`,
 * the most bytes the answers of one MCP request may total): the limit less
 * {@link PACK_ANSWER_OVERHEAD_BYTES}, 0 at least, so an inline answer fits the limit (review mcp24: a
 * fixed 256 KiB, the default limit, inlined packs a server with a smaller limit could not answer). A
 * larger pack is named by its hash, size and door URL (`GET /api/v1/benchmarks/{slug}/award-evidence`),
 * unread, so an answer never holds more than this of a pack (probe19 A-F8).
 */
export function inlinePackBytesOf(answerBytes: number): number {
  return Math.max(0, answerBytes - PACK_ANSWER_OVERHEAD_BYTES);
}

/** What a tool call knows about its caller and endpoint. */
export interface ToolContext {
  domain: Domain;
  principal: Principal | null;
  /** The benchmark of a `/mcp/benchmarks/:slug/http` endpoint (tools default to it), else null. */
  slug: string | null;
  /** Base URL printed in `how_to_compete`. */
  baseUrl: string;
  /** The request's client network (`clientNetworkOf`), recorded on an account `register` creates. */
  network?: string | undefined;
  /**
   * The most bytes the answers of one MCP request may total (`Limits.mcpAnswerBytes`): `award_evidence`
   * answers a pack inline only within it ({@link inlinePackBytesOf}).
   */
  answerBytes: number;
  log?: (e: unknown) => void;
  /**
   * Latest moment (unix ms) the request's finalizes may wait for their anchor batch, and every write's
   * lock waits end (`AppEnv.revealBy`; `WriteHow.answerBy`, probe19 A-F3).
   */
  revealBy?: number;
  /**
   * The request's answer budget: tool calls run one at a time through it (`endpoint.ts`); a call whose
   * turn comes past the request's deadline is answered `late()`, not begun.
   */
  answers?: {
    serial<T>(run: () => Promise<T>, skipped: T, late: () => T): Promise<T>;
    beforeWrite(): void;
  };
  /**
   * The arguments of the `tools/call` request `id` as the strict parser read them (numbers with the
   * text sent), so an integer argument is kept only as sent (`validateBody`); undefined: not known.
   */
  sentArguments?: (id: RequestId) => JsonValue | undefined;
  /**
   * Checks that the request's key (if any) still works, run at each tool call's turn, before it begins
   * (`assertKeyStillWorks`): a call after one that revoked the key, or after the owner revoked it, is
   * refused `forbidden` (`known_key`), never run as the key (probe39 A-F2). Undefined: not checked.
   */
  keyStillWorks?: () => Promise<void>;
}

/** The request's bound on a tool's write ({@link WriteHow}): its lock waits end by `revealBy`. */
function writeBy(t: ToolContext): WriteHow {
  return { answerBy: t.revealBy };
}

function ok(value: unknown, text: string): CallToolResult {
  const structured = JSON.parse(jsonText(value)) as Record<string, unknown>;
  return { content: [{ type: "text", text }], structuredContent: structured };
}

/** The `_meta` key that marks {@link SKIPPED}. */
const SKIPPED_META = "bench-bounty/skipped";

/**
 * A call the answer budget skipped (not run): never sent, the endpoint answers it with the limit's
 * error. Marked so that the endpoint tells it from an answer (a skipped write was not run, and an empty
 * result must not pass for its answer).
 */
const SKIPPED: CallToolResult = { content: [], _meta: { [SKIPPED_META]: true } };

/** Whether a JSON-RPC result is {@link SKIPPED}. */
export function isSkipped(result: unknown): boolean {
  const meta = (result as { _meta?: Record<string, unknown> } | null)?._meta;
  return meta?.[SKIPPED_META] === true;
}

async function call(
  t: ToolContext,
  fn: () => Promise<{ value: unknown; text: string }>,
  write = false,
): Promise<CallToolResult> {
  const run = async () => {
    try {
      await t.keyStillWorks?.(); // a key revoked since the request came (or by a call before): not run
      if (write) t.answers?.beforeWrite(); // a bucket owing an earlier write's answer: not run (429 body)
      const r = await fn();
      return ok(r.value, r.text);
    } catch (e) {
      return toolErrorOf(e, t.log);
    }
  };
  return t.answers ? t.answers.serial(run, SKIPPED, notBegun) : run();
}

/**
 * The answer of a tool call whose turn came at or after the request's deadline (`ToolContext.revealBy`,
 * half the request's time limit; the deadline its writes' lock waits end by, `WriteHow.answerBy`), the
 * calls before it having taken the time: it was not begun (`answers.serial`, probe21 A-F10). A tool
 * error `server_busy`, `details: {limit: "request_deadline", retry_after_seconds: 5}`.
 */
function notBegun(): CallToolResult {
  return toolErrorOf(
    new EdgeError(
      "server_busy",
      "not begun: the calls before this one took the request's time (half its time limit); nothing of this call was done, send it again in another request",
      { limit: "request_deadline", retry_after_seconds: 5 },
    ),
  );
}

/**
 * A call of one of the {@link WRITE_TOOLS}: not run while the caller's bucket owes the tokens of an
 * earlier write's answer (a tool error `rate_limited`, `details.limit: "answer_bytes"`).
 */
function write(t: ToolContext, fn: () => Promise<{ value: unknown; text: string }>): Promise<CallToolResult> {
  return call(t, fn, true);
}

/** A refusal as a tool error: structured content is the REST body `{error: {code, message, details}}`. */
export function toolErrorOf(e: unknown, log?: (e: unknown) => void): CallToolResult {
  const { body } = errorResponseOf(e, log);
  return {
    isError: true,
    content: [{ type: "text", text: `${body.error.code}: ${body.error.message}` }],
    structuredContent: body as unknown as Record<string, unknown>,
  };
}

/** One tool: what `tools/list` says of it and its handler, given the arguments its schema parsed. */
interface ToolEntry {
  description: string;
  inputSchema: z.ZodType;
  run(args: unknown): Promise<CallToolResult>;
}

/**
 * The tools of one request's server by name, in the order `tools/list` lists them. The server answers
 * `tools/list` and `tools/call` itself from it (the SDK's low-level `Server` and its public
 * `setRequestHandler`), not through the SDK's `McpServer`, so that the arguments are checked as REST
 * bodies are ({@link callTool}): `McpServer` has no public option for that.
 */
class ToolRegistry {
  readonly byName = new Map<string, ToolEntry>();

  /**
   * Adds a tool; `handler` is given the arguments `config.inputSchema` parsed (an object schema).
   * @throws Error when a tool of that name is already registered (a programming error)
   */
  registerTool<S extends z.ZodType>(
    name: string,
    config: { description: string; inputSchema: S },
    handler: (args: z.output<S>) => Promise<CallToolResult>,
  ): void {
    if (this.byName.has(name)) throw new Error(`MCP tool ${name} is registered twice`);
    this.byName.set(name, {
      description: config.description,
      inputSchema: config.inputSchema,
      run: (args) => handler(args as z.output<S>),
    });
  }
}
/**
 * The tools that need a key (the domain refuses them without one). The endpoint refuses an anonymous
 * call of one of them (`unauthenticated`, rule `key_required`) before its arguments are validated,
 * so authentication comes before validation on MCP as on REST.
 */
export const KEYED_TOOLS: ReadonlySet<string> = new Set([
  "set_withdrawal_address",
  "issue_key",
  "revoke_key",
  "benchmark_corpus",
  "benchmark_start_run",
  "benchmark_submit_answers",
  "benchmark_finalize_run",
  "benchmark_run_tasks",
  "runs_mine",
]);

/**
 * The tools that write (an account and its key, an address, a run and its tasks, answers, a score):
 * their answer is the caller's only copy of what was done, so the endpoint sends it whole once the
 * tool has run, never replaced by the request's answer limit (its bytes count towards it, so the
 * answers after it may be); its bytes are charged all the same,
 * the tokens the bucket lacks owed, as REST charges a write's answer (`chargeWriteAnswer`), and such a
 * tool is not run while the bucket owes (`write`). Every other answer (the read tools', `tools/list`'s,
 * ...) is charged and counted, refused when the tokens are not there (`AnswerBudget` in `endpoint.ts`);
 * a tool missing from this list is charged so.
 */
export const WRITE_TOOLS: ReadonlySet<string> = new Set([
  "register",
  "set_withdrawal_address",
  "issue_key",
  "revoke_key",
  "benchmark_start_run",
  "benchmark_submit_answers",
  "benchmark_finalize_run",
]);

const Answer = z.strictObject({
  ordinal: z.number().int().describe("the task's ordinal in THIS run, as benchmark_start_run returned it"),
  answer_text: z
    .string()
    .describe(
      "your answer; see the task's grader_type for the format (a code point not assigned in Unicode 14.0.0 is refused: unassigned_code_point; so is a run of more than 30 combining characters: combining_run_too_long; and a capital sigma Σ next to a letter whose case properties changed after Unicode 14.0.0, as in ΑʕΣ: unstable_final_sigma)",
    ),
});

/** The slug argument of a tool: optional on a per-benchmark endpoint (it defaults to that benchmark). */
function slugArgOf(t: ToolContext): z.ZodString | z.ZodOptional<z.ZodString> {
  return t.slug
    ? identifier().optional().describe(`benchmark slug (default ${t.slug})`)
    : identifier().describe("benchmark slug (from benchmark_list)");
}

/**
 * An identifier argument (a slug, a run id): a text of at least one character. An empty one is an
 * invalid value (422 `invalid_request` naming its path, as REST refuses it), never taken for "absent"
 * (probe21 A-F8: `benchmark_start_run {agent_id: ""}` started a run as the account's default agent).
 */
function identifier(): z.ZodString {
  return z.string().min(1);
}

/**
 * The page arguments of a paged tool (`offset`, `limit`): the bounds the platform checks (`checkPage`,
 * `max` its page maximum) and the REST query's descriptions ({@link pageDescriptions}), so the listed
 * schema states them (probe21 A-F9: any safe integer was listed, no description). `offset` is at most
 * {@link MAX_WHOLE}, the REST query's bound (probe23 F3: MCP took any safe integer, REST 15 digits).
 */
function pageArgs(first: string, size: number, max: number) {
  const text = pageDescriptions(first, size, max);
  return {
    offset: wholeArg(0, MAX_WHOLE).optional().describe(text.offset),
    limit: wholeArg(1, max).optional().describe(text.limit),
  };
}

/**
 * A whole-number argument from `min` to `max`, both inclusive (listed as `minimum`/`maximum`). A value
 * out of range is refused with one issue whose message states the bound as it is, `<=max` or `>=min`:
 * zod's own check of the safe-integer range came first and said "expected int to be <9007199254740991"
 * of a bound it takes (probe23 F3).
 */
function wholeArg(min: number, max: number): z.ZodNumber {
  const over = `Too big: expected int to be <=${max}`;
  const under = `Too small: expected int to be >=${min}`;
  return z
    .number()
    .int({
      abort: true,
      error: (issue) => (issue.code === "too_big" ? over : issue.code === "too_small" ? under : undefined),
    })
    .min(min, under)
    .max(max, over);
}

/** The benchmark a tool call is about: the argument, else the endpoint's benchmark. */
function slugOf(t: ToolContext, a: { slug?: string | undefined }): string {
  return a.slug ?? t.slug ?? "";
}

/**
 * Registers every tool for one request's caller and answers `tools/list` and `tools/call` on `server`
 * (the SDK's `Server`, built with the `tools` capability; it checks each request's params against the
 * SDK's `ListToolsRequestSchema` / `CallToolRequestSchema` before the handler runs: -32602 otherwise).
 */
export function registerTools(server: Server, t: ToolContext): void {
  const tools = new ToolRegistry();
  registerAccountTools(tools, t);
  registerBenchmarkTools(tools, t);
  registerRunTools(tools, t);
  registerTutorialTools(tools, t);
  const key = t.slug ?? "";
  server.setRequestHandler(ListToolsRequestSchema, () => toolListOf(tools, key));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    callTool(tools, request.params.name, request.params.arguments, t, t.sentArguments?.(extra.requestId)),
  );
}

/**
 * One `tools/call`. A tool nobody registered is the refusal every tool gives (`isError` with the REST
 * body as structured content: `not_found` naming `$.params.name`), not the SDK's bare text "MCP error
 * -32602: Tool x not found" (probe14 D1-F10). Tool arguments are validated as REST bodies are
 * (`validateBody`: 422 `invalid_request`, the first issue's path in one line, at most 20 issues in
 * `details.errors` with `errors_total`, or `errors_total_at_least` when the check of a large array
 * stopped there), and a refusal is the tool error of {@link toolErrorOf} with the REST body as
 * structured content: the SDK's `McpServer` listed every zod issue in the text, one line each (probe13
 * C1: a 2 MB call got a 9 MB answer, and at 100,000 items the text was "Maximum call stack size
 * exceeded"). Missing `arguments` are `{}`. `sent`: the arguments as the strict parser read them (an
 * integer argument is kept only as sent: `2.0000000000000001` is refused naming its path).
 */
async function callTool(
  tools: ToolRegistry,
  name: string,
  args: Record<string, unknown> | undefined,
  t: ToolContext,
  sent?: JsonValue,
): Promise<CallToolResult> {
  const tool = tools.byName.get(name);
  if (tool === undefined)
    return toolErrorOf(
      new EdgeError(
        "not_found",
        `unknown tool ${JSON.stringify(name.slice(0, 64))}: tools/list names the tools`,
        {
          path: "$.params.name",
        },
      ),
    );
  let parsed: unknown;
  try {
    parsed = validateBody(tool.inputSchema, args ?? {}, sent);
    checkIdArguments(parsed);
  } catch (e) {
    return toolErrorOf(e);
  }
  try {
    return await tool.run(parsed);
  } catch (e) {
    return toolErrorOf(e, t.log); // the handlers answer their refusals (`call`); anything else: internal_error
  }
}

/**
 * An identifier argument (`slug`, `run_id`, `agent_id`, `dataset_id`, ...) holding a text no store keeps
 * (U+0000, a lone surrogate: the platform's one text rule) is refused naming its JSON path, as a REST
 * path parameter is (probe17 A-F4: the store's catch-all refused it naming nothing). A `slug` that no
 * benchmark or tutorial can have (not of the slug rule, `SLUG_RE`: `^[a-z0-9][a-z0-9-]{1,127}$`) is
 * refused naming `$.slug` without echoing it (probe35 A-N4: a 100 KB slug came back three times in the
 * `unknown_benchmark` answer); any slug an answer echoes is so at most 128 characters. Free text
 * (answers, titles, datasets) is checked by the platform, which names the path itself.
 * @throws PlatformError `invalid_text`, `details: {field, path, reason}` (`assertWellFormedText`);
 *   EdgeError 422 `invalid_request`, `details: {path: "$.slug", pattern}` (a slug off the rule) or
 *   `details: {path: "$.<name>_id", max_chars}` (an id longer than {@link ID_MAX_CHARS})
 */
/**
 * Longest `*_id` argument taken (run ids are `run-` and 16 hex digits, agent ids at most 64 characters):
 * a longer one is refused naming its path, never echoed (probe35 V-F1: a 3 MB `run_id` came back three
 * times in `unknown_run`).
 */
const ID_MAX_CHARS = 128;

function checkIdArguments(args: unknown): void {
  if (typeof args !== "object" || args === null) return;
  for (const [name, value] of Object.entries(args)) {
    if (typeof value === "string" && (name === "slug" || name.endsWith("_id")))
      assertWellFormedText(value, `$.${name}`, "invalid_text");
    if (name.endsWith("_id") && typeof value === "string" && value.length > ID_MAX_CHARS)
      throw new EdgeError(
        "invalid_request",
        `$.${name}: an id of this service is at most ${ID_MAX_CHARS} characters: no ${name.slice(0, -3)} has this one (${value.length} characters, not shown)`,
        { path: `$.${name}`, max_chars: ID_MAX_CHARS },
      );
    if (name === "slug" && typeof value === "string" && !SLUG_RE.test(value))
      throw new EdgeError(
        "invalid_request",
        `$.slug: a slug matches ${SLUG_RE.source} (lowercase letters, digits, dashes; at most 128 characters): no benchmark or tutorial has this one (${value.length} characters, not shown)`,
        { path: "$.slug", pattern: SLUG_RE.source },
      );
  }
}

/** `tools/list` answers by endpoint (the slug of `/mcp/benchmarks/:slug/http`, "" for `/mcp`). */
const toolLists = new Map<string, ListToolsResult>();
/** Endpoints whose tool list is kept ({@link toolLists}; the oldest is dropped past it). */
const TOOL_LISTS_KEPT = 256;
let toolListBuilds = 0;

/** How many times a tool list was built (the JSON Schemas of every tool), for tests. */
export function toolListsBuilt(): number {
  return toolListBuilds;
}

/**
 * The tool list of an endpoint (`key`: its slug, "" for `/mcp`). It never changes (the tools and their
 * schemas are the same for every caller; only the default slug in a description depends on the
 * endpoint), so it is built once per endpoint: building the JSON Schema of each of the 14 tools per
 * call, a batch of 100 anonymous `tools/list` held the event loop up to a second (probe14 D1-F13).
 * Each input schema is zod's JSON Schema (draft-07) of the arguments accepted, as the SDK's `McpServer`
 * listed them.
 */
function toolListOf(tools: ToolRegistry, key: string): ListToolsResult {
  let list = toolLists.get(key);
  if (list === undefined) {
    toolListBuilds++;
    list = {
      tools: [...tools.byName].map(([name, tool]) => ({
        name,
        description: tool.description,
        inputSchema: z.toJSONSchema(tool.inputSchema, {
          target: "draft-7",
          io: "input",
        }) as Tool["inputSchema"],
        execution: { taskSupport: "forbidden" }, // tools run at once: a task asked for is -32602 (C9)
      })),
    };
    if (toolLists.size >= TOOL_LISTS_KEPT) toolLists.delete(toolLists.keys().next().value!);
    toolLists.set(key, list);
  }
  return list;
}

/** The account tools: register (no key), the withdrawal address, and the account's keys (issue, revoke). */
function registerAccountTools(tools: ToolRegistry, t: ToolContext): void {
  const d = t.domain;
  const p = t.principal;
  tools.registerTool(
    "register",
    {
      description:
        "Create an account and get its API key (no key needed). Send the key afterwards as 'Authorization: Bearer <key>'. Shown once: keep it.",
      inputSchema: z.strictObject({
        name: RegisterBody.shape.name.describe("display name"),
        agent_id: RegisterBody.shape.agent_id.describe(
          "id of your agent (default: the account's name); a refused id or address creates no account",
        ),
        withdrawal_address: z
          .string()
          .optional()
          .describe(
            "0x address credited if you win; a service that pays prizes refuses a run start without one (set it here, or later with set_withdrawal_address before benchmark_start_run)",
          ),
      }),
    },
    (a) =>
      write(t, async () => {
        const r = await d.register(a, { ...writeBy(t), network: t.network });
        return { value: r, text: `registered ${r.account.account_id}; api_key ${r.api_key} (shown once)` };
      }),
  );
  tools.registerTool(
    "set_withdrawal_address",
    {
      description: "Set the 0x address your prize credit goes to. Set it before you compete.",
      inputSchema: z.strictObject({ withdrawal_address: z.string() }),
    },
    (a) =>
      write(t, async () => ({
        value: await d.setWithdrawalAddress(p, a.withdrawal_address, writeBy(t)),
        text: "withdrawal address set",
      })),
  );
  tools.registerTool(
    "issue_key",
    {
      description: `Issue one more API key for your account (REST POST /api/v1/accounts/me/keys). Shown once: keep it. To replace a leaked key: issue a new one, then revoke_key the leaked one. At most ${MAX_ACTIVE_KEYS} active keys: past them too_many_keys, revoke_key one first.`,
      inputSchema: z.strictObject({}),
    },
    () =>
      write(t, async () => {
        const r = await d.issueKey(p, writeBy(t));
        return { value: r, text: `issued key ${r.key_prefix}; api_key ${r.api_key} (shown once)` };
      }),
  );
  tools.registerTool(
    "revoke_key",
    {
      description:
        "Revoke one of your account's API keys by its prefix (account keys[].key_prefix; the key in use too), never the last active one: issue_key first.",
      inputSchema: z.strictObject({
        key_prefix: identifier().describe("the key's prefix as listed (bbk_ and 12 hex digits)"),
      }),
    },
    (a) =>
      write(t, async () => ({
        value: await d.revokeKey(p, a.key_prefix, writeBy(t)),
        text: `key ${a.key_prefix} revoked`,
      })),
  );
}

/** The text of a page's tail: where the next page starts, if any. */
function moreFrom(nextOffset: number | null): string {
  return nextOffset === null ? "" : `; more from offset ${nextOffset}`;
}

/** The read tools of a benchmark: list, detail, corpus, leaderboard, per-task scores, award evidence. */
function registerBenchmarkTools(tools: ToolRegistry, t: ToolContext): void {
  const d = t.domain;
  const p = t.principal;
  const slugArg = slugArgOf(t);
  tools.registerTool(
    "benchmark_list",
    {
      description: `Published benchmarks (closed ones are listed read-only), oldest first, one page: offset .. offset + limit - 1 (default ${BENCHMARKS_PAGE_SIZE} from 0, at most ${BENCHMARKS_PAGE_MAX}; next_offset names the next page).`,
      inputSchema: z.strictObject(
        pageArgs(
          "0-based position of the page's first benchmark (oldest first)",
          BENCHMARKS_PAGE_SIZE,
          BENCHMARKS_PAGE_MAX,
        ),
      ),
    },
    (a) =>
      call(t, async () => {
        const page = { offset: a.offset ?? 0, limit: a.limit ?? BENCHMARKS_PAGE_SIZE };
        const v = (await d.listBenchmarks(p, page)) as { benchmarks: unknown[]; next_offset: number | null };
        return { value: v, text: `${v.benchmarks.length} benchmark(s)${moreFrom(v.next_offset)}` };
      }),
  );
  tools.registerTool(
    "benchmark_detail",
    {
      description:
        "One benchmark: how to compete, graders, scoring, prize facts, the attached bounty (bounty_id, author: verify the lock on-chain before a run). Never gold.",
      inputSchema: z.strictObject({ slug: slugArg }),
    },
    (a) =>
      call(t, async () => ({
        value: await d.benchmarkDetail(p, slugOf(t, a), t.baseUrl),
        text: `detail of ${slugOf(t, a)}`,
      })),
  );
  tools.registerTool(
    "benchmark_corpus",
    {
      description: "The free corpus. Study it BEFORE starting a run: the clock starts at run start.",
      inputSchema: z.strictObject({ slug: slugArg }),
    },
    (a) =>
      call(t, async () => ({ value: await d.corpus(p, slugOf(t, a)), text: `corpus of ${slugOf(t, a)}` })),
  );
  tools.registerTool(
    "benchmark_leaderboard",
    {
      description: `The leaderboard (the public board while open, the final board at close), one page: rows offset .. offset + limit - 1 (default ${BOARD_PAGE_SIZE} rows from 0; next_offset names the next page).`,
      inputSchema: z.strictObject({
        slug: slugArg,
        ...pageArgs("0-based rank position of the page's first row", BOARD_PAGE_SIZE, BOARD_PAGE_MAX),
      }),
    },
    (a) =>
      call(t, async () => ({
        value: await d.leaderboard(p, slugOf(t, a), undefined, {
          offset: a.offset ?? 0,
          limit: a.limit ?? BOARD_PAGE_SIZE,
        }),
        text: `leaderboard of ${slugOf(t, a)}`,
      })),
  );
  tools.registerTool(
    "benchmark_task_scores",
    {
      description: `Per-task credit of the finalized runs (regraded), once the benchmark has closed (its author: at any time; private tasks' credit null until the award reveals the test set, private_credits "withheld"), one page of runs in start order: offset .. offset + limit - 1 (default ${TASK_SCORES_PAGE_SIZE} from 0, at most ${TASK_SCORES_PAGE_MAX}, lowered so that runs x tasks <= ${MAX_TASK_SCORE_CELLS}: the answer's limit; next_offset names the next page).`,
      inputSchema: z.strictObject({
        slug: slugArg,
        ...pageArgs(
          "0-based position of the page's first finalized run (start order)",
          TASK_SCORES_PAGE_SIZE,
          TASK_SCORES_PAGE_MAX,
        ),
        run_ids: z
          .array(identifier())
          .optional()
          .describe(
            `instead of offset/limit: up to ${TASK_SCORES_IDS_MAX} run ids (a leaderboard page's rows), answered in the order asked; next_offset is the position of the first id left`,
          ),
      }),
    },
    (a) =>
      call(t, async () => {
        if (a.run_ids !== undefined && (a.offset !== undefined || a.limit !== undefined))
          throw new PlatformError("invalid_option", "run_ids names the runs: it takes no offset or limit", {
            field: "run_ids",
          });
        const page = { offset: a.offset ?? 0, limit: a.limit ?? TASK_SCORES_PAGE_SIZE };
        const v = (await (a.run_ids !== undefined
          ? d.taskScoresOfIds(p, slugOf(t, a), a.run_ids)
          : d.taskScores(p, slugOf(t, a), page))) as {
          runs: unknown[];
          next_offset: number | null;
        };
        return {
          value: v,
          text: `per-task scores of ${slugOf(t, a)}: ${v.runs.length} run(s)${moreFrom(v.next_offset)}`,
        };
      }),
  );
  tools.registerTool(
    "award_evidence",
    {
      description: `The award evidence pack of a benchmark (its hash, size and door URL; the pack's exact text inline, \`pack_text\` (the door's bytes as text; parse it with a reader that keeps big integers and decimals as written, as the verifier does), when it fits one answer as a JSON string, at most the server's MCP answer limit less ${PACK_ANSWER_OVERHEAD_BYTES / 1024} KiB (${inlinePackBytesOf(DEFAULT_LIMITS.mcpAnswerBytes) / 1024} KiB by default), else fetch it from the URL), or the reason it is not available yet.`,
      inputSchema: z.strictObject({ slug: slugArg }),
    },
    (a) =>
      call(t, async () => {
        // an unknown benchmark is a refusal (`unknown_benchmark`), as on REST; "no pack yet" is an answer
        await d.assertBenchmark(slugOf(t, a));
        // the hash and size first (the door's logic, once); the bytes only when answered inline (probe20 F4)
        const head = await d.awardEvidenceHead(slugOf(t, a));
        if (head.kind !== "pack") return noPack(head);
        const url = `${t.baseUrl}/api/v1/benchmarks/${encodeURIComponent(slugOf(t, a))}/award-evidence`;
        const where = { available: true, pack_hash: head.pack_hash, pack_bytes: head.pack_size, url };
        // a large pack is fetched from the door (its bytes as stored, ETag, 304), never read, parsed and
        // re-serialised per call (probe19 A-F8: a 23.6 MB pack cost 218 MB per anonymous call)
        const inlineBytes = inlinePackBytesOf(t.answerBytes);
        if (head.pack_size > inlineBytes)
          return {
            value: { ...where, inline: false },
            text: `pack ${head.pack_hash} (${head.pack_size} bytes, over ${inlineBytes} inline): GET ${url}`,
          };
        // the bytes of the head's pack, by its hash: the door's logic is not run again
        const bytes = await d.awardEvidenceBytes(slugOf(t, a), head.pack_hash);
        // the pack's exact text, never parsed and re-serialised (probe32 A-F7: JSON.parse turned an
        // integer past 2^53 into 1.2345678901234568e+22 and an honest pack failed its hash); as a JSON
        // string it is longer (escaped quotes): over the bound so, it is named by its URL
        const packText = Buffer.from(bytes).toString("utf8");
        if (Buffer.byteLength(JSON.stringify(packText)) > inlineBytes)
          return {
            value: { ...where, inline: false },
            text: `pack ${head.pack_hash} (${head.pack_size} bytes, over ${inlineBytes} inline as a JSON string): GET ${url}`,
          };
        return {
          value: { ...where, inline: true, pack_text: packText },
          text: `pack ${head.pack_hash} (${head.pack_size} bytes; its exact text in pack_text: save it as is for the verifier, parse it with an exact JSON reader)`,
        };
      }),
  );
}

/**
 * `award_evidence`'s answer when there is no pack (yet): the SPEC 8 reason, and its facts in `details`
 * when the door gives some (`awarded_elsewhere`: the award's transaction and digests, probe37 C-F2).
 */
function noPack(r: AwardEvidenceUnavailable) {
  return {
    value: {
      available: false,
      reason: r.reason,
      message: r.message,
      ...(r.details ? { details: r.details } : {}),
    },
    text: `no pack: ${r.reason}: ${r.message}`,
  };
}

/** The tools of a run: start, submit answers, finalize, and the caller's runs. */
function registerRunTools(tools: ToolRegistry, t: ToolContext): void {
  const d = t.domain;
  const p = t.principal;
  const slugArg = slugArgOf(t);
  tools.registerTool(
    "benchmark_start_run",
    {
      description: `Start a run: returns run.id and the first page of its tasks (ordinal, prompt, visibility, grader_type; at most ${PAGE_MIB} MiB of tasks), task_count, and next_offset: null when every task is there, else read the rest with benchmark_run_tasks from that offset. The wall clock starts now.`,
      inputSchema: z.strictObject({
        slug: slugArg,
        agent_id: StartRunBody.shape.agent_id.describe(
          "one of your agents (default: your default agent, the one named after your account)",
        ),
      }),
    },
    (a) =>
      write(t, async () => {
        const v = (await d.startRun(
          p,
          slugOf(t, a),
          { ...(a.agent_id !== undefined ? { agent_id: a.agent_id } : {}) },
          writeBy(t),
        )) as {
          run: { id: string };
          tasks: unknown[];
          task_count: number;
          next_offset: number | null;
        };
        return {
          value: v,
          text: `run ${v.run.id} started with ${v.task_count} task(s), ${v.tasks.length} here${moreFrom(v.next_offset)}`,
        };
      }),
  );
  tools.registerTool(
    "benchmark_run_tasks",
    {
      description: `One page of the tasks of your own run (at most ${PAGE_MIB} MiB of tasks from ordinal offset; next_offset names the next page, null on the last) and the ordinals answered so far (resume).`,
      inputSchema: z.strictObject({
        run_id: identifier(),
        offset: wholeArg(0, MAX_WHOLE).optional().describe("ordinal of the page's first task (default 0)"),
      }),
    },
    (a) =>
      call(t, async () => {
        const v = (await d.runTasks(p, a.run_id, { offset: a.offset ?? 0 })) as {
          tasks: unknown[];
          next_offset: number | null;
        };
        return { value: v, text: `${v.tasks.length} task(s) of ${a.run_id}${moreFrom(v.next_offset)}` };
      }),
  );
  tools.registerTool(
    "benchmark_submit_answers",
    {
      description:
        "Submit answers for a run (idempotent per ordinal). Unknown or stale ordinals and empty answers are refused, naming them.",
      // as the REST body: an empty list is accepted (0 answers), not refused here only (probe14 D1-F10)
      inputSchema: z.strictObject({ run_id: identifier(), answers: z.array(Answer) }),
    },
    (a) =>
      write(t, async () => ({
        value: await d.submit(p, a.run_id, a.answers, writeBy(t)),
        text: `submitted ${a.answers.length} answer(s) to ${a.run_id}`,
      })),
  );
  tools.registerTool(
    "benchmark_finalize_run",
    {
      description:
        "Finalize a run: the clock stops; returns the score (while open no figure computed from private tasks, except to the benchmark's author; per-task public credits once attempts are used up).",
      inputSchema: z.strictObject({ run_id: identifier() }),
    },
    (a) =>
      write(t, async () => {
        const v = (await d.finalize(
          p,
          a.run_id,
          t.revealBy === undefined ? {} : { revealBy: t.revealBy },
        )) as {
          score_public?: string;
        };
        return { value: v, text: `finalized ${a.run_id}: score_public ${v.score_public ?? "?"}` };
      }),
  );
  tools.registerTool(
    "runs_mine",
    {
      description: `Your runs across all benchmarks, newest first (recover a lost run id), one page: runs offset .. offset + limit - 1 (default ${RUNS_PAGE_SIZE} from 0, at most ${RUNS_PAGE_MAX}; next_offset names the next page). No receipts: each run keeps receipt_hash and receipt_anchor_status; read one run's receipt over REST (GET /api/v1/benchmarks/runs/{run_id} or /api/v1/benchmarks/{slug}/runs/{run_id}/receipt).`,
      inputSchema: z.strictObject(
        pageArgs("0-based position of the page's first run (newest first)", RUNS_PAGE_SIZE, RUNS_PAGE_MAX),
      ),
    },
    (a) =>
      call(t, async () => {
        const v = (await d.runsMine(p, { offset: a.offset ?? 0, limit: a.limit ?? RUNS_PAGE_SIZE })) as {
          runs: unknown[];
          next_offset: number | null;
        };
        return {
          value: v,
          text: `${v.runs.length} run(s)${moreFrom(v.next_offset)}`,
        };
      }),
  );
}

/** The how-to documents. */
function registerTutorialTools(tools: ToolRegistry, t: ToolContext): void {
  tools.registerTool(
    "discover_tutorials",
    {
      description: "The project's how-to documents (competing, publishing, verifying an award).",
      inputSchema: z.strictObject({}),
    },
    () =>
      call(t, async () => ({
        value: { tutorials: TUTORIALS.map(({ slug, title, summary }) => ({ slug, title, summary })) },
        text: TUTORIALS.map((x) => x.slug).join(", "),
      })),
  );
  tools.registerTool(
    "read_tutorial",
    {
      description: "One how-to document as Markdown (slug from discover_tutorials).",
      inputSchema: z.strictObject({ slug: identifier() }),
    },
    (a) =>
      call(t, async () => {
        const x = tutorial(a.slug);
        return { value: { slug: x.slug, title: x.title, markdown: x.text }, text: x.text };
      }),
  );
}
