/**
 * The Hono app of `bench-bounty serve`: routes grouped per resource under `/api/v1`, then MCP, then
 * an optional static web app. Middleware in order: time limit, authentication, rate limit (per
 * account, or per client address without a key; account creation per address group and overall), body limit; an anonymous leaderboard read is answered before them (`public-reads.ts`). One `onError` turns every refusal into `{error: {code, message, details}}` with the
 * status of `errors.ts`; an unknown method on a known path is 405 with `Allow`; nothing answers a
 * stack trace.
 */
import { createHash } from "node:crypto";
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { HTTPException } from "hono/http-exception";
import type { Domain } from "./domain.js";
import type { AppEnv } from "./env.js";
import { EdgeError, errorResponseOf, logUnexpected, type EdgeErrorCode } from "./errors.js";
import { etagMatches, JSON_TYPE, KEY_VARY, notModifiedHeaders, sendError, type FrozenBody } from "./http.js";
import { authenticate } from "./middleware/auth.js";
import { refuseCrossOriginWrites } from "./middleware/origin.js";
import {
  AccountCreationLimiter,
  chargeAnswerBytes,
  DEFAULT_LIMITS,
  limitAccountCreation,
  limitBodies,
  limitTime,
  rateLimit,
  RateLimiter,
  type Limits,
} from "./middleware/limits.js";
import { MCP_PATH, mountMcp, rpcRefusal, SERVER_ERROR } from "./mcp/endpoint.js";
import { closeOnUnreadBody } from "./node-body.js";
import { readQuery, strictQuery } from "./query.js";
import { publicReads } from "./public-reads.js";
import { accountRoutes } from "./routes/accounts.js";
import { benchmarkRoutes } from "./routes/benchmarks.js";
import { claimRoutes } from "./routes/claims.js";
import { entriesRoutes } from "./routes/entries.js";
import { taskScoreRoutes } from "./routes/task-scores.js";
import { verificationRoutes } from "./routes/verification.js";
import { datasetRoutes } from "./routes/datasets.js";
import { doorRoutes } from "./routes/door.js";
import { runRoutes } from "./routes/runs.js";
import { staticRoutes } from "./routes/static.js";

/** The base URL of an app built without `publicBaseUrl` or `listenUrl`: `serve`'s default address. */
export const DEFAULT_BASE_URL = "http://127.0.0.1:8787";

/** Options of {@link createApp}. */
export interface AppOptions {
  domain: Domain;
  limits?: Partial<Limits>;
  /**
   * Serves a built web app for paths outside `/api` and `/mcp` (the web package's static hook,
   * `webMiddleware`); its `serves` tells whether a GET of a path is answered (another method there: 405).
   */
  web?: MiddlewareHandler<AppEnv> & { serves?: (path: string) => Promise<boolean> };
  /**
   * Public base URL printed in `how_to_compete` (`--public-url`). Default: {@link AppOptions.listenUrl},
   * else {@link DEFAULT_BASE_URL}; never the request's `Host` (a stranger's `Host: evil.example` would
   * make the served detail tell agents to send their key there, and a caching proxy would keep it).
   */
  publicBaseUrl?: string;
  /** The address the server listens on (`serveApp` sets it), the base URL when `publicBaseUrl` is not set. */
  listenUrl?: () => string;
  /** Clock of the rate limiter (ms), for tests. */
  now?: () => number;
  /** Where unexpected errors are logged (default stderr). */
  log?: (e: unknown) => void;
}

const HTTP_CODE: Record<number, EdgeErrorCode> = {
  400: "invalid_json",
  401: "unauthenticated",
  403: "forbidden",
  404: "not_found",
  413: "body_too_large",
  415: "unsupported_media_type",
  503: "request_timeout",
};

/** Hono's own HTTPExceptions (from its middleware) in our error shape. */
function fromHttpException(e: HTTPException): EdgeError {
  const code = HTTP_CODE[e.status] ?? "invalid_request";
  return new EdgeError(code, e.message || code, {});
}

