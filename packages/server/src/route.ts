/**
 * One way to declare a route: its OpenAPI 3.1 description and its handler come from the same zod
 * schemas, so `/api/v1/openapi.json` cannot drift from what the server accepts. Bodies are read here:
 * malformed JSON is 400 `invalid_json` naming the position, a wrong type is 422 `invalid_request`
 * naming the JSON path (`$.answers[0].ordinal`), and every other refusal is the domain's. A route that
 * needs a key refuses a request without one (401) before reading its body.
 */
import {
  isEvidenceError,
  isJsonFloat,
  isJsonObject,
  parseJson,
  type JsonFloat,
  type JsonValue,
} from "@bench-bounty/evidence";
import {
  firstInvalidUtf8,
  jsonPathAtByte,
  PlatformError,
  requirePrincipal,
  sentNumberText,
  TEXT_PROBLEM_TEXT,
  textProblem,
} from "@bench-bounty/platform";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "./env.js";
import { SMALL_BODY, type BodyLimits } from "./body-limits.js";
import { EdgeError, MAX_DETAIL_ITEMS } from "./errors.js";
import { bodyBytes } from "./node-body.js";
import { readQuery } from "./query.js";
import { assertKeyStillWorks } from "./middleware/auth.js";

/**
 * How a body is handed to the handler once the strict parser accepted it: `json` (what JSON.parse
 * makes of it: plain numbers) or `lossless` (exact numbers, for datasets); `bytes`: unparsed (a JSON
 * media type checked), for a handler that parses off the event loop (the declared `body` schema then
 * documents the route and the handler applies it).
 */
export type BodyMode = "json" | "lossless" | "bytes";

/** The declaration of one route. */
export interface RouteSpec<B extends z.ZodType | undefined> {
  method: "get" | "post" | "put" | "delete";
  /** Hono path (`/api/v1/benchmarks/:slug`). */
  path: string;
  summary: string;
  tags: string[];
  /**
   * Whether a key is needed. `required`: a request without one is refused 401 (`key_required`) before
   * its body is read, so authentication always comes before validation (a key nobody holds is already
   * 403 in the auth middleware); the domain enforces it again, and every owner rule.
   */
  auth?: "none" | "optional" | "required";
  body?: B;
  /** Query parameters (documentation; the handler reads them). */
  query?: z.ZodObject;
  bodyMode?: BodyMode;
  /** The body may be absent (an empty object is validated then). */
  bodyOptional?: boolean;
  /**
   * What the body may cost to parse (default {@link SMALL_BODY}; a `lossless` dataset body is not
   * bounded here).
   */
  bodyLimits?: BodyLimits;
  /** Success status and the schema of its body. */
  ok: { status: number; schema?: z.ZodType; description: string; contentType?: string };
  /** Error statuses this route may answer (documentation). */
  errors?: number[];
  /**
   * `sent`: the strict parser's exact value of the body (`json` and `lossless` modes; else undefined),
   * whose numbers keep the text sent ({@link numbersAsSent}).
   */
  handler: (
    c: Context<AppEnv>,
    body: B extends z.ZodType ? z.infer<B> : undefined,
    sent?: JsonValue,
  ) => Promise<Response>;
}

/** The `$.a[0].b` form of a zod issue path. */
export function jsonPathOf(path: readonly PropertyKey[]): string {
  return (
    "$" +
    path
      .map((k) =>
        typeof k === "number"
          ? `[${k}]`
          : /^[A-Za-z_][A-Za-z0-9_]*$/.test(String(k))
            ? `.${String(k)}`
            : `[${JSON.stringify(String(k))}]`,
      )
      .join("")
  );
}

/** One issue of a body's validation, as served in `details.errors`. */
interface BodyIssue {
  path: string;
  code: string;
  message: string;
}

/** A zod issue (the items of `ZodError.issues`). */
type ZodIssue = z.core.$ZodIssue;

/** How many of the served issues one zod issue makes: an unknown member is one per key. */
const issueCount = (i: ZodIssue): number => (i.code === "unrecognized_keys" ? i.keys.length : 1);

/**
 * The first `max` issues of a failed validation as `{path, code, message}`, and the count of all; an
 * unknown member (a strict object's `unrecognized_keys`) is one issue per key, at the key's own path
 * (`$.withdrawl_address`). Only the issues served are built (probe 7 N1: 1,248 objects of 240 unknown
 * members made ~300,000 issue objects, ~450 ms, of which the answer serves {@link MAX_DETAIL_ITEMS}).
 */
