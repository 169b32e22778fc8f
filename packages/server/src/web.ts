/**
 * The web leaderboard at `/` (issue 17 item 1): the static build of `@bench-bounty/web` and the
 * `config.json` it reads at start. Two forms of the same thing:
 *
 * - {@link webApp}: a Hono sub-app (`GET /`, `/index.html`, `/config.json`, `/assets/*`);
 * - {@link webMiddleware}: the `web` hook of `createApp` (`app.use("*", web)` after the API and
 *   MCP routes): it answers those paths and passes everything else on.
 *
 * ```ts
 * createApp({ domain, web: webMiddleware({ indexerUrl, localChain: chainIsLocal, publicRpcUrl }) });
 * ```
 *
 * The page is told no secret: the operator's RPC URL (hosted providers carry an API key in its path)
 * is never part of it; an RPC printed in the page's verify command is `publicRpcUrl`, which the
 * operator sets on purpose (`serve --public-rpc-url`), absent by default.
 *
 * @packageDocumentation
 */
import { createWebApp, webRoot, type WebConfig } from "@bench-bounty/web";
import type { Hono, MiddlewareHandler } from "hono";

export type { WebConfig };

/** What the server tells the page (`config.json`): every key public. */
export interface PublicWebConfig {
  /** Origin of the API (absent: the page's own origin). */
  apiBaseUrl?: string;
  /** The indexer's REST root the page reads claims from. */
  indexerUrl?: string;
  /** True on a local node (the devchain has chain id 8453 like Base): no explorer links. */
  localChain?: boolean;
  /**
   * A chain RPC anyone may be shown (printed in the verify command): set explicitly by the operator,
   * never the operator's own `--rpc-url`.
   */
  publicRpcUrl?: string;
  /** Rows over fewer tasks are provisional (default 30). */
  minTasks?: number;
}

function pageConfig(c: PublicWebConfig): WebConfig {
  return {
    ...(c.apiBaseUrl !== undefined ? { apiBaseUrl: c.apiBaseUrl } : {}),
    ...(c.indexerUrl !== undefined ? { indexerUrl: c.indexerUrl } : {}),
    ...(c.localChain !== undefined ? { localChain: c.localChain } : {}),
    ...(c.publicRpcUrl !== undefined ? { rpcUrl: c.publicRpcUrl } : {}),
    ...(c.minTasks !== undefined ? { minTasks: c.minTasks } : {}),
  };
}

/**
 * @param config what the page is told: the indexer URL, whether the chain is local (the devchain
 *   has chain id 8453 like Base, so pass `localChain: true` there or the page links devchain
 *   transactions to basescan), a public RPC for the verify command, the provisional threshold
 * @param root folder of the build (default: `webRoot` of `@bench-bounty/web`)
 * @throws Error naming the missing `index.html` when the web app is not built
 */
export function webApp(config: PublicWebConfig = {}, root: string = webRoot): Hono {
  return createWebApp({ root, config: pageConfig(config) });
}

/**
 * The `web` hook of `createApp`: middleware, and whether a GET of a path is served (`serves`), so that
 * another method there is 405 only where the GET is not 404 (probe30 A-F9: `POST /assets/nope.js` was
 * 405 `Allow: GET, HEAD` while its GET was 404). A hook without `serves` is taken to serve its paths.
 */
export type WebHook = MiddlewareHandler & {
  /** True when a GET of `path` (no query) is answered (not 404). */
  serves?: (path: string) => Promise<boolean>;
};

/** {@link webApp} as middleware: GET/HEAD of the app's paths are answered, anything else goes to `next`. */
export function webMiddleware(config: PublicWebConfig = {}, root: string = webRoot): WebHook {
  const app = webApp(config, root);
  const hook: WebHook = async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    const res = await app.fetch(c.req.raw);
    if (res.status === 404) return next();
    return res;
  };
  hook.serves = async (path) => (await app.request(path, { method: "HEAD" })).status !== 404;
  return hook;
}
