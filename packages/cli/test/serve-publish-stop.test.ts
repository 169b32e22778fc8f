/**
 * probe31 A-F6: SIGTERM of `serve` while a publish was being planned in the dataset worker (hashing
 * its rows through the native Keccak addon) aborted the process now and then (`FATAL ERROR:
 * Error::Error napi_create_reference`, exit 134: the worker was terminated inside the addon), or closed
 * the store under the publish ("unexpected error: TypeError: The database connection is not open");
 * either way the publish's client got no answer (its connection cut after the stop's grace), and so
 * did a `POST /datasets/validate` in flight. Now the stop answers every dataset job at once, 503
 * `server_busy` with `details.stopping`, terminates the worker outside the addon, and closes the store
 * only after the publish's last read or write: serve exits 0, nothing is published, and the restarted
 * serve publishes the dataset.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killStartedServes, post, startServe } from "./serve-process.js";

afterEach(killStartedServes);
const start = startServe;

/** The probe's dataset: `n` rows of about 215 bytes (15,000: about a second of planning). */
function rows(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    decision_ts: "2026-01-01",
    payload: { q: `q${i}${"-".repeat(200)}` },
    label: `l${i % 7}`,
  }));
}

const PUBLISH = { title: "st", prompt_template: "Q {payload.q}", grader_type: "exact" };
const STOPPING = { code: "server_busy", details: { stopping: true, retry_after_seconds: 5 } };

describe(
  "SIGTERM of serve while a publish is planned in the dataset worker (probe31 A-F6)",
  { timeout: 180_000 },
  () => {
    it("the publish and a validate in flight are answered 503 (stopping), serve exits 0 with no error, a restart publishes", async () => {
      const store = mkdtempSync(join(tmpdir(), "bb-cli-pubstop-"));
      const stopped: { key: string; id: string }[] = [];
      for (const delayMs of [50, 200, 400]) {
        const first = await start(store);
        const key = (await post(first.url, "/api/v1/accounts", {})).json.api_key as string;
        const other = (await post(first.url, "/api/v1/accounts", {})).json.api_key as string;
        const up = await post(first.url, "/api/v1/datasets", { name: "st", rows: rows(15_000) }, key);
        expect(up.status, JSON.stringify(up.json)).toBe(201);
        const id = up.json.dataset_id as string;
        stopped.push({ key, id });
        const publish = post(first.url, `/api/v1/datasets/${id}/benchmark`, PUBLISH, key);
        const validate = post(
          first.url,
          "/api/v1/datasets/validate",
          { name: "v", rows: rows(15_000) },
          other,
        );
        await new Promise((r) => setTimeout(r, delayMs));
        first.child.kill("SIGTERM");
        const [p, v] = await Promise.all([publish, validate]);
        expect(p.status, `after ${delayMs} ms: ${JSON.stringify(p.json)}`).toBe(503);
        expect(p.json.error).toMatchObject(STOPPING);
        // the validate was either answered before the stop or refused by it, never cut
        if (v.status !== 200) expect(v.json.error).toMatchObject(STOPPING);
        expect(await first.exited, first.printed().err).toBe(0);
        expect(first.printed().err).not.toMatch(/FATAL|unexpected error|not open|\n\s+at /);
      }
      // nothing was published: the restarted serve publishes the last dataset (not benchmark_exists)
      const second = await start(store);
      const { key, id } = stopped.at(-1)!;
      const again = await post(second.url, `/api/v1/datasets/${id}/benchmark`, PUBLISH, key);
      expect(again.status, JSON.stringify(again.json)).toBe(201);
      second.child.kill("SIGTERM");
      expect(await second.exited).toBe(0);
    });
  },
);
