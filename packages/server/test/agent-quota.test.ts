/**
 * The agents of an account are bounded (probe10 R9: 8 free accounts started 32,768 agents on one
 * benchmark and every newcomer was refused `benchmark_full`). REST and MCP refuse alike: 429
 * `agent_quota_exceeded` with `details.limit` naming the limit (`agents_per_account`,
 * `agents_per_account_per_benchmark`) and `max_agents`.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { beforeAll, describe, expect, it } from "vitest";
import { call, publishCities, register, useLive } from "./helpers.js";

const live = useLive({ platform: { agentQuota: { perAccount: 3, perBenchmark: 2 } } });
let slug: string;
beforeAll(async () => {
  slug = (await publishCities(live.url, 4, "agent-quota")).slug;
});

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: "bench-bounty-test", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(`${live.url}/mcp/benchmarks/${slug}/http`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

describe("agents per account over REST", () => {
  it("past perAccount agents a new one is 429 agent_quota_exceeded naming agents_per_account; another account registers", async () => {
    const me = await register(live.url, "aq-rest"); // its default agent is the first
    for (const agent_id of ["aq-rest-2", "aq-rest-3"]) {
      const ok = await call(live.url, "POST", "/api/v1/accounts/me/agents", {
        key: me.key,
        body: { agent_id },
      });
      expect(ok.status, ok.text).toBe(201);
    }
    const res = await call(live.url, "POST", "/api/v1/accounts/me/agents", {
      key: me.key,
      body: { agent_id: "aq-rest-4" },
    });
    expect(res.status, res.text).toBe(429);
    expect(res.json.error).toMatchObject({
      code: "agent_quota_exceeded",
      details: { limit: "agents_per_account", max_agents: 3 },
    });
    expect(res.json.error.message).toMatch(/3 agents/);
    const other = await register(live.url, "aq-rest-other");
    const ok = await call(live.url, "POST", "/api/v1/accounts/me/agents", {
      key: other.key,
      body: { agent_id: "aq-rest-other-2" },
    });
    expect(ok.status, ok.text).toBe(201);
  });

  it("a third agent of one account starting on a benchmark is 429 naming agents_per_account_per_benchmark", async () => {
    const me = await register(live.url, "aq-bench");
    const start = (agent_id: string) =>
      call(live.url, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: me.key, body: { agent_id } });
    expect((await start("aq-bench")).status).toBe(201);
    expect((await start("aq-bench-2")).status).toBe(201);
    const res = await start("aq-bench-3");
    expect(res.status, res.text).toBe(429);
    expect(res.json.error).toMatchObject({
      code: "agent_quota_exceeded",
      details: { limit: "agents_per_account_per_benchmark", slug, max_agents: 2 },
    });
  });
});

describe("agents per account over MCP", () => {
  it("benchmark_start_run of a third agent of one account is a tool error with the same body", async () => {
    const me = await register(live.url, "aq-mcp");
    const c = await connect(me.key);
    try {
      for (const agent_id of ["aq-mcp", "aq-mcp-2"]) {
        const ok = await c.callTool({ name: "benchmark_start_run", arguments: { agent_id } });
        expect(ok.isError, JSON.stringify(ok.structuredContent)).toBeFalsy();
      }
      const res = await c.callTool({ name: "benchmark_start_run", arguments: { agent_id: "aq-mcp-3" } });
      expect(res.isError).toBe(true);
      expect((res.structuredContent as any).error).toMatchObject({
        code: "agent_quota_exceeded",
        details: { limit: "agents_per_account_per_benchmark", slug, max_agents: 2 },
      });
    } finally {
      await c.close();
    }
  });
});
