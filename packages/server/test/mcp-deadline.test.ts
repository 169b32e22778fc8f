/**
 * probe15 A-F9: an MCP batch of finalize calls outlived the 60 s request limit (each finalize waited
 * up to the reveal wait for its receipt's anchor batch, one call after another): the client got a
 * REST-shaped 503 while every finalize had run. Now the reveal waits of one request end together at
 * half the request limit (`revealBy`), so every write that ran is answered; and a request on /mcp
 * that does time out is answered as a JSON-RPC error. A fake domain stands in for the platform: its
 * finalize waits as the platform's does (the reveal wait, cut at `revealBy`).
 */
import { describe, expect, it } from "vitest";
import { createApp, type Domain } from "../src/index.js";

const REVEAL_WAIT_MS = 1_500;
const principal = { account_id: "acct_a", roles: ["competitor"], via: "key", key_prefix: "bbk_k" };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

function appWith(domain: Partial<Domain>, handlerTimeoutMs: number) {
  return createApp({
    domain: { authenticate: async () => principal, ...domain } as unknown as Domain,
    limits: { handlerTimeoutMs },
  });
}

const mcpPost = (app: ReturnType<typeof createApp>, body: unknown) =>
  app.request("/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: "Bearer k",
    },
    body: JSON.stringify(body),
  });

const finalizeCall = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "benchmark_finalize_run", arguments: { run_id: `run-${id}` } },
});

describe("the reveal waits of one request end together (probe15 A-F9)", () => {
  it("a batch of 3 finalizes, each waiting 1.5 s, under a 2 s request limit: every one answered", async () => {
    const ran: string[] = [];
    const app = appWith(
      {
        finalize: async (_p: unknown, runId: string, opts?: { revealBy?: number }) => {
          ran.push(runId);
          const until = Math.min(Date.now() + REVEAL_WAIT_MS, opts?.revealBy ?? Infinity);
          await sleep(until - Date.now());
          return { run_id: runId, status: "finalized", receipt_hash: null };
        },
      } as unknown as Partial<Domain>,
      2_000,
    );
    const res = await mcpPost(app, [finalizeCall(1), finalizeCall(2), finalizeCall(3)]);
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const answers = JSON.parse(text) as {
      id: number;
      result?: { structuredContent?: { status?: string } };
    }[];
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2, 3]);
    for (const a of answers) expect(a.result?.structuredContent?.status).toBe("finalized");
    expect(ran).toEqual(["run-1", "run-2", "run-3"]);
  });

  it("a timeout on /mcp is a JSON-RPC error (503), not the REST body", async () => {
    const app = appWith(
      {
        listBenchmarks: async () => {
          await sleep(600);
          return { benchmarks: [], offset: 0, limit: 100, next_offset: null };
        },
      } as unknown as Partial<Domain>,
      150,
    );
    const res = await mcpPost(app, {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "benchmark_list", arguments: {} },
    });
    expect(res.status).toBe(503);
    const body = (await res.json()) as Record<string, any>;
    expect(body).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, data: { limit_ms: 150 } },
    });
    expect(body.error.message).toMatch(/took longer than 150 ms/);
    expect(body).not.toHaveProperty("error.details");
  });

  it("REST publish gets the request's reveal deadline too (its commitment's wait), at half the limit", async () => {
    const seen: (number | undefined)[] = [];
    const app = appWith(
      {
        publish: async (_p: unknown, _id: string, _o: unknown, _u: unknown, opts?: { answerBy?: number }) => {
          seen.push(opts?.answerBy);
          return { slug: "s" };
        },
      } as unknown as Partial<Domain>,
      4_000,
    );
    const before = Date.now();
    const res = await app.request("/api/v1/datasets/ds-1/benchmark", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "k" },
      body: JSON.stringify({ title: "T", prompt_template: "Q {payload.i}", grader_type: "exact" }),
    });
    expect(res.status, await res.text()).toBe(201);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeGreaterThanOrEqual(before + 2_000);
    expect(seen[0]).toBeLessThanOrEqual(Date.now() + 2_000);
  });

  it("REST upload gets the request's deadline to begin storing, at half the limit (probe16 A-F5 rest)", async () => {
    const seen: (number | undefined)[] = [];
    const app = appWith(
      {
        createDataset: async (_p: unknown, _body: Uint8Array, opts?: { answerBy?: number }) => {
          seen.push(opts?.answerBy);
          return { dataset_id: "ds-1" };
        },
      } as unknown as Partial<Domain>,
      4_000,
    );
    const before = Date.now();
    const res = await app.request("/api/v1/datasets", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "k" },
      body: JSON.stringify({
        name: "d",
        rows: [{ decision_ts: "2026-01-01T00:00:00Z", payload: { i: 1 }, label: "a" }],
      }),
    });
    expect(res.status, await res.text()).toBe(201);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeGreaterThanOrEqual(before + 2_000);
    expect(seen[0]).toBeLessThanOrEqual(Date.now() + 2_000);
  });

  it("REST award gets one deadline for the whole call, at three quarters of the limit (probe16 A-F3)", async () => {
    const seen: (number | undefined)[] = [];
    const app = appWith(
      {
        award: async (_p: unknown, _slug: string, opts?: { answerBy?: number }) => {
          seen.push(opts?.answerBy);
          return { slug: "s" };
        },
      } as unknown as Partial<Domain>,
      4_000,
    );
    const before = Date.now();
    const res = await app.request("/api/v1/benchmarks/s/award", {
      method: "POST",
      headers: { "x-api-key": "k" },
    });
    expect(res.status, await res.text()).toBe(200);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeGreaterThanOrEqual(before + 3_000);
    expect(seen[0]).toBeLessThanOrEqual(Date.now() + 3_000);
  });
});
