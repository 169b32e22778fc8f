/**
 * bench:web: the JavaScript shipped (gzipped) and the cold-load render time of the main pages in
 * Chromium on a local server, against a baseline measured in the same run: a static HTML page of
 * the same size with no JavaScript, served by the same server (the cost of the browser and the
 * loopback alone).
 *
 * Cold load: a new browser context per load (empty cache, no service worker), time from navigation
 * start to the page's table or fact list first in the DOM, taken inside the page by a
 * MutationObserver (performance.now(), navigation-relative).
 *
 * Run: npx pnpm@12.4.2 --filter @bench-bounty/web bench   (or from the root: npm run bench:web)
 */
import { readdirSync, readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { Hono } from "hono";
import { serve } from "@hono/node-server";
import { webRoot } from "../node/index.js";
import { buildFixture } from "../test/fixtures/data.js";
import { startFixtureServer } from "../test/fixtures/server.js";
import { CHROMIUM, CHROMIUM_ARGS, hasChromium } from "../test/browser.js";

const BUDGET_GZIP_BYTES = 150 * 1024;
const BUDGET_RENDER_MS = 1000;
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 15);

function jsSize(): { raw: number; gzip: number; files: number } {
  const dir = `${webRoot}assets/`;
  const files = readdirSync(dir).filter((f) => f.endsWith(".js"));
  let raw = 0;
  let gzip = 0;
  for (const f of files) {
    const b = readFileSync(dir + f);
    raw += b.length;
    gzip += gzipSync(b, { level: 9 }).length;
  }
  return { raw, gzip, files: files.length };
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return { median: q(0.5), p90: q(0.9), max: s[s.length - 1]! };
};
const ms = (x: number) => `${x.toFixed(0)} ms`;

/** Records when `selector` first appears, navigation-relative, into window.__readyAt. */
const observe = (selector: string) => `
  (() => {
    const done = () => { if (window.__readyAt === undefined && document.querySelector(${JSON.stringify(selector)})) window.__readyAt = performance.now(); };
    new MutationObserver(done).observe(document, { childList: true, subtree: true });
    document.addEventListener("DOMContentLoaded", done);
  })();`;

const size = jsSize();
// The machine may be shared: the load beside the figures says how far to trust the absolute times.
console.log(
  `machine: ${cpus().length} cores, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ")}`,
);
console.log(
  `JavaScript shipped: ${size.files} file(s), ${(size.raw / 1024).toFixed(1)} KB raw, ${(size.gzip / 1024).toFixed(1)} KB gzipped (budget ${BUDGET_GZIP_BYTES / 1024} KB): ${size.gzip < BUDGET_GZIP_BYTES ? "within" : "OVER"}`,
);
if (!hasChromium) {
  console.log(`cold-load render: skipped, no browser at ${CHROMIUM} (apt-get install -y chromium)`);
  process.exit(size.gzip < BUDGET_GZIP_BYTES ? 0 : 1);
}

const server = await startFixtureServer(await buildFixture());
// Baseline: the same rows as static HTML, no script, on its own loopback server.
const rows = Array.from({ length: 20 }, (_, i) => `<li data-fact="f${i}">fact ${i} verified</li>`).join("");
const bare = new Hono().get("/", (c) =>
  c.html(`<!doctype html><title>bare</title><ul id="facts">${rows}</ul>`),
);
const bareServer = await new Promise<{ url: string; close: () => void }>((resolve) => {
  const s = serve({ fetch: bare.fetch, port: 0, hostname: "127.0.0.1" }, (i) =>
    resolve({ url: `http://127.0.0.1:${i.port}`, close: () => s.close() }),
  );
});

const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
const PAGES: [string, string, string][] = [
  ["baseline: static HTML, no JS", `${bareServer.url}/`, "#facts"],
  ["benchmarks", `${server.url}/#/`, "#benchmarks tbody tr"],
  ["leaderboard (final, per-task)", `${server.url}/#/b/vector-small/leaderboard`, "#per-task"],
  ["award (pack + indexer)", `${server.url}/#/b/vector-small/award`, "#winners"],
  ["evidence (pack + verification, 20 facts)", `${server.url}/#/b/vector-small/evidence`, "#facts > li"],
];
let worst = 0;
let baseline = 0;
try {
  console.log(
    `cold-load render, ${RUNS} loads each, a fresh browser context per load (budget ${BUDGET_RENDER_MS} ms):`,
  );
  for (const [name, url, selector] of PAGES) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext();
      await context.addInitScript(observe(selector));
      const page = await context.newPage();
      await page.goto(url);
      await page.waitForFunction(() => (window as unknown as { __readyAt?: number }).__readyAt !== undefined);
      times.push(await page.evaluate(() => (window as unknown as { __readyAt: number }).__readyAt));
      await context.close();
    }
    const s = stats(times);
    if (baseline === 0) baseline = s.median;
    else worst = Math.max(worst, s.p90);
    console.log(
      `  ${name.padEnd(38)} median ${ms(s.median).padStart(7)}  p90 ${ms(s.p90).padStart(7)}  max ${ms(s.max).padStart(7)}  (${(s.median / baseline).toFixed(1)}x baseline)`,
    );
  }
  console.log(
    `worst p90 of the app's pages: ${ms(worst)}: ${worst < BUDGET_RENDER_MS ? "within" : "OVER"} the ${BUDGET_RENDER_MS} ms budget`,
  );
} finally {
  await browser.close();
  await server.close();
  bareServer.close();
}
process.exit(size.gzip < BUDGET_GZIP_BYTES && worst < BUDGET_RENDER_MS ? 0 : 1);
