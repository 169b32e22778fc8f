/**
 * probe37 A-F1: the web page served by a `serve` without the service's chain on a store used on one
 * printed every step of its walk against that server, which refuses a withdrawal address (and a prize
 * benchmark's run, answers and finalize) 503 `no_chain`; the API's `how_to_compete` of the same server
 * already sent those steps to `$MAIN` (probe36 V-F5). The page now reads the detail's `compete_at_main`
 * (the platform's one rule, `competeAtMainOf`): its note first, the refused steps at `$MAIN`.
 * Skipped, with a message, when /usr/bin/chromium is absent.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext } from "playwright-core";
import { Platform } from "../../platform/dist/index.js";
import { platformDomain, serveApp, type ListeningServer } from "../../server/dist/index.js";
import { webMiddleware } from "../../server/dist/web.js";
import { call, publishCities } from "../../server/test/helpers.js";
import { CHROMIUM, hasChromium, launch } from "./browser.js";

if (!hasChromium)
  console.log(
    `chainless page browser tests skipped: no browser at ${CHROMIUM} (apt-get install -y chromium)`,
  );

describe.skipIf(!hasChromium)("web app on a chainless serve of a chain store (probe37 A-F1)", () => {
  let dir: string;
  let platform: Platform;
  let server: ListeningServer;
  let browser: { context: BrowserContext; close: () => Promise<void> };
  let slug: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "bb-web-chainless-"));
    platform = await Platform.open({ dir, operatorKey: "bb_operator_web_test_0123456789abcdef0123456789" });
    // a process with the chain opened this store once (as `serve --rpc-url` does): this one has none
    await platform.ctx.store.anchors.markOnChain(8453);
    server = await serveApp({
      domain: platformDomain(platform),
      port: 0,
      host: "127.0.0.1",
      web: webMiddleware(),
    });
    slug = (await publishCities(server.url, 8, "chainless")).slug;
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await platform?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("prints the API's note and sends the withdrawal address, the MCP calls and the script to $MAIN", async () => {
    const detail = (await call(server.url, "GET", `/api/v1/benchmarks/${slug}`)).json;
    expect(detail.compete_at_main).toMatchObject({ withdrawal_address: true, runs: false });
    // what the page printed before is refused here
    const key = (await call(server.url, "POST", "/api/v1/accounts", { body: {} })).json.api_key as string;
    const put = await call(server.url, "PUT", "/api/v1/accounts/me/withdrawal-address", {
      key,
      body: { withdrawal_address: "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed" },
    });
    expect([put.status, put.text]).toEqual([503, expect.stringContaining("no_chain")]);
    expect(put.json.error.code).toBe("no_chain");

    const page = await browser.context.newPage();
    await page.goto(`${server.url}/#/b/${slug}`);
    await page.waitForSelector("#how-to-compete");
    expect(await page.textContent("#compete-at-main", { timeout: 5000 })).toBe(detail.compete_at_main.note);
    expect(detail.how_to_compete.split("\n")[0]).toBe(`0. ${detail.compete_at_main.note}`);
    const cmds = await page.$$eval("#how-to-compete pre", (ps) => ps.map((p) => p.textContent ?? ""));
    const api = `${server.url}/api/v1`;
    expect(cmds).toContain(
      `curl -s -X PUT "$MAIN/api/v1/accounts/me/withdrawal-address" -H "X-API-Key: $BENCH_BOUNTY_API_KEY" -H 'Content-Type: application/json' -d '{"withdrawal_address":"0x..."}'`,
    );
    expect(cmds.some((c) => c.includes(`${api}/accounts/me/withdrawal-address`))).toBe(false);
    // no prize: the run is taken here once the address is set there, as in the API's walk
    expect(cmds).toContain(
      `curl -s -X POST ${api}/benchmarks/${slug}/runs -H "X-API-Key: $BENCH_BOUNTY_API_KEY"`,
    );
    expect(detail.how_to_compete).toContain(`curl -s -X POST ${api}/benchmarks/${slug}/runs `);
    expect(cmds).toContain(`$MAIN/mcp/benchmarks/${slug}/http`);
    expect(cmds).toContain(`curl -sSL ${api}/scripts/run-benchmark.sh | sh -s -- "$MAIN" start ${slug}`);
    await page.close();
  });
});
