/**
 * probe D1-F1: well-formed JSON that is not a JSON-RPC message (params an array or a string, an `id`
 * object, `"jsonrpc":"1.0"`, a method that is a number, a batch item that is not an object, a
 * progress token that is an object) was answered 400 -32700 "Parse error: Invalid JSON-RPC message",
 * with no path: -32700 is JSON-RPC's code for text that is not JSON, and the body parsed fine. It is
 * now -32600 Invalid Request naming the member (`$.jsonrpc`, `$.id`, `$.method`, `$[1]`), or -32602
 * Invalid params naming `$.params...` for params of the wrong shape, as the README says.
 */
import { describe, expect, it } from "vitest";
import { useLive } from "./helpers.js";

const live = useLive();

async function rpc(raw: string) {
  const res = await fetch(`${live.url}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: raw,
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as any };
}

describe("MCP: JSON that is not a JSON-RPC message (probe D1-F1)", () => {
  const cases: [string, number, string, string | number | null][] = [
    ['{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[]}', -32602, "$.params", 1],
    ['{"jsonrpc":"2.0","id":1,"method":"initialize","params":[]}', -32602, "$.params", 1],
    ['{"jsonrpc":"2.0","id":"a","method":"ping","params":"x"}', -32602, "$.params", "a"],
    [
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"benchmark_list","arguments":{},"_meta":{"progressToken":{}}}}',
      -32602,
      "$.params._meta.progressToken",
      1,
    ],
    ['{"jsonrpc":"2.0","id":{},"method":"ping"}', -32600, "$.id", null],
    ['{"jsonrpc":"2.0","id":1.5,"method":"ping"}', -32600, "$.id", null],
    ['{"jsonrpc":"1.0","id":1,"method":"ping"}', -32600, "$.jsonrpc", 1],
    ['{"jsonrpc":"2.0","id":1,"method":5}', -32600, "$.method", 1],
    ['{"jsonrpc":"2.0","id":1,"method":"ping","extra":true}', -32600, "$.extra", 1],
    ['{"jsonrpc":"2.0","id":1}', -32600, "$", 1],
    ["5", -32600, "$", null],
    ['[{"jsonrpc":"2.0","id":1,"method":"ping"},5]', -32600, "$[1]", null],
    [
      '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping","params":[]}]',
      -32602,
      "$[1].params",
      null,
    ],
  ];
  for (const [raw, code, path, id] of cases)
    it(`${raw} -> ${code} naming ${path}`, async () => {
      const r = await rpc(raw);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ jsonrpc: "2.0", id, error: { code, data: { path } } });
      expect(r.body.error.message).toContain(path);
      expect(r.body.error.message).toMatch(code === -32602 ? /^Invalid params: / : /^Invalid Request: /);
    });

  it("an empty batch is still -32600, and a valid message still reaches the SDK", async () => {
    const empty = await rpc("[]");
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ id: null, error: { code: -32600 } });
    const ping = await rpc('{"jsonrpc":"2.0","id":7,"method":"ping"}');
    expect(ping.status).toBe(200);
    expect(ping.body).toEqual({ jsonrpc: "2.0", id: 7, result: {} });
    // text that is not JSON stays -32700 with its path and reason
    const bad = await rpc('{"jsonrpc":"2.0",');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: -32700, data: { reason: expect.any(String) } });
  });
});
