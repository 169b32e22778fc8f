/**
 * MCP over Streamable HTTP (the official SDK, stateless: one server and transport per request) at
 * `/mcp` (every benchmark; tools take a `slug`) and `/mcp/benchmarks/:slug/http` (the slug defaults
 * to that benchmark). The key is `Authorization: Bearer <key>`, read by the app's auth middleware;
 * `register` works without one. Every message of a JSON-RPC batch takes its own token of the caller's
 * rate-limit bucket, and every `register` call one of the account-creation buckets (the address's and all addresses'), as
 * REST's `POST /accounts` does ({@link chargeBatch}).
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  JSONRPCErrorResponseSchema,
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
  RequestIdSchema,
  type JSONRPCMessage,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import { isJsonFloat, isJsonObject, type JsonValue } from "@bench-bounty/evidence";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../env.js";
import { EdgeError, errorResponseOf, MAX_DETAIL_ITEMS, statusOf } from "../errors.js";
import { assertKeyStillWorks, BEARER_CHALLENGE } from "../middleware/auth.js";
import { bodyBytes } from "../node-body.js";
import {
  assertUtf8Uncompressed,
  checkPathParams,
  jsonPathOf,
  refuseDeclaredLength,
  strictParse,
} from "../route.js";
import { readQuery } from "../query.js";
import { mcpBodyLimits, type BodyLimits } from "../body-limits.js";
import {
  chainlessMcpInstructions,
  jsonTypeName,
  requirePrincipal,
  sentNumberText,
} from "@bench-bounty/platform";
import {
  addressOf,
  clientNetworkOf,
  bucketOf,
  chargeAnswer,
  chargeWriteAnswer,
  refuseWhileOwing,
  takeOrRefuse,
  type AccountCreationLimiter,
  type RateLimiter,
} from "../middleware/limits.js";
import { MCP_ALLOW, MCP_METHODS, MCP_ROUTES } from "./paths.js";
import {
  isSkipped,
  KEYED_TOOLS,
  registerTools,
  toolErrorOf,
  WRITE_TOOLS,
  type ToolContext,
} from "./tools.js";

/** The limiters the endpoint charges (the app's own: the same buckets as REST). */
export interface McpLimiters {
  /** Requests, per account or client address (the chain already took one token per HTTP request). */
  requests: RateLimiter;
  /** Account creations per client address group and overall (REST `POST /accounts` takes from it too). */
  accounts: AccountCreationLimiter;
  /** The most bytes the answers of one HTTP request may total ({@link AnswerBudget}). */
  answerBytes: number;
  /** Each answer takes one more `requests` token per full this many bytes, as a REST answer does ({@link chargeAnswer}). */
  answerBytesPerToken: number;
}

/**
 * Largest batch the SDK's transport accepts (its `MAX_BATCH_SIZE`, server/requestBody.js of SDK
 * 1.32.2: a longer one is 400 `-32600`). Batching is in the 2025-03-26 protocol, which the SDK still
 * serves; later revisions dropped it.
 */
const SDK_MAX_BATCH = 100;

export { MCP_ALLOW, MCP_METHODS, MCP_PATH } from "./paths.js";

/** Name and version announced to MCP clients. */
export const MCP_SERVER_INFO = { name: "bench-bounty", version: "0.1.0" } as const;

/** JSON-RPC's code for a message that is JSON but not a valid request. */
const INVALID_REQUEST = -32600;

/**
 * The JSON-RPC error of the first message of a parsed body that is not a JSON-RPC message by the MCP
 * SDK's own schemas (`JSONRPCMessageSchema`, strict: the SDK refuses the same messages, but as -32700
 * "Parse error: Invalid JSON-RPC message" without a path, probe D1-F1: the text was JSON). The answer
 * is 400 `-32600` Invalid Request naming the member (`$.jsonrpc`, `$.id`, `$.method`, an unknown
 * member, `$[1]` for a batch item that is no object), or `-32602` Invalid params naming `$.params...`
 * when only the params do not fit (`params: []`, a `_meta.progressToken` object), with `data.path`;
 * the message's `id` when it has a valid one (never in a batch), else null. An empty batch is
 * -32600 too (JSON-RPC 2.0; the SDK answered a bare 202). Null when every message is valid, or the
 * batch is over the SDK's {@link SDK_MAX_BATCH} (the SDK refuses it whole). A batch in which two requests
 * share an id is -32600 naming the second's `$[i].id` ({@link sharedRequestId}). A member named
 * `__proto__` anywhere in a message is refused the same way, naming its path (`$.params.__proto__`:
 * -32602; REST refuses it as an unknown member): the edge reads it as an own member, the SDK's zod
 * parse rebuilds it as the prototype, so a `tools/call`'s name or arguments hidden there passed every
 * check of the edge (probe D1-F8: account budgets, write ids, probe13 C10's argument check).
 */
