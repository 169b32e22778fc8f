/**
 * probe10 R12: a run start serves every task of the benchmark (the bytes of `GET /runs/:id/tasks`)
 * but cost one token (REST) or nothing (MCP, a write tool's answer): one account pulled 135 MB in
 * 6 s. A start's answer is now charged by its size as the GET is, one token per full
 * `answerBytesPerToken` bytes; it is sent whole (the run has started), what the bucket lacks is owed,
 * and the caller's next start (any request) is refused, 429 with `Retry-After`, before a run is
 * created. REST and MCP alike; another account is not affected.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Limits } from "../src/index.js";
import { jsonText } from "../src/http.js";
import { tasksPage } from "../src/platform-domain.js";
import { call, publishCities, register, startLive, type Live } from "./helpers.js";

const lives: Live[] = [];
afterEach(async () => {
  await Promise.all(lives.splice(0).map((l) => l.stop()));
});

/** 20 tokens, one a second, one more per full 256 bytes of an answer; the clock moved by hand. */
const LIMITS: Partial<Limits> = { rateBurst: 20, ratePerSecond: 1, answerBytesPerToken: 256 };

/** A server, a benchmark of 80 tasks (a start's answer is over 20 x 256 bytes) and a competitor with 4 agents; every bucket full again. */
async function setUp() {
  let clock = 1_000_000;
  const l = await startLive({ limits: LIMITS, now: () => clock });
  lives.push(l);
  const { slug } = await publishCities(l.url, 80, "charge");
  const me = await register(l.url, "charge-competitor");
  for (const agent_id of ["a2", "a3", "a4"]) {
    const r = await call(l.url, "POST", "/api/v1/accounts/me/agents", { key: me.key, body: { agent_id } });
    expect(r.status, r.text).toBe(201);
    clock += 60_000;
  }
  clock += 60_000;
  return {
    l,
    slug,
    key: me.key,
    agents: [me.agent_id, "a2", "a3", "a4"],
    refill: () => {
      clock += 60_000;
    },
  };
}

const start = (l: Live, slug: string, key: string, agent_id: string) =>
  call(l.url, "POST", `/api/v1/benchmarks/${slug}/runs`, { key, body: { agent_id } });

async function runsOf(l: Live, key: string): Promise<number> {
  const mine = await call(l.url, "GET", "/api/v1/benchmarks/runs/mine", { key });
  expect(mine.status, mine.text).toBe(200);
  return (mine.json.runs as unknown[]).length;
}

async function mcp(l: Live, body: unknown, key: string) {
  const res = await fetch(`${l.url}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${key}`,
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: JSON.parse(text) };
}
const startCall = (id: number, slug: string, agent_id: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "benchmark_start_run", arguments: { slug, agent_id } },
});

