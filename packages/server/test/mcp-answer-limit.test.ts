/**
 * MCP amplification (issue 13 re-probe: a 13 KB JSON-RPC batch of `award_evidence` calls got a 1.8 MB
 * answer): the answers of one HTTP request total at most `mcpAnswerBytes`; the first is always sent
 * whole, and past the limit the remaining calls get a JSON-RPC error naming it, in batch order.
 *
 * And MCP answers are charged by their size like REST's (probe7 N3: 700 single `award_evidence` calls
 * from one anonymous address, 347 MB, no 429): each JSON-RPC answer takes one more token of the
 * caller's request bucket per full `answerBytesPerToken` bytes (the REST charge, `chargeAnswer`);
 * past the bucket the answer is a JSON-RPC error naming `answer_bytes`, with the wait.
 *
 * Except a write tool's answer (review: `benchmark_start_run`'s answer, all the tasks, was charged
 * after the run had started, and replaced by the error: the clock ran and the agent never got its
 * tasks): sent whole and not counted; charged by its size all the same (probe10 R12), the tokens the
 * bucket lacks owed, so the caller's next request waits for them (`start-charge.test.ts`).
 */
import { afterEach, describe, expect, it } from "vitest";
import { TUTORIALS, type Limits } from "../src/index.js";
import { WRITE_TOOLS, toolListsBuilt } from "../src/mcp/tools.js";
import { call, publishCities, register, startLive, type Live } from "./helpers.js";