function invalidMessage(c: Context<AppEnv>, body: unknown, exact?: JsonValue): Response | null {
  const refuse = (code: number, path: string, why: string, id: RequestId | null) => {
    const kind = code === INVALID_PARAMS ? "Invalid params" : "Invalid Request";
    const error = { code, message: `${kind}: ${path}: ${why}`, data: { path } };
    return c.json({ jsonrpc: "2.0", id, error }, 400);
  };
  if (Array.isArray(body) && body.length === 0)
    return refuse(INVALID_REQUEST, "$", "the batch is empty", null);
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  if (messages.length > SDK_MAX_BATCH) return null;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    const at = Array.isArray(body) ? `$[${i}]` : "$";
    // a member named __proto__ anywhere (probe D1-F8): the edge reads it as an own member, the SDK's
    // zod parse makes it the prototype (a tools/call's name and arguments hidden from every edge check)
    const proto = protoPath(m, at);
    if (proto !== null) {
      const rawId = (m as { id?: unknown } | null)?.id;
      const id =
        !Array.isArray(body) && RequestIdSchema.safeParse(rawId).success ? (rawId as RequestId) : null;
      const code = proto.startsWith(`${at}.params`) ? INVALID_PARAMS : INVALID_REQUEST;
      return refuse(code, proto, 'unknown member "__proto__" (a reserved name)', id);
    }
    // a number id is an integer as sent, within 2^53-1 (probe25 A-F5: 1.0000000000000001 was answered as
    // id 1, and 2^53 refused with zod's "<9007199254740991", a bound 2^53-1 passes): the one rule of the
    // integers of a body (`sentNumberText`), as the params' integers; an id of another type is named by
    // its type (probe32 A-F4: an array or object id was "must be a finite number", a null or boolean one
    // zod's bare "Invalid input"; MCP allows no null id, which JSON-RPC 2.0 tolerates)
    const exactId = (Array.isArray(exact) ? exact[i] : exact) as { id?: unknown } | undefined;
    const sentId = isJsonObject(exactId as JsonValue) ? (exactId!.id as JsonValue | undefined) : undefined;
    if (sentId !== undefined && typeof sentId !== "string") {
      const text =
        typeof sentId === "number" || typeof sentId === "bigint" || isJsonFloat(sentId)
          ? sentNumberText(`${at}.id`, sentId, { asString: false, integer: true })
          : null;
      const why =
        text === null
          ? `must be a string or an integer, got ${jsonTypeName(sentId)}${sentId === null ? " (MCP allows no null id: a message that wants no answer is a notification, sent without an id)" : ""}`
          : typeof text === "object"
            ? `${text.error.slice(`${at}.id `.length)} (an id is a string or an integer)`
            : null;
      if (why !== null) return refuse(INVALID_REQUEST, `${at}.id`, why, null);
    }
    if (JSONRPCMessageSchema.safeParse(m).success) continue;
    if (typeof m !== "object" || m === null || Array.isArray(m))
      return refuse(INVALID_REQUEST, at, "a JSON-RPC message is an object", null);
    const rawId = (m as { id?: unknown }).id;
    const id = !Array.isArray(body) && RequestIdSchema.safeParse(rawId).success ? (rawId as RequestId) : null;
    const schema =
      "method" in m
        ? "id" in m
          ? JSONRPCRequestSchema
          : JSONRPCNotificationSchema
        : "result" in m
          ? JSONRPCResultResponseSchema
          : "error" in m
            ? JSONRPCErrorResponseSchema
            : null;
    if (schema === null)
      return refuse(
        INVALID_REQUEST,
        at,
        "not a request, notification or response (no method, result or error)",
        id,
      );
    const issue = schema.safeParse(m).error?.issues[0];
    if (issue === undefined) continue; // valid by its own kind (the union's verdict differed): the SDK decides
    const keys = issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0]!] : issue.path;
    const path = at + jsonPathOf(keys).slice(1);
    const why = issue.code === "unrecognized_keys" ? "unknown member" : issue.message;
    return refuse(keys[0] === "params" ? INVALID_PARAMS : INVALID_REQUEST, path, why, id);
  }
  const twice = Array.isArray(body) ? sharedRequestId(body) : null;
  if (twice !== null)
    return refuse(
      INVALID_REQUEST,
      `$[${twice.at}].id`,
      `id ${JSON.stringify(twice.id)} is also the id of $[${twice.first}]: each request of a batch needs its own id (its answer is matched by it); nothing of the batch was run`,
      null,
    );
  return null;
}

/**
 * The first request of a batch whose id an earlier request has (`1` and `"1"` are distinct ids), or
 * null. Every call of such a batch ran and only one answer per id came back (probe23 F2: two `register`
 * calls with id 1 made two accounts and answered one key), so the batch is refused whole.
 */
function sharedRequestId(batch: readonly unknown[]): { id: RequestId; at: number; first: number } | null {
  const seen = new Map<string, number>();
  for (let i = 0; i < batch.length; i++) {
    const m = batch[i] as { id?: unknown; method?: unknown } | null;
    if (typeof m?.method !== "string" || (typeof m.id !== "string" && typeof m.id !== "number")) continue;
    const key = `${typeof m.id}:${String(m.id)}`;
    const first = seen.get(key);
    if (first !== undefined) return { id: m.id, at: i, first };
    seen.set(key, i);
  }
  return null;
}

/** A `tools/call` of the tool `name`. */
function isCallOf(m: unknown, name: string): boolean {
  return toolOf(m) === name;
}

/** The tool a message calls (`tools/call`), else null. */
function toolOf(m: unknown): string | null {
  if (typeof m !== "object" || m === null) return null;
  const { method, params } = m as { method?: unknown; params?: { name?: unknown } };
  return method === "tools/call" && typeof params?.name === "string" ? params.name : null;
}

/**
 * The ids of a body's requests that call one of the {@link WRITE_TOOLS}: their answers are sent whole
 * ({@link AnswerBudget}). Each such id is its call's alone: a batch in which two requests share an id
 * is refused before anything runs ({@link sharedRequestId}), and a notification or a response is never
 * answered (the server sends no request of its own, so a response in the body matches none). The
 * guard that dropped a write's id another message had was left with responses only, and took a
 * write that ran out of "sent whole" (review, mcp24: a started run's tasks replaced by the limit's error).
 */
