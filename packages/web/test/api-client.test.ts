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

describe("Api.indexedBounty reaches /bounties/N whatever the indexer URL", () => {
  const cases: [string, () => string, string, string | undefined][] = [
    ["a path", () => `http://${host}/v1/ix`, "/v1/ix/bounties/7", undefined],
    ["a trailing slash", () => `http://${host}/v1/`, "/v1/bounties/7", undefined],
    ["a query", () => `http://${host}/?token=TOK&k=K`, "/bounties/7?token=TOK&k=K", undefined],
    [
      "userinfo",
      () => `http://vu:VPW@${host}/ix?token=TOK`,
      "/ix/bounties/7?token=TOK",
      `Basic ${Buffer.from("vu:VPW").toString("base64")}`,
    ],
  ];
  for (const [what, base, path, auth] of cases)
    it(`an indexer URL with ${what}`, async () => {
      seen.length = 0;
      const body = await new Api(`http://${host}`, base()).indexedBounty("7");
      expect(body).toEqual({ url: path });
      expect(seen).toEqual([{ url: path, auth }]);
    });
});