function issuesOf(zodIssues: readonly ZodIssue[], max: number): { issues: BodyIssue[]; total: number } {
  const issues: BodyIssue[] = [];
  let total = 0;
  for (const i of zodIssues) {
    total += issueCount(i);
    if (i.code !== "unrecognized_keys") {
      if (issues.length < max) issues.push({ path: jsonPathOf(i.path), code: i.code, message: i.message });
      continue;
    }
    for (const k of i.keys) {
      if (issues.length >= max) break;
      issues.push({
        path: jsonPathOf([...i.path, k]),
        code: i.code,
        message: `unknown member ${JSON.stringify(k)} (a misspelt name?)`,
      });
    }
  }
  return { issues, total };
}

/** The zod definition of a schema (its `type` and, per type, `shape`, `innerType` or `element`). */
interface SchemaDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
}
const defOf = (schema: z.ZodType): SchemaDef => schema.def as unknown as SchemaDef; // zod 4's public `def`

/**
 * The issues of the items of the body's large arrays, checked one item at a time, and whether the
 * check stopped: the members of an object body whose schema is an array (optional or not) of items
 * that can fail, holding more than `max` items, until more than `max` issues are found. zod's
 * `safeParse` of the whole body builds every issue with its message before the 422 keeps `max` of
 * them (probe D1-F3: 100,000 zeros as answers held the event loop ~1 s, 100,000 `{}` 2-3 s); zod has
 * no option to stop early.
 */
function largeArrayIssues(
  schema: z.ZodType,
  value: unknown,
  max: number,
): { issues: ZodIssue[]; stopped: boolean } {
  const issues: ZodIssue[] = [];
  const shape = defOf(schema).type === "object" ? defOf(schema).shape : undefined;
  if (shape === undefined || typeof value !== "object" || value === null || Array.isArray(value))
    return { issues, stopped: false };
  let count = 0;
  for (const [key, member] of Object.entries(shape)) {
    const items = (value as Record<string, unknown>)[key];
    if (!Array.isArray(items) || items.length <= max) continue;
    let array = defOf(member);
    while (array.type === "optional" && array.innerType) array = defOf(array.innerType);
    const element = array.type === "array" ? array.element : undefined;
    if (element === undefined || ["unknown", "any"].includes(defOf(element).type)) continue;
    for (let i = 0; i < items.length; i++) {
      const r = element.safeParse(items[i]);
      if (r.success) continue;
      for (const issue of r.error.issues) {
        issues.push({ ...issue, path: [key, i, ...issue.path] });
        count += issueCount(issue);
      }
      if (count > max) return { issues, stopped: true };
    }
  }
  return { issues, stopped: false };
}

/** The zod definition members {@link sentIntegerError} walks (zod 4's public `def`, by type). */
interface WalkDef extends SchemaDef {
  options?: z.ZodType[];
  in?: z.ZodType;
  valueType?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
  items?: z.ZodType[];
  rest?: z.ZodType | null;
}

/** zod types whose `innerType` is the schema of the same value. */
const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "readonly", "catch", "nonoptional"]);

/**
 * The first integer member of a body written as a number that is not the integer it reads as, and
 * why: the fields of `schema` that are integers (`z.number().int()`, at any depth: objects, arrays,
 * records, unions, optional) are looked up in `exact`, the strict parser's value of the same body, and
 * a {@link JsonFloat} or bigint there (a number written with a fraction or exponent, or an integer
 * beyond 2^53-1) is judged by the platform's one rule of a number as sent (`sentNumberText`):
 * `2.0000000000000001` reads as 2 and `9007199254740993` as ...992 under `JSON.parse` (probe24 num:
 * a submission's ordinal was taken as 2), while `2.0` and `1E2` are the integers they read as. A
 * member of a union also taking a string (a `bounty_id`) is told to send a decimal string.
 * @returns `{path, message}` (`path` as `$.answers[0].ordinal`), or null
 */
