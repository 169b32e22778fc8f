/**
 * The shape of MCP answers on the Streamable HTTP transport (JSON mode):
 * - mcp nit: a batch (a JSON array) whose requests make one response was answered with that bare
 *   object (the SDK's choice); JSON-RPC 2.0 answers a batch with an array of responses, so a batch of
 *   N >= 1 requests is answered with an array of N, a single message with an object.
 * - mcp nit: an anonymous notification (no id) of a tool that needs a key was answered 200 with a
 *   tool error whose id was null: a notification gets no response (JSON-RPC 2.0), and the transport
 *   (MCP Streamable HTTP) answers input of notifications only 202 without a body when it accepts it,
 *   an HTTP error status when it does not. Refused for want of a key, such input is now 401 with
 *   `WWW-Authenticate` and nothing runs; accepted notifications stay 202 and run nothing either.
 */
import { describe, expect, it } from "vitest";
import { createApp, type Domain } from "../src/index.js";
import { call, postMcpText, publishCities, register, useLive } from "./helpers.js";

const live = useLive();

/** POSTs `raw` to `/mcp` (with `key` as Bearer); the status, headers and body text. */
const post = (raw: string, key?: string) => postMcpText(live.url, raw, key);

/** A `tools/call` of `name` with `args`; without `id` a notification. */
function toolCall(name: string, args: Record<string, unknown>, id?: number | string) {
  return {
    jsonrpc: "2.0",
    ...(id !== undefined ? { id } : {}),
    method: "tools/call",
    params: { name, arguments: args },
  };
}

describe("MCP: a batch is answered with an array (JSON-RPC 2.0)", () => {
  it("a batch of one tools/call is answered with an array of one", async () => {
    const r = await post(JSON.stringify([toolCall("discover_tutorials", {}, 1)]));
    expect(r.status, r.text).toBe(200);
    const body = JSON.parse(r.text);
    expect(Array.isArray(body), r.text).toBe(true);
    expect(body).toHaveLength(1);
    expect(body[0]).toMatchObject({
      jsonrpc: "2.0",
      id: 1,
      result: { structuredContent: { tutorials: expect.any(Array) } },
    });
  });

  it("a batch of one request and a notification: an array of the one response", async () => {
    const batch = [
      { jsonrpc: "2.0", id: "p", method: "ping" },
      { jsonrpc: "2.0", method: "notifications/initialized" },
    ];
    const r = await post(JSON.stringify(batch));
    expect(r.status, r.text).toBe(200);
    expect(JSON.parse(r.text)).toEqual([{ jsonrpc: "2.0", id: "p", result: {} }]);
  });

  it("a batch of one keyed call with a key: an array of one", async () => {
    const me = await register(live.url, "batch-one");
    const r = await post(JSON.stringify([toolCall("runs_mine", {}, 3)]), me.key);
    expect(r.status, r.text).toBe(200);
    const body = JSON.parse(r.text);
    expect(body).toHaveLength(1);
    expect(body[0]).toMatchObject({ id: 3, result: { structuredContent: { runs: [] } } });
  });

  it("a batch of two: an array of two in order; a single message (no array) is still answered with an object", async () => {
    const two = await post(
      JSON.stringify([toolCall("discover_tutorials", {}, 1), { jsonrpc: "2.0", id: 2, method: "ping" }]),
    );
    expect(JSON.parse(two.text).map((m: { id: number }) => m.id)).toEqual([1, 2]);
    const one = await post(JSON.stringify(toolCall("discover_tutorials", {}, 1)));
    expect(one.status).toBe(200);
    const body = JSON.parse(one.text);
    expect(Array.isArray(body)).toBe(false);
    expect(body).toMatchObject({ jsonrpc: "2.0", id: 1, result: expect.any(Object) });
  });
});