function writeCallIds(body: unknown): RequestId[] {
  return requestsOf(body)
    .filter((m) => WRITE_TOOLS.has(toolOf(m) ?? ""))
    .map((m) => m.id);
}

/**
 * Charges a parsed body to the limiters: each message past the first takes one more token of the
 * caller's bucket (the chain took the first), each `register` call one of the address's
 * account-creation bucket. A batch the SDK refuses for its length is not charged past its first.
 * @throws EdgeError `rate_limited` (429 + `Retry-After`) when a bucket lacks the tokens (that bucket keeps them all).
 * @returns a JSON-RPC 400 `-32600` when the batch carries more `register` calls than the
 *   account-creation bucket ever holds (it could never pass); else null.
 */
function chargeBatch(c: Context<AppEnv>, body: unknown, limiters: McpLimiters): Response | null {
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length > SDK_MAX_BATCH) return null;
  const registers = messages.filter((m) => isCallOf(m, "register")).length;
  if (registers > limiters.accounts.capacity) {
    const message = `Invalid Request: a batch may carry at most ${limiters.accounts.capacity} register calls`;
    return c.json({ jsonrpc: "2.0", id: null, error: { code: -32600, message } }, 400);
  }
  if (messages.length > 1) takeOrRefuse(limiters.requests, bucketOf(c), messages.length - 1);
  if (registers > 0) limiters.accounts.take(addressOf(c.env), registers);
  return null;
}

/** JSON-RPC's code for a request whose params do not fit the method. */
const INVALID_PARAMS = -32602;

/**
 * The SDK validates a request's params with zod and answers a mismatch (`tools/call` with `arguments:
 * null`, no `params`) as -32603 "internal error" with the zod issues, pretty-printed, as the message
 * (probe13 A1): a client mistake reported as a server fault. Such an answer becomes -32602 Invalid
 * params naming the first issue's JSON path (`$.params.arguments`), the first 20 issues in `data.errors`.
 * Any other message is returned as it is (a real internal error stays -32603).
 */
export function invalidParamsOf(message: JSONRPCMessage): JSONRPCMessage {
  if (!("error" in message) || message.error.code !== -32603) return message;
  // a task a tools/call asks for, which this server does not serve (probe13 C9): the caller's params
  if (/does not support task/i.test(message.error.message))
    return {
      jsonrpc: "2.0",
      id: message.id,
      error: {
        code: INVALID_PARAMS,
        message: `Invalid params: $.params.task: this server runs tools at once (no tasks); send the call without task`,
        data: { path: "$.params.task" },
      },
    };
  let issues: unknown;
  try {
    issues = JSON.parse(message.error.message);
  } catch {
    return message; // not the SDK's zod dump: a real internal error
  }
  const zodIssue = (i: unknown): i is { path: (string | number)[]; message: string } =>
    typeof i === "object" &&
    i !== null &&
    Array.isArray((i as { path?: unknown }).path) &&
    typeof (i as { message?: unknown }).message === "string";
  if (!Array.isArray(issues) || issues.length === 0 || !issues.every(zodIssue)) return message;
  // at most MAX_DETAIL_ITEMS issues, as every refusal's lists (probe13 C12: a 200 KB call got 10 MB)
  const shown = issues.slice(0, MAX_DETAIL_ITEMS).map((i) => ({
    path: i.path.reduce<string>((at, k) => (typeof k === "number" ? `${at}[${k}]` : `${at}.${k}`), "$"),
    message: i.message.slice(0, 200),
  }));
  const first = shown[0]!;
  return {
    jsonrpc: "2.0",
    id: message.id,
    error: {
      code: INVALID_PARAMS,
      message: `Invalid params: ${first.path}: ${first.message}`,
      data:
        issues.length > shown.length
          ? { path: first.path, errors: shown, errors_total: issues.length, truncated: true }
          : { path: first.path, errors: shown },
    },
  };
}

/** The most bytes of JSON the params of a message other than `tools/call` may take (`initialize` needs ~1 KB). */
export const MAX_OTHER_PARAMS_BYTES = 16 * 1024;

/**
 * A body whose messages other than `tools/call` have params over {@link MAX_OTHER_PARAMS_BYTES} of
 * JSON, all of them together, is refused whole, 413 `-32600`, before the SDK validates it: the SDK
 * builds every zod issue of the params first (probe13 C12: an `initialize` with 100,000 wrong icons
 * held the event loop 2 s; probe D1-F12: the cap was per message, and a batch of 42 `initialize` of
 * 14 KB each, 595 KB, held it 12-26 s). Null otherwise. Tool arguments keep the body's limits
 * (answers are large).
 */
function largeParams(c: Context<AppEnv>, body: unknown): Response | null {
  let bytes = 0;
  for (const m of Array.isArray(body) ? body : [body]) {
    if (typeof m !== "object" || m === null) continue;
    const { method, params } = m as { method?: unknown; params?: unknown };
    if (method === "tools/call" || params === undefined) continue;
    bytes += Buffer.byteLength(JSON.stringify(params));
    if (bytes > MAX_OTHER_PARAMS_BYTES) {
      const message = `Invalid Request: the params of the messages other than tools/call are over ${MAX_OTHER_PARAMS_BYTES} bytes of JSON in all (at ${typeof method === "string" ? method.slice(0, 40) : "a message"}: ${bytes})`;
      return c.json(
        {
          jsonrpc: "2.0",
          id: null,
          error: {
            code: -32600,
            message,
            data: { limit: "mcp_params_bytes", limit_bytes: MAX_OTHER_PARAMS_BYTES },
          },
        },
        413,
      );
    }
  }
  return null;
}

