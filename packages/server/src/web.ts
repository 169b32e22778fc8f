/**
 * The web leaderboard at `/` (issue 17 item 1): the static build of `@bench-bounty/web` and the
 * `config.json` it reads at start, as a Hono sub-app. Mount it after the API routes, so it never
 * shadows them:
 *
 * ```ts
 * app.route("/", webApp({ indexerUrl, localChain: true, rpcUrl }));
 * ```
 *
 * It answers only `GET /`, `/index.html`, `/config.json` and `/assets/*`; anything else falls
 * through to the parent app (its JSON 404).
 *
 * @packageDocumentation
 */
import { createWebApp, webRoot, type WebConfig } from "@bench-bounty/web";
import type { Hono } from "hono";

export type { WebConfig };

/**
 * @param config what the page is told: the indexer URL, whether the chain is local (the devchain
 *   has chain id 8453 like Base, so pass `localChain: true` there, or the page would link devchain
 *   transactions to basescan), an RPC for the verify command, the provisional threshold
 * @param root folder of the build (default: `webRoot` of `@bench-bounty/web`)
 * @throws Error naming the missing `index.html` when the web app is not built
 */
export function webApp(config: WebConfig = {}, root: string = webRoot): Hono {
  return createWebApp({ root, config });
}
