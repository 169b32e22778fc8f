/**
 * A run left in progress takes no answers once its benchmark has closed (probe4 late-run: answers
 * copied from the published pack were accepted after the award), over REST and MCP alike: 409
 * `benchmark_closed` naming the rule, and nothing stored. On SQLite and on PostgreSQL.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { call, publishCities, registerAndStartRun, useLive } from "./helpers.js";

// on the engine under test: SQLite, and PostgreSQL in the `postgres` project (vitest.config.ts)
const live = useLive();

describe("a run left in progress past the close", () => {
  it("submit is 409 benchmark_closed over REST and MCP; start is refused too", async () => {
    const { slug } = await publishCities(live.url, 6, "late");
    const { agent, start: rest } = await registerAndStartRun(live.url, slug, "late-agent");
    expect(rest.status, rest.text).toBe(201);
    const runId = rest.json.run.id as string;
    const before = await call(live.url, "POST", `/api/v1/benchmarks/runs/${runId}/submissions`, {
      key: agent.key,
      body: { answers: [{ ordinal: 0, answer_text: "before" }] },
    });
    expect(before.status, before.text).toBe(200);

    await live.platform.closeBenchmark(live.platform.localOperator(), slug);

    const late = await call(live.url, "POST", `/api/v1/benchmarks/runs/${runId}/submissions`, {
      key: agent.key,
      body: { answers: [{ ordinal: 1, answer_text: "after" }] },
    });
    expect(late.status).toBe(409);
    expect(late.json.error).toMatchObject({
      code: "benchmark_closed",
      details: { rule: "benchmark_closed" },
    });

    const client = new Client({ name: "late-run-test", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${live.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${agent.key}` } },
      }),
    );
    const mcp = await client.callTool({
      name: "benchmark_submit_answers",
      arguments: { run_id: runId, answers: [{ ordinal: 2, answer_text: "after" }] },
    });
    expect(mcp.isError).toBe(true);
    expect((mcp.structuredContent as any).error).toMatchObject({
      code: "benchmark_closed",
      details: { rule: "benchmark_closed" },
    });
    const start = await client.callTool({
      name: "benchmark_start_run",
      arguments: { slug, agent_id: "other" },
    });
    expect(start.isError).toBe(true);
    expect((start.structuredContent as any).error.code).toBe("benchmark_closed");
    await client.close();

    const fin = await call(live.url, "POST", `/api/v1/benchmarks/runs/${runId}/finalize`, { key: agent.key });
    expect(fin.status, fin.text).toBe(200);
    expect(fin.json.counts.answered).toBe(1); // only the answer sent before the close
  });
});