/** The JSON path of the first own `__proto__` member in `v` (below `path`), or null. */
function protoPath(v: unknown, path: string): string | null {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = protoPath(v[i], `${path}[${i}]`);
      if (p !== null) return p;
    }
    return null;
  }
  if (typeof v !== "object" || v === null) return null;
  if (Object.prototype.hasOwnProperty.call(v, "__proto__")) return `${path}.__proto__`;
  for (const [k, x] of Object.entries(v)) {
    const p = protoPath(x, `${path}.${k}`);
    if (p !== null) return p;
  }
  return null;
}

/** Where a JSON-RPC answer is refused for the {@link AnswerBudget} (an implementation-defined server error). */
export const ANSWER_LIMIT_CODE = -32000;

/**
 * The answers of one HTTP request may total `limitBytes` of JSON (issue 13 re-probe: a 13 KB batch of
 * `award_evidence` calls got a 1.8 MB answer). Every byte of the answer counts (probe14 D1-F13: the
 * errors replacing answers were not counted): each message sent, errors included, with its comma or
 * bracket. Each request of the body still to be answered holds back the bytes of its limit error
 * ({@link AnswerBudget.expect}), so an answer is sent only when it, the answers before it and the
 * errors owed to the rest fit; then the total stays within the limit.
 *
 * The first answer is always sent whole (one call is answered as REST answers it); an answer that
 * does not fit, and every answer after it, is replaced by a JSON-RPC error naming the limit
 * (`data.limit: "mcp_answer_bytes"`), and the tool calls after it are not run
 * ({@link AnswerBudget.serial}). Tool calls run one at a time, in the batch's order, so which calls
 * are answered does not depend on timing. Each answer sent is charged by its size to the caller's
 * request bucket (`charge`), and refused when the tokens are not there (`data.limit: "answer_bytes"`,
 * counted like any answer; past the room left, the limit's error instead). Only where the first
 * answer, or the errors themselves (each echoes its request's id), take more than the limit does the
 * answer pass it: every request gets its answer.
 *
 * The answer of a write tool that ran ({@link WRITE_TOOLS}, the ids given to {@link sendWhole}) is
 * sent whole (counted, never replaced): the write has committed and its answer is the caller's only
 * copy of it (a started run's tasks, a new key). It is charged by its size all the same, as REST
 * charges a write's answer (probe10 R12: uncharged, one account pulled 90 MB of tasks in 3 s of
 * starts): the tokens not there are owed (`owe`, {@link chargeWriteAnswer}), and while they are, a
 * later write call of the batch is refused before it runs ({@link AnswerBudget.beforeWrite}) and the
 * caller's next request is 429. A write's answer that leaves no room in the budget spends it: the calls
 * after it are not run (probe28 A-F5: a batch of 5 run starts ran all 5, 50 MB in one answer), so a
 * batch's answer passes the limit by at most one write's answer (a run start's: one page of tasks). A write call the budget skipped was not run, and is answered with the
 * limit's error like any other.
 */
export class AnswerBudget {
  /** Bytes of the messages sent so far, each with its comma or bracket. */
  private spent = 0;
  private sent = 0;
  private exhausted = false;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly whole = new Set<RequestId>();
  /** The requests still to be answered (by id, with how many share it). */
  private readonly owed = new Map<RequestId, number>();
  /** The bytes of the limit errors owed to those requests, and the closing bracket of a batch. */
  private reserved = 0;
  /** Tool calls begun so far ({@link serial}). */
  private begun = 0;
  /**
   * @param beginBy the request's deadline (unix ms, `AppEnv.revealBy`): a tool call whose turn comes
   *   at or after it, once another call of the request has begun, is not begun ({@link serial})
   * @param charge takes an answer's bytes from the caller's request bucket as REST's answers are
   *   ({@link chargeAnswer}); throws EdgeError `rate_limited` when the tokens are not there.
   * @param owe charges a write's answer, owing what the bucket lacks ({@link chargeWriteAnswer}).
   * @param owing throws EdgeError `rate_limited` while the bucket owes ({@link refuseWhileOwing}).
   */
  constructor(
    readonly limitBytes: number,
    private readonly beginBy: number | undefined = undefined,
    private readonly charge: (bytes: number) => void = () => undefined,
    private readonly owe: (bytes: number) => void = () => undefined,
    private readonly owing: () => void = () => undefined,
  ) {}

  /**
   * The ids of the body's requests (messages with a method and an id: each is answered once), called
   * before any is answered: each holds back the bytes of its limit error until it is answered.
   */
  expect(ids: Iterable<RequestId>): void {
    let n = 0;
    for (const id of ids) {
      this.owed.set(id, (this.owed.get(id) ?? 0) + 1);
      this.reserved += this.limitErrorBytes(id);
      n++;
    }
    if (n > 1) this.reserved += 1; // a batch's answer is an array: its closing bracket
  }

  /**
   * Called by a write tool before it writes: throws EdgeError `rate_limited` (`answer_bytes`) while
   * the caller's bucket owes the tokens of an earlier write's answer, so the write is not run.
   */
  beforeWrite(): void {
    this.owing();
  }

