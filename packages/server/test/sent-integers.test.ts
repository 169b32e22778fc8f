/**
 * probe24 json numbers: an integer field of a REST or MCP body was read by `JSON.parse`, so a
 * submission's `ordinal` sent as `1.0000000000000001` was taken as 1 and a `bounty_id` sent as
 * `1.0000000000000001` as 1. An integer field is kept only as written (the platform's one rule,
 * `sentNumberText`): a number that is not the integer it reads as is 422 `invalid_request` naming its
 * JSON path, never rounded; `2.0` and `1E1` are the integers they read as.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, postMcp, publishCities, registerAndStartRun, useLive } from "./helpers.js";

const live = useLive();
let slug = "";
let author = "";

beforeAll(async () => {
  const pub = await publishCities(live.url, 4, "sent-ints");
  slug = pub.slug;
  author = pub.author.key;
});

/**
 * A started run: its key, id and its highest task ordinal, at least 1 (`1.0000000000000001` reads as
 * the ordinal 1, while `0.0000000000000001` is no integer at all).
 */
async function startRun(name: string) {
  const { agent, start } = await registerAndStartRun(live.url, slug, name);
  expect(start.status, start.text).toBe(201);
  const ordinal = Math.max(...(start.json.tasks as { ordinal: number }[]).map((t) => t.ordinal));
  expect(ordinal).toBeGreaterThanOrEqual(1);
  return { key: agent.key, runId: start.json.run.id as string, ordinal };
}

describe("REST: an integer field is kept as written", () => {
  it.each([
    [
      "1.0000000000000001 more than the ordinal",
      (o: number) => `${o}.0000000000000001`,
      /is not a whole number/,
    ],
    ["an ordinal beyond 2^53-1", () => "9007199254740993", /9007199254740993 is a number above 2\^53-1/],
    // probe25 A-F1: a negative one is said to be below, not above
    [
      "an ordinal below -(2^53-1)",
      () => "-9007199254740993",
      /-9007199254740993 is a number below -\(2\^53-1\)/,
    ],
  ])("answers[0].ordinal as %s: 422 naming $.answers[0].ordinal, nothing stored", async (_, sent, says) => {
    const run = await startRun(`ord-${Math.random()}`);
    const raw = `{"answers":[{"ordinal":${sent(run.ordinal)},"answer_text":"x"}]}`;
    const r = await call(live.url, "POST", `/api/v1/benchmarks/runs/${run.runId}/submissions`, {
      key: run.key,
      raw,
    });
    expect(r.status, r.text).toBe(422);
    expect(r.json.error).toMatchObject({
      code: "invalid_request",
      details: { path: "$.answers[0].ordinal" },
    });
    expect(r.json.error.message).toMatch(says);
    expect(r.json.error.message).toContain("$.answers[0].ordinal");
    // an ordinal takes no string: no advice to send one
    expect(r.json.error.message).not.toMatch(/decimal string/);
  });

  it("an ordinal written 2.0 or 1E0 style is the integer it reads as", async () => {
    const run = await startRun(`ord-ok-${Math.random()}`);
    const raw = `{"answers":[{"ordinal":${run.ordinal}.0,"answer_text":"x"}]}`;
    const r = await call(live.url, "POST", `/api/v1/benchmarks/runs/${run.runId}/submissions`, {
      key: run.key,
      raw,
    });
    expect(r.status, r.text).toBe(200);
  });

  it("bounty_id 9007199254740993: 422 naming $.bounty_id, quoting it as sent, advising its decimal string", async () => {
    const r = await call(live.url, "POST", `/api/v1/benchmarks/${slug}/bounty`, {
      key: author,
      raw: `{"bounty_id":9007199254740993}`,
    });
    expect(r.status, r.text).toBe(422);
    expect(r.json.error).toMatchObject({ code: "invalid_request", details: { path: "$.bounty_id" } });
    expect(r.json.error.message).toMatch(/bounty_id 9007199254740993 is a number above 2\^53-1/);
    expect(r.json.error.message).toMatch(/send it as a plain decimal string \(e\.g\. "9007199254740993"\)/); // bounty_id takes one
  });

  it("bounty_id 1.0000000000000001: not a whole number, with no advice the field would refuse (probe25 A-F4)", async () => {
    const r = await call(live.url, "POST", `/api/v1/benchmarks/${slug}/bounty`, {
      key: author,
      raw: `{"bounty_id":1.0000000000000001}`,
    });
    expect(r.status, r.text).toBe(422);
    expect(r.json.error).toMatchObject({ code: "invalid_request", details: { path: "$.bounty_id" } });
    expect(r.json.error.message).toBe("$.bounty_id 1.0000000000000001 is not a whole number");
  });
});

describe("MCP: an integer argument is kept as written", () => {
  it("benchmark_submit_answers ordinal 1.0000000000000001 more: refused naming $.answers[0].ordinal", async () => {
    const run = await startRun(`mcp-ord-${Math.random()}`);
    const raw =
      `[{"jsonrpc":"2.0","id":"a","method":"tools/list"},` +
      `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"benchmark_submit_answers",` +
      `"arguments":{"run_id":"${run.runId}","answers":[{"ordinal":${run.ordinal}.0000000000000001,"answer_text":"x"}]}}}]`;
    const r = await postMcp(live.url, raw, run.key);
    expect(r.status).toBe(200);
    const answer = r.body.find((m: any) => m.id === 7);
    expect(answer.result?.isError, JSON.stringify(answer)).toBe(true);
    expect(answer.result.structuredContent.error).toMatchObject({
      code: "invalid_request",
      details: { path: "$.answers[0].ordinal" },
    });
    expect(answer.result.structuredContent.error.message).toMatch(/is not a whole number/);
  });

  it("benchmark_submit_answers ordinal beyond 2^53-1: refused quoting its digits", async () => {
    const run = await startRun(`mcp-big-${Math.random()}`);
    const raw =
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"benchmark_submit_answers",` +
      `"arguments":{"run_id":"${run.runId}","answers":[{"ordinal":9007199254740993,"answer_text":"x"}]}}}`;
    const r = await postMcp(live.url, raw, run.key);
    expect(r.body.result?.isError, JSON.stringify(r.body)).toBe(true);
    expect(r.body.result.structuredContent.error).toMatchObject({
      code: "invalid_request",
      details: { path: "$.answers[0].ordinal" },
    });
    expect(r.body.result.structuredContent.error.message).toContain(
      "9007199254740993 is a number above 2^53-1",
    );
  });

  it("an ordinal written N.0 is accepted", async () => {
    const run = await startRun(`mcp-ok-${Math.random()}`);
    const raw =
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"benchmark_submit_answers",` +
      `"arguments":{"run_id":"${run.runId}","answers":[{"ordinal":${run.ordinal}.0,"answer_text":"x"}]}}}`;
    const r = await postMcp(live.url, raw, run.key);
    expect(r.body.result?.isError, JSON.stringify(r.body)).not.toBe(true);
  });
});