export function sentIntegerError(
  schema: z.ZodType,
  exact: JsonValue | undefined,
  path: readonly PropertyKey[] = [],
  asString = false,
): { path: string; message: string } | null {
  if (exact === undefined) return null;
  const def = defOf(schema) as WalkDef;
  if (WRAPPERS.has(def.type) && def.innerType) return sentIntegerError(def.innerType, exact, path, asString);
  switch (def.type) {
    case "number": {
      const format = (schema as z.ZodNumber).format;
      if (format === null || !format.includes("int")) return null;
      if (!isJsonFloat(exact) && typeof exact !== "bigint") return null;
      const where = jsonPathOf(path);
      const text = sentNumberText(where, exact, { asString, integer: true });
      return typeof text === "object" ? { path: where, message: text.error } : null;
    }
    case "pipe":
      return def.in ? sentIntegerError(def.in, exact, path, asString) : null;
    case "union": {
      const options = def.options ?? [];
      const strings = options.some((o) => defOf(o).type === "string");
      for (const o of options) {
        const found = sentIntegerError(o, exact, path, strings);
        if (found) return found;
      }
      return null;
    }
    case "intersection":
      return (
        (def.left && sentIntegerError(def.left, exact, path)) ??
        (def.right && sentIntegerError(def.right, exact, path)) ??
        null
      );
    case "object": {
      if (!isJsonObject(exact)) return null;
      for (const [key, member] of Object.entries(def.shape ?? {})) {
        if (!Object.hasOwn(exact, key)) continue;
        const found = sentIntegerError(member, exact[key], [...path, key]);
        if (found) return found;
      }
      return null;
    }
    case "record": {
      if (!isJsonObject(exact) || !def.valueType) return null;
      for (const [key, value] of Object.entries(exact)) {
        const found = sentIntegerError(def.valueType, value, [...path, key]);
        if (found) return found;
      }
      return null;
    }
    case "array":
    case "tuple": {
      if (!Array.isArray(exact)) return null;
      for (let i = 0; i < exact.length; i++) {
        const item = def.type === "array" ? def.element : (def.items?.[i] ?? def.rest ?? undefined);
        const found = item ? sentIntegerError(item, exact[i], [...path, i]) : null;
        if (found) return found;
      }
      return null;
    }
    default:
      return null;
  }
}

/**
 * Validates a parsed body; 422 `invalid_request` naming the first JSON path (an unknown member's own
 * path), the first {@link MAX_DETAIL_ITEMS} issues in `details.errors` (more: their count in
 * `details.errors_total` and `truncated: true`, as every refusal's lists, `capDetails`). The items of
 * a large array member are checked one by one first, and the check stops once more issues are found
 * than the answer serves (probe D1-F3): the answer then lists the first of them and says
 * `errors_total_at_least` (the issues found; the rest were not looked for) instead of `errors_total`.
 * Given `exact` (the strict parser's value of the same body), an integer field written as a number
 * that is not the integer it reads as is refused first, naming its path ({@link sentIntegerError}).
 * @throws EdgeError 422 `invalid_request`, `details: {path, errors, errors_total? | errors_total_at_least?, truncated?}`
 */
export function validateBody<S extends z.ZodType>(schema: S, value: unknown, exact?: JsonValue): z.infer<S> {
  const inexact = sentIntegerError(schema, exact);
  if (inexact !== null)
    throw new EdgeError("invalid_request", inexact.message, {
      path: inexact.path,
      errors: [{ path: inexact.path, code: "inexact_number", message: inexact.message }],
    });
  const early = largeArrayIssues(schema, value, MAX_DETAIL_ITEMS);
  if (early.stopped) {
    const { issues: errors, total } = issuesOf(early.issues, MAX_DETAIL_ITEMS);
    const first = errors[0]!;
    throw new EdgeError("invalid_request", `${first.path}: ${first.message}`, {
      path: first.path,
      errors,
      errors_total_at_least: total,
      truncated: true,
    });
  }
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const { issues: errors, total } = issuesOf(r.error.issues, MAX_DETAIL_ITEMS);
  const first = errors[0]!;
  throw new EdgeError(
    "invalid_request",
    `${first.path}: ${first.message}`,
    total > errors.length
      ? { path: first.path, errors, errors_total: total, truncated: true }
      : { path: first.path, errors },
  );
}

/** The parser's codes of a body over its {@link BodyLimits}, and the limit each one names. */
const SHAPE_LIMIT_OF = {
  nesting_too_deep: "maxDepth",
  too_many_members: "maxMembers",
  too_many_items: "maxItems",
  too_many_values: "maxValues",
  too_many_key_names: "maxKeyNames",
} as const;

/**
 * @param unread the body is left unread: the answer says `Connection: close` (the server then drops
 *   the connection; a client must not send its next request on it).
 * @throws EdgeError 413 `body_too_large` naming `limits.bytes` (`details.limit_bytes`).
 */
