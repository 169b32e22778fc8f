/**
 * MCP with the SDK's own client (Client + StreamableHTTPClientTransport) against a live server: the
 * five-call fast path on the benchmark's endpoint, the tool listing and schemas, the refusals (same
 * {code, message, details} as REST), and two clients racing one agent.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { beforeAll, describe, expect, it } from "vitest";
import { call, citiesAnswer, postToolCall, publishCities, register, useLive } from "./helpers.js";

const live = useLive();
let slug: string;
beforeAll(async () => {
  slug = (await publishCities(live.url, 6, "mcp")).slug;
});

async function connect(path: string, key?: string): Promise<Client> {
  const client = new Client({ name: "bench-bounty-test", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(live.url + path), {
    ...(key ? { requestInit: { headers: { authorization: `Bearer ${key}` } } } : {}),
  });
  await client.connect(transport);
  return client;
}

const TOOLS = [
  "award_evidence",
  "benchmark_corpus",
  "benchmark_detail",
  "benchmark_finalize_run",
  "benchmark_leaderboard",
  "benchmark_list",
  "benchmark_run_tasks",
  "benchmark_start_run",
  "benchmark_submit_answers",
  "benchmark_task_scores",
  "discover_tutorials",
  "issue_key",
  "read_tutorial",
  "register",
  "revoke_key",
  "runs_mine",
  "set_withdrawal_address",
];

describe("MCP", () => {
  it("lists every tool with an input schema and a description", async () => {
    const c = await connect("/mcp");
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    for (const t of tools) {
      expect(t.description!.length, t.name).toBeGreaterThan(10);
      expect(t.inputSchema.type).toBe("object");
    }
    const submit = tools.find((t) => t.name === "benchmark_submit_answers")!;
    expect(submit.inputSchema.required).toEqual(["run_id", "answers"]);
    const detail = tools.find((t) => t.name === "benchmark_detail")!;
    expect(detail.inputSchema.required).toEqual(["slug"]);
    const perBench = await connect(`/mcp/benchmarks/${slug}/http`);
    const d2 = (await perBench.listTools()).tools.find((t) => t.name === "benchmark_corpus")!;
    expect(d2.inputSchema.required ?? []).toEqual([]);
    await c.close();
    await perBench.close();
  });

  it("competes in five calls on the benchmark's endpoint; the run shows on the leaderboard", async () => {
    const anon = await connect(`/mcp/benchmarks/${slug}/http`);
    const reg = await anon.callTool({ name: "register", arguments: { name: "mcp-agent" } });
    expect(reg.isError).toBeFalsy();
    const key = (reg.structuredContent as any).api_key as string;
    await anon.close();
    const c = await connect(`/mcp/benchmarks/${slug}/http`, key);
    const corpus = await c.callTool({ name: "benchmark_corpus", arguments: {} });
    expect((corpus.structuredContent as any).documents).toEqual([]);
    const start = await c.callTool({ name: "benchmark_start_run", arguments: {} });
    const run = start.structuredContent as any;
    expect(run.tasks.length).toBe(6);
    const answers = run.tasks.map((t: any) => ({ ordinal: t.ordinal, answer_text: citiesAnswer(t.prompt) }));
    const sub = await c.callTool({
      name: "benchmark_submit_answers",
      arguments: { run_id: run.run.id, answers },
    });
    expect(sub.isError).toBeFalsy();
    const fin = await c.callTool({ name: "benchmark_finalize_run", arguments: { run_id: run.run.id } });
    expect((fin.structuredContent as any).score_public).toBe("1.0000");
    expect((fin.content as any)[0].text).toMatch(/finalized/);
    const board = await call(live.url, "GET", `/api/v1/benchmarks/${slug}/leaderboard`);
    expect(board.json.rows.map((r: any) => r.run_id)).toContain(run.run.id);
    await c.close();
  });

  /**
   * A new account starts a run over MCP and submits `answers` on MCP and on REST; both must be refused
   * (the MCP call a tool error, REST 422): their answers.
   */
  async function submitBothWays(name: string, answers: unknown[]) {
    const k = (await register(live.url, name)).key;
    const c = await connect("/mcp", k);
    try {
      const run = (await c.callTool({ name: "benchmark_start_run", arguments: { slug } }))
        .structuredContent as any;
      const viaMcp = await c.callTool({
        name: "benchmark_submit_answers",
        arguments: { run_id: run.run.id, answers },
      });
      expect(viaMcp.isError).toBe(true);
      const viaRest = await call(live.url, "POST", `/api/v1/benchmarks/runs/${run.run.id}/submissions`, {
        key: k,
        body: { answers },
      });
      expect(viaRest.status).toBe(422);
      return { viaMcp, viaRest };
    } finally {
      await c.close();
    }
  }

  // one answer the text rules of the submit refuse, the same on MCP and REST: the item and the message
  it.each([
    {
      // probe36 A-F9: 50,000 alternating combining marks were accepted; NFKC at finalize held the event loop
      rule: "a run of more than 30 combining marks (probe36 A-F9)",
      user: "combining-run",
      text: `a${"\u0301\u0316".repeat(25000)}`,
      item: {
        code: "combining_run_too_long",
        offset: 1,
        limit: "max_non_starter_run",
        max_non_starter_run: 30,
      },
      message: /^answers\[0\]: answer_text holds a run of more than 30 combining characters/,
    },
    {
      // probe39 B-F2: "ΑʕΣ" is αʕσ here (Unicode 17.0) and αʕς in the independent check (Unicode 14.0)
      rule: "a capital sigma of unstable Final_Sigma context (probe39 B-F2)",
      user: "final-sigma",
      text: "\u0391\u0295\u03a3",
      item: { code: "unstable_final_sigma", code_point: "U+0295", offset: 1, sigma_offset: 2 },
      message:
        /^answers\[0\]: answer_text holds a capital sigma U\+03A3 .* whose Final_Sigma context meets U\+0295/,
    },
    {
      // probe34 B-F1: an answer of U+1E030 (Unicode 15.0) was graded 1 here and 0 by the independent check
      rule: "a code point not assigned in Unicode 14.0.0 (probe34 B-F1)",
      user: "unicode-gap",
      text: "\u{1e030}",
      item: { code: "unassigned_code_point", code_point: "U+1E030", offset: 0, unicode_version: "14.0.0" },
      message:
        /^answers\[0\]: answer_text holds U\+1E030 \(at UTF-16 offset 0\), a code point not assigned in Unicode 14\.0\.0/,
    },
  ])("an answer holding $rule is refused alike on MCP and REST", async ({ user, text, item, message }) => {
    const { viaMcp, viaRest } = await submitBothWays(user, [{ ordinal: 0, answer_text: text }]);
    for (const body of [viaMcp.structuredContent as any, viaRest.json])
      expect(body.error).toMatchObject({
        code: "invalid_answers",
        details: { errors: [{ index: 0, path: "$.answers[0].answer_text", ...item }] },
      });
    expect(viaRest.json.error.message).toMatch(message);
  });

  it("refuses as tool errors with the REST body: no key, wrong owner, stale ordinal, second finalize, unknown slug", async () => {
    const anon = await connect("/mcp");
    const noKey = await anon.callTool({ name: "benchmark_start_run", arguments: { slug } });
    expect(noKey.isError).toBe(true);
    expect((noKey.structuredContent as any).error.code).toBe("unauthenticated");
    const unknown = await anon.callTool({ name: "benchmark_detail", arguments: { slug: "no-such-bench" } });
    expect((unknown.structuredContent as any).error.code).toBe("unknown_benchmark");
    const tut = await anon.callTool({ name: "read_tutorial", arguments: { slug: "nope" } });
    expect((tut.structuredContent as any).error.code).toBe("not_found");
    // a tool nobody registered: the same refusal shape, naming $.params.name (probe14 D1-F10: bare text)
    const ghost = await anon.callTool({ name: "no_such_tool", arguments: {} });
    expect(ghost.isError).toBe(true);
    expect((ghost.structuredContent as any).error).toMatchObject({
      code: "not_found",
      details: { path: "$.params.name" },
    });
    await anon.close();

    const a = await register(live.url, "mcp-owner");
    const b = await register(live.url, "mcp-intruder");
    const ca = await connect("/mcp", a.key);
    const cb = await connect("/mcp", b.key);
    const run = (await ca.callTool({ name: "benchmark_start_run", arguments: { slug } }))
      .structuredContent as any;
    const intr = await cb.callTool({
      name: "benchmark_submit_answers",
      arguments: { run_id: run.run.id, answers: [{ ordinal: 0, answer_text: "x" }] },
    });
    expect((intr.structuredContent as any).error).toMatchObject({
      code: "forbidden",
      details: { rule: "run_owner_only" },
    });
    const stale = await ca.callTool({
      name: "benchmark_submit_answers",
      arguments: { run_id: run.run.id, answers: [{ ordinal: 77, answer_text: "x" }] },
    });
    expect((stale.structuredContent as any).error.details.errors[0]).toMatchObject({
      ordinal: 77,
      code: "unknown_ordinal",
    });
    // an empty list is accepted as on REST (probe14 D1-F10: the tool refused it, REST did not)
    const none = await ca.callTool({
      name: "benchmark_submit_answers",
      arguments: { run_id: run.run.id, answers: [] },
    });
    expect(none.isError).toBeFalsy();
    const restNone = await call(live.url, "POST", `/api/v1/benchmarks/runs/${run.run.id}/submissions`, {
      key: a.key,
      body: { answers: [] },
    });
    expect(restNone.status).toBe(200);
    expect((none.structuredContent as any).accepted).toBe(restNone.json.accepted);
    const rest = await call(live.url, "POST", `/api/v1/benchmarks/runs/${run.run.id}/submissions`, {
      key: a.key,
      body: { answers: [{ ordinal: 77, answer_text: "x" }] },
    });
    expect(stale.structuredContent).toEqual(rest.json);
    expect(
      (await ca.callTool({ name: "benchmark_finalize_run", arguments: { run_id: run.run.id } })).isError,
    ).toBeFalsy();
    const again = await ca.callTool({ name: "benchmark_finalize_run", arguments: { run_id: run.run.id } });
    expect((again.structuredContent as any).error.code).toBe("already_finalized");
    const addr = await ca.callTool({
      name: "set_withdrawal_address",
      arguments: { withdrawal_address: "0x0000000000000000000000000000000000000000" },
    });
    expect(addr.isError).toBe(true);
    const door = await ca.callTool({ name: "award_evidence", arguments: { slug } });
    expect((door.structuredContent as any).available).toBe(false);
    // an unknown benchmark is a refusal, as REST's 404 (probe14 D1-F10: it was an answer, available: false)
    const nobody = await ca.callTool({ name: "award_evidence", arguments: { slug: "no-such-bench" } });
    expect(nobody.isError).toBe(true);
    expect((nobody.structuredContent as any).error.code).toBe("unknown_benchmark");
    await ca.close();
    await cb.close();
  });

  // probe35 A-N4: a slug no benchmark can have was echoed whole three times (100 KB slug -> 300 KB answer)
  it("a slug off the slug rule is refused naming $.slug, not echoed: the answer stays small (probe35 A-N4)", async () => {
    const { key } = await register(live.url, "mcp-long-slug");
    for (const [name, slugArg] of [
      ["benchmark_detail", "a".repeat(100_000)],
      ["benchmark_leaderboard", "Not A Slug"],
      ["read_tutorial", "b".repeat(5_000)],
    ] as const) {
      const r = await postToolCall(live.url, name, { slug: slugArg }, key);
      expect(r.status).toBe(200);
      const text = JSON.stringify(r.body);
      expect(text.length, name).toBeLessThan(2_000);
      expect(text).not.toContain(slugArg);
      expect(r.body.result.isError).toBe(true);
      expect(r.body.result.structuredContent.error).toMatchObject({
        code: "invalid_request",
        details: { path: "$.slug" },
      });
      expect(r.body.result.structuredContent.error.message).toMatch(/^\$\.slug: a slug matches /);
    }
    // a slug of the rule that names nothing is still unknown_benchmark, its echo at most 128 characters
    const unknown = await postToolCall(live.url, "benchmark_detail", { slug: `z${"a".repeat(127)}` }, key);
    expect(unknown.body.result.structuredContent.error.code).toBe("unknown_benchmark");
  });

  it("an id argument longer than any id is refused naming its path, not echoed (probe35 V-F1: a 3 MB run_id came back three times)", async () => {
    const { key } = await register(live.url, "mcp-long-id");
    const long = "a".repeat(200_000);
    for (const [name, args] of [
      ["benchmark_submit_answers", { run_id: long, answers: [] }],
      ["benchmark_finalize_run", { run_id: long }],
    ] as const) {
      const r = await postToolCall(live.url, name, args, key);
      expect(r.status).toBe(200);
      const text = JSON.stringify(r.body);
      expect(text.length, name).toBeLessThan(2_000);
      expect(r.body.result.structuredContent.error).toMatchObject({
        code: "invalid_request",
        details: { path: "$.run_id", max_chars: 128 },
      });
    }
  });

  it("a wrong Bearer key is refused 403 before any tool runs", async () => {
    await expect(connect("/mcp", "bbk_wrong")).rejects.toThrow(/403|forbidden/i);
  });

  it("two clients racing one agent get one run in progress", async () => {
    const a = await register(live.url, "mcp-racer");
    const [c1, c2] = await Promise.all([connect("/mcp", a.key), connect("/mcp", a.key)]);
    const results = await Promise.all(
      [c1, c2].map((c) => c.callTool({ name: "benchmark_start_run", arguments: { slug } })),
    );
    const ok = results.filter((r) => !r.isError);
    const refused = results.filter((r) => r.isError);
    expect(ok).toHaveLength(1);
    expect((refused[0]!.structuredContent as any).error.code).toBe("run_in_progress");
    const mine = await c1.callTool({ name: "runs_mine", arguments: {} });
    expect((mine.structuredContent as any).runs.filter((r: any) => r.status === "in_progress")).toHaveLength(
      1,
    );
    const tutorials = await c2.callTool({ name: "discover_tutorials", arguments: {} });
    expect((tutorials.structuredContent as any).tutorials.map((t: any) => t.slug)).toContain(
      "compete-on-benchmarks",
    );
    await c1.close();
    await c2.close();
  });
});

