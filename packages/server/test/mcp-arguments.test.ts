/**
 * The MCP tools' arguments take the REST rules and their published schemas say them.
 * - probe21 A-F8: `benchmark_start_run {agent_id: ""}` started a run as the account's default agent
 *   (an attempt of another agent than meant), while REST refuses the same body 422 naming `$.agent_id`:
 *   an empty identifier is an invalid value, not "absent", in every tool.
 * - probe21 A-F9: `offset`/`limit` were listed as any safe integer without a description, while the
 *   tools take offset >= 0 and limit 1..the page's maximum: the listed schemas state the bounds.
 * - probe23 F3: `offset` took any safe integer (up to 2^53-1) over MCP while REST's query takes at most
 *   15 digits, and the refusal of 2^53 said "<9007199254740991" of a bound it takes: one bound
 *   (`MAX_WHOLE`) for both, and the message says "<=".
 */
import {
  BENCHMARKS_PAGE_MAX,
  BENCHMARKS_PAGE_SIZE,
  BOARD_PAGE_MAX,
  BOARD_PAGE_SIZE,
  RUNS_PAGE_MAX,
  RUNS_PAGE_SIZE,
  TASK_SCORES_PAGE_MAX,
  TASK_SCORES_PAGE_SIZE,
} from "@bench-bounty/platform";
import { beforeAll, describe, expect, it } from "vitest";
import { platformDomain } from "../src/platform-domain.js";
import { MAX_WHOLE } from "../src/query.js";
import { call, postMcp, postToolCall, publishCities, register, useLive } from "./helpers.js";

const live = useLive();
let slug: string;
beforeAll(async () => {
  slug = (await publishCities(live.url, 4, "mcpargs")).slug;
});

/** The tools' listed input schemas by tool name (`path`: the endpoint). */
async function listedSchemas(path = "/mcp"): Promise<Map<string, any>> {
  const raw = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
  const r = await postMcp(live.url, raw, undefined, path);
  expect(r.status).toBe(200);
  return new Map(r.body.result.tools.map((t: any) => [t.name, t.inputSchema]));
}

function expectNamed(r: { status: number; body: any }, path: string): void {
  expect(r.status).toBe(200);
  expect(r.body.result?.isError, JSON.stringify(r.body)).toBe(true);
  expect(r.body.result.structuredContent.error, JSON.stringify(r.body)).toMatchObject({
    code: "invalid_request",
    details: { path },
  });
}