  /**
   * Runs a tool call after the previous one; once the budget is spent it is not run (`skipped`). It
   * waits a turn of the event loop first: the SDK sends the previous call's answer (and {@link fit}
   * spends the budget on it) a few microtasks after that call returns, and a call decided before then
   * ran past a spent budget (a write committed, its answer refused). A call whose turn comes at or
   * after the request's deadline (`beginBy`), the calls before it having taken the time, is not begun
   * either: it is answered `late()` (its own refusal, by its id), so a batch is answered call by call
   * within the request's limit and nothing of it runs after its answer (probe21 A-F10: a batch of 16
   * writes on a locked SQLite store was answered 503 as a whole, no call's answer, and its calls went
   * on writing after it). The first call is always begun, as a single call is.
   */
  serial<T>(run: () => Promise<T>, skipped: T, late: () => T): Promise<T> {
    const next = this.queue
      .then(() => new Promise((resolve) => setImmediate(resolve)))
      .then(() => {
        if (this.exhausted) return skipped;
        if (this.begun > 0 && this.beginBy !== undefined && Date.now() >= this.beginBy) return late();
        this.begun++;
        return run();
      });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The requests whose answers are sent whole: the calls of {@link WRITE_TOOLS}. */
  sendWhole(ids: Iterable<RequestId>): void {
    for (const id of ids) this.whole.add(id);
  }

  /** The message to send instead of `message` (itself while the budget lasts, or for a write that ran). */
  fit(message: JSONRPCMessage): JSONRPCMessage {
    if (!("id" in message) || !("result" in message || "error" in message)) return message;
    this.answered(message.id);
    const skipped = "result" in message && isSkipped(message.result);
    const bytes = Buffer.byteLength(JSON.stringify(message)) + 1;
    if (!skipped && message.id !== undefined && this.whole.has(message.id)) {
      this.owe(bytes - 1);
      this.send(message, bytes);
      // a write's answer past the budget spends it: the calls after it are not run (probe28 A-F5: a
      // batch of 5 run starts ran all 5, each answer sent whole, 50 MB in one answer)
      if (this.spent + this.reserved >= this.limitBytes) this.exhausted = true;
      return message;
    }
    if (!this.exhausted && this.fits(bytes)) {
      try {
        this.charge(bytes - 1);
        return this.send(message, bytes);
      } catch (e) {
        if (!(e instanceof EdgeError) || e.code !== "rate_limited") throw e;
        const refusal: JSONRPCMessage = {
          jsonrpc: "2.0",
          id: message.id,
          error: { code: ANSWER_LIMIT_CODE, message: `${e.message} (answer_bytes)`, data: e.details },
        };
        const refusalBytes = Buffer.byteLength(JSON.stringify(refusal)) + 1;
        if (this.fits(refusalBytes)) return this.send(refusal, refusalBytes);
      }
    }
    this.exhausted = true;
    const error = this.limitError(message.id);
    return this.send(error, Buffer.byteLength(JSON.stringify(error)) + 1);
  }

  /** True when `bytes` more fit with the errors owed to the requests not yet answered (the first answer always does). */
  private fits(bytes: number): boolean {
    return this.sent === 0 || this.spent + bytes + this.reserved <= this.limitBytes;
  }

  /** Counts `message` as sent (`bytes` with its comma or bracket). */
  private send(message: JSONRPCMessage, bytes: number): JSONRPCMessage {
    this.spent += bytes;
    this.sent++;
    return message;
  }

  /** Releases what the request `id` held back: it is being answered. */
  private answered(id: RequestId | undefined): void {
    if (id === undefined) return;
    const n = this.owed.get(id);
    if (n === undefined) return;
    if (n === 1) this.owed.delete(id);
    else this.owed.set(id, n - 1);
    this.reserved -= this.limitErrorBytes(id);
  }

  /** The error that replaces an answer past the limit. */
  private limitError(id: RequestId | undefined): JSONRPCMessage {
    return {
      jsonrpc: "2.0",
      id: id as RequestId,
      error: {
        code: ANSWER_LIMIT_CODE,
        message: `answer limit: the answers of one request may total ${this.limitBytes} bytes (mcp_answer_bytes); send this call again in another request`,
        data: { limit: "mcp_answer_bytes", limit_bytes: this.limitBytes },
      },
    };
  }

  /** The bytes of {@link limitError} for `id`, with its comma or bracket. */
  private limitErrorBytes(id: RequestId): number {
    return Buffer.byteLength(JSON.stringify(this.limitError(id))) + 1;
  }
}

/** A body's requests ({@link isRequest}), in order. */
function requestsOf(body: unknown): { id: RequestId }[] {
  return (Array.isArray(body) ? body : [body]).filter(isRequest);
}

/** Whether a request is MCP's `initialize` (its answer carries the server's `instructions`). */
function isInitialize(m: { id: RequestId }): boolean {
  return (m as { method?: unknown }).method === "initialize";
}

/** The ids of a body's requests: each gets one answer. */
function requestIds(body: unknown): RequestId[] {
  return requestsOf(body).map((m) => m.id);
}

async function handle(c: Context<AppEnv>, slug: string | null, limiters: McpLimiters): Promise<Response> {
  if (!(MCP_ALLOW as readonly string[]).includes(c.req.method))
    throw new EdgeError(
      "method_not_allowed",
      `${c.req.method} is not allowed on ${c.req.path}`,
      { allow: [...MCP_ALLOW] },
      { allow: MCP_ALLOW.join(", ") },
    );
  readQuery(c, []); // the endpoints take no query: 400 `invalid_query` naming the parameter, as REST (probe8 P5)
  // one benchmark's endpoint exists only for a benchmark: 404 `unknown_benchmark` as REST (probe13 note)
  if (slug !== null) await c.var.domain.assertBenchmark(slug);
  const over = declaredTooLarge(c);
  if (over) return over;
  const who = bucketOf(c);
  const answers = new AnswerBudget(
    limiters.answerBytes,
    c.var.revealBy,
    (bytes) => chargeAnswer(limiters.requests, who, bytes, limiters.answerBytesPerToken),
    (bytes) => chargeWriteAnswer(limiters.requests, who, bytes, limiters.answerBytesPerToken),
    () => refuseWhileOwing(limiters.requests, who),
  );
  const tools: ToolContext = {
    domain: c.var.domain,
    principal: c.var.principal,
    slug,
    baseUrl: c.var.baseUrl,
    network: clientNetworkOf(c.env),
    answerBytes: limiters.answerBytes,
    revealBy: c.var.revealBy,
    answers,
    keyStillWorks: () => assertKeyStillWorks(c),
  };
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(answers.fit(invalidParamsOf(message)), options);
  const parsed = c.req.method === "POST" ? await strictRpcBody(c) : undefined;
  if (parsed instanceof Response) return parsed;
  if (parsed) tools.sentArguments = (id) => sentArgumentsOf(parsed.value, parsed.exact, id);
  const invalid = parsed ? invalidMessage(c, parsed.value, parsed.exact) : null;
  if (invalid) return invalid;
  const overParams = parsed ? largeParams(c, parsed.value) : null;
  if (overParams) return overParams;
  const overBatch = parsed ? chargeBatch(c, parsed.value, limiters) : null;
  if (overBatch) return overBatch;
  if (parsed) {
    answers.sendWhole(writeCallIds(parsed.value));
    answers.expect(requestIds(parsed.value));
  }
  const refused = parsed && c.var.principal === null ? anonymousKeyedCall(c, parsed.value) : null;
  if (refused) return refused;
  const request = acceptedRequest(c);
  if (request instanceof Response) return request;
  const initializing = parsed !== undefined && requestsOf(parsed.value).some(isInitialize);
  // the SDK's low-level server: `registerTools` answers tools/list and tools/call on it (public API
  // only); the tool list never changes, so no `listChanged` (the SDK's `McpServer` claimed it)
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: {} },
    instructions:
      "Compete in five calls: register with your withdrawal_address (the 0x address your prize credit goes to; " +
      "with a key, skip register and call set_withdrawal_address once), benchmark_corpus, benchmark_start_run, " +
      "benchmark_submit_answers, benchmark_finalize_run. A service that pays prizes refuses a run start without " +
      "a withdrawal address. Read the corpus before starting: the clock starts at run start." +
      // read only for an initialize (what carries the instructions), not on every call
      chainlessMcpInstructions(initializing && (await c.var.domain.chainlessOnChainStore())),
  });
  registerTools(server, tools);
  await server.connect(transport);
  try {
    const res = await transport.handleRequest(
      request,
      parsed === undefined ? undefined : { parsedBody: parsed.value },
    );
    return Array.isArray(parsed?.value) ? batchAnswerOf(res) : res;
  } finally {
    void server.close();
  }
}