function refuseBytes(limits: BodyLimits, unread = false): never {
  throw new EdgeError(
    "body_too_large",
    `request body over ${limits.bytes} bytes for this route`,
    { limit_bytes: limits.bytes },
    unread ? { connection: "close" } : undefined,
  );
}

/**
 * A declared `Content-Length` (without Transfer-Encoding) over the route's `limits.bytes` is refused
 * from the headers, before the body is read (probe 7 N8: 70,000 declared on a 64 KiB route and never
 * sent held the connection with no answer; the app-wide limit only checks 4 MiB from the headers).
 * @throws EdgeError 413 `body_too_large` (`details.limit_bytes`)
 */
export function refuseDeclaredLength(c: Context<AppEnv>, limits: BodyLimits): void {
  const declared = c.req.header("content-length");
  if (declared === undefined || c.req.header("transfer-encoding") !== undefined) return;
  if (parseInt(declared, 10) > limits.bytes) refuseBytes(limits, true);
}

/**
 * Parses a body's bytes with the strict SPEC 2 parser (the REST routes and the MCP endpoint), within
 * `limits` when given: its bytes first, then its depth, members per object, items per array, values
 * of the whole body (members and items together) and distinct member names of the whole body, counted
 * while parsing (the parse stops at the first one over).
 * @throws EdgeError 400 `invalid_json`, `details: {path, reason}` (the parser's code and JSON path;
 *   invalid UTF-8: `reason: "invalid_utf8"`, `byte_offset` and the `path` of the value holding the byte,
 *   never replaced with U+FFFD)
 * @throws EdgeError 413 `body_too_large`: over `limits.bytes` (`details.limit_bytes`), or over a shape
 *   limit (`details: {path, reason, limit, max}`: `reason` the parser's code, `limit` the
 *   {@link BodyLimits} field)
 */
export function strictParse(bytes: Uint8Array, limits?: BodyLimits): JsonValue {
  if (limits !== undefined && bytes.length > limits.bytes) refuseBytes(limits);
  const badByte = firstInvalidUtf8(bytes);
  if (badByte >= 0) {
    // the value holding the byte (`$.rows[3].payload.x`): a dataset body is often one line (probeD3 F5)
    const path = jsonPathAtByte(bytes, badByte, limits);
    throw new EdgeError(
      "invalid_json",
      `the body is not UTF-8: invalid byte at offset ${badByte} (${path})`,
      {
        path,
        reason: "invalid_utf8",
        byte_offset: badByte,
      },
    );
  }
  try {
    return parseJson(bytes, limits);
  } catch (e) {
    if (!isEvidenceError(e)) throw e;
    if (limits !== undefined && e.code in SHAPE_LIMIT_OF) {
      const limit = SHAPE_LIMIT_OF[e.code as keyof typeof SHAPE_LIMIT_OF];
      throw new EdgeError("body_too_large", `the body is over a limit of this route: ${e.message}`, {
        path: e.path,
        reason: e.code,
        limit,
        max: limits[limit],
      });
    }
    throw new EdgeError("invalid_json", `the body is not valid JSON: ${e.message}`, {
      path: e.path,
      reason: e.code,
    });
  }
}

/**
 * Reads and parses the body. Every JSON body's bytes are read by the strict parser of SPEC 2
 * (invalid UTF-8, a duplicate key, a lone surrogate, NaN, trailing data: 400 `invalid_json` with
 * `details.path` and `details.reason`, the parser's code); `json` mode then hands the handler what
 * `JSON.parse` makes of the same (valid) text, `lossless` mode the parser's exact value. `exact` is
 * the parser's value in both modes (a number with its text sent: {@link numbersAsSent}).
 * @throws 415 `unsupported_media_type`, 400 `invalid_json`
 */
export async function readBody(
  c: Context<AppEnv>,
  mode: Exclude<BodyMode, "bytes">,
  optional: boolean,
  limits?: BodyLimits,
): Promise<{ value: unknown; exact: JsonValue }> {
  if (limits !== undefined) refuseDeclaredLength(c, limits);
  const bytes = await bodyBytes(c, limits?.bytes);
  if (optional && /^[ \t\r\n]*$/.test(Buffer.from(bytes).toString("latin1"))) return { value: {}, exact: {} }; // JSON white space only
  assertJsonType(c);
  const exact = strictParse(bytes, limits);
  return {
    value: mode === "lossless" ? exact : (JSON.parse(Buffer.from(bytes).toString("utf8")) as unknown),
    exact,
  };
}