describe("MCP identifier arguments: an empty one is refused as on REST (probe21 A-F8)", () => {
  it('benchmark_start_run {agent_id: ""} is refused naming $.agent_id, as REST; no run is started', async () => {
    const me = await register(live.url, "empty-agent");
    const rest = await call(live.url, "POST", `/api/v1/benchmarks/${slug}/runs`, {
      key: me.key,
      body: { agent_id: "" },
    });
    expect(rest.status, rest.text).toBe(422);
    expect(rest.json.error.details.path).toBe("$.agent_id");
    expectNamed(
      await postToolCall(live.url, "benchmark_start_run", { slug, agent_id: "" }, me.key),
      "$.agent_id",
    );
    const onEndpoint = `/mcp/benchmarks/${slug}/http`;
    expectNamed(
      await postToolCall(live.url, "benchmark_start_run", { agent_id: "" }, me.key, onEndpoint),
      "$.agent_id",
    );
    const mine = await call(live.url, "GET", "/api/v1/benchmarks/runs/mine", { key: me.key });
    expect(mine.json.runs, mine.text).toEqual([]);
  });

  it("every other identifier argument: an empty one is refused naming its path, never defaulted", async () => {
    const me = await register(live.url, "empty-ids");
    const onEndpoint = `/mcp/benchmarks/${slug}/http`;
    const cases: [string, Record<string, unknown>, string, string?][] = [
      ["benchmark_detail", { slug: "" }, "$.slug"],
      ["benchmark_detail", { slug: "" }, "$.slug", onEndpoint],
      ["benchmark_corpus", { slug: "" }, "$.slug", onEndpoint],
      ["benchmark_leaderboard", { slug: "" }, "$.slug", onEndpoint],
      ["benchmark_task_scores", { slug: "" }, "$.slug", onEndpoint],
      ["benchmark_task_scores", { slug, run_ids: [""] }, "$.run_ids[0]"],
      ["award_evidence", { slug: "" }, "$.slug", onEndpoint],
      ["benchmark_start_run", { slug: "" }, "$.slug", onEndpoint],
      ["benchmark_submit_answers", { run_id: "", answers: [] }, "$.run_id"],
      ["benchmark_finalize_run", { run_id: "" }, "$.run_id"],
      ["read_tutorial", { slug: "" }, "$.slug"],
      ["register", { agent_id: "" }, "$.agent_id"],
    ];
    for (const [tool, args, path, endpoint] of cases)
      expectNamed(await postToolCall(live.url, tool, args, me.key, endpoint ?? "/mcp"), path);
    const mine = await call(live.url, "GET", "/api/v1/benchmarks/runs/mine", { key: me.key });
    expect(mine.json.runs, mine.text).toEqual([]);
  });

  it('the domain itself takes an empty agent id as a value, not as "absent": refused, no run started', async () => {
    // behind the edge's schemas (REST body, MCP arguments), the same rule (the CLI, another edge)
    const me = await register(live.url, "empty-domain");
    const p = await live.platform.authenticate(me.key);
    const domain = platformDomain(live.platform);
    await expect(domain.startRun(p, slug, { agent_id: "" })).rejects.toMatchObject({
      details: { field: "agent_id" },
    });
    const mine = await call(live.url, "GET", "/api/v1/benchmarks/runs/mine", { key: me.key });
    expect(mine.json.runs, mine.text).toEqual([]);
  });

  it("the listed schemas say it: every identifier argument has minLength 1", async () => {
    for (const path of ["/mcp", `/mcp/benchmarks/${slug}/http`])
      for (const [tool, schema] of await listedSchemas(path))
        for (const [name, prop] of Object.entries<any>(schema.properties ?? {})) {
          if (name !== "slug" && !name.endsWith("_id") && name !== "run_ids") continue;
          const s = prop.type === "array" ? prop.items : prop;
          expect({ tool, name, minLength: s.minLength }).toEqual({ tool, name, minLength: 1 });
        }
  });
});

describe("MCP page arguments: the listed schemas state the tools' bounds (probe21 A-F9)", () => {
  it("offset >= 0, limit 1..the page's maximum, each with a description naming the default", async () => {
    const tools = await listedSchemas();
    const pages: [string, number, number][] = [
      ["benchmark_list", BENCHMARKS_PAGE_SIZE, BENCHMARKS_PAGE_MAX],
      ["benchmark_leaderboard", BOARD_PAGE_SIZE, BOARD_PAGE_MAX],
      ["benchmark_task_scores", TASK_SCORES_PAGE_SIZE, TASK_SCORES_PAGE_MAX],
      ["runs_mine", RUNS_PAGE_SIZE, RUNS_PAGE_MAX],
    ];
    for (const [tool, size, max] of pages) {
      const { offset, limit } = tools.get(tool).properties;
      expect({ tool, type: offset.type, minimum: offset.minimum }).toEqual({
        tool,
        type: "integer",
        minimum: 0,
      });
      expect(offset.description, tool).toMatch(/default 0/);
      expect({ tool, type: limit.type, minimum: limit.minimum, maximum: limit.maximum }).toEqual({
        tool,
        type: "integer",
        minimum: 1,
        maximum: max,
      });
      expect(limit.description, tool).toContain(`default ${size}`);
    }
  });

  it("a call outside the listed bounds is refused naming the argument; the bounds themselves pass", async () => {
    const me = await register(live.url, "page-bounds");
    for (const [args, path] of [
      [{ offset: -1 }, "$.offset"],
      [{ limit: 0 }, "$.limit"],
      [{ limit: BENCHMARKS_PAGE_MAX + 1 }, "$.limit"],
    ] as const) {
      const r = await postToolCall(live.url, "benchmark_list", args, me.key);
      expect(r.body.result?.isError, JSON.stringify(r.body)).toBe(true);
      expect(JSON.stringify(r.body.result.structuredContent), JSON.stringify(args)).toContain(path.slice(2));
    }
    const board = await postToolCall(
      live.url,
      "benchmark_leaderboard",
      { slug, offset: 0, limit: BOARD_PAGE_MAX },
      me.key,
    );
    expect(board.body.result?.isError, JSON.stringify(board.body)).toBeUndefined();
    const list = await postToolCall(
      live.url,
      "benchmark_list",
      { offset: 0, limit: BENCHMARKS_PAGE_MAX },
      me.key,
    );
    expect(list.body.result?.isError, JSON.stringify(list.body)).toBeUndefined();
  });
});

