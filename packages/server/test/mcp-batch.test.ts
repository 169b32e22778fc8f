/**
 * The shape of MCP answers on the Streamable HTTP transport (JSON mode):
 * - mcp nit: a batch (a JSON array) whose requests make one response was answered with that bare
 *   object (the SDK's choice); JSON-RPC 2.0 answers a batch with an array of responses, so a batch of
 *   N >= 1 requests is answered with an array of N, a single message with an object.
 */
import { describe, expect, it } from "vitest";
import { register, useLive } from "./helpers.js";

const live = useLive();

/** POSTs `raw` to `/mcp` (with `key` as Bearer); the status, headers and body text. */
async function post(raw: string, key?: string) {
  const res = await fetch(`${live.url}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    body: raw,
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

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
