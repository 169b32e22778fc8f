/**
 * probe15 A-F9: an MCP batch of finalize calls outlived the 60 s request limit (each finalize waited
 * up to the reveal wait for its receipt's anchor batch, one call after another): the client got a
 * REST-shaped 503 while every finalize had run. Now the reveal waits of one request end together at
 * half the request limit (`revealBy`), so every write that ran is answered, and a call whose turn comes
 * after that deadline is not begun (probe21 A-F10: answered `server_busy`); and a request on /mcp
 * that does time out is answered as a JSON-RPC error. A fake domain stands in for the platform: its
 * finalize waits as the platform's does (the reveal wait, cut at `revealBy`).
 */
import { describe, expect, it } from "vitest";
import { PlatformError } from "@bench-bounty/platform";
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
  it("a batch of 3 finalizes, each waiting 1.5 s, under a 2 s request limit: every one answered, by its id", async () => {
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
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3]);
    // the first waits its reveal until the request's deadline; the calls whose turn comes after it are
    // not begun (probe21 A-F10), each answered server_busy
    expect(answers[0]!.result?.structuredContent?.status).toBe("finalized");
    for (const a of answers.slice(1))
      expect(a.result?.structuredContent, JSON.stringify(a)).toMatchObject({
        error: { code: "server_busy", details: { limit: "request_deadline" } },
      });
    expect(ran).toEqual(["run-1"]);
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

  it("a batch's calls not begun by the request's deadline are not begun: each answered server_busy by its id, nothing written after the answer (probe21 A-F10)", async () => {
    // SQLite as the probe met it: each write waits its busy wait (WAIT_MS) for a lock another process
    // holds (HOLD_MS), whatever its `answerBy`; a write whose wait ends after the release writes
    const WAIT_MS = 300;
    const HOLD_MS = 2_300;
    const began: { id: string; at: number; answerBy: number | undefined }[] = [];
    const written: { address: string; at: number }[] = [];
    const t0 = Date.now();
    const app = appWith(
      {
        setWithdrawalAddress: async (_p: unknown, address: string, opts?: { answerBy?: number }) => {
          began.push({ id: address, at: Date.now(), answerBy: opts?.answerBy });
          await sleep(WAIT_MS);
          if (Date.now() < t0 + HOLD_MS) throw new PlatformError("server_busy", "the store is busy");
          written.push({ address, at: Date.now() });
          return { account_id: "acct_a", withdrawal_address: address };
        },
      } as unknown as Partial<Domain>,
      2_000,
    );
    const calls = Array.from({ length: 12 }, (_, i) => ({
      jsonrpc: "2.0",
      id: i + 1,
      method: "tools/call",
      params: { name: "set_withdrawal_address", arguments: { withdrawal_address: `0x${i}` } },
    }));
    const res = await mcpPost(app, calls);
    const answeredAt = Date.now();
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const answers = JSON.parse(text) as { id: number; result?: any; error?: unknown }[];
    // every call its own answer, by its id: the client knows which ran
    expect(answers.map((a) => a.id)).toEqual(calls.map((c) => c.id));
    const codes = answers.map((a) => a.result?.structuredContent?.error?.code);
    expect(
      codes.every((c) => c === "server_busy"),
      text,
    ).toBe(true);
    // the deadline is the request's (half its limit): no call began after it, each bounded by it
    expect(began.length).toBeGreaterThan(0);
    expect(began.length).toBeLessThan(calls.length);
    for (const b of began) {
      expect(b.answerBy).toBeDefined();
      expect(b.at).toBeLessThan(b.answerBy!);
    }
    const notBegun = answers.slice(began.length);
    for (const a of notBegun)
      expect(a.result.structuredContent.error.details, JSON.stringify(a)).toMatchObject({
        limit: "request_deadline",
      });
    // nothing is written after the answer, even once the lock is free
    await sleep(HOLD_MS + WAIT_MS * calls.length - (Date.now() - t0));
    expect(written.filter((w) => w.at > answeredAt)).toEqual([]);
    expect(written).toEqual([]);
  });
});