/** What the SDK's transport asks a POST's `Accept` to name, both (a substring check of its own). */
const SDK_ACCEPT = "application/json, text/event-stream";

/**
 * Whether an `Accept` header admits the media type `type` (`main/sub`, lower case) by RFC 9110 12.5.1: the
 * most specific of its ranges that matches (the type itself, then `main/*`, then `*` + `/*`) decides, by
 * its `q` (0 refuses; parameters other than `q` are ignored; a malformed `q` counts as 1; probe37 V-N1: an
 * explicit `application/json;q=0` beside a wildcard was taken). A missing header, or one of empty elements
 * only, admits every type; no matching range admits none.
 */
function acceptAdmits(accept: string | undefined, type: string): boolean {
  const main = type.slice(0, type.indexOf("/"));
  const ranges = (accept ?? "")
    .split(",")
    .map((element) => element.split(";").map((p) => p.trim().toLowerCase()))
    .filter(([range = ""]) => range !== "");
  if (ranges.length === 0) return true;
  const specificity = (range: string): number =>
    range === type ? 3 : range === `${main}/*` ? 2 : range === "*/*" ? 1 : 0;
  let best = 0;
  let admitted = false;
  for (const [range = "", ...params] of ranges) {
    const rank = specificity(range);
    if (rank === 0 || rank < best) continue;
    const q = params.find((p) => /^q\s*=/.test(p));
    const refused = q !== undefined && /^q\s*=\s*0(?:\.0{0,3})?$/.test(q);
    // among ranges of one specificity, any that admits admits
    admitted = rank > best ? !refused : admitted || !refused;
    best = rank;
  }
  return admitted;
}

/**
 * The request the SDK's transport is handed, its `Accept` normalised (probe37 A-N2): the endpoints
 * answer JSON only (stateless, `enableJsonResponse`), so an `Accept` that admits `application/json`
 * (`*` + `/*`, curl's and most libraries' default; `application/*`; `application/json`; none at all) is
 * sent on as `application/json, text/event-stream`, which the SDK requires of every POST (it refused
 * all of these 406). One that admits no JSON (`text/html`, `text/event-stream` alone) is refused here:
 * 406 with a JSON-RPC error `-32000` (`id: null`, `data.accept: "application/json"`), saying what to
 * send. A request the SDK would take as sent is handed on as it came.
 */
