// Node entry of @bench-bounty/web: where the build is, and a Hono sub-app that serves it.
// Plain JavaScript (typed in index.d.ts) so the server can import it without building this package's sources.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";

/** Absolute path of the built app (`packages/web/dist/`, made by `vite build`). */
export const webRoot = fileURLToPath(new URL("../dist/", import.meta.url));

/**
 * `index.html` with the configuration inlined (`<script id="bb-config" type="application/json">`),
 * so a cold load needs no `config.json` round trip before the app can start its API reads; the
 * preload of `config.json` is dropped. `<` is escaped, so no value can close the script element.
 * @param {string} html
 * @param {string} configJson
 * @returns {string}
 */
export function inlineConfig(html, configJson) {
  const safe = configJson.replace(/</g, "\\u003c");
  return html
    .replace(/\s*<!--[^>]*-->\s*<link rel="preload" href="\.\/config\.json"[^>]*>/, "")
    .replace(/<link rel="preload" href="\.\/config\.json"[^>]*>/, "")
    .replace("</head>", `  <script id="bb-config" type="application/json">${safe}</script>\n  </head>`);
}

/**
 * The web app as a Hono sub-app: `GET /`, `/index.html`, `/config.json` and `/assets/*` only;
 * anything else falls through to the parent app. Hashed assets are cached for a year,
 * `index.html` (with the configuration inlined) and `config.json` are revalidated on every load.
 * @param {{ root?: string, config?: Record<string, unknown> }} [opts]
 * @returns {Hono}
 * @throws {Error} naming the file when the build is missing
 */
export function createWebApp(opts = {}) {
  const root = opts.root ?? webRoot;
  if (!existsSync(join(root, "index.html"))) {
    throw new Error(
      `the web app is not built: ${join(root, "index.html")} is missing (run: npx pnpm@12.4.2 --filter @bench-bounty/web build)`,
    );
  }
  const config = JSON.stringify({ apiBaseUrl: "", ...opts.config });
  const app = new Hono();
  const html = inlineConfig(readFileSync(join(root, "index.html"), "utf8"), config);
  const index = (c) => c.html(html, 200, { "cache-control": "no-cache" });
  app.get("/", index);
  app.get("/index.html", index);
  app.get("/config.json", (c) =>
    c.body(config, 200, { "content-type": "application/json; charset=utf-8", "cache-control": "no-cache" }),
  );
  app.get(
    "/assets/*",
    serveStatic({
      root,
      onFound: (_p, c) => {
        c.header("cache-control", "public, max-age=31536000, immutable");
      },
    }),
  );
  return app;
}