/** The routes' methods and path patterns, compiled once per app (on its first request: all routes are registered by then). */
const routeMatchers = new WeakMap<OpenAPIHono<AppEnv>, { method: string; literal: boolean; re: RegExp }[]>();

/**
 * Paths and methods registered on the app (for 405 `Allow`, and the 204 of `OPTIONS`): a GET's HEAD,
 * and OPTIONS on a path under `/api/` (answered there by {@link corsOnReads}). A path some route names
 * literally (no `:param`) is served by those routes only: `/datasets/mine` is not a `:dataset_id` of
 * `DELETE /datasets/:dataset_id` (probe26 A-F4), see {@link refuseShadowedMethods}.
 */
function allowedMethods(app: OpenAPIHono<AppEnv>, path: string): string[] {
  let matchers = routeMatchers.get(app);
  if (!matchers) {
    matchers = app.routes
      .filter((r) => r.method !== "ALL" && !r.path.includes("*"))
      .map((r) => ({
        method: r.method,
        literal: !r.path.includes(":"),
        re: new RegExp(
          "^" + r.path.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z_]+/g, "[^/]+") + "$",
        ),
      }));
    routeMatchers.set(app, matchers);
  }
  const methods = new Set<string>();
  const matched = matchers.filter((m) => m.re.test(path));
  const literal = matched.filter((m) => m.literal);
  for (const m of literal.length > 0 ? literal : matched) methods.add(m.method);
  if (methods.has("GET")) methods.add("HEAD"); // a GET's HEAD
  // answered 204 on every served path under /api ({@link corsOnReads}): listed wherever it is answered
  // (probe33 B-F9: `Allow` never named it, on the 204 or on a 405)
  if (methods.size > 0 && path.startsWith(API_PREFIX)) methods.add("OPTIONS");
  return [...methods].sort();
}

/** The paths under which a served path answers `OPTIONS` ({@link corsOnReads} is mounted on `/api/*`). */
const API_PREFIX = "/api/";

/** The query names the routes declare (`defineRoute`'s `query`), by path pattern, compiled once per app. */
const queryMatchers = new WeakMap<OpenAPIHono<AppEnv>, { re: RegExp; names: string[] }[]>();

/**
 * The query parameters a route at `path` takes (any method; none for a route that declares none, as
 * the OpenAPI document and every non-`defineRoute` path): what a preflight there is checked against,
 * as the GET it precedes is (probe10 R6).
 */
function declaredQueryNames(app: OpenAPIHono<AppEnv>, path: string): string[] {
  let matchers = queryMatchers.get(app);
  if (!matchers) {
    matchers = [];
    for (const def of app.openAPIRegistry.definitions) {
      if (def.type !== "route") continue;
      const query = def.route.request?.query as { shape?: Record<string, unknown> } | undefined;
      if (!query?.shape) continue;
      const pattern = def.route.path.replace(/[.+?^$()|[\]\\]/g, "\\$&").replace(/\{[A-Za-z_]+\}/g, "[^/]+");
      matchers.push({ re: new RegExp(`^${pattern}$`), names: Object.keys(query.shape) });
    }
    queryMatchers.set(app, matchers);
  }
  const names = new Set<string>();
  for (const m of matchers) if (m.re.test(path)) for (const n of m.names) names.add(n);
  return [...names];
}

/** Paths the web hook may answer (GET and HEAD only: anything else there is 405 where the GET is served). */
const WEB_PATH = /^\/(index\.html|config\.json|assets\/.*)?$/;

/**
 * The page itself (`/`, `/index.html`): served whatever the query. It is a static file no query can
 * change, and a shared link arrives with what others append (`?fbclid=`, `?utm_source=`, `?gclid=`):
 * refusing those turned a visitor's click into a 400 JSON. The other {@link WEB_PATH}s keep the strict
 * check (nothing links to them with a query).
 */
const PAGE_PATH = /^\/(index\.html)?$/;

/**
 * CORS for the public reads (a static deploy of the web app on another origin reads them): GET and
 * HEAD from any origin, and their preflights; no credentials, no key headers allowed (a preflight
 * asking for `X-API-Key` or `Authorization` is answered without them, so the browser refuses), and
 * nothing on writes.
 */
