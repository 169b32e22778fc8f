/**
 * kill -9 of `bench-bounty serve` in the middle of finalizes, then a restart on the same store:
 * every run is either finalized (with its receipt) or still in progress with every answer, and
 * finalizing it again succeeds. Nothing lost, nothing doubled. On the engine under test: `--store DIR`
 * (SQLite) or `DATABASE_URL` on a fresh PostgreSQL schema.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  databaseUrlWithSchema,
  dropPostgresSchema,
  freshPostgresTarget,
  TEST_ENGINE,
} from "@bench-bounty/platform/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, citiesAnswer, citiesDataset, CITIES_PUBLISH, register } from "./helpers.js";

const CLI = new URL("../../cli/dist/index.js", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "bb-crash-"));
let child: ChildProcess | null = null;
/** PostgreSQL: the schema the serve processes share, and the URL selecting it. */
let pgSchema: string | null = null;
let databaseUrl: string | null = null;
beforeAll(async () => {
  if (TEST_ENGINE !== "postgres") return;
  const t = await freshPostgresTarget();
  pgSchema = t.schema!;
  databaseUrl = databaseUrlWithSchema(t.url, pgSchema);
});

function startServe(): Promise<{ url: string; proc: ChildProcess; out: string }> {
  const proc = spawn(process.execPath, [CLI, "serve", "--store", dir, "--port", "0"], {
    env: {
      PATH: process.env.PATH!,
      BENCH_BOUNTY_OPERATOR_KEY: "bb_op_crash_key_0123456789abcdef0123456789",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = proc;
  return new Promise((resolve, reject) => {
    let out = "";
    proc.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      // the MCP line is the last of the banner
      const m = /listening on (http:\/\/\S+)[\s\S]*\n {2}MCP: \S+/.exec(out);
      if (m) resolve({ url: m[1]!, proc, out });
    });
    proc.once("exit", (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
}

afterAll(async () => {
  child?.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
  if (pgSchema) await dropPostgresSchema(pgSchema);
});

describe("kill -9 during finalize", { timeout: 180_000 }, () => {
  it("loses nothing: after restart each run is finalized once or in progress with all its answers", async () => {
    const first = await startServe();
    let { url, proc } = first;
    // the banner prints the MCP endpoint, and what it prints is one (it answers JSON-RPC)
    const mcp = /\n {2}MCP: (\S+)/.exec(first.out)![1]!;
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
    // the kill may already have been reaped while the requests failed: wait for "exit" only if not
    if (proc.exitCode === null && proc.signalCode === null) await new Promise((r) => proc.once("exit", r));

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