/**
 * Issue 13 leftover: the MCP SDK parses a request with JSON.parse, so tool arguments with a
 * duplicate key (the last one won) or a lone surrogate (stored, then unhashable at award time)
 * were accepted. The endpoint now reads the body with the strict SPEC 2 parser first.
 */
describe("MCP request bodies are strict JSON", () => {
  async function rawRpc(raw: string | Uint8Array) {
    const res = await fetch(`${live.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: raw,
    });
    return { status: res.status, body: (await res.json()) as any };
  }
  const callRegister = (args: string) =>
    `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"register","arguments":${args}}}`;

  it.each([
    [
      "a duplicate key in the arguments",
      callRegister('{"name":"mcp-a","name":"mcp-b"}'),
      "duplicate_key",
      "$.params.arguments.name",
    ],
    [
      "an escaped lone surrogate",
      callRegister('{"name":"mcp-\\ud800"}'),
      "lone_surrogate",
      "$.params.arguments.name",
    ],
    ["a duplicate id", '{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/list"}', "duplicate_key", "$.id"],
  ])(
    "%s is a JSON-RPC parse error (-32700, 400) naming the reason and the JSON path",
    async (_what, raw, reason, path) => {
      const r = await rawRpc(raw);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32700, data: { reason, path } },
      });
      expect(r.body.error.message).toContain(path);
    },
  );

  // probe23 F2: a batch whose requests shared an id ran every call and answered one (two accounts, one key)
  it("a batch in which two requests share an id is refused whole (-32600 naming $[i].id), nothing run", async () => {
    const register = (id: unknown, name: string) =>
      JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "register", arguments: { name } },
      });
    const r = await rawRpc(`[${register(1, "dup-id-a")},${register(1, "dup-id-b")}]`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ id: null, error: { code: -32600, data: { path: "$[1].id" } } });
    expect(r.body.error.message).toMatch(/also the id of \$\[0\].*nothing of the batch was run/);
    // neither name was taken: both register now; ids 1 and "1" are distinct
    const ok = await rawRpc(`[${register(1, "dup-id-a")},${register("1", "dup-id-b")}]`);
    expect(ok.status).toBe(200);
    expect(ok.body.map((m: any) => m.result?.structuredContent?.account?.name ?? m.error)).toEqual([
      "dup-id-a",
      "dup-id-b",
    ]);
  });

  // probe13 A1: the SDK answered these -32603 "internal error" with its zod issues pretty-printed
  it.each([
    [
      "arguments null",
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"benchmark_list","arguments":null}}',
      "$.params.arguments",
    ],
    ["no params", '{"jsonrpc":"2.0","id":3,"method":"tools/call"}', "$.params"],
    [
      "a name that is a number",
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":5}}',
      "$.params.name",
    ],
  ])(
    "tools/call with %s is -32602 Invalid params naming %s, not an internal error",
    async (_what, raw, path) => {
      const r = await rawRpc(raw);
      expect(r.body).toMatchObject({ jsonrpc: "2.0", id: 3, error: { code: -32602, data: { path } } });
      expect(r.body.error.message).toMatch(
        new RegExp(`^Invalid params: ${path.replace(/[.$[\]]/g, "\\$&")}: `),
      );
      expect(r.body.error.message).not.toContain("\n");
    },
  );

  it("a tool argument named __proto__ is refused naming it, as REST refuses it (probe13 C10)", async () => {
    const r = await rawRpc(
      '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"benchmark_list","arguments":{"__proto__":{"x":1}}}}',
    );
    expect(r.body).toMatchObject({
      id: 6,
      error: { code: -32602, data: { path: "$.params.arguments.__proto__" } },
    });
  });

  it("a task asked of tools/call is -32602 naming $.params.task, not -32603 (probe13 C9)", async () => {
    const r = await rawRpc(
      '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"benchmark_list","arguments":{},"task":{}}}',
    );
    expect(r.body.error).toMatchObject({ code: -32602, data: { path: "$.params.task" } });
  });

  it("params that do not fit list at most 20 issues; large params of other methods are refused unread (probe13 C12)", async () => {
    const icons = (n: number) =>
      `{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"x","version":"1","icons":[${Array(n).fill(5).join(",")}]}}}`;
    const some = await rawRpc(icons(100));
    expect(some.body.error).toMatchObject({ code: -32602, data: { errors_total: 100, truncated: true } });
    expect(some.body.error.data.errors).toHaveLength(20);
    const many = await rawRpc(icons(10_000));
    expect(many.status).toBe(413);
    expect(many.body.error).toMatchObject({ code: -32600, data: { limit: "mcp_params_bytes" } });
    expect(JSON.stringify(many.body).length).toBeLessThan(1000);
  });

  it("a charset other than UTF-8 or a Content-Encoding is 415, as on REST (probe13 C4)", async () => {
    for (const [headers, detail] of [
      [{ "content-type": "application/json; charset=latin1" }, { charset: "latin1" }],
      [{ "content-type": "application/json; charset=utf-8; charset=latin1" }, { charset: "utf-8,latin1" }],
      [{ "content-type": "application/json", "content-encoding": "gzip" }, { content_encoding: "gzip" }],
    ] as const) {
      const res = await fetch(`${live.url}/mcp`, {
        method: "POST",
        headers: { accept: "application/json, text/event-stream", ...headers },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      });
      expect(res.status, JSON.stringify(headers)).toBe(415);
      expect(((await res.json()) as { error: { code: number; data: unknown } }).error).toMatchObject({
        code: -32600,
        data: detail,
      });
    }
  });

  it("one benchmark's endpoint for a slug nobody published is 404 unknown_benchmark (probe13 note)", async () => {
    const res = await fetch(`${live.url}/mcp/benchmarks/no-such-benchmark/http`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unknown_benchmark");
    const known = await fetch(`${live.url}/mcp/benchmarks/${slug}/http`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect(known.status).toBe(200);
  });

  it("invalid UTF-8 is a parse error; a valid call still works through the strict reader", async () => {
    const bad = Buffer.concat([
      Buffer.from(callRegister('{"name":"mcp-').slice(0, -3)),
      Buffer.from([0xc3]),
      Buffer.from('"}}}'),
    ]);
    const r = await rawRpc(bad);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({
      code: -32700,
      data: { reason: "invalid_utf8", byte_offset: expect.any(Number) },
    });
    const ok = await rawRpc(callRegister('{"name":"mcp-strict-ok"}'));
    expect(ok.status).toBe(200);
    expect(ok.body.result.structuredContent.api_key).toMatch(/^bbk_/);
  });
});
