/**
 * keys29 item 1: the typed client issues and revokes the caller's API keys (`issueKey`: `POST
 * /api/v1/accounts/me/keys`; `revokeKey(prefix)`: `DELETE /api/v1/accounts/me/keys/{key_prefix}`, the
 * segment encoded), sending the key as `X-API-Key`; a refusal is an ApiError with the server's code.
 * Against a loopback server that records each request (the live server's answers: the server's
 * `client.test.ts`).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, BenchBountyClient } from "../src/index.js";

interface Seen {
  method: string;
  url: string;
  key: string | undefined;
  body: string;
}

const seen: Seen[] = [];
let server: Server;
let base: string;

const ACCOUNT = { account_id: "acct_1", name: "alice", keys: [] };

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, key: req.headers["x-api-key"] as string, body });
      res.setHeader("content-type", "application/json");
      if (req.method === "POST" && req.url === "/api/v1/accounts/me/keys") {
        if (req.headers["x-api-key"] === "bbk_full") {
          res.statusCode = 409;
          return res.end(
            JSON.stringify({
              error: { code: "too_many_keys", message: "revoke one first", details: { max_active_keys: 20 } },
            }),
          );
        }
        res.statusCode = 201;
        return res.end(
          JSON.stringify({ account: ACCOUNT, api_key: "bbk_000000000002_x", key_prefix: "bbk_000000000002" }),
        );
      }
      if (req.method === "DELETE" && req.url!.startsWith("/api/v1/accounts/me/keys/")) {
        return res.end(JSON.stringify(ACCOUNT));
      }
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { code: "not_found", message: "no such endpoint", details: {} } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("issueKey and revokeKey (keys29 item 1)", () => {
  it("issueKey POSTs /api/v1/accounts/me/keys with the caller's key and no body: the Registration", async () => {
    seen.length = 0;
    const r = await new BenchBountyClient({ baseUrl: base, apiKey: "bbk_alice" }).issueKey();
    expect(r).toMatchObject({ api_key: "bbk_000000000002_x", key_prefix: "bbk_000000000002" });
    expect(r.account.account_id).toBe("acct_1");
    expect(seen).toEqual([{ method: "POST", url: "/api/v1/accounts/me/keys", key: "bbk_alice", body: "" }]);
  });

  it("revokeKey DELETEs /api/v1/accounts/me/keys/{prefix}, the segment encoded: the account", async () => {
    seen.length = 0;
    const c = new BenchBountyClient({ baseUrl: base, apiKey: "bbk_alice" });
    expect((await c.revokeKey("bbk_0123456789ab")).account_id).toBe("acct_1");
    await c.revokeKey("a/b?c#d e");
    expect(seen.map((s) => [s.method, s.url, s.key])).toEqual([
      ["DELETE", "/api/v1/accounts/me/keys/bbk_0123456789ab", "bbk_alice"],
      ["DELETE", "/api/v1/accounts/me/keys/a%2Fb%3Fc%23d%20e", "bbk_alice"],
    ]);
  });

  it("a refusal is an ApiError with the server's code, status and details", async () => {
    const e = await new BenchBountyClient({ baseUrl: base, apiKey: "bbk_full" })
      .issueKey()
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ status: 409, code: "too_many_keys", details: { max_active_keys: 20 } });
  });
});
