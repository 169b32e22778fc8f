/**
 * Screenshots of the main pages on the fixture data, into the repository's docs/ (web-*.png).
 * Run: npx pnpm@12.4.2 --filter @bench-bounty/web screenshots
 */
import { fileURLToPath } from "node:url";
import { buildFixture } from "../test/fixtures/data.js";
import { startFixtureServer } from "../test/fixtures/server.js";
import { CHROMIUM, hasChromium, launch } from "../test/browser.js";

const DOCS = fileURLToPath(new URL("../../../docs/", import.meta.url));
const PAGES: [string, string, string][] = [
  ["benchmarks", "#/", "#benchmarks"],
  ["benchmark", "#/b/vector-small", "#how-to-compete"],
  ["leaderboard", "#/b/vector-small/leaderboard", "#per-task"],
  ["leaderboard-open", "#/b/open-numeric/leaderboard", "#leaderboard"],
  ["award", "#/b/vector-small/award", "#winners"],
  ["evidence", "#/b/vector-small/evidence", '[data-testid="download-report"]'],
  ["evidence-tampered", "#/b/vector-tampered/evidence", '[data-testid="download-report"]'],
];

if (!hasChromium) {
  console.log(`screenshots: skipped, no browser at ${CHROMIUM} (apt-get install -y chromium)`);
  process.exit(0);
}
const server = await startFixtureServer(await buildFixture());
const browser = await launch();
try {
  const page = await browser.context.newPage();
  for (const [name, hash, ready] of PAGES) {
    await page.goto(`${server.url}/${hash}`);
    await page.waitForSelector(ready);
    const file = `${DOCS}web-${name}.png`;
    await page.screenshot({ path: file, fullPage: true });
    console.log(`wrote ${file}`);
  }
} finally {
  await browser.close();
  await server.close();
}