/**
 * The members `names` of a body's top-level object that are JSON numbers with a fraction or an
 * exponent, or integers beyond 2^53-1, as the strict parser read them ({@link JsonFloat}: the text
 * sent; a bigint: the digits sent, probe22), for a `json`-mode
 * handler whose domain keeps a number only as sent (publish's `tolerance` and `public_fraction`,
 * probe21 A-F2: `JSON.parse` reads `1e-400` as 0). The zod schema has checked the members' types.
 */
export function numbersAsSent(
  sent: JsonValue | undefined,
  names: readonly string[],
): Record<string, JsonFloat | bigint> {
  if (!isJsonObject(sent)) return {};
  // a JsonFloat carries the text sent; a bigint is an integer beyond 2^53-1, its digits as sent
  return Object.fromEntries(
    names.flatMap((n) => (isJsonFloat(sent[n]) || typeof sent[n] === "bigint" ? [[n, sent[n]]] : [])),
  );
}

/**
 * @throws EdgeError 415 `unsupported_media_type` unless the request says it sends JSON: one media type,
 *   `application/json` or `application/<x>+json`, with parameters after `;` (probe34 A-N2:
 *   `application/json-seq` and `application/json, text/plain` were read as JSON); {@link assertUtf8Uncompressed} too
 */
function assertJsonType(c: Context<AppEnv>): void {
  const type = c.req.header("content-type") ?? "";
  const media = type.split(";", 1)[0]!.trim();
  if (!/^application\/([a-z0-9.-][a-z0-9.+-]*\+)?json$/i.test(media))
    throw new EdgeError(
      "unsupported_media_type",
      "send the body as JSON with Content-Type: application/json",
      {
        content_type: type || null,
      },
    );
  assertUtf8Uncompressed(c);
}

/**
 * A JSON body is UTF-8 and not compressed, on REST and MCP alike: a `charset` other than utf-8 (or
 * more than one), a `Content-Encoding` other than identity and a `Transfer-Encoding` other than
 * chunked are refused, not read as UTF-8 (a gzip body was parsed raw, 400 `invalid_utf8`;
 * `charset=utf-16` was read as UTF-8: probe13; `gzip, chunked`: probe D1-F18).
 * @throws EdgeError 415 `unsupported_media_type` naming `details.charset`, `details.content_encoding`
 *   or `details.transfer_encoding`
 */
export function assertUtf8Uncompressed(c: Context<AppEnv>): void {
  const type = c.req.header("content-type") ?? "";
  const charsets = [...type.matchAll(/;\s*charset\s*=\s*"?([^";\s]*)"?/gi)].map((m) => m[1]!);
  const bad = charsets.length > 1 ? charsets.join(",") : charsets.find((cs) => !/^utf-?8$/i.test(cs));
  if (bad !== undefined)
    throw new EdgeError(
      "unsupported_media_type",
      `the body must be UTF-8 JSON (charset ${bad.slice(0, 40)} is not read)`,
      { content_type: type.slice(0, 200), charset: bad.slice(0, 40) },
    );
  // a transfer coding other than chunked (`gzip, chunked`): Node removes only the chunking, and the
  // body was read raw as UTF-8 (probe D1-F18)
  const transfer = c.req.header("transfer-encoding");
  if (transfer !== undefined && !/^\s*chunked\s*$/i.test(transfer))
    throw new EdgeError(
      "unsupported_media_type",
      `send the body uncompressed: Transfer-Encoding ${transfer.slice(0, 40)} is not read (chunked is)`,
      { transfer_encoding: transfer.slice(0, 40) },
    );
  const encoding = c.req.header("content-encoding");
  if (encoding !== undefined && !/^\s*identity\s*$/i.test(encoding))
    throw new EdgeError(
      "unsupported_media_type",
      `send the body uncompressed: Content-Encoding ${encoding.slice(0, 40)} is not read`,
      { content_encoding: encoding.slice(0, 40) },
    );
}

const ERROR_SCHEMA = z
  .object({
    error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()) }),
  })
  .openapi("Error");

/**
 * The body of a `post`/`put`/`delete` route that declares none: absent, JSON white space, or `{}`.
 * It is still read by {@link readBody} (the strict parser), so a malformed one is 400 `invalid_json`
 * and any member is 422 naming it, never silently ignored.
 */
const NO_BODY = z.strictObject({});

