/**
 * An account's default agent is the agent whose id is the account's name (platform README): a run
 * started without `agent_id` (REST, MCP `benchmark_start_run`) runs as it, the account view's
 * `withdrawal_address` is its, and a new agent inherits its address.
 * - probe38 A-F1: the first agent by id was taken: once account `x` registered an agent `aaa-x`, its
 *   bodyless starts ran as `aaa-x` (another agent's attempts, board row and author flag), silently.
 *   An account with agents but none of its name is refused naming `agent_id`, never guessed.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { beforeAll, describe, expect, it } from "vitest";
import { call, publishCities, register, useLive } from "./helpers.js";

const live = useLive();
let slug: string;
beforeAll(async () => {
  slug = (await publishCities(live.url, 4, "default-agent")).slug;
});

const ADDRESS_A = "0x00000000000000000000000000000000000a0001";
const ADDRESS_B = "0x00000000000000000000000000000000000b0002";

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: "bench-bounty-test", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(`${live.url}/mcp/benchmarks/${slug}/http`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

/** Registers `agent_id` for the account of `key` over REST (201 expected). */
async function addAgent(key: string, agent_id: string): Promise<void> {
  const r = await call(live.url, "POST", "/api/v1/accounts/me/agents", { key, body: { agent_id } });
  expect(r.status, r.text).toBe(201);
}

describe("a start without agent_id runs as the account's default agent (probe38 A-F1)", () => {
  it("REST: an agent whose id sorts first does not take the bodyless start", async () => {
    const me = await register(live.url, "zed-rest");
    await addAgent(me.key, "aaa-zed-rest");
    const bodyless = await call(live.url, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: me.key });
    expect(bodyless.status, bodyless.text).toBe(201);
    expect(bodyless.json.run.agent_id).toBe("zed-rest");
    // the next one too: run_in_progress of the default agent, not a second agent's start
    const again = await call(live.url, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: me.key, body: {} });
    expect(again.status, again.text).toBe(409);
    expect(again.json.error.code).toBe("run_in_progress");
    expect(again.json.error.message).toContain("zed-rest");
    expect(again.json.error.message).not.toContain("aaa-zed-rest");
  });

  it("MCP: benchmark_start_run without agent_id runs as the account's name", async () => {
    const me = await register(live.url, "zed-mcp");
    await addAgent(me.key, "aaa-zed-mcp");
    const c = await connect(me.key);
    try {
      const res = await c.callTool({ name: "benchmark_start_run", arguments: {} });
      expect(res.isError, JSON.stringify(res.structuredContent)).toBeFalsy();
      expect((res.structuredContent as any).run.agent_id).toBe("zed-mcp");
    } finally {
      await c.close();
    }
  });

  it("the account view's withdrawal_address and a new agent's inherited one are the default agent's", async () => {
    const me = await register(live.url, "zed-addr", { withdrawal_address: ADDRESS_A });
    await addAgent(me.key, "aaa-zed-addr");
    // the agent that sorts first gets another address (the platform's per-agent write)
    const who = await live.platform.authenticate(me.key);
    await live.platform.setWithdrawalAddress(who, "aaa-zed-addr", ADDRESS_B);
    const view = await call(live.url, "GET", "/api/v1/accounts/me", { key: me.key });
    expect(view.status, view.text).toBe(200);
    expect(view.json.withdrawal_address).toBe(ADDRESS_A);
    // registered over REST, and on first sight by a run start: both take the default agent's address
    await addAgent(me.key, "aab-zed-addr");
    const started = await call(live.url, "POST", `/api/v1/benchmarks/${slug}/runs`, {
      key: me.key,
      body: { agent_id: "aac-zed-addr" },
    });
    expect(started.status, started.text).toBe(201);
    const agents = new Map(
      (await live.platform.myAgents(who)).map((a) => [a.agent_id, a.withdrawal_address] as const),
    );
    expect(agents.get("aab-zed-addr")).toBe(ADDRESS_A);
    expect(agents.get("aac-zed-addr")).toBe(ADDRESS_A);
  });

  it("registering an existing agent again (to set is_author_agent) keeps its own withdrawal address", async () => {
    const me = await register(live.url, "zed-again", { withdrawal_address: ADDRESS_A });
    await addAgent(me.key, "zed-again-2");
    const who = await live.platform.authenticate(me.key);
    await live.platform.setWithdrawalAddress(who, "zed-again-2", ADDRESS_B);
    const r = await call(live.url, "POST", "/api/v1/accounts/me/agents", {
      key: me.key,
      body: { agent_id: "zed-again-2", is_author_agent: false },
    });
    expect(r.status, r.text).toBeLessThan(300);
    expect((await live.platform.getAgent("zed-again-2"))?.withdrawal_address).toBe(ADDRESS_B);
  });

  it("an account without a default agent: the address it sets is its view's and what its next agents inherit (probe38 V-F3)", async () => {
    const me = await register(live.url, "zed-nd2", { agent_id: "zed-nd2-other" });
    const put = await call(live.url, "PUT", "/api/v1/accounts/me/withdrawal-address", {
      key: me.key,
      body: { withdrawal_address: ADDRESS_B },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.json.withdrawal_address).toBe(ADDRESS_B);
    await addAgent(me.key, "zed-nd2");
    expect((await live.platform.getAgent("zed-nd2"))?.withdrawal_address).toBe(ADDRESS_B);
    const view = await call(live.url, "GET", "/api/v1/accounts/me", { key: me.key });
    expect(view.json.withdrawal_address).toBe(ADDRESS_B);
  });

  it("an account with agents but none of its name: the bodyless start is refused naming agent_id, nothing started", async () => {
    const me = await register(live.url, "zed-nodef", { agent_id: "zed-nodef-agent" });
    await addAgent(me.key, "aaa-zed-nodef");
    const rest = await call(live.url, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: me.key });
    expect(rest.status, rest.text).toBe(422);
    expect(rest.json.error).toMatchObject({
      code: "invalid_option",
      details: {
        field: "agent_id",
        reason: "no_default_agent",
        agents: ["aaa-zed-nodef", "zed-nodef-agent"],
      },
    });
    expect(rest.json.error.message).toContain("agent_id");
    const c = await connect(me.key);
    try {
      const res = await c.callTool({ name: "benchmark_start_run", arguments: {} });
      expect(res.isError).toBe(true);
      expect((res.structuredContent as any).error).toMatchObject({
        code: "invalid_option",
        details: { field: "agent_id", reason: "no_default_agent" },
      });
    } finally {
      await c.close();
    }
    const mine = await call(live.url, "GET", "/api/v1/benchmarks/runs/mine", { key: me.key });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.json.runs).toEqual([]);
    // naming one starts it
    const named = await call(live.url, "POST", `/api/v1/benchmarks/${slug}/runs`, {
      key: me.key,
      body: { agent_id: "zed-nodef-agent" },
    });
    expect(named.status, named.text).toBe(201);
    expect(named.json.run.agent_id).toBe("zed-nodef-agent");
  });
});
