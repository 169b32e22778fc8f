/**
 * The web leaderboard at `/` (issue 17 item 1): the static build of `@bench-bounty/web` and the
 * `config.json` it reads at start. Two forms of the same thing:
 *
 * - {@link webApp}: a Hono sub-app (`GET /`, `/index.html`, `/config.json`, `/assets/*`);
 * - {@link webMiddleware}: the `web` hook of `createApp` (`app.use("*", web)` after the API and
 *   MCP routes): it answers those paths and passes everything else on.
 *
 * ```ts
 * createApp({ domain, web: webMiddleware({ indexerUrl, localChain: chainIsLocal, rpcUrl }) });
 * ```
 *
 * @packageDocumentation
 */
import { createWebApp, webRoot, type WebConfig } from "@bench-bounty/web";
import type { Hono, MiddlewareHandler } from "hono";

export type { WebConfig };

/**
 * @param config what the page is told: the indexer URL, whether the chain is local (the devchain
 *   has chain id 8453 like Base, so pass `localChain: true` there or the page links devchain
 *   transactions to basescan), an RPC for the verify command, the provisional threshold
 * @param root folder of the build (default: `webRoot` of `@bench-bounty/web`)
 * @throws Error naming the missing `index.html` when the web app is not built
 */
export function webApp(config: WebConfig = {}, root: string = webRoot): Hono {
  return createWebApp({ root, config });
}

/** {@link webApp} as middleware: GET/HEAD of the app's paths are answered, anything else goes to `next`. */
export function webMiddleware(config: WebConfig = {}, root: string = webRoot): MiddlewareHandler {
  const app = webApp(config, root);
  return async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    const res = await app.fetch(c.req.raw);
    if (res.status === 404) return next();
    return res;
  };
}