const lives: Live[] = [];
afterEach(async () => {
  await Promise.all(lives.splice(0).map((l) => l.stop()));
});
async function live(limits: Partial<Limits>): Promise<Live> {
  const l = await startLive({ limits });
  lives.push(l);
  return l;
}
async function mcp(l: Live, body: unknown, key?: string) {
  const res = await fetch(`${l.url}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) };
}
const read = (id: number, slug: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "read_tutorial", arguments: { slug } },
});

describe("the answers of one MCP request are bounded", () => {
  it("a batch of 40 large answers: the first whole, the rest past the limit are JSON-RPC errors naming it", async () => {
    const limit = 32 * 1024;
    const l = await live({ mcpAnswerBytes: limit });
    const slug = TUTORIALS[0]!.slug;
    const one = await mcp(l, read(1, slug));
    expect(one.status).toBe(200);
    const size = one.text.length;
    expect(size).toBeGreaterThan(2_000); // each answer is large
    const batch = Array.from({ length: 40 }, (_, i) => read(i + 1, slug));
    const r = await mcp(l, batch);
    expect(r.status).toBe(200);
    expect(r.json.map((m: { id: number }) => m.id)).toEqual(batch.map((m) => m.id));
    const answered = r.json.filter((m: any) => m.result && !m.result.isError);
    const refused = r.json.filter((m: any) => m.error);
    expect(answered.length).toBeGreaterThan(1);
    expect(answered.length + refused.length).toBe(40);
    // every byte counts (D1-F13): the answers and the errors fit the limit, and one more answer would not
    expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(limit);
    const errorBytes = Buffer.byteLength(JSON.stringify(refused[0]));
    expect(Buffer.byteLength(r.text) + size - errorBytes).toBeGreaterThan(limit);
    // answered first, refused after: in batch order
    expect(r.json.slice(0, answered.length)).toEqual(answered);
    expect(refused[0].error).toMatchObject({
      code: -32000,
      data: { limit: "mcp_answer_bytes", limit_bytes: limit },
    });
    expect(refused[0].error.message).toMatch(/answer limit/);
  });

  it("every byte of the answer counts: the errors replacing answers past the limit are within it (D1-F13)", async () => {
    // room for a few answers (a tutorial's size changes with its text), then the limit's errors
    const size = Buffer.byteLength((await mcp(await live({}), read(1, TUTORIALS[0]!.slug))).text);
    const limit = 3 * size + 1024;
    const l = await live({ mcpAnswerBytes: limit });
    const batch = Array.from({ length: 40 }, (_, i) => read(i + 1, TUTORIALS[0]!.slug));
    const r = await mcp(l, batch);
    expect(r.json.map((m: { id: number }) => m.id)).toEqual(batch.map((m) => m.id));
    expect(r.json[0].result.isError).toBeFalsy();
    expect(r.json.at(-1).error.data.limit).toBe("mcp_answer_bytes");
    // the whole answer, answers and the limit's errors, brackets and commas
    expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(limit);
  });

  it("a bucket running dry mid-batch: its answer_bytes refusals count too, the whole answer within the limit (D1-F13)", async () => {
    const limit = 40 * 1024;
    const size = Buffer.byteLength((await mcp(await live({}), read(1, TUTORIALS[0]!.slug))).text);
    // the request and its 99 other messages take 100 tokens; then 4 answers (a token per 512 bytes)
    const l = await live({
      ...SLOW,
      rateBurst: 100 + 4 * Math.floor(size / 512),
      answerBytesPerToken: 512,
      mcpAnswerBytes: limit,
    });
    const batch = Array.from({ length: 100 }, (_, i) => read(i + 1, TUTORIALS[0]!.slug));
    const r = await mcp(l, batch);
    expect(r.status).toBe(200);
    expect(r.json.length).toBe(100);
    expect(r.json[0].result.isError).toBeFalsy();
    const refusals = new Set(r.json.filter((m: any) => m.error).map((m: any) => m.error.data.limit));
    expect(refusals.size).toBeGreaterThan(0);
    expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(limit);
  });

  it("one call is answered whole however large (as REST answers it)", async () => {
    const l = await live({ mcpAnswerBytes: 100 });
    const r = await mcp(l, read(1, TUTORIALS[0]!.slug));
    expect(r.json.result.isError).toBeFalsy();
    expect(r.text.length).toBeGreaterThan(100);
    const two = await mcp(l, [read(1, TUTORIALS[0]!.slug), read(2, TUTORIALS[0]!.slug)]);
    expect(two.json[0].result).toBeDefined();
    expect(two.json[1].error.data.limit).toBe("mcp_answer_bytes");
  });

  it("the default limit bounds the batch of the probe (100 calls: the answer, errors included, stays within it)", async () => {
    const l = await live({});
    const batch = Array.from({ length: 100 }, (_, i) => read(i + 1, TUTORIALS[0]!.slug));
    const r = await mcp(l, batch);
    expect(r.json.some((m: any) => m.error?.data?.limit === "mcp_answer_bytes")).toBe(true);
    expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(256 * 1024);
  });
});

/** A bucket that does not refill during a test: only the burst counts. */
const SLOW: Partial<Limits> = { ratePerSecond: 0.001 };

describe("MCP answers are charged by their size, as REST answers are", () => {
  it("single large calls empty the caller's bucket at the REST byte rate, then a JSON-RPC error naming answer_bytes", async () => {
    const sized = await mcp(await live(SLOW), read(1, TUTORIALS[0]!.slug));
    expect(sized.status).toBe(200);
    expect(sized.json.result.isError).toBeFalsy();
    const perCall = 1 + Math.floor(Buffer.byteLength(sized.text) / 512);
    expect(perCall).toBeGreaterThanOrEqual(4); // a tutorial is large: 4+ tokens a call
    // room for 5 answers, then one token: the 6th call passes the request limit, not its answer's
    const l = await live({ ...SLOW, rateBurst: 5 * perCall + 1, answerBytesPerToken: 512 });
    let answered = 0;
    let refusal: any = null;
    for (let i = 1; i <= 10 && refusal === null; i++) {
      const r = await mcp(l, read(i, TUTORIALS[0]!.slug));
      expect(r.status).toBe(200);
      if (r.json.error) refusal = r.json.error;
      else answered++;
    }
    expect(answered).toBe(5);
    expect(refusal).toMatchObject({ code: -32000, data: { limit: "answer_bytes" } });
    expect(refusal.message).toMatch(/answer_bytes/);
    expect(refusal.data.retry_after_seconds).toBeGreaterThanOrEqual(1);
    // the same bucket as REST: a REST GET from the same address is refused too
    expect((await call(l.url, "GET", "/api/v1/openapi.json")).status).toBe(429);
  });

  it("small answers are not charged past their request token", async () => {
    const l = await live({ ...SLOW, rateBurst: 5, answerBytesPerToken: 1024 * 1024 });
    for (let i = 1; i <= 5; i++) {
      const r = await mcp(l, read(i, TUTORIALS[0]!.slug));
      expect(r.status).toBe(200);
      expect(r.json.result.isError).toBeFalsy();
    }
  });
});

const tool = (id: number | string, name: string, args: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

/** A competitor (its own bucket) and a published benchmark of `rows` tasks. */
async function competitor(l: Live, rows: number) {
  const { slug } = await publishCities(l.url, rows, "charge");
  return { slug, key: (await register(l.url, "charge-competitor")).key };
}

describe("a write tool's answer is sent whole once the tool has run (charged, what the bucket lacks owed)", () => {
  it("the caller's bucket cannot pay: the read is refused naming answer_bytes, the large start_run answer is sent and owed", async () => {
    // 3 tokens: the request's, the batch's second message's, and 1 left for the answers (each wants 2)
    let clock = 0;
    let moving = true; // during the set-up every bucket is full again at each request
    const l = await startLive({
      limits: { ratePerSecond: 1, rateBurst: 3, answerBytesPerToken: 64 },
      now: () => (moving ? (clock += 10_000) : clock),
    });
    lives.push(l);
    const { slug, key } = await competitor(l, 20);
    moving = false; // the clock now stands still: no refill
    const r = await mcp(l, [read(1, TUTORIALS[0]!.slug), tool(2, "benchmark_start_run", { slug })], key);
    expect(r.status).toBe(200);
    expect(r.json[0].error).toMatchObject({ code: -32000, data: { limit: "answer_bytes" } });
    const started = r.json[1].result;
    expect(started.isError).toBeFalsy();
    expect(started.structuredContent.tasks.length).toBe(20);
    expect(Buffer.byteLength(JSON.stringify(r.json[1]))).toBeGreaterThan(2 * 64 * 10); // a large answer
    // the start's answer was owed (probe10 R12): the caller's next request is refused
    expect((await mcp(l, tool(3, "runs_mine", {}), key)).status).toBe(429);
  });

  it("past the request's answer limit: a start_run that ran is sent whole, one the limit skipped is not run", async () => {
    const l = await live({ mcpAnswerBytes: 100 });
    const { slug, key } = await competitor(l, 20);
    const first = await mcp(
      l,
      [
        read(1, TUTORIALS[0]!.slug),
        tool(2, "benchmark_start_run", { slug }),
        read(3, TUTORIALS[0]!.slug),
        tool(4, "benchmark_finalize_run", { run_id: "run_never_run" }),
      ],
      key,
    );
    expect(first.json[0].result.isError).toBeFalsy(); // the first answer: whole
    const started = first.json[1].result;
    expect(started.isError).toBeFalsy(); // over the limit, but the run has started: sent whole
    expect(started.structuredContent.tasks.length).toBe(20);
    expect(first.json[2].error.data.limit).toBe("mcp_answer_bytes");
    // the limit is spent: the finalize after it is not run, and answered with the limit's error
    expect(first.json[3].error.data.limit).toBe("mcp_answer_bytes");
    const mine = await mcp(l, tool(5, "runs_mine", {}), key);
    expect(mine.json.result.structuredContent.runs.length).toBe(1);
  });

  it("an id shared with a read does not carry the read past the limit: the batch is refused whole (probe23 F2)", async () => {
    const l = await live({ mcpAnswerBytes: 100 });
    const { slug, key } = await competitor(l, 2);
    const r = await mcp(
      l,
      [read(1, TUTORIALS[0]!.slug), tool(2, "benchmark_start_run", { slug }), read(2, TUTORIALS[0]!.slug)],
      key,
    );
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ id: null, error: { code: -32600, data: { path: "$[2].id" } } });
    // nothing ran: the agent has no run
    const runs = await mcp(l, tool(3, "runs_mine", {}), key);
    expect(runs.json.result.structuredContent.runs).toEqual([]);
  });

  // review (mcp24): writeCallIds dropped a write's id that another message of the body had; since a
  // batch whose requests share an id is refused whole (probe23 F2), only a response could have it, and
  // a response is never answered: the guard only took the write's answer out of "sent whole"
  it("a write's answer is sent whole even when a response message in the batch carries its id", async () => {
    const l = await live({ mcpAnswerBytes: 100 });
    const { slug, key } = await competitor(l, 2);
    const r = await mcp(
      l,
      [
        read(1, TUTORIALS[0]!.slug),
        tool(2, "benchmark_start_run", { slug }),
        { jsonrpc: "2.0", id: 2, result: {} }, // a response (to no request of the server's): no answer
      ],
      key,
    );
    expect(r.status, r.text).toBe(200);
    expect(r.json.map((m: { id: number }) => m.id)).toEqual([1, 2]);
    // the run has started: its answer, the tasks, is sent whole past the limit
    expect(r.json[1].result?.structuredContent?.tasks?.length, JSON.stringify(r.json[1])).toBe(2);
    const runs = await mcp(l, tool(3, "runs_mine", {}), key);
    expect(runs.json.result.structuredContent.runs.length).toBe(1);
  });

  it("every tool is a read (charged) or a write (sent whole): a new tool is classified here", async () => {
    const l = await live({});
    const listed = await mcp(l, { jsonrpc: "2.0", id: 1, method: "tools/list" });
    const names: string[] = listed.json.result.tools.map((t: { name: string }) => t.name).sort();
    const reads = names.filter((n) => !WRITE_TOOLS.has(n));
    expect(reads).toEqual([
      "award_evidence",
      "benchmark_corpus",
      "benchmark_detail",
      "benchmark_leaderboard",
      "benchmark_list",
      "benchmark_run_tasks",
      "benchmark_task_scores",
      "discover_tutorials",
      "read_tutorial",
      "runs_mine",
    ]);
    expect(names.filter((n) => WRITE_TOOLS.has(n)).length).toBe(WRITE_TOOLS.size);
  });

  // probe14 D1-F13: each tools/list rebuilt the JSON Schema of every tool; a batch of 100 anonymous ones
  // held the event loop up to a second
  it("tools/list is built once per endpoint: a batch of them shares it; bad params are still refused", async () => {
    const l = await live({});
    const before = toolListsBuilt();
    const batch = Array.from({ length: 30 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "tools/list" }));
    const r = await mcp(l, batch);
    const lists = r.json.filter((m: any) => m.result).map((m: any) => JSON.stringify(m.result.tools));
    expect(lists.length).toBeGreaterThan(1);
    expect(new Set(lists).size).toBe(1);
    expect(toolListsBuilt() - before).toBeLessThanOrEqual(1);
    const bad = await mcp(l, { jsonrpc: "2.0", id: 1, method: "tools/list", params: { cursor: 5 } });
    expect(bad.json.error.code).toBe(-32602);
  });
});
