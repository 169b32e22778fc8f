/**
 * probe10 R3: the web pages' indexer read joins `/bounties/N` to the indexer URL's path, before its
 * query, and sends userinfo as Basic auth (the verifier's `joinRoute`, the one rule).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api, BENCHMARKS_PAGE, LEADERBOARD_PAGE } from "../src/api/client.js";

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

/** A loopback server answering each GET with `answer(url)` as JSON, its requests' path and query kept in `urls`. */
async function withServer(
  answer: (url: URL) => unknown,
  body: (api: Api, urls: string[]) => Promise<void>,
): Promise<void> {
  const urls: string[] = [];
  const paged = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    urls.push(`${url.pathname}${url.search}`);
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(answer(url)));
  });
  await new Promise<void>((resolve) => paged.listen(0, "127.0.0.1", resolve));
  try {
    await body(new Api(`http://127.0.0.1:${(paged.address() as AddressInfo).port}`, null), urls);
  } finally {
    paged.closeAllConnections();
    paged.close();
  }
}

// probe16 A-F9 (was probe15 A-F11: every page was read): the list page reads one page at a time;
// probe19 A-F4: the leaderboard page read the server's default page only and said nothing of the rest
describe("Api reads one page of the list and of the board (one paging rule)", () => {
  /** A first page with `next_offset` 100, a second without one, from the list or the board by path. */
  const pages = (url: URL) => {
    const first = url.searchParams.get("offset") === "0";
    if (url.pathname === "/api/v1/benchmarks")
      return first
        ? { benchmarks: [{ slug: "b0" }], offset: 0, limit: 100, next_offset: 100 }
        : { items: [{ slug: "b100" }] };
    return first
      ? {
          slug: "s",
          open: false,
          rows: [{ rank: 1 }],
          total_rows: 101,
          offset: 0,
          limit: 100,
          next_offset: 100,
        }
      : { slug: "s", open: false, rows: [{ rank: 101 }] };
  };

  it("the list: BENCHMARKS_PAGE from the offset, next_offset passed on (null without one)", async () => {
    await withServer(pages, async (api, urls) => {
      expect(BENCHMARKS_PAGE).toBe(100);
      expect(await api.benchmarksPage(0)).toEqual({ benchmarks: [{ slug: "b0" }], next_offset: 100 });
      expect(await api.benchmarksPage(100)).toEqual({ benchmarks: [{ slug: "b100" }], next_offset: null });
      expect(urls).toEqual([
        "/api/v1/benchmarks?offset=0&limit=100",
        "/api/v1/benchmarks?offset=100&limit=100",
      ]);
    });
  });

  it("the board: LEADERBOARD_PAGE rows from the offset, total_rows and next_offset passed on", async () => {
    await withServer(pages, async (api, urls) => {
      expect(LEADERBOARD_PAGE).toBe(100);
      const first = await api.leaderboardPage("s", 0);
      expect([first.rows, first.total_rows, first.next_offset]).toEqual([[{ rank: 1 }], 101, 100]);
      expect((await api.leaderboardPage("s", 100)).next_offset).toBeNull();
      expect(urls).toEqual([
        "/api/v1/benchmarks/s/leaderboard?offset=0&limit=100",
        "/api/v1/benchmarks/s/leaderboard?offset=100&limit=100",
      ]);
    });
  });
});

// probe20 F1: the board's view read task-scores pages from offset 0 (start order, at most 10 pages), so on
// a large bank most rows were "not served"; it now asks for its rows' runs by id
describe("Api.taskScores asks for the board rows' runs by id, again for the ids an answer left", () => {
  it("one ask when the answer covers every id; as many as the cell bound needs otherwise", async () => {
    let perAnswer = 100;
    await withServer(
      (url) => {
        const ids = (url.searchParams.get("run_ids") ?? "").split(",");
        const covered = ids.slice(0, perAnswer);
        const runs = covered.filter((id) => id !== "r-missing").map((run_id) => ({ run_id, tasks: [] }));
        return {
          slug: "s",
          bank: [],
          runs,
          offset: 0,
          limit: covered.length,
          next_offset: ids.length > perAnswer ? perAnswer : null,
        };
      },
      async (api, urls) => {
        const found = await api.taskScores("s", ["r2", "r-missing", "r0"]);
        expect(found.runs.map((r) => r.run_id)).toEqual(["r2", "r0"]);
        expect(urls).toEqual(["/api/v1/benchmarks/s/task-scores?run_ids=r2,r-missing,r0"]);
        urls.length = 0;
        perAnswer = 2; // a bank of over 6,666 tasks: two runs an answer
        const rows = ["a", "b", "c", "d", "e"];
        const all = await api.taskScores("s", rows);
        expect(all.runs.map((r) => r.run_id)).toEqual(rows);
        expect(urls).toEqual([
          "/api/v1/benchmarks/s/task-scores?run_ids=a,b,c,d,e",
          "/api/v1/benchmarks/s/task-scores?run_ids=c,d,e",
          "/api/v1/benchmarks/s/task-scores?run_ids=e",
        ]);
      },
    );
  });
});
