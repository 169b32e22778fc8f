/**
 * SPEC 6.1 (issue 13 item 4) over MCP: while the benchmark is open, nothing an agent is served
 * through the MCP tools (finalize, leaderboard, runs_mine, benchmark_detail, award_evidence) is
 * computed from private tasks. Two throwaway agents differ only in their private answers: their
 * tool outputs carry no private figure, and each figure they carry is the same for both.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { beforeAll, describe, expect, it } from "vitest";
import { citiesAnswer, publishCities, useLive } from "./helpers.js";

const live = useLive();
let slug: string;
beforeAll(async () => {
  slug = (await publishCities(live.url, 8, "mcpleak")).slug;
});

async function connect(key?: string): Promise<Client> {
  const client = new Client({ name: "leak-probe", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${live.url}/mcp/benchmarks/${slug}/http`), {
      ...(key ? { requestInit: { headers: { authorization: `Bearer ${key}` } } } : {}),
    }),
  );
  return client;
}

/** Every key of a JSON value, at any depth (but inside `grader_types`: the SPEC 5 examples, public text). */
function keysOf(v: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(v)) v.forEach((x) => keysOf(x, out));
  else if (typeof v === "object" && v !== null)
    for (const [k, x] of Object.entries(v)) {
      out.add(k);
      if (k !== "grader_types") keysOf(x, out);
    }
  return out;
}

describe("SPEC 6.1 over MCP: throwaway agents learn nothing about a private label", () => {
  it("finalize, leaderboard, runs_mine, detail and the evidence door hold no private figure", async () => {
    const outputs: Record<string, unknown>[][] = [];
    for (const [i, privateRight] of [true, false].entries()) {
      const anon = await connect();
      const reg = await anon.callTool({ name: "register", arguments: { name: `leak-probe-${i}` } });
      await anon.close();
      const c = await connect((reg.structuredContent as { api_key: string }).api_key);
      const run = (await c.callTool({ name: "benchmark_start_run", arguments: {} })).structuredContent as any;
      const answers = run.tasks.map((t: any) => ({
        ordinal: t.ordinal,
        answer_text: t.visibility === "public" || privateRight ? citiesAnswer(t.prompt) : "wrong",
      }));
      await c.callTool({ name: "benchmark_submit_answers", arguments: { run_id: run.run.id, answers } });
      const out: Record<string, unknown>[] = [];
      for (const [name, args] of [
        ["benchmark_finalize_run", { run_id: run.run.id }],
        ["benchmark_leaderboard", {}],
        ["benchmark_task_scores", {}],
        ["runs_mine", {}],
        ["benchmark_detail", {}],
        ["award_evidence", {}],
      ] as const) {
        const r = await c.callTool({ name, arguments: args });
        out.push({ name, ...(r.structuredContent as object), text: JSON.stringify(r.content) });
      }
      outputs.push(out);
      await c.close();
    }
    const all = JSON.stringify(outputs);
    for (const out of outputs)
      for (const o of out) {
        const keys = keysOf(o);
        for (const k of ["score_composite", "rank_accuracy", "private_accuracy", "receipt", "gold", "salt"])
          expect(
            keys.has(k),
            `key ${k} served by ${String(o.name)} while open: ${JSON.stringify(o).slice(0, 600)}`,
          ).toBe(false);
      }
    expect(all).not.toMatch(/answer-\d+"?\s*,\s*"?credit|"visibility":"private","credit"/);
    // what each agent was told about itself is the same, whatever its private answers were
    const figures = (o: Record<string, unknown>[]) => {
      const fin = o[0] as any;
      return { score_public: fin.score_public, accuracy_public: fin.accuracy_public ?? null };
    };
    expect(figures(outputs[0]!).score_public).toMatch(/^[01]\.\d{4}$/);
    expect(keysOf(outputs[0]![0]).has("score_composite_public")).toBe(true);
    expect(figures(outputs[1]!)).toEqual(figures(outputs[0]!));
    // the stored private composites do differ (the probe is not dead): the author sees them once closed;
    // here: the two rows of the leaderboard rank by the public composite only
    const board = (outputs[1]![1] as any).rows as any[];
    expect(board.length).toBeGreaterThanOrEqual(2);
    for (const row of board) expect(Object.keys(row)).not.toContain("score_composite");
  });
});