const publicCors = cors({
  origin: "*",
  allowMethods: ["GET", "HEAD"],
  allowHeaders: ["Accept", "If-None-Match"],
  exposeHeaders: ["ETag", "Retry-After"],
  maxAge: 600,
});
/**
 * A route's `Cache-Control` for an answer to a key holder: `private` in place of `public`, the route's
 * other directives kept (the verification report's `no-cache`, the door's `max-age` and `immutable`:
 * probe25 A-F6, they were replaced by `private` alone).
 */
export function privateCacheControl(routeValue: string | null): string {
  const kept = (routeValue ?? "")
    .split(",")
    .map((d) => d.trim())
    .filter((d) => d !== "" && !/^(public|private)$/i.test(d));
  return ["private", ...kept].join(", ");
}

/**
 * The CORS and caching headers of a GET or HEAD, set on the final response (what `publicCors` sets on a simple
 * request with origin `*`). Set after the handler: Hono's cors touches `c.res` before it, which turns
 * every read's response into a copied web stream (a fifth of the leaderboard's cost, bench:api).
 */
function setReadCors(c: Context<AppEnv>): void {
  const keyed = c.req.header("x-api-key") !== undefined || c.req.header("authorization") !== undefined;
  const set = (h: Headers) => {
    h.set("access-control-allow-origin", "*");
    h.set("access-control-expose-headers", "ETag,Retry-After");
    h.set("vary", KEY_VARY);
    // an answer to a key is that key holder's (the author's private view of an open benchmark, SPEC 6.1):
    // never stored by a shared cache in front of serve (probe24 A-F1)
    if (keyed) h.set("cache-control", privateCacheControl(h.get("cache-control")));
  };
  try {
    set(c.res.headers);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    c.res = new Response(c.res.body, c.res); // immutable headers (a fetched Response): a mutable copy
    set(c.res.headers);
  }
}
/**
 * CORS on `/api/*`: a preflight (`OPTIONS`) is answered only on a path some route serves (probe9 Q4:
 * `OPTIONS` on a path that does not exist answered 204 while GET and HEAD were 404; it now falls through
 * to the same 404). Its query is read as the routes there read theirs (probe10 R6: `?x=1` was 204
 * where the GET is 400 `invalid_query`). It answers 204 with `Allow` naming the methods the path
 * serves (the list a 405 there names), and the CORS grant of the reads only: on a path with a GET,
 * `Access-Control-Allow-Methods: GET,HEAD`; on a write-only path (`POST /accounts`) none at all, so a
 * browser refuses the cross-origin write (probe10 R6: it was told `GET,HEAD` there; listing the
 * write's method would let a page on any origin send it, and writes carry no CORS headers). GET and
 * HEAD get {@link setReadCors}; writes nothing.
 * @param methodsOf the methods the routes at `path` serve (none: no route serves it)
 * @param queryNamesOf the query parameters the routes at `path` take
 */
function corsOnReads(
  methodsOf: (path: string) => string[],
  queryNamesOf: (path: string) => string[],
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method === "OPTIONS") {
      const allow = methodsOf(c.req.path);
      if (allow.length === 0) return next();
      readQuery(c, queryNamesOf(c.req.path)); // 400 `invalid_query` naming the parameter, as the GET
      if (!allow.includes("GET")) return c.body(null, 204, { allow: allow.join(", ") });
      const res = await publicCors(c, next);
      res?.headers.set("allow", allow.join(", "));
      return res;
    }
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    await next();
    setReadCors(c);
  };
}

/**
 * {@link authenticate}, where a refused key (one nobody holds, or a malformed header) takes a token
 * of the caller's address bucket before its 401/403: guessing keys is rate-limited like anonymous
 * calls (it was not: 4,000 unknown keys got 4,000 403s and no 429). A known key is limited per key by
 * the `rateLimit` that follows.
 */
