/**
 * probe30 A-F10: SIGTERM of `serve` while an upload inserted its rows closed the store under it: the
 * next slice failed "unexpected error: Error: driver has already been destroyed" (its stack in the
 * log), the client got no answer, the pending dataset stayed behind, and after an immediate restart
 * every re-upload of it was 503 "another request is storing this same dataset". Now the stop ends the
 * upload at its next slice (`Platform.stopUploads`): the client is answered 503 `server_busy`
 * (`details.stopping`), nothing is left in the store, the log holds no error, and the restarted serve
 * stores the same upload.
 */
import { mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killStartedServes, startServe } from "./serve-process.js";

/** better-sqlite3, the platform's driver: the test reads the store as a second process would. */
const Sqlite = createRequire(import.meta.resolve("@bench-bounty/platform"))("better-sqlite3") as new (
  file: string,
  opts: { readonly: boolean },
) => { prepare(q: string): { get(): { n: number } }; close(): void };

afterEach(killStartedServes);
const start = startServe;

/** A 60,000-row dataset body of about 24 MB (the probe's `big.json`): its rows take seconds to go in. */
function bigBody(): string {
  const pad = "x".repeat(360);
  const rows = Array.from({ length: 60_000 }, (_, i) => ({
    decision_ts: "2026-01-01",
    payload: { city: `C${i}`, index: i, pad },
    label: `l${i}`,
  }));
  return JSON.stringify({ name: "big", rows });
}

async function upload(base: string, key: string, body: string) {
  const r = await fetch(`${base}/api/v1/datasets`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body,
  });
  return { status: r.status, json: (await r.json()) as Record<string, any> };
}

describe("SIGTERM of serve while an upload inserts its rows (probe30 A-F10)", { timeout: 180_000 }, () => {
  it("the upload is answered 503 (stopping), nothing is left, no error is logged, and a restart stores it", async () => {
    const store = mkdtempSync(join(tmpdir(), "bb-cli-upstop-"));
    const body = bigBody();
    const first = await start(store);
    const account = await fetch(`${first.url}/api/v1/accounts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const key = ((await account.json()) as { api_key: string }).api_key;
    const up = upload(first.url, key, body);
    // stopped once some of its rows, not all, are in (read from the store as another process would)
    const db = new Sqlite(join(store, "platform.sqlite"), { readonly: true });
    let rows = 0;
    const end = Date.now() + 120_000;
    while (rows <= 1000 && Date.now() < end) {
      rows = db.prepare("SELECT COUNT(*) AS n FROM dataset_rows").get().n;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(rows).toBeGreaterThan(1000);
    expect(rows).toBeLessThan(60_000);
    first.child.kill("SIGTERM");
    const answer = await up;
    expect(answer.status).toBe(503);
    expect(answer.json.error).toMatchObject({
      code: "server_busy",
      details: { stopping: true, retry_after_seconds: 5 },
    });
    expect(await first.exited).toBe(0);
    expect(first.printed().err).not.toMatch(/unexpected error|destroyed|\n\s+at /);
    // nothing left: no dataset (pending or deleted), no row
    expect(db.prepare("SELECT COUNT(*) AS n FROM datasets").get().n).toBe(0);
    expect(db.prepare("SELECT COUNT(*) AS n FROM dataset_rows").get().n).toBe(0);
    db.close();
    // restarted at once, the same account's same upload is stored
    const second = await start(store);
    const again = await upload(second.url, key, body);
    expect(again.status, JSON.stringify(again.json)).toBe(201);
    expect(again.json).toMatchObject({ name: "big", row_count: 60_000 });
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  });
});