/**
 * A path parameter holding a text no store keeps (U+0000, an unpaired surrogate: the platform's one
 * text rule, `textProblem`) is refused naming the parameter, before any handler (probe17 A-F4: the
 * store's catch-all refused it naming nothing).
 * @throws PlatformError 422 `invalid_text`, `details: {parameter, reason}`
 */
export function checkPathParams(c: Context<AppEnv>, params: readonly string[]): void {
  for (const parameter of params) {
    const reason = textProblem(c.req.param(parameter) ?? "");
    if (reason !== null)
      throw new PlatformError(
        "invalid_text",
        `path parameter ${parameter}: the text ${TEXT_PROBLEM_TEXT[reason]}`,
        { parameter, reason },
      );
  }
}

/**
 * The OpenAPI `security` of a route: `required`, a key as `X-API-Key` or `Authorization: Bearer`;
 * `optional`, the same or none (`{}` first: an answer that depends on the caller, such as a
 * `buyer_only` board or the author's receipts, so a generated client sends its key; probe29 A-F5).
 */
function securityOf(auth: "optional" | "required"): Record<string, string[]>[] {
  const keyed: Record<string, string[]>[] = [{ ApiKey: [] }, { Bearer: [] }];
  return auth === "optional" ? [{}, ...keyed] : keyed;
}

/**
 * Reads a write's body whole (none: an empty or `{}` body; `bytes`: the raw bytes; otherwise JSON in the
 * route's mode and limits) and returns its validation, to run once the key was checked again.
 * @throws EdgeError 400 `invalid_json` / `invalid_request`, 413 `body_too_large`, 415 `unsupported_media_type`
 */
async function receiveBody<B extends z.ZodType | undefined>(
  c: Context<AppEnv>,
  spec: RouteSpec<B>,
): Promise<() => { input: unknown; exact?: JsonValue }> {
  if (!spec.body) {
    const { value } = await readBody(c, "json", true, SMALL_BODY);
    return () => {
      validateBody(NO_BODY, value);
      return { input: undefined };
    };
  }
  if (spec.bodyMode === "bytes") {
    assertJsonType(c);
    const bytes = await bodyBytes(c);
    return () => ({ input: bytes });
  }
  const body = spec.body;
  const { value, exact } = await readBody(
    c,
    spec.bodyMode ?? "json",
    spec.bodyOptional === true,
    spec.bodyMode === "lossless" ? undefined : (spec.bodyLimits ?? SMALL_BODY),
  );
  return () => ({ input: validateBody(body, value, exact), exact });
}

/** Registers the handler and its OpenAPI description. */
export function defineRoute<B extends z.ZodType | undefined>(
  app: OpenAPIHono<AppEnv>,
  spec: RouteSpec<B>,
): void {
  const params = [...spec.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
  app.openAPIRegistry.registerPath({
    method: spec.method,
    path: spec.path.replace(/:([A-Za-z_]+)/g, "{$1}"),
    summary: spec.summary,
    tags: spec.tags,
    ...(spec.auth === undefined || spec.auth === "none" ? {} : { security: securityOf(spec.auth) }),
    request: {
      ...(params.length ? { params: z.object(Object.fromEntries(params.map((p) => [p, z.string()]))) } : {}),
      ...(spec.query ? { query: spec.query } : {}),
      ...(spec.body
        ? { body: { required: !spec.bodyOptional, content: { "application/json": { schema: spec.body } } } }
        : {}),
    },
    responses: {
      [spec.ok.status]: {
        description: spec.ok.description,
        ...(spec.ok.schema
          ? { content: { [spec.ok.contentType ?? "application/json"]: { schema: spec.ok.schema } } }
          : {}),
      },
      ...Object.fromEntries(
        (spec.errors ?? []).map((s) => [
          s,
          { description: "refusal", content: { "application/json": { schema: ERROR_SCHEMA } } },
        ]),
      ),
    },
  });
  app.on(spec.method.toUpperCase(), spec.path, async (c) => {
    if (spec.auth === "required") requirePrincipal(c.var.principal); // 401 before any body is read
    checkPathParams(c, params);
    readQuery(c, spec.query ? Object.keys(spec.query.shape) : []); // 400 `invalid_query`: a name it does not declare
    if (spec.method === "get" && !spec.body) return spec.handler(c, undefined as never);
    const received = await receiveBody(c, spec);
    // the key checked again once the body is in, before the handler acts (probe39 A-F2: a key revoked
    // while its body was still arriving wrote after its revocation)
    await assertKeyStillWorks(c);
    const { input, exact } = received();
    return spec.handler(c, input as never, exact);
  });
}