function authenticateLimited(limiter: RateLimiter): MiddlewareHandler<AppEnv> {
  const auth = authenticate();
  const byAddress = rateLimit(limiter);
  return async (c, next) => {
    let passed = false;
    try {
      return await auth(c, () => {
        passed = true;
        return next();
      });
    } catch (e) {
      if (passed) throw e;
      c.set("principal", null);
      c.set("apiKey", null);
      await byAddress(c, async () => {}); // throws 429 once the address's bucket is empty
      throw e;
    }
  };
}

/** The 405 `method_not_allowed` of `method` on `path`, naming the methods served there (`details.allow`, `Allow`). */
function methodNotAllowed(method: string, path: string, allow: string[]): EdgeError {
  return new EdgeError(
    "method_not_allowed",
    `${method} is not allowed on ${path}`,
    { allow },
    { allow: allow.join(", ") },
  );
}

/**
 * 405 with `Allow` for a method a literal path does not serve but a `:param` route of that method would
 * take it as its parameter (probe26 A-F4: `DELETE /api/v1/datasets/mine` reached
 * `DELETE /datasets/:dataset_id` and answered 404 "no dataset mine", while `Allow` listed DELETE):
 * a literal path is served by its own routes only ({@link allowedMethods}). OPTIONS is left to CORS.
 */
function refuseShadowedMethods(methodsOf: (path: string) => string[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method === "OPTIONS") return next();
    const allow = methodsOf(c.req.path);
    if (allow.length > 0 && !allow.includes(c.req.method))
      throw methodNotAllowed(c.req.method, c.req.path, allow);
    return next();
  };
}