describe("MCP: notifications (no id) run nothing; anonymous ones of a keyed tool are 401", () => {
  /**
   * An app whose domain records every method called on it (and refuses them all): nothing of the
   * domain may run for the input under test.
   */
  function recordingApp() {
    const called: string[] = [];
    const domain = new Proxy(
      {},
      {
        get: (_t, name) =>
          typeof name === "string"
            ? (..._args: unknown[]) => {
                called.push(name);
                throw new Error(`domain.${name} ran`);
              }
            : undefined,
      },
    );
    const app = createApp({ domain: domain as Domain });
    called.length = 0;
    return { app, called };
  }
  async function postTo(app: ReturnType<typeof createApp>, raw: string) {
    const res = await app.request("/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: raw,
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  it("an anonymous tools/call notification of a keyed tool: 401 with WWW-Authenticate, a JSON-RPC error without id, nothing run", async () => {
    const { app, called } = recordingApp();
    for (const body of [
      toolCall("benchmark_start_run", { slug: "s" }),
      [toolCall("runs_mine", {})],
      [
        toolCall("benchmark_finalize_run", { run_id: "r" }),
        toolCall("set_withdrawal_address", { withdrawal_address: "0x0" }),
      ],
      // a keyed notification beside an accepted one: the input is refused whole
      [toolCall("benchmark_corpus", { slug: "s" }), { jsonrpc: "2.0", method: "notifications/initialized" }],
    ]) {
      const r = await postTo(app, JSON.stringify(body));
      expect(r.status, `${JSON.stringify(body)} ${r.text}`).toBe(401);
      expect(r.headers.get("www-authenticate")).toBe('Bearer realm="bench-bounty"');
      const answer = JSON.parse(r.text);
      expect(Array.isArray(answer)).toBe(false);
      expect(answer).toMatchObject({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32000, data: { rule: "key_required" } },
      });
      expect(answer.error.message).toMatch(/an API key is required.*nothing was run/);
    }
    expect(called).toEqual([]);
  });

  it("an anonymous batch of keyed calls: only its requests are answered (a notification gets no response)", async () => {
    const { app, called } = recordingApp();
    const r = await postTo(app, JSON.stringify([toolCall("runs_mine", {}), toolCall("runs_mine", {}, 5)]));
    expect(r.status, r.text).toBe(200);
    const answer = JSON.parse(r.text);
    expect(answer).toHaveLength(1);
    expect(answer[0]).toMatchObject({
      id: 5,
      result: { isError: true, structuredContent: { error: { code: "unauthenticated" } } },
    });
    expect(called).toEqual([]);
  });

  it("accepted notifications-only input is 202 without a body and runs nothing (with a key, and register without one)", async () => {
    const slug = (await publishCities(live.url, 2, "notif")).slug;
    const me = await register(live.url, "notif-keyed");
    const start = await post(JSON.stringify(toolCall("benchmark_start_run", { slug })), me.key);
    expect(start.status, start.text).toBe(202);
    expect(start.text).toBe("");
    const mine = await call(live.url, "GET", "/api/v1/benchmarks/runs/mine", { key: me.key });
    expect(mine.json.runs, mine.text).toEqual([]);
    const reg = await post(JSON.stringify(toolCall("register", { name: "notif-anon" })));
    expect(reg.status, reg.text).toBe(202);
    expect(reg.text).toBe("");
    // no account was made by it: the name is still free
    const made = await call(live.url, "POST", "/api/v1/accounts", { body: { name: "notif-anon" } });
    expect(made.status, made.text).toBe(201);
  });
});

// probe25 A-F5: an id 2^53 was refused with zod's "<9007199254740991" (which 2^53-1 passes), and an id
// 1.0000000000000001 answered as 1: a number id is held to the integer rule of every body
describe("a JSON-RPC number id is an integer as sent (probe25 A-F5), any other id a string (probe32 A-F4)", () => {
  // probe32 A-F4: an array or object id was refused "must be a finite number", a null or boolean one with
  // zod's bare "Invalid input"
  const wrongType = (type: string, more = "") => `must be a string or an integer, got ${type}${more}`;
  const notInteger = (says: string) => `${says} (an id is a string or an integer)`;
  it.each([
    [
      "9007199254740992",
      notInteger("9007199254740992 is a number above 2^53-1 (9007199254740991), which loses digits"),
    ],
    [
      "-9007199254740992",
      notInteger("-9007199254740992 is a number below -(2^53-1) (-9007199254740991), which loses digits"),
    ],
    ["1.0000000000000001", notInteger("1.0000000000000001 is not a whole number")],
    ["[1]", wrongType("array")],
    ['{"a":1}', wrongType("object")],
    ["true", wrongType("boolean")],
    [
      "null",
      wrongType(
        "null",
        " (MCP allows no null id: a message that wants no answer is a notification, sent without an id)",
      ),
    ],
  ])("id %s: 400 -32600 naming $.id", async (id, says) => {
    const r = await post(`{"jsonrpc":"2.0","id":${id},"method":"tools/list"}`);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text)).toMatchObject({
      id: null,
      error: { code: -32600, message: `Invalid Request: $.id: ${says}`, data: { path: "$.id" } },
    });
  });

  it("a batch item's id of the wrong type is named by its place", async () => {
    const r = await post(
      `[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":false,"method":"tools/list"}]`,
    );
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text)).toMatchObject({
      id: null,
      error: {
        code: -32600,
        message: "Invalid Request: $[1].id: must be a string or an integer, got boolean",
      },
    });
  });

  it("ids 2^53-1 and 2.0 are taken", async () => {
    const top = await post(`{"jsonrpc":"2.0","id":9007199254740991,"method":"tools/list"}`);
    expect(top.status).toBe(200);
    expect(top.text).toContain('"id":9007199254740991');
    expect((await post(`{"jsonrpc":"2.0","id":2.0,"method":"tools/list"}`)).status).toBe(200);
  });
});
