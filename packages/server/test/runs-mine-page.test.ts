/**
 * probe15 A-F8: `GET /benchmarks/runs/mine` and MCP `runs_mine` were the caller's every run in one
 * answer (200,000 runs: 66 MB built in one go). Both are paged like the leaderboard: `offset`,
 * `limit` (default 100, at most 1,000), `next_offset`, newest first in a stable order.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, postMcp, publishCities, register, useLive } from "./helpers.js";

const live = useLive();
let key: string;
let slug: string;
/** The account's run ids, newest first (as started). */
const started: string[] = [];
beforeAll(async () => {
  ({ slug } = await publishCities(live.url, 4, "mine-paged"));
  const me = await register(live.url, "mine-paged-me");
  key = me.key;
  for (const agent_id of ["m2", "m3"])
    expect(
      (await call(live.url, "POST", "/api/v1/accounts/me/agents", { key, body: { agent_id } })).status,
    ).toBe(201);
  // 2 attempts of each of 3 agents, the last one left in progress
  for (const agent_id of [me.agent_id, "m2", "m3"])
    for (let attempt = 0; attempt < 2; attempt++) {
      const s = await call(live.url, "POST", `/api/v1/benchmarks/${slug}/runs`, { key, body: { agent_id } });
      expect(s.status, s.text).toBe(201);
      started.unshift(s.json.run.id);
      if (agent_id === "m3" && attempt === 1) break;
      const f = await call(live.url, "POST", `/api/v1/benchmarks/runs/${s.json.run.id}/finalize`, { key });
      expect(f.status, f.text).toBe(200);
    }
});

const mine = (q = "") => call(live.url, "GET", `/api/v1/benchmarks/runs/mine${q}`, { key });
const ids = (runs: { run_id: string }[]) => runs.map((r) => r.run_id);

describe("runs/mine pages (probe15 A-F8)", () => {
  it("serves the first 100 runs by default, newest first, and says where the page sits", async () => {
    const r = await mine();
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ offset: 0, limit: 100, next_offset: null });
    expect(r.json.runs.length).toBe(6);
    expect(new Set(ids(r.json.runs))).toEqual(new Set(started));
    const times = r.json.runs.map((x: { started_at: string }) => x.started_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("walks every run with limit and next_offset, each once, in the order of the whole list", async () => {
    const whole = ids((await mine()).json.runs);
    const seen: string[] = [];
    let offset: number | null = 0;
    let pages = 0;
    while (offset !== null) {
      const r = await mine(`?limit=4&offset=${offset}`);
      expect(r.status, r.text).toBe(200);
      expect(r.json.runs.length).toBeLessThanOrEqual(4);
      seen.push(...ids(r.json.runs));
      offset = r.json.next_offset;
      pages++;
    }
    expect(pages).toBe(2);
    expect(seen).toEqual(whole);
    expect((await mine("?offset=6")).json).toMatchObject({ runs: [], next_offset: null });
  });

  it("refuses a malformed parameter (400) and a page over 1,000 runs (422), naming them", async () => {
    const word = await mine("?limit=ten");
    expect(word.status).toBe(400);
    expect(word.json.error).toMatchObject({ code: "invalid_query", details: { parameter: "limit" } });
    const huge = await mine("?limit=1001");
    expect(huge.status).toBe(422);
    expect(huge.json.error).toMatchObject({ code: "invalid_option", details: { field: "limit" } });
    expect((await mine("?limit=1000")).status).toBe(200);
  });

  it("MCP runs_mine is paged the same way", async () => {
    const tool = (id: number, args: Record<string, unknown>) =>
      JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "runs_mine", arguments: args },
      });
    const rest = (await mine("?limit=4&offset=4")).json;
    const page = await postMcp(live.url, tool(1, { offset: 4, limit: 4 }), key);
    expect(page.status).toBe(200);
    expect(page.body.result.structuredContent).toEqual(rest);
    const first = await postMcp(live.url, tool(2, {}), key);
    expect(first.body.result.structuredContent).toMatchObject({ offset: 0, limit: 100, next_offset: null });
    const huge = await postMcp(live.url, tool(3, { limit: 1001 }), key);
    expect(huge.body.result.isError).toBe(true);
    expect(JSON.stringify(huge.body.result)).toMatch(/limit/);
  });

  it("carries no receipt once the benchmark is closed: the run view serves it (probe16 A-F7)", async () => {
    // a closed benchmark's receipts are public (SPEC 6.1): the list carried each one, ~1.7 KB a run
    await live.platform.closeBenchmark(live.platform.localOperator(), slug);
    const runs = (await mine()).json.runs as Record<string, unknown>[];
    const finalized = runs.filter((r) => r.status === "finalized");
    expect(finalized.length).toBe(5);
    for (const r of finalized) {
      expect(r).not.toHaveProperty("receipt");
      expect(r.receipt_hash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(r).toHaveProperty("receipt_anchor_status");
      const one = await call(live.url, "GET", `/api/v1/benchmarks/runs/${r.run_id}`, { key });
      expect(one.status, one.text).toBe(200);
      expect(one.json.receipt_hash).toBe(r.receipt_hash);
      expect(one.json.receipt.tasks.length).toBeGreaterThan(0);
    }
    const rpc = JSON.stringify({
      jsonrpc: "2.0",
      id: 9,
      method: "tools/call",
      params: { name: "runs_mine", arguments: {} },
    });
    const tool = (await postMcp(live.url, rpc, key)).body.result.structuredContent;
    expect(tool.runs.length).toBe(6);
    for (const r of tool.runs) expect(r).not.toHaveProperty("receipt");
  });
});
