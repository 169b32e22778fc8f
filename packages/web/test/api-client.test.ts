/**
 * probe10 R3: the web pages' indexer read joins `/bounties/N` to the indexer URL's path, before its
 * query, and sends userinfo as Basic auth (the verifier's `joinRoute`, the one rule).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api, MAX_TASK_SCORE_PAGES } from "../src/api/client.js";

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

// probe15 A-F11: the benchmark list is paged; the list page reads every page
describe("Api.benchmarks follows the list's pages", () => {
  it("reads pages of 1,000 from offset 0 until next_offset is null", async () => {
    const urls: string[] = [];
    const paged = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      urls.push(`${url.pathname}${url.search}`);
      const offset = Number(url.searchParams.get("offset"));
      const benchmarks = Array.from({ length: offset === 0 ? 1000 : 2 }, (_, i) => ({
        slug: `b${offset + i}`,
      }));
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ benchmarks, offset, limit: 1000, next_offset: offset === 0 ? 1000 : null }));
    });
    await new Promise<void>((resolve) => paged.listen(0, "127.0.0.1", resolve));
    try {
      const port = (paged.address() as AddressInfo).port;
      const list = await new Api(`http://127.0.0.1:${port}`, null).benchmarks();
      expect(list.map((b) => b.slug)).toEqual(Array.from({ length: 1002 }, (_, i) => `b${i}`));
      expect(urls).toEqual([
        "/api/v1/benchmarks?offset=0&limit=1000",
        "/api/v1/benchmarks?offset=1000&limit=1000",
      ]);
    } finally {
      paged.closeAllConnections();
      paged.close();
    }
  });
});

// probe16 A-F8: task-scores is paged over runs; the board's view reads the pages of its ranked runs only
describe("Api.taskScores reads the pages of the ranked runs, bounded", () => {
  it("stops once every wanted run is found, and after MAX_TASK_SCORE_PAGES pages", async () => {
    const urls: string[] = [];
    // a bank so large that the server holds one run a page: 20 finalized runs r0..r19
    const paged = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      urls.push(`${url.pathname}${url.search}`);
      const offset = Number(url.searchParams.get("offset") ?? 0);
      const runs = [{ run_id: `r${offset}`, tasks: [] }];
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          slug: "s",
          bank: [],
          runs,
          offset,
          limit: 1,
          next_offset: offset < 19 ? offset + 1 : null,
        }),
      );
    });
    await new Promise<void>((resolve) => paged.listen(0, "127.0.0.1", resolve));
    try {
      const api = new Api(`http://127.0.0.1:${(paged.address() as AddressInfo).port}`, null);
      const found = await api.taskScores("s", ["r2", "r0"]);
      expect(found.runs.map((r) => r.run_id)).toEqual(["r0", "r2"]);
      expect(urls).toEqual([0, 1, 2].map((o) => `/api/v1/benchmarks/s/task-scores?offset=${o}&limit=1000`));
      urls.length = 0;
      const far = await api.taskScores("s", ["r1", "r19"]);
      expect(far.runs.map((r) => r.run_id)).toEqual(["r1"]);
      expect(urls).toHaveLength(MAX_TASK_SCORE_PAGES);
      expect(MAX_TASK_SCORE_PAGES).toBe(10);
    } finally {
      paged.closeAllConnections();
      paged.close();
    }
  });
});
