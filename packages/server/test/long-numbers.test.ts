/**
 * probe36 A-F7: a number of a body spelling out many digits blocked the whole service, quadratically in
 * its length (the platform's `plainDecimal` trimmed zeros with `/0+$/`): an anonymous MCP
 * `benchmark_list` with `"offset": 1e-100000` (a 115-byte body) held the event loop 13 s, a concurrent
 * GET waiting; a keyed submission's `ordinal` of `0.` and 3,000,000 zeros and `1` stopped the service
 * for hours; `0e600000000` made a string past the engine's limit. A number spelling out more than
 * `MAX_PLAIN_DECIMAL_DIGITS` (1,000) digits in plain notation is now refused before any digit is moved,
 * with the field's own refusal: REST 422 `invalid_request` naming the path, an MCP tool error naming
 * the argument, a JSON-RPC -32600 naming `$.id`, a dataset row's `inexact_number`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  call,
  postMcp,
  postMcpText,
  publishCities,
  register,
  registerAndStartRun,
  useLive,
} from "./helpers.js";

const live = useLive();
let slug = "";

beforeAll(async () => {
  slug = (await publishCities(live.url, 2, "long-numbers")).slug;
});

const zeros = (n: number) => "0".repeat(n);
const TOO_LONG = /is a number of more than 1000 digits written out in plain decimal/;

/** Runs `f`, returning its result and the seconds it took. */
async function timed<T>(f: () => Promise<T>): Promise<{ s: number; r: T }> {
  const t0 = performance.now();
  const r = await f();
  return { s: (performance.now() - t0) / 1000, r };
}

describe("REST: a submission's ordinal spelling out too many digits is 422 naming it (probe36 A-F7)", () => {
  it.each([
    ["1e-100000", "1e-100000"],
    ["0.<60,000 zeros>1", `0.${zeros(60_000)}1`],
    ["0e600000000", "0e600000000"],
    ["0.<3 MB of zeros>", `0.${zeros(3_000_000)}`],
    ["0.<3 MB of zeros>1 (hours before)", `0.${zeros(3_000_000)}1`],
  ])("ordinal %s", async (_, sent) => {
    const { agent, start } = await registerAndStartRun(live.url, slug, `long-${Math.random()}`);
    expect(start.status, start.text).toBe(201);
    const raw = `{"answers":[{"ordinal":${sent},"answer_text":"x"}]}`;
    const { s, r } = await timed(() =>
      call(live.url, "POST", `/api/v1/benchmarks/runs/${start.json.run.id}/submissions`, {
        key: agent.key,
        raw,
      }),
    );
    expect(r.status, r.text.slice(0, 300)).toBe(422);
    expect(r.json.error).toMatchObject({
      code: "invalid_request",
      details: { path: "$.answers[0].ordinal" },
    });
    expect(r.json.error.message).toMatch(TOO_LONG);
    expect(r.json.error.message.length).toBeLessThan(400);
    expect(s).toBeLessThan(2);
  });
});

describe("MCP: an anonymous benchmark_list offset, and a JSON-RPC id, spelling out too many digits (probe36 A-F7)", () => {
  it.each([
    ["1e-100000", "1e-100000"],
    ["0.<60,000 zeros>1", `0.${zeros(60_000)}1`],
    ["0e600000000", "0e600000000"],
  ])("offset %s: a tool error naming $.offset, and a concurrent GET is not held", async (_, sent) => {
    const raw = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"benchmark_list","arguments":{"offset":${sent}}}}`;
    expect(raw.length).toBeLessThan(65_536); // anonymous: within its 64 KiB
    const t0 = performance.now();
    const [mcp, get] = await Promise.all([
      postMcp(live.url, raw),
      call(live.url, "GET", "/api/v1/benchmarks").then((g) => ({ g, s: (performance.now() - t0) / 1000 })),
    ]);
    expect(mcp.body.result?.isError, JSON.stringify(mcp.body).slice(0, 300)).toBe(true);
    expect(mcp.body.result.structuredContent.error).toMatchObject({
      code: "invalid_request",
      details: { path: "$.offset" },
    });
    expect(mcp.body.result.structuredContent.error.message).toMatch(TOO_LONG);
    expect(get.g.status).toBe(200);
    expect(get.s).toBeLessThan(2);
    expect((performance.now() - t0) / 1000).toBeLessThan(2);
  });

  it.each([
    ["1e-100000", "1e-100000"],
    ["0.<60,000 zeros>1", `0.${zeros(60_000)}1`],
    ["0e600000000", "0e600000000"],
  ])("id %s: 400 -32600 naming $.id", async (_, sent) => {
    const { s, r } = await timed(() =>
      postMcpText(live.url, `{"jsonrpc":"2.0","id":${sent},"method":"tools/list"}`),
    );
    expect(r.status, r.text.slice(0, 300)).toBe(400);
    const body = JSON.parse(r.text);
    expect(body).toMatchObject({ id: null, error: { code: -32600, data: { path: "$.id" } } });
    expect(body.error.message).toMatch(/^Invalid Request: \$\.id: /);
    expect(body.error.message).toMatch(TOO_LONG);
    expect(s).toBeLessThan(2);
  });
});

describe("a dataset row's number spelling out too many digits is refused naming its path (probe36 A-F7)", () => {
  let key = "";
  beforeAll(async () => {
    key = (await register(live.url, "long-rows")).key;
  });

  it.each([
    ["1e-100000", "1e-100000"],
    ["0.<60,000 zeros>1", `0.${zeros(60_000)}1`],
    ["0e600000000", "0e600000000"],
  ])("payload.x %s: the upload 422 invalid_dataset, the dry run not ok", async (_, sent) => {
    const raw = `{"name":"n${Math.random()}","rows":[{"decision_ts":"2026-05-01","label":"a","payload":{"x":${sent}}}]}`;
    const { s, r: up } = await timed(() => call(live.url, "POST", "/api/v1/datasets", { key, raw }));
    expect(up.status, up.text.slice(0, 300)).toBe(422);
    expect(up.json.error).toMatchObject({
      code: "invalid_dataset",
      details: { row_index: 0, field: "payload.x" },
    });
    expect(up.json.error.message).toContain("$.rows[0].payload.x ");
    expect(up.json.error.message).toMatch(TOO_LONG);
    expect(s).toBeLessThan(2);
    const dry = await call(live.url, "POST", "/api/v1/datasets/validate", { key, raw });
    expect(dry.status).toBe(200);
    expect(dry.json).toMatchObject({ ok: false, content_hash: null });
    expect(dry.json.errors).toEqual([
      { row_index: 0, field: "payload.x", code: "inexact_number", message: expect.stringMatching(TOO_LONG) },
    ]);
  });
});
