/**
 * Writes from web pages of other origins are refused (probe30 A-F2). A page on any origin can make its
 * visitors' browsers send a CORS "simple" request (`POST` with no body, or a `text/plain` one, and no
 * custom header: no preflight); the browser withholds the answer from the page but the server still
 * acts on it: `POST /api/v1/accounts` created an account per visit, spending the visitors' addresses'
 * account budgets. Every browser sends `Origin` on a cross-origin `POST`, `PUT`, `PATCH` or `DELETE`, and
 * programs (the CLI, the typed client under Node, curl, agents) send none; so a write whose `Origin` is
 * not this server's own is refused 403 `cross_origin_write` before anything else reads it. The MCP
 * endpoint is checked the same way (the MCP transport's rule against DNS rebinding: a server validates
 * `Origin`). "Own" is fixed by configuration ({@link ownOrigins}), never read from the request's
 * `Host`: a DNS-rebinding page sends its own name as both `Host` and `Origin` (probe31 A-F4). Reads
 * (`GET`, `HEAD`) and preflights (`OPTIONS`) are not concerned.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.js";
import { EdgeError } from "../errors.js";

/** Methods that read (and the preflight): never refused by origin. */
const READ_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

/** Host names of the loopback interface, as a URL's `hostname` spells them. */
const LOOPBACK_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/** Host names of a listener on every address (`--host 0.0.0.0` or `::`): loopback reaches it too. */
const ANY_HOSTS: ReadonlySet<string> = new Set(["0.0.0.0", "[::]"]);

/**
 * The origins a write may come from, fixed by the server's configuration and never by the request
 * (probe31 A-F4: taking the request's own `Host` let a DNS-rebinding page, whose `Host` and `Origin`
 * are both the attacker's name, pass): the origin of each URL of `urls` (the public base URL,
 * `--public-url`, and the address the server listens on); for one whose host is a loopback name or
 * every address (`0.0.0.0`, `[::]`), also `localhost`, `127.0.0.1` and `[::1]` with its scheme and port.
 * A URL that does not parse adds nothing.
 * @param urls absolute URLs (`http://127.0.0.1:8787`, `https://bench.example/bb`); undefined ones are skipped
 * @returns origins as `Origin` carries them (`http://localhost:8787`, no trailing slash)
 */
function ownOrigins(urls: readonly (string | undefined)[]): Set<string> {
  const own = new Set<string>();
  for (const u of urls) {
    if (u === undefined) continue;
    let url: URL;
    try {
      url = new URL(u);
    } catch {
      continue; // not a URL: no origin of it
    }
    own.add(url.origin);
    if (!LOOPBACK_HOSTS.includes(url.hostname) && !ANY_HOSTS.has(url.hostname)) continue;
    for (const name of LOOPBACK_HOSTS) {
      url.hostname = name;
      own.add(url.origin);
    }
  }
  return own;
}

/**
 * Refuses a write (any method but GET, HEAD, OPTIONS) that carries an `Origin` other than this
 * server's own ({@link ownOrigins} of `ownUrls()`, read per request: the listen address is known
 * once listening); `Origin: null` (a sandboxed frame, a `file:` page) included. The request's `Host`
 * plays no part.
 * @param ownUrls the server's URLs: its public base URL and its listen address
 * @throws EdgeError `cross_origin_write` (403), `details.origin`
 */
export function refuseCrossOriginWrites(
  ownUrls: () => readonly (string | undefined)[],
): MiddlewareHandler<AppEnv> {
  let cached: { key: string; origins: Set<string> } | undefined;
  const origins = (): Set<string> => {
    const urls = ownUrls();
    const key = JSON.stringify(urls);
    if (cached?.key !== key) cached = { key, origins: ownOrigins(urls) };
    return cached.origins;
  };
  return async (c, next) => {
    const origin = c.req.header("origin");
    if (origin === undefined || READ_METHODS.has(c.req.method)) return next();
    if (origins().has(origin)) return next();
    throw new EdgeError(
      "cross_origin_write",
      `a ${c.req.method} from a web page of another origin (Origin: ${JSON.stringify(origin.slice(0, 200))}) is refused: this server takes writes from programs (which send no Origin) and from its own pages only`,
      { origin: origin.slice(0, 200) },
    );
  };
}
