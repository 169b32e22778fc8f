/**
 * probe10 R3: the web pages' indexer read joins `/bounties/N` to the indexer URL's path, before its
 * query, and sends userinfo as Basic auth (the verifier's `joinRoute`, the one rule).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api } from "../src/api/client.js";

let server: Server;
let host: string;
const seen: { url: string; auth: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? "", auth: req.headers.authorization });
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ url: req.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe("Api.indexedBounty joins the route with the verifier's joinRoute", () => {
  // the cases of the rule itself (a path, a trailing slash, a query) are the verifier's
  // (packages/verifier/test/url.test.ts); here: the page's read goes through it
  it("an indexer URL with userinfo, a path and a query", async () => {
    seen.length = 0;
    const body = await new Api(`http://${host}`, `http://vu:VPW@${host}/ix/?token=TOK`).indexedBounty("7");
    expect(body).toEqual({ url: "/ix/bounties/7?token=TOK" });
    expect(seen).toEqual([
      { url: "/ix/bounties/7?token=TOK", auth: `Basic ${Buffer.from("vu:VPW").toString("base64")}` },
    ]);
  });
});