describe("MCP page arguments take the REST query's bound (probe23 F3)", () => {
  /** The paged tools, each with its REST route. */
  const paged = (): [string, Record<string, unknown>, string][] => [
    ["benchmark_list", {}, "/api/v1/benchmarks"],
    ["benchmark_leaderboard", { slug }, `/api/v1/benchmarks/${slug}/leaderboard`],
    ["benchmark_task_scores", { slug }, `/api/v1/benchmarks/${slug}/task-scores`],
    ["runs_mine", {}, "/api/v1/benchmarks/runs/mine"],
  ];

  /** The bound, written out: 15 digits, inclusive (what REST's query has always taken). */
  const TOP = 999_999_999_999_999;

  it("one definition: the REST query's bound, exported", () => {
    expect(MAX_WHOLE).toBe(TOP);
  });

  it("offset 999999999999999 passes over MCP and REST; 10^15 and 2^53-1 are refused by both, saying <=", async () => {
    const me = await register(live.url, "offset-bound");
    for (const [tool, args, route] of paged()) {
      // the largest accepted: no refusal of the argument over MCP (a refusal of another kind, e.g.
      // task_scores_withheld before close, is the same over REST), REST the same status
      const top = await postToolCall(live.url, tool, { ...args, offset: TOP }, me.key);
      const restTop = await call(live.url, "GET", `${route}?offset=${TOP}`, { key: me.key });
      expect(restTop.status, `${route} ${restTop.text}`).not.toBe(400);
      const topCode = top.body.result?.structuredContent?.error?.code;
      expect(topCode, `${tool} ${JSON.stringify(top.body)}`).not.toBe("invalid_request");
      expect(topCode ?? null, tool).toBe(restTop.json?.error?.code ?? null);
      for (const offset of [TOP + 1, Number.MAX_SAFE_INTEGER]) {
        const r = await postToolCall(live.url, tool, { ...args, offset }, me.key);
        expect(r.body.result?.isError, `${tool} ${offset} ${JSON.stringify(r.body)}`).toBe(true);
        const error = r.body.result.structuredContent.error;
        expect(error, `${tool} ${offset}`).toMatchObject({
          code: "invalid_request",
          details: { path: "$.offset" },
        });
        expect(error.message, `${tool} ${offset}`).toBe(`$.offset: Too big: expected int to be <=${TOP}`);
        expect(error.details.errors, `${tool} ${offset}`).toHaveLength(1);
        const rest = await call(live.url, "GET", `${route}?offset=${offset}`, { key: me.key });
        expect(rest.status, `${route} ${offset} ${rest.text}`).toBe(400);
        expect(rest.json.error).toMatchObject({ code: "invalid_query", details: { parameter: "offset" } });
        expect(rest.json.error.message).toContain("too large (at most 15 digits)");
      }
    }
  });

  it("the listed schema says the bound; a limit past it names its maximum with <=, one past the safe integers the digits it loses", async () => {
    const tools = await listedSchemas();
    for (const [tool] of paged()) expect(tools.get(tool).properties.offset.maximum, tool).toBe(TOP);
    const me = await register(live.url, "limit-bound");
    const over = await postToolCall(live.url, "benchmark_list", { limit: BENCHMARKS_PAGE_MAX + 1 }, me.key);
    expect(over.body.result.structuredContent.error.message).toBe(
      `$.limit: Too big: expected int to be <=${BENCHMARKS_PAGE_MAX}`,
    );
    // past 2^53-1 the integer rule of every body (sent-integers.test) refuses it first, quoting the digits sent
    const unsafe = await postToolCall(
      live.url,
      "benchmark_list",
      { limit: Number.MAX_SAFE_INTEGER + 1 },
      me.key,
    );
    expect(unsafe.body.result.structuredContent.error).toMatchObject({
      code: "invalid_request",
      message: "$.limit 9007199254740992 is a number above 2^53-1 (9007199254740991), which loses digits",
    });
  });
});
