/**
 * Writes from web pages of other origins are refused (probe30 A-F2). A page on any origin can make its
 * visitors' browsers send a CORS "simple" request (`POST` with no body, or a `text/plain` one, and no
 * custom header: no preflight); the browser withholds the answer from the page but the server still
 * acts on it: `POST /api/v1/accounts` created an account per visit, spending the visitors' addresses'
 * account budgets. Every browser sends `Origin` on a cross-origin `POST`, `PUT`, `PATCH` or `DELETE`, and
 * programs (the CLI, the typed client under Node, curl, agents) send none; so a write whose `Origin` is
 * not this server's own is refused 403 `cross_origin_write` before anything else reads it. The MCP
 * endpoint is checked the same way (the MCP transport's rule against DNS rebinding: a server validates
 * `Origin`). Reads (`GET`, `HEAD`) and preflights (`OPTIONS`) are not concerned.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.js";
import { EdgeError } from "../errors.js";

/** Methods that read (and the preflight): never refused by origin. */
const READ_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The origins a write may come from: this server's public base URL's (`AppEnv` `baseUrl`) and the one
 * the request itself was sent to (its `Host`, as `c.req.url` reads it).
 */
function ownOrigins(baseUrl: string, requestUrl: string): Set<string> {
  const own = new Set<string>();
  for (const u of [baseUrl, requestUrl]) {
    try {
      own.add(new URL(u).origin);
    } catch {
      // not a URL: no origin of it
    }
  }
  return own;
}

/**
 * Refuses a write (any method but GET, HEAD, OPTIONS) that carries an `Origin` other than this
 * server's own ({@link ownOrigins}); `Origin: null` (a sandboxed frame, a `file:` page) included.
 * @throws EdgeError `cross_origin_write` (403), `details.origin`
 */
export function refuseCrossOriginWrites(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const origin = c.req.header("origin");
    if (origin === undefined || READ_METHODS.has(c.req.method)) return next();
    if (ownOrigins(c.get("baseUrl"), c.req.url).has(origin)) return next();
    throw new EdgeError(
      "cross_origin_write",
      `a ${c.req.method} from a web page of another origin (Origin: ${JSON.stringify(origin.slice(0, 200))}) is refused: this server takes writes from programs (which send no Origin) and from its own pages only`,
      { origin: origin.slice(0, 200) },
    );
  };
}
