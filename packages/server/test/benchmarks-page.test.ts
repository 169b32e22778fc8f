/**
 * probe15 A-F11: `GET /api/v1/benchmarks` (and MCP `benchmark_list`) was every benchmark in one answer,
 * rebuilt per call (20,000 benchmarks: 6 MB, 2.6 s of server time). Both are paged like the
 * leaderboard: `offset`, `limit` (default 100, at most 1,000), `next_offset`, oldest first then by
 * slug; the typed client follows the pages.
 */
import { BenchBountyClient } from "@bench-bounty/client";
import { beforeAll, describe, expect, it } from "vitest";
import { call, postMcp, publishCities, useLive } from "./helpers.js";

const live = useLive();
const slugs: string[] = [];
beforeAll(async () => {
  for (const name of ["list-a", "list-b", "list-c"])
    slugs.push((await publishCities(live.url, 4, name)).slug);
});

const list = (q = "") => call(live.url, "GET", `/api/v1/benchmarks${q}`);
const slugsOf = (bs: { slug: string }[]) => bs.map((b) => b.slug);

describe("the benchmark list pages (probe15 A-F11)", () => {
  it("serves the first 100 by default, oldest first, and says where the page sits", async () => {
    const r = await list();
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ offset: 0, limit: 100, next_offset: null });
    expect(slugsOf(r.json.benchmarks)).toEqual(slugs);
  });

  it("walks the list with limit and next_offset", async () => {
    const first = await list("?limit=2");
    expect(first.json).toMatchObject({ offset: 0, limit: 2, next_offset: 2 });
    expect(slugsOf(first.json.benchmarks)).toEqual(slugs.slice(0, 2));
    const second = await list(`?limit=2&offset=${first.json.next_offset}`);
    expect(second.json).toMatchObject({ offset: 2, limit: 2, next_offset: null });
    expect(slugsOf(second.json.benchmarks)).toEqual(slugs.slice(2));
    expect(second.json.benchmarks[0]).toEqual((await list()).json.benchmarks[2]);
  });

  it("refuses a malformed parameter (400) and a page over 1,000 (422), naming them", async () => {
    const word = await list("?offset=x");
    expect(word.status).toBe(400);
    expect(word.json.error).toMatchObject({ code: "invalid_query", details: { parameter: "offset" } });
    const huge = await list("?limit=1001");
    expect(huge.status).toBe(422);
    expect(huge.json.error).toMatchObject({ code: "invalid_option", details: { field: "limit" } });
  });

  it("MCP benchmark_list is paged the same way; the client follows the pages", async () => {
    const tool = (args: Record<string, unknown>) =>
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "benchmark_list", arguments: args },
      });
    const page = await postMcp(live.url, tool({ offset: 1, limit: 1 }));
    expect(page.status).toBe(200);
    expect(page.body.result.structuredContent).toEqual((await list("?offset=1&limit=1")).json);
    expect(page.body.result.structuredContent.next_offset).toBe(2);
    const all = await new BenchBountyClient({ baseUrl: live.url }).listBenchmarks();
    expect(slugsOf(all.benchmarks)).toEqual(slugs);
  });
});
