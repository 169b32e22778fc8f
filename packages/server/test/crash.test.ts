/**
 * kill -9 of `bench-bounty serve` in the middle of finalizes, then a restart on the same store:
 * every run is either finalized (with its receipt) or still in progress with every answer, and
 * finalizing it again succeeds. Nothing lost, nothing doubled. On the engine under test: `--store DIR`
 * (SQLite) or `DATABASE_URL` on a fresh PostgreSQL schema.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, citiesAnswer, citiesDataset, CITIES_PUBLISH, register } from "./helpers.js";
import { cleanupServes, freshStore, startServe as startServeOn, type ServeStore } from "./serve-process.js";

const OPERATOR_KEY = { BENCH_BOUNTY_OPERATOR_KEY: "bb_op_crash_key_0123456789abcdef0123456789" };
let store: ServeStore;
beforeAll(async () => {
  store = await freshStore();
});

/** `serve` on this file's store (the same one after a restart). */
const startServe = () => startServeOn(store, { env: OPERATOR_KEY });

afterAll(cleanupServes);

describe("kill -9 during finalize", { timeout: 180_000 }, () => {
  it("loses nothing: after restart each run is finalized once or in progress with all its answers", async () => {
    const first = await startServe();
    let { url, proc } = first;
    // the banner prints the MCP endpoint, and what it prints is one (it answers JSON-RPC)
    const mcp = /\n {2}MCP: (\S+)/.exec(first.output())![1]!;
    expect(mcp).toBe(`${url}/mcp`);
    const rpc = await fetch(mcp, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: "[]",
    });
    expect(((await rpc.json()) as { jsonrpc: string }).jsonrpc).toBe("2.0");
    const author = await register(url, "crash-author");
    const ds = await call(url, "POST", "/api/v1/datasets", {
      key: author.key,
      body: citiesDataset(30, "crash"),
    });
    const slug = (
      await call(url, "POST", `/api/v1/datasets/${ds.json.dataset_id}/benchmark`, {
        key: author.key,
        body: CITIES_PUBLISH,
      })
    ).json.slug;
    const runs: { key: string; id: string; n: number }[] = [];
    for (let i = 0; i < 12; i++) {
      const a = await register(url, `crash-${i}`);
      const s = await call(url, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: a.key });
      const answers = s.json.tasks.map((t: any) => ({
        ordinal: t.ordinal,
        answer_text: citiesAnswer(t.prompt),
      }));
      expect(
        (
          await call(url, "POST", `/api/v1/benchmarks/runs/${s.json.run.id}/submissions`, {
            key: a.key,
            body: { answers },
          })
        ).status,
      ).toBe(200);
      runs.push({ key: a.key, id: s.json.run.id, n: answers.length });
    }
    const inFlight = runs.map((r) =>
      call(url, "POST", `/api/v1/benchmarks/runs/${r.id}/finalize`, { key: r.key }).catch(() => null),
    );
    await new Promise((r) => setTimeout(r, 15));
    proc.kill("SIGKILL");
    await Promise.all(inFlight);
    await first.exited;

    ({ url, proc } = await startServe());
    let finalizedBefore = 0;
    for (const r of runs) {
      const view = await call(url, "GET", `/api/v1/benchmarks/runs/${r.id}`, { key: r.key });
      expect(view.status).toBe(200);
      if (view.json.status === "finalized") {
        finalizedBefore++;
        expect(view.json.receipt_hash).toMatch(/^0x[0-9a-f]{64}$/);
        expect(
          (await call(url, "POST", `/api/v1/benchmarks/runs/${r.id}/finalize`, { key: r.key })).status,
        ).toBe(409);
      } else {
        const tasks = await call(url, "GET", `/api/v1/benchmarks/runs/${r.id}/tasks`, { key: r.key });
        expect(tasks.json.answered_ordinals).toHaveLength(r.n);
        const fin = await call(url, "POST", `/api/v1/benchmarks/runs/${r.id}/finalize`, { key: r.key });
        expect(fin.status).toBe(200);
        expect(fin.json.score_public).toBe("1.0000");
      }
    }
    const board = await call(url, "GET", `/api/v1/benchmarks/${slug}/leaderboard`);
    expect(board.json.rows).toHaveLength(12);
    process.stderr.write(`crash test: ${finalizedBefore}/12 runs were finalized before the kill\n`);
    proc.kill("SIGTERM");
  });
});
