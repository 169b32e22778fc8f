/**
 * probe30 A-F2: a web page on any origin made its visitors' browsers create accounts. `POST
 * /api/v1/accounts` with no body (or a `text/plain` one) and no custom header is a CORS "simple"
 * request: no preflight, so the browser sends it and the server acted on it (201), spending the
 * visitors' addresses' account budgets. A write whose `Origin` is not this server's own is now refused
 * 403 `cross_origin_write` before anything reads it; programs (no `Origin`) and the server's own pages
 * are served as before, and reads from any origin too.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createApp, platformDomain } from "../src/index.js";
import { call, callRaw, register, useLive } from "./helpers.js";

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

/**
 * probe31 A-F4: the origins a write may come from were this server's base URL's and the request's own
 * `Host`'s, so a DNS-rebinding page (its name re-bound to 127.0.0.1; the browser sends `Host` and
 * `Origin` of that name) was "own": it registered accounts over REST and MCP and, same-origin for the
 * browser, read their keys. The allowed origins are now fixed: the public base URL's, the listen
 * address's and the loopback names of a loopback (or every-address) listener; `Host` chooses none.
 */
describe("a DNS-rebinding page is refused: the Host chooses no allowed origin (probe31 A-F4)", () => {
  const JSON_HEADERS = { "content-type": "application/json" };

  it("POST /accounts and POST /mcp with Host and Origin both the attacker's name: 403, no account", async () => {
    const port = new URL(live.url).port;
    const evil = `http://evil.example:${port}`;
    const rebound = { host: `evil.example:${port}`, origin: evil };
    const r = await callRaw(
      live.url,
      "POST",
      "/api/v1/accounts",
      { ...rebound, ...JSON_HEADERS },
      '{"name":"rebound-1"}',
    );
    expect(r.status).toBe(403);
    expect(r.json.error).toMatchObject({ code: "cross_origin_write", details: { origin: evil } });
    expect(await live.platform.ctx.store.accounts.idByName("rebound-1")).toBeNull();
    const mcp = await callRaw(
      live.url,
      "POST",
      "/mcp",
      { ...rebound, ...JSON_HEADERS, accept: "application/json, text/event-stream" },
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "register", arguments: { name: "rebound-2" } },
      }),
    );
    expect(mcp.status).toBe(403);
    expect(mcp.json.error.code).toBe("cross_origin_write");
    expect(await live.platform.ctx.store.accounts.idByName("rebound-2")).toBeNull();
  });

  it("the loopback names of a loopback listener are its own (the page opened as localhost, 127.0.0.1 or [::1])", async () => {
    const port = new URL(live.url).port;
    for (const [i, name] of ["localhost", "127.0.0.1", "[::1]"].entries()) {
      const r = await callRaw(
        live.url,
        "POST",
        "/api/v1/accounts",
        { host: `${name}:${port}`, origin: `http://${name}:${port}`, ...JSON_HEADERS },
        JSON.stringify({ name: `loopback-${i}` }),
      );
      expect(r.status, name).toBe(201);
    }
    // another port of the same machine is another origin
    const other = await call(live.url, "POST", "/api/v1/accounts", {
      body: { name: "other-port" },
      headers: { origin: `http://localhost:${Number(port) + 1}` },
    });
    expect(other.status).toBe(403);
  });

  it("with --public-url, its origin is own; a request's Host naming another origin is not", async () => {
    const app = createApp({
      domain: platformDomain(live.platform),
      publicBaseUrl: "https://bench.example/bb",
    });
    const post = (url: string, origin: string, name: string) =>
      app.request(url, {
        method: "POST",
        headers: { origin, ...JSON_HEADERS },
        body: JSON.stringify({ name }),
      });
    const evil = await post("http://evil.example/api/v1/accounts", "http://evil.example", "public-evil");
    expect(evil.status).toBe(403);
    const own = await post("http://evil.example/api/v1/accounts", "https://bench.example", "public-own");
    expect(own.status).toBe(201);
  });
});
