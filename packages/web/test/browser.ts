/**
 * Debian's Chromium driven by playwright-core (no browser download): the launch flags and a fresh
 * profile per launch, shared by the browser tests, the bench and the screenshots.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

/** Where Debian's `chromium` package puts the browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Whether the browser is installed (the tests skip with a message when it is not). */
export const hasChromium = existsSync(CHROMIUM);

/** Chromium's launch flags (headless, no sandbox, nothing fetched in the background). */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--headless",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** A browser with a fresh user-data-dir (removed on close). */
export async function launch(
  opts: { downloads?: boolean } = {},
): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), "bench-bounty-web-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    acceptDownloads: opts.downloads ?? true,
    viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
