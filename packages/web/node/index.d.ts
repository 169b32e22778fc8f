import type { Hono } from "hono";

/** Absolute path of the built app (`packages/web/dist/`, made by `vite build`), with a trailing separator. */
export declare const webRoot: string;

/** What the page is told at start (`config.json`; see the package README). */
export interface WebConfig {
  /** Origin of the API; `""` or absent: the page's own origin. */
  apiBaseUrl?: string;
  /** The indexer's REST root (claims and outstanding credit), or null. */
  indexerUrl?: string | null;
  /** True on a local node (the devchain has chain id 8453 too): no explorer links. */
  localChain?: boolean | null;
  /** A chain RPC printed in the verify command, or null. */
  rpcUrl?: string | null;
  /** Rows over fewer tasks are provisional (default 30). */
  minTasks?: number;
}

/**
 * The built app as a Hono sub-app (`GET /`, `/index.html`, `/config.json`, `/assets/*`).
 * @throws Error naming `index.html` when the app is not built
 */
export declare function createWebApp(opts?: { root?: string; config?: WebConfig }): Hono;

/** `index.html` with `configJson` inlined as `<script id="bb-config" type="application/json">` (`<` escaped). */
export declare function inlineConfig(html: string, configJson: string): string;
