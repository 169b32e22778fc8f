/**
 * probe D1-F18: a body sent with `Transfer-Encoding: gzip, chunked` was read raw (400 `invalid_utf8`),
 * where `Content-Encoding: gzip` is 415: a transfer coding other than chunked is 415
 * `unsupported_media_type` naming it, REST and MCP.
 */
import { request as httpRequest } from "node:http";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { useLive } from "./helpers.js";

const live = useLive();

function post(path: string, headers: Record<string, string>, body: Buffer) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = httpRequest(`${live.url}${path}`, { method: "POST", headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode!, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("a transfer coding other than chunked (probe D1-F18)", () => {
  it("is 415 naming it on REST and on /mcp, not read raw", async () => {
    const body = gzipSync(Buffer.from('{"name":"te-gzip"}'));
    const headers = { "content-type": "application/json", "transfer-encoding": "gzip, chunked" };
    const rest = await post("/api/v1/accounts", headers, body);
    expect(rest.status, rest.text).toBe(415);
    expect(JSON.parse(rest.text).error).toMatchObject({
      code: "unsupported_media_type",
      details: { transfer_encoding: "gzip, chunked" },
    });
    const mcp = await post("/mcp", { ...headers, accept: "application/json, text/event-stream" }, body);
    expect(mcp.status, mcp.text).toBe(415);
    expect(JSON.parse(mcp.text)).toMatchObject({ error: { data: { transfer_encoding: "gzip, chunked" } } });
  });
});