// probe26 A-F3: a run's tasks (240 MB for a large test set) were copied through JSON twice and encoded
// twice more to be counted, and a 429 of the answer-bytes charge kept the refused answer's
// Content-Length (a 156-byte body declared 240 MB: the client's read failed)
describe("a run's tasks are answered with their Content-Length, and a refusal with its own", () => {
  // (a HEAD is answered by the GET's handler, its body dropped by Hono before the Node adapter counts it: no length)
  it("GET /runs/:id/tasks carries the answer's byte length; the 429 that refuses it declares its own body", async () => {
    const { l, slug, key, agents, refill } = await setUp();
    const started = await start(l, slug, key, agents[0]!);
    expect(started.status, started.text).toBe(201);
    expect(started.headers.get("content-length")).toBe(String(Buffer.byteLength(started.text)));
    const runId = started.json.run.id as string;
    refill();
    const tasks = await call(l.url, "GET", `/api/v1/benchmarks/runs/${runId}/tasks`, { key });
    expect(tasks.status, tasks.text).toBe(200);
    expect(tasks.headers.get("content-length")).toBe(String(Buffer.byteLength(tasks.text)));
    expect(tasks.json.tasks).toEqual(started.json.tasks); // the same tasks, as the start served them
    expect(tasks.json.tasks[0]).toEqual({
      ordinal: 0,
      prompt: expect.any(String),
      visibility: expect.stringMatching(/^(public|private)$/),
      grader_type: "exact",
    });
    refill();
    const head = await call(l.url, "HEAD", `/api/v1/benchmarks/runs/${runId}/tasks`, { key });
    expect(head.status).toBe(200);
    refill();
    // a small read leaves fewer tokens than the tasks' answer takes: that answer is refused, and its 429
    // says so in a body its Content-Length describes (fetch fails on a body shorter than declared)
    expect((await call(l.url, "GET", `/api/v1/benchmarks/runs/${runId}`, { key })).status).toBe(200);
    const refused = await call(l.url, "GET", `/api/v1/benchmarks/runs/${runId}/tasks`, { key });
    expect(refused.status).toBe(429);
    expect(refused.json.error).toMatchObject({ code: "rate_limited", details: { limit: "answer_bytes" } });
    expect(refused.headers.get("content-length")).toBe(String(Buffer.byteLength(refused.text)));
  });
});

// probe26 A-F3 (the rest): a tasks read refused by the answer-bytes charge was built first (~2.2 s for a
// 240 MB test set, per refused GET or HEAD); it is now refused on its page's bytes (at most
// RUN_TASKS_PAGE_BYTES measured, probe28 A-F5), before the answer is built
describe("a run's tasks read is refused before its answer is built when the caller lacks its tokens", () => {
  it("GET and HEAD: 429 answer_bytes, the domain refused it before building (no answer came back); after a refill it is served", async () => {
    let clock = 1_000_000;
    const built: string[] = [];
    const l = await startLive({
      limits: LIMITS,
      now: () => clock,
      wrapDomain: (d) => ({
        ...d,
        runTasks: async (p, runId, opts) => {
          try {
            const answer = await d.runTasks(p, runId, opts);
            built.push("built");
            return answer;
          } catch (e) {
            built.push(`refused: ${(e as { code?: string }).code}`);
            throw e;
          }
        },
      }),
    });
    lives.push(l);
    const { slug } = await publishCities(l.url, 80, "admit");
    const me = await register(l.url, "admit-competitor");
    clock += 60_000;
    const started = await start(l, slug, me.key, me.agent_id);
    expect(started.status, started.text).toBe(201);
    const runId = started.json.run.id as string;
    clock += 60_000;
    // one small read: the bucket now holds less than the tasks' answer takes
    expect((await call(l.url, "GET", `/api/v1/benchmarks/runs/${runId}`, { key: me.key })).status).toBe(200);
    for (const method of ["GET", "HEAD"] as const) {
      const refused = await call(l.url, method, `/api/v1/benchmarks/runs/${runId}/tasks`, { key: me.key });
      expect(refused.status).toBe(429);
      if (method === "GET")
        expect(refused.json.error).toMatchObject({
          code: "rate_limited",
          details: { limit: "answer_bytes" },
        });
    }
    expect(built).toEqual(["refused: rate_limited", "refused: rate_limited"]);
    clock += 60_000;
    const served = await call(l.url, "GET", `/api/v1/benchmarks/runs/${runId}/tasks`, { key: me.key });
    expect(served.status, served.text).toBe(200);
    expect(served.json.tasks).toEqual(started.json.tasks);
    expect(built.at(-1)).toBe("built");
    // another account is refused as not the run's owner before any bound is asked of its bucket
    const other = await register(l.url, "admit-other");
    const foreign = await call(l.url, "GET", `/api/v1/benchmarks/runs/${runId}/tasks`, { key: other.key });
    expect(foreign.status).toBe(403);
    expect(built.at(-1)).toBe("refused: forbidden");
  });
});

