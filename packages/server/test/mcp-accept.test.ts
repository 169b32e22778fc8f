/**
 * probe37 A-N2: `POST /mcp` refused `Accept: *\/*` (curl's and most HTTP libraries' default), a missing
 * Accept and `Accept: application/json` with 406 "Client must accept both application/json and
 * text/event-stream" (the SDK transport's check), though the endpoint answers JSON only. An Accept
 * that admits JSON is now taken; one that admits none is still 406, in the JSON-RPC error shape,
 * saying what to send.
 */
import { describe, expect, it } from "vitest";
import { useLive } from "./helpers.js";

const live = useLive();

async function ping(accept: string | null, path = "/mcp") {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (accept !== null) headers.accept = accept;
  const res = await fetch(`${live.url}${path}`, {
    method: "POST",
    headers,
    body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
  });
  return { status: res.status, type: res.headers.get("content-type"), body: (await res.json()) as any };
}

describe("MCP: the request's Accept (probe37 A-N2)", () => {
  for (const accept of [
    "*/*",
    "application/*",
    "application/json",
    "application/json; charset=utf-8",
    "text/html, */*;q=0.1",
    "application/json, text/event-stream",
    "",
    // probe37 V-N1: empty elements only are no ranges at all (every type admitted); they were 406
    ",,,",
    // the most specific range decides: a refused wildcard under an admitted type
    "*/*;q=0, application/json",
  ])
    it(`Accept: ${JSON.stringify(accept)} is answered`, async () => {
      const r = await ping(accept);
      expect(r.status).toBe(200);
      expect(r.type).toMatch(/^application\/json/);
      expect(r.body).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    });

  it("no Accept header at all is answered", async () => {
    // fetch (undici) sends `Accept: */*` when none is given; a raw request sends none
    const net = await import("node:net");
    const u = new URL(live.url);
    const body = '{"jsonrpc":"2.0","id":2,"method":"ping"}';
    const text = await new Promise<string>((resolve, reject) => {
      const s = net.connect(Number(u.port), u.hostname, () =>
        s.end(
          `POST /mcp HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        ),
      );
      let got = "";
      s.on("data", (d) => (got += String(d)));
      s.on("end", () => resolve(got));
      s.on("error", reject);
    });
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4))).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: {},
    });
  });

  for (const accept of [
    "text/html",
    "text/event-stream",
    "application/json;q=0, text/html",
    "image/*",
    // probe37 V-N1: JSON refused explicitly beside a wildcard was answered 200
    "application/json;q=0, */*",
    "application/*;q=0, */*",
  ])
    it(`Accept: ${JSON.stringify(accept)} (no JSON) is 406 in the JSON-RPC shape, saying what to send`, async () => {
      const r = await ping(accept);
      expect(r.status).toBe(406);
      expect(r.body).toMatchObject({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32000, data: { accept: "application/json" } },
      });
      expect(r.body.error.message).toMatch(/^Not Acceptable: /);
      expect(r.body.error.message).toContain("Accept: application/json, text/event-stream");
    });
});