function acceptedRequest(c: Context<AppEnv>): Request | Response {
  const raw = c.req.raw;
  if (c.req.method !== "POST") return raw;
  const accept = c.req.header("accept");
  if (!acceptAdmits(accept, "application/json")) {
    const message =
      "Not Acceptable: this endpoint answers application/json only (JSON-RPC over Streamable HTTP, stateless JSON responses), and the request's Accept admits no JSON: send 'Accept: application/json, text/event-stream' (or application/json, */*, or no Accept)";
    const error = { code: SERVER_ERROR, message, data: { accept: "application/json" } };
    return c.json({ jsonrpc: "2.0", id: null, error }, 406);
  }
  if (accept?.includes("application/json") && accept.includes("text/event-stream")) return raw;
  const headers = new Headers(raw.headers);
  headers.set("accept", SDK_ACCEPT);
  // no body: the SDK reads none (the body was parsed here, or its media type is refused 415 unread)
  return new Request(raw.url, { method: raw.method, headers });
}

/**
 * The answer to a batch (a JSON array of messages) as JSON-RPC 2.0 (section 6) has it: an array of the
 * responses, however many there are. The SDK answers a batch whose requests make one response with
 * that bare object (its JSON mode sends `responses[0]` when there is one); such an answer is put in
 * an array here (mcp nit: `[{one tools/call}]` was answered `{...}`). Any other answer is `res` itself:
 * 202 without a body (notifications only), a refusal of the whole body (one object, `id: null`),
 * an array already. A single message (no array) is answered with an object, as before.
 */
async function batchAnswerOf(res: Response): Promise<Response> {
  if (res.status !== 200 || !/application\/json/i.test(res.headers.get("content-type") ?? "")) return res;
  const text = await res.text();
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  return new Response(text.startsWith("{") ? `[${text}]` : text, { status: res.status, headers });
}

/**
 * The SDK parses a request with `JSON.parse` (a duplicate key: the last wins; a lone surrogate:
 * kept), so a JSON body is read here by the strict SPEC 2 parser first, and the SDK is handed what
 * `JSON.parse` makes of the (valid) text. A body the parser refuses is a JSON-RPC parse error,
 * 400 `{code: -32700, data: {path, reason}}`; one over its limits (nesting, members of an object,
 * items of an array, values, distinct member names, counted while parsing) is 413 `{code: -32600,
 * data: {path, reason, limit, max}}`, one over its bytes 413 `{code: -32600, data: {limit_bytes}}`.
 * The limits are the caller's ({@link bodyLimitsOf}: 64 KiB without an API key, as an anonymous
 * caller cannot submit answers); the bytes are counted while the body streams, the read stops past
 * them (`bodyBytes`), and a client closing mid-body is `request_aborted` (never logged). Other media
 * types are left to the SDK (415), which refuses them before reading, and the body stays unread
 * ({@link closeIfUnread}).
 */
async function strictRpcBody(
  c: Context<AppEnv>,
): Promise<{ value: unknown; exact: JsonValue } | Response | undefined> {
  // Any media type naming application/json (a superset of what the SDK accepts): the SDK never parses
  // a body itself, and refuses the other media types (415) before it would.
  if (!/application\/json/i.test(c.req.header("content-type") ?? "")) return undefined;
  let bytes: Uint8Array;
  let exact: JsonValue;
  try {
    assertUtf8Uncompressed(c); // as REST: a charset other than UTF-8, a Content-Encoding: 415 (probe13 C4)
    // counted as it streams: the read stops at the caller's limit (probe D1-F2: an anonymous chunked
    // body was read up to 4 MiB), a client closing mid-body is `request_aborted` (D1-F6)
    bytes = await bodyBytes(c);
    exact = strictParse(bytes, bodyLimitsOf(c));
  } catch (e) {
    if (!(e instanceof EdgeError)) throw e;
    if (e.code === "body_too_large") return tooLarge(c, e);
    if (e.code === "invalid_json") {
      const error = { code: -32700, message: `Parse error: ${e.message}`, data: e.details };
      return c.json({ jsonrpc: "2.0", id: null, error }, 400);
    }
    return rpcRefusal(c, e, e.code === "unsupported_media_type" ? INVALID_REQUEST : SERVER_ERROR);
  }
  return { value: JSON.parse(Buffer.from(bytes).toString("utf8")) as unknown, exact };
}

/**
 * The `params.arguments` of the `tools/call` request `id` of a body as the strict parser read them
 * (`exact`: numbers with the text sent), found by its position in `value` (what `JSON.parse` made of
 * the same bytes, which the SDK was handed; the ids of a batch are unique, `invalidMessage`).
 */
function sentArgumentsOf(value: unknown, exact: JsonValue, id: RequestId): JsonValue | undefined {
  const messages = Array.isArray(value) ? value : [value];
  const sent = Array.isArray(exact) ? exact : [exact];
  const i = messages.findIndex(
    (m) =>
      isJsonObject(m as JsonValue) &&
      (m as { id?: unknown }).id === id &&
      (m as { method?: unknown }).method === "tools/call",
  );
  const message = i < 0 ? undefined : sent[i];
  const params = isJsonObject(message) ? message.params : undefined;
  return isJsonObject(params) ? params.arguments : undefined;
}

/** JSON-RPC's implementation-defined server error (a refusal that is not the message's fault: busy, aborted, timed out). */
export const SERVER_ERROR = -32000;

/**
 * An edge refusal as a JSON-RPC error: `{code, message, data: details}` with the status of the
 * refusal's code (`statusOf`, the one table) and its headers (`Retry-After`, `Connection`).
 */
export function rpcRefusal(c: Context<AppEnv>, e: EdgeError, code: number): Response {
  const message = code === INVALID_REQUEST ? `Invalid Request: ${e.message}` : e.message;
  const error = { code, message, data: e.details };
  return c.json({ jsonrpc: "2.0", id: null, error }, statusOf(e.code) as ContentfulStatusCode, e.headers);
}