describe("tasksPage counts the bytes of the tasks' canonical JSON (probe28 A-F5)", () => {
  it("holds for escapes, non-ASCII, astral characters and empty prompts; a page stops at the bound, at least one task", () => {
    const prompts = [
      'say "hi"\n\t\\',
      "é".repeat(100),
      "😀".repeat(50),
      "",
      "\u0001\u001f",
      "plain ".repeat(40),
    ];
    const tasks = prompts.map((prompt, i) => ({
      ordinal: i,
      prompt,
      visibility: i % 2 ? ("private" as const) : ("public" as const),
      grader_type: "exact",
    }));
    for (let n = 1; n <= tasks.length; n++) {
      const some = tasks.slice(0, n);
      // the array's text is its items, a comma after each but the last, and two brackets
      expect(tasksPage(some, 0).bytes).toBe(Buffer.byteLength(jsonText(some)) - 1);
    }
    const all = tasksPage(tasks, 0).bytes;
    const cut = tasksPage(tasks, 0, all - 1).page;
    expect(cut.next_offset).toBe(tasks.length - 1);
    expect(tasksPage(tasks, 2, 1).page).toMatchObject({
      offset: 2,
      next_offset: 3,
      task_count: tasks.length,
    });
  });
});

describe("a run start is charged by its answer's bytes (probe10 R12)", () => {
  it("REST: the start is sent whole, the next one is 429 before any run is created; a fresh account still reads", async () => {
    const { l, slug, key, agents, refill } = await setUp();
    const first = await start(l, slug, key, agents[0]!);
    expect(first.status, first.text).toBe(201);
    expect(first.json.tasks.length).toBe(80); // sent whole
    expect(Buffer.byteLength(first.text)).toBeGreaterThan(20 * 256); // worth more than the bucket
    const second = await start(l, slug, key, agents[1]!);
    expect(second.status).toBe(429);
    expect(second.json.error.code).toBe("rate_limited");
    expect(Number(second.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // another account's bucket is its own: its reads and its start pass
    const other = await register(l.url, "charge-other");
    expect((await call(l.url, "GET", "/api/v1/benchmarks", { key: other.key })).status).toBe(200);
    expect((await start(l, slug, other.key, other.agent_id)).status).toBe(201);
    refill();
    expect(await runsOf(l, key)).toBe(1); // the refused start created no run
    expect((await start(l, slug, key, agents[1]!)).status).toBe(201); // once the bucket has refilled
    refill();
    expect(await runsOf(l, key)).toBe(2);
  });

  it("MCP: benchmark_start_run alike; in a batch, a start after one that emptied the bucket is not run", async () => {
    const { l, slug, key, agents, refill } = await setUp();
    const first = await mcp(l, startCall(1, slug, agents[0]!), key);
    expect(first.status).toBe(200);
    expect(first.json.result.isError).toBeFalsy();
    expect(first.json.result.structuredContent.tasks.length).toBe(80);
    const second = await mcp(l, startCall(2, slug, agents[1]!), key);
    expect(second.status).toBe(429); // the request itself, as REST's
    expect(Number(second.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    refill();
    const batch = await mcp(l, [startCall(3, slug, agents[2]!), startCall(4, slug, agents[3]!)], key);
    expect(batch.status).toBe(200);
    expect(batch.json[0].result.isError).toBeFalsy();
    expect(batch.json[0].result.structuredContent.tasks.length).toBe(80);
    expect(batch.json[1].result.isError).toBe(true);
    expect(batch.json[1].result.structuredContent.error).toMatchObject({
      code: "rate_limited",
      details: { limit: "answer_bytes" },
    });
    const other = await register(l.url, "charge-other-mcp");
    expect((await call(l.url, "GET", "/api/v1/benchmarks/runs/mine", { key: other.key })).status).toBe(200);
    refill();
    expect(await runsOf(l, key)).toBe(2); // agents 1 and 3; the refused starts created nothing
  });
});
