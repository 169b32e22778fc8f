/**
 * probe30 A-F2: a web page on any origin made its visitors' browsers create accounts. `POST
 * /api/v1/accounts` with no body (or a `text/plain` one) and no custom header is a CORS "simple"
 * request: no preflight, so the browser sends it and the server acted on it (201), spending the
 * visitors' addresses' account budgets. A write whose `Origin` is not this server's own is now refused
 * 403 `cross_origin_write` before anything reads it; programs (no `Origin`) and the server's own pages
 * are served as before, and reads from any origin too.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, register, useLive } from "./helpers.js";

const live = useLive();
const EVIL = "https://evil.example";
let key = "";
beforeAll(async () => {
  ({ key } = await register(live.url, "origin-owner"));
});

describe("writes from another origin's pages are refused (probe30 A-F2)", () => {
  it("POST /accounts with no body from a foreign page: 403 naming the origin; no account", async () => {
    const r = await call(live.url, "POST", "/api/v1/accounts", { headers: { origin: EVIL } });
    expect(r.status).toBe(403);
    expect(r.json.error).toMatchObject({ code: "cross_origin_write", details: { origin: EVIL } });
    expect(r.json.error.message).toContain(`Origin: "${EVIL}"`);
    // the text/plain form of a simple request, with a name: nothing registered under it
    const named = await call(live.url, "POST", "/api/v1/accounts", {
      raw: JSON.stringify({ name: "visitor-1" }),
      headers: { origin: EVIL, "content-type": "text/plain" },
    });
    expect(named.status).toBe(403);
    expect(await live.platform.ctx.store.accounts.idByName("visitor-1")).toBeNull();
    // Origin "null" (a sandboxed frame, a file: page) likewise
    const nul = await call(live.url, "POST", "/api/v1/accounts", { headers: { origin: "null" } });
    expect(nul.status).toBe(403);
  });

  it("a program (no Origin) and the server's own page register as before", async () => {
    const program = await call(live.url, "POST", "/api/v1/accounts", { body: { name: "program-1" } });
    expect(program.status).toBe(201);
    const own = await call(live.url, "POST", "/api/v1/accounts", {
      body: { name: "own-page-1" },
      headers: { origin: new URL(live.url).origin },
    });
    expect(own.status).toBe(201);
    expect(await live.platform.ctx.store.accounts.idByName("own-page-1")).not.toBeNull();
  });

  it("a keyed write from a foreign page is refused too; the same read is served", async () => {
    const put = await call(live.url, "PUT", "/api/v1/accounts/me/withdrawal-address", {
      key,
      body: { withdrawal_address: `0x${"1".repeat(40)}` },
      headers: { origin: EVIL },
    });
    expect(put.status).toBe(403);
    expect(put.json.error.code).toBe("cross_origin_write");
    const me = await call(live.url, "GET", "/api/v1/accounts/me", { key });
    expect(me.json.withdrawal_address ?? me.json.account?.withdrawal_address ?? null).toBeNull();
    const read = await call(live.url, "GET", "/api/v1/benchmarks", { headers: { origin: EVIL } });
    expect(read.status).toBe(200);
    expect(read.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("the MCP endpoint refuses a foreign page's POST (the transport's rule against DNS rebinding)", async () => {
    const body = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };
    const r = await call(live.url, "POST", "/mcp", {
      body,
      headers: { origin: EVIL, accept: "application/json, text/event-stream" },
    });
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe("cross_origin_write");
    const ok = await call(live.url, "POST", "/mcp", {
      body,
      headers: { accept: "application/json, text/event-stream" },
    });
    expect(ok.status).toBe(200);
  });
});
