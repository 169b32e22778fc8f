/**
 * probe D1-F2, F5, F6, F7: how `/mcp` (and REST) bodies without a declared length are read.
 * - F2: an anonymous chunked `/mcp` body was read up to the 4 MiB route limit (not the 64 KiB
 *   anonymous limit), whatever its Content-Type (`emptyBatch` read a second copy of every body); it
 *   now stops at 64 KiB + 1 while streaming (JSON-RPC 413 naming `limit_bytes: 65536`), and a body of
 *   another media type is refused before it is read. A REST chunked body over the limit was 413 with
 *   `details: {}`: it names `limit_bytes` like every other 413.
 * - F5: a keyed chunked `/mcp` body over the body limit was answered REST-shaped and logged as an
 *   "unexpected error: BodyLimitError" with a stack; it is a JSON-RPC 413 naming the limit, not logged.
 * - F6: a client closing mid-body on `/mcp` (declared Content-Length) was logged as "unexpected error:
 *   Error: aborted"; it is `request_aborted`, nothing logged, and its bytes in flight come back.
 * - F7: each anonymous chunked `/mcp` request reserved the route's whole limit of the in-flight body
 *   budget (8 trickling sockets refused every keyed body over 64 KiB of their network); a chunked body
 *   reserves nothing until it has passed 64 KiB (an anonymous `/mcp` one never does).
 */
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { call, holdBody, register, useLive } from "./helpers.js";

const BODY = 256 * 1024;
const ANONYMOUS = 64 * 1024;
const logged: unknown[] = [];
const live = useLive({ limits: { bodyBytes: BODY, bodyBytesInFlight: BODY }, log: (e) => logged.push(e) });
afterEach(() => {
  expect(logged.map(String)).toEqual([]); // a client's body is never a server fault in the log
});

const RUN_PATH = "/api/v1/benchmarks/runs/run-0123456789abcdef/submissions";
const MCP_ACCEPT = "application/json, text/event-stream";

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * A POST without a declared length (chunked) that writes `sent` and never ends its body: resolves with
 * the answer the server sends before the body's end (rejects when none comes: the server waited for
 * the end). `close` drops the connection.
 */
function chunked(path: string, headers: Record<string, string>, sent: string) {
  const req = httpRequest(`${live.url}${path}`, { method: "POST", headers });
  req.on("error", () => undefined); // the server may close the connection after its answer
  const answer = new Promise<Answer>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no answer before the body's end")), 15_000);
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode!, headers: res.headers, text });
      });
      res.on("error", () => undefined);
    });
  });
  req.flushHeaders();
  if (sent.length > 0) req.write(sent);
  return { answer, close: () => req.destroy() };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("bodies without a declared length (probe D1-F2, F5, F7)", () => {
  it("anonymous chunked /mcp: JSON-RPC 413 naming 65536 once 64 KiB + 1 have come, before the body ends", async () => {
    const c = chunked(
      "/mcp",
      { "content-type": "application/json", accept: MCP_ACCEPT },
      " ".repeat(ANONYMOUS + 64),
    );
    const r = await c.answer;
    c.close();
    expect(r.status, r.text).toBe(413);
    expect(r.headers.connection).toBe("close");
    expect(JSON.parse(r.text)).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, data: { limit_bytes: ANONYMOUS } },
    });
  });

  it("anonymous chunked /mcp of another media type: refused before its body is read", async () => {
    const c = chunked("/mcp", { "content-type": "text/plain", accept: MCP_ACCEPT }, "x".repeat(1000));
    const r = await c.answer;
    c.close();
    expect(r.status, r.text).toBe(415);
    expect(JSON.parse(r.text)).toMatchObject({ jsonrpc: "2.0", error: { code: expect.any(Number) } });
  });

  it("keyed chunked /mcp over the body limit: JSON-RPC 413 naming limit_bytes, nothing logged (F5)", async () => {
    const me = await register(live.url, "stream-keyed");
    const c = chunked(
      "/mcp",
      { "content-type": "application/json", accept: MCP_ACCEPT, authorization: `Bearer ${me.key}` },
      " ".repeat(BODY + 64),
    );
    const r = await c.answer;
    c.close();
    expect(r.status, r.text).toBe(413);
    expect(JSON.parse(r.text)).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, data: { limit_bytes: BODY } },
    });
  });

  it("a REST chunked body over the limit: 413 naming limit_bytes, as every other 413", async () => {
    const me = await register(live.url, "stream-rest");
    const c = chunked(
      RUN_PATH,
      { "content-type": "application/json", "x-api-key": me.key },
      " ".repeat(BODY + 64),
    );
    const r = await c.answer;
    c.close();
    expect(r.status, r.text).toBe(413);
    expect(JSON.parse(r.text).error).toMatchObject({
      code: "body_too_large",
      details: { limit_bytes: BODY },
    });
    // a small route's chunked body stops at the route's 64 KiB, not the app's limit
    const small = chunked(
      "/api/v1/accounts",
      { "content-type": "application/json" },
      " ".repeat(ANONYMOUS + 64),
    );
    const s = await small.answer;
    small.close();
    expect(s.status, s.text).toBe(413);
    expect(JSON.parse(s.text).error.details).toMatchObject({ limit_bytes: ANONYMOUS });
  });

  it("trickling anonymous chunked bodies reserve nothing: a keyed large body of their network is served (F7)", async () => {
    const me = await register(live.url, "stream-victim");
    const held = [
      chunked("/mcp", { "content-type": "application/json", accept: MCP_ACCEPT }, "["),
      chunked("/mcp", { "content-type": "application/json", accept: MCP_ACCEPT }, "["),
      chunked("/api/v1/accounts", { "content-type": "application/json" }, "{"),
    ];
    await pause(300); // the held requests are being read
    const big = JSON.stringify({ answers: [{ ordinal: 0, answer_text: "x".repeat(100 * 1024) }] });
    const r = await call(live.url, "POST", RUN_PATH, { key: me.key, raw: big });
    expect(r.status, r.text).toBe(404); // read and answered by the route (no such run), not 503
    for (const h of held) h.close();
  });
});

describe("a client closing mid-body on /mcp (probe D1-F6)", () => {
  it("is request_aborted: nothing logged, and its bytes in flight come back", async () => {
    const me = await register(live.url, "stream-abort");
    const anonymous = httpRequest(`${live.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: MCP_ACCEPT, "content-length": "1000" },
    });
    anonymous.on("error", () => undefined);
    anonymous.write('{"jsonrpc":');
    const keyed = holdBody(live.url, "/mcp", me.key, BODY, '{"jsonrpc":');
    await pause(300);
    anonymous.destroy();
    keyed.abort();
    await pause(300); // the server sees both closes
    const big = JSON.stringify({ answers: [{ ordinal: 0, answer_text: "x".repeat(100 * 1024) }] });
    const r = await call(live.url, "POST", RUN_PATH, { key: me.key, raw: big });
    expect(r.status, r.text).toBe(404);
  });
});