/**
 * The body limits of the caller ({@link mcpBodyLimits}), their bytes at most the app's body limit for
 * this request (the body-limit middleware's budget: `limits.bodyBytes` with a key).
 */
function bodyLimitsOf(c: Context<AppEnv>): BodyLimits {
  const limits = mcpBodyLimits(c.var.principal !== null);
  const bytes = Math.min(limits.bytes, c.var.bodyBudget?.limitBytes ?? Infinity);
  return bytes === limits.bytes ? limits : { ...limits, bytes };
}

/** A body over a limit as JSON-RPC: 413 `{code: -32600, data: e.details}` with the refusal's headers. */
function tooLarge(c: Context<AppEnv>, e: EdgeError): Response {
  return rpcRefusal(c, e, INVALID_REQUEST);
}

/**
 * A POST whose declared `Content-Length` is over the caller's limit, refused from the headers before
 * anything reads the body (probe 9 Q2: an anonymous /mcp body of 70,000 declared and never sent was
 * held until the request timeout; probe D1-F2: one over the app's limit was answered REST-shaped,
 * naming 4 MiB); null otherwise.
 */
function declaredTooLarge(c: Context<AppEnv>): Response | null {
  if (c.req.method !== "POST") return null;
  try {
    refuseDeclaredLength(c, bodyLimitsOf(c));
    return null;
  } catch (e) {
    if (!(e instanceof EdgeError) || e.code !== "body_too_large") throw e;
    return tooLarge(c, e);
  }
}

/**
 * Without a key, a `tools/call` of a tool that needs one ({@link KEYED_TOOLS}) is answered here with the
 * tool error `unauthenticated` (rule `key_required`, as REST's 401), before the tool validates its
 * arguments: authentication comes first. In a batch every such call is refused the same way and the
 * batch is answered here only when all its messages are such calls, each request by its id (a
 * notification gets no response, JSON-RPC 2.0); a mixed batch goes to the SDK, whose tools refuse the
 * anonymous calls themselves (after validating their arguments).
 *
 * Input without a request (notifications and responses only) has no id to answer by: the MCP
 * Streamable HTTP transport answers it 202 without a body when it is accepted (the SDK does, and runs
 * no tool: `tools/call` is no notification), an HTTP error status when it is not. Anonymous input of
 * that kind carrying a keyed `tools/call` is refused whole: 401 with `WWW-Authenticate` and a
 * JSON-RPC error `-32000` without an id (`data`: the refusal's details, rule `key_required`), nothing
 * run (mcp nit: it was answered 200 with a tool error whose id was null).
 */
function anonymousKeyedCall(c: Context<AppEnv>, body: unknown): Response | null {
  const keyed = (m: unknown): m is { id?: unknown } => {
    const tool = toolOf(m);
    return tool !== null && KEYED_TOOLS.has(tool);
  };
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  const requests = messages.filter(isRequest);
  if (requests.length === 0) {
    const first = messages.find(keyed);
    if (first === undefined) return null; // accepted: the SDK answers 202
    const refusal = errorResponseOf(refusalOf(() => requirePrincipal(null)));
    const error = {
      code: SERVER_ERROR,
      message: `${refusal.body.error.message}: ${toolOf(first)} needs one (send 'Authorization: Bearer <key>'); a notification, nothing was run`,
      data: refusal.body.error.details,
    };
    return c.json({ jsonrpc: "2.0", id: null, error }, refusal.status as ContentfulStatusCode, {
      ...refusal.headers,
      "www-authenticate": BEARER_CHALLENGE,
    });
  }
  if (!messages.every(keyed)) return null;
  const result = toolErrorOf(refusalOf(() => requirePrincipal(null)));
  const answers = requests.map((m) => ({ jsonrpc: "2.0", id: m.id, result }));
  return c.json(Array.isArray(body) ? answers : answers[0], 200);
}

/** A JSON-RPC request (a method and an id), as {@link invalidMessage} let it through. */
function isRequest(m: unknown): m is { id: RequestId } {
  if (typeof m !== "object" || m === null || !("method" in m)) return false;
  const id = (m as { id?: unknown }).id;
  return typeof id === "string" || typeof id === "number";
}

/** What `f` throws (the refusal of a rule that lives elsewhere). */
function refusalOf(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("expected a refusal");
}

/**
 * `res` with `Connection: close` when the request's body was never read (a 415 for another media type,
 * a refusal from the headers): the connection cannot carry another request, and closing it means the
 * rest of a large body is never read (probe D1-F2: a 4 MB chunked text/plain body was read whole).
 */
function closeIfUnread(c: Context<AppEnv>, res: Response): Response {
  if (c.req.method !== "POST" || (c.req.bodyCache as { arrayBuffer?: unknown }).arrayBuffer !== undefined)
    return res;
  try {
    res.headers.set("connection", "close");
    return res;
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    const copy = new Response(res.body, res); // immutable headers: a mutable copy
    copy.headers.set("connection", "close");
    return copy;
  }
}

/** Mounts both endpoints with the {@link MCP_METHODS}. */
export function mountMcp(app: OpenAPIHono<AppEnv>, limiters: McpLimiters): void {
  const [all, one] = MCP_ROUTES;
  for (const method of MCP_METHODS) {
    app.on(method, all, async (c) => closeIfUnread(c, await handle(c, null, limiters)));
    app.on(method, one, async (c) => {
      checkPathParams(c, ["slug"]); // as every REST route's (probe18 F4)
      return closeIfUnread(c, await handle(c, c.req.param("slug"), limiters));
    });
  }
}