/** Builds the app (no listening; see `serve.ts`). */
export function createApp(opts: AppOptions): OpenAPIHono<AppEnv> {
  const limits: Limits = { ...DEFAULT_LIMITS, ...opts.limits };
  const limiter = new RateLimiter(limits.rateBurst, limits.ratePerSecond, opts.now);
  const relayLimiter = new RateLimiter(limits.relayBurst, limits.relayPerSecond, opts.now);
  const accountLimiter = new AccountCreationLimiter(limits, opts.now);
  const app = new OpenAPIHono<AppEnv>();

  app.use(
    "/api/*",
    corsOnReads(
      (path) => allowedMethods(app, path),
      (path) => declaredQueryNames(app, path),
    ),
  );
  app.use("*", async (c, next) => {
    c.set("domain", opts.domain);
    c.set("baseUrl", (opts.publicBaseUrl ?? opts.listenUrl?.() ?? DEFAULT_BASE_URL).replace(/\/+$/, ""));
    await next();
  });
  app.use("*", limitTime(limits.handlerTimeoutMs));
  const sameOrigin = refuseCrossOriginWrites(() => [
    opts.publicBaseUrl,
    opts.listenUrl?.() ?? DEFAULT_BASE_URL,
  ]);
  app.use("/api/*", sameOrigin);
  app.use("/mcp/*", sameOrigin);
  app.use("/mcp", sameOrigin);
  const auth = authenticateLimited(limiter);
  app.use("/api/*", auth);
  app.use("/mcp/*", auth);
  app.use("/mcp", auth);
  app.use("*", rateLimit(limiter));
  app.use("/api/*", chargeAnswerBytes(limiter, limits.answerBytesPerToken));
  app.use("/api/v1/benchmarks/:slug/claims/relay", rateLimit(relayLimiter));
  app.use("/api/v1/accounts", limitAccountCreation(accountLimiter));
  const datasetBytes = new RateLimiter(
    Math.max(limits.datasetBytesBurst, limits.datasetBodyBytes),
    limits.datasetBytesPerSecond,
    opts.now,
  );
  app.use("*", limitBodies(limits, datasetBytes));
  app.use(
    "/api/*",
    refuseShadowedMethods((path) => allowedMethods(app, path)),
  );

  // Order matters: /benchmarks/runs/* before /benchmarks/:slug.
  app.route("/api/v1", runRoutes());
  app.route("/api/v1", benchmarkRoutes());
  app.route("/api/v1", entriesRoutes());
  app.route("/api/v1", taskScoreRoutes());
  app.route("/api/v1", verificationRoutes());
  app.route("/api/v1", claimRoutes());
  app.route("/api/v1", doorRoutes());
  app.route("/api/v1", datasetRoutes());
  app.route("/api/v1", accountRoutes());
  app.route("/api/v1", staticRoutes());
  app.use("/api/v1/openapi.json", strictQuery()); // not a defineRoute route: its query is checked here
  app.openAPIRegistry.registerComponent("securitySchemes", "ApiKey", {
    type: "apiKey",
    in: "header",
    name: "X-API-Key",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "Bearer", { type: "http", scheme: "bearer" });
  // Built and serialised once, at the first request (probe11 O8: building it per request cost 20-26 ms
  // of CPU, anonymously); the routes cannot change after createApp, so neither can the document.
  let openApiBody: FrozenBody | null = null;
  app.get("/api/v1/openapi.json", (c) => {
    if (openApiBody === null) {
      const doc = app.getOpenAPI31Document({
        openapi: "3.1.0",
        info: {
          title: "bench-bounty",
          version: "1",
          description:
            "Benchmarks with on-chain USDC prizes: publish from a dataset, compete, award, verify.",
        },
      });
      const bytes = new Uint8Array(Buffer.from(JSON.stringify(doc), "utf8"));
      const etag = `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 22)}"`;
      openApiBody = { bytes, etag };
    }
    const { bytes, etag } = openApiBody;
    if (etagMatches(c.req.header("if-none-match"), etag))
      return c.body(null, 304, notModifiedHeaders(etag, JSON_TYPE));
    return c.body(bytes, 200, { "content-type": JSON_TYPE, etag });
  });
  mountMcp(app, {
    requests: limiter,
    accounts: accountLimiter,
    answerBytes: limits.mcpAnswerBytes,
    answerBytesPerToken: limits.answerBytesPerToken,
  });
  if (opts.web) {
    // The web app's paths take no query (its routes are in the fragment): 400 `invalid_query` as the
    // API, except on the page itself ({@link PAGE_PATH}: a static file, served whatever the query)
    const web = opts.web;
    app.use("*", (c, next) => {
      const path = c.req.path;
      if ((c.req.method === "GET" || c.req.method === "HEAD") && WEB_PATH.test(path) && !PAGE_PATH.test(path))
        readQuery(c, []);
      return web(c, next);
    });
  }

  app.notFound(async (c: Context<AppEnv>) => {
    // a web path whose GET is 404 (an asset that does not exist) is 404 for every method (probe30 A-F9)
    const web = opts.web && WEB_PATH.test(c.req.path) && ((await opts.web.serves?.(c.req.path)) ?? true);
    const allow = web ? ["GET", "HEAD"] : allowedMethods(app, c.req.path);
    if (allow.length > 0 && !allow.includes(c.req.method))
      return sendError(c, errorResponseOf(methodNotAllowed(c.req.method, c.req.path, allow)));
    return sendError(
      c,
      errorResponseOf(new EdgeError("not_found", "no such endpoint", { path: c.req.path })),
    );
  });
  app.onError((e, c) => {
    // a request on /mcp that outlived the time limit: a JSON-RPC error as the endpoint's other refusals (probe15 A-F9)
    if (e instanceof EdgeError && e.code === "request_timeout" && MCP_PATH.test(c.req.path))
      return rpcRefusal(c, e, SERVER_ERROR);
    const err = e instanceof HTTPException && !(e.cause instanceof EdgeError) ? fromHttpException(e) : e;
    return sendError(c, errorResponseOf(err, opts.log));
  });
  // Anonymous leaderboard reads first: the same answer as the route, without the chain (public-reads.ts).
  const early = publicReads(opts.domain, limiter, opts.log ?? logUnexpected, limits.answerBytesPerToken);
  const chain = app.fetch;
  // Every answer of the node server: an unread large body closes the connection (node-body.ts).
  app.fetch = async (req, env, ctx) =>
    closeOnUnreadBody(env, (await early(req, env)) ?? (await chain(req, env, ctx)));
  return app;
}
