/**
 * The client's whole-list reads (`listBenchmarks`, `runsMine`) follow `next_offset` page by page. A server
 * whose pages never end, or whose `next_offset` does not follow its page, made them collect without bound
 * (g38's note beside probe38 B-F2, which bounded the run's task pages): each page must follow the last and
 * at most `MAX_LIST_ITEMS` items are kept, past which the read stops `invalid_answer` naming the route.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, BenchBountyClient, MAX_LIST_ITEMS, nextOffsetFollows } from "../src/index.js";

let server: Server;
let base: string;
/** How many pages the server was asked for. */
let pages = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const offset = Number(url.searchParams.get("offset") ?? "0");
    const limit = Number(url.searchParams.get("limit") ?? "100");
    pages++;
    res.writeHead(200, { "content-type": "application/json" });
    if (url.pathname === "/api/v1/benchmarks") {
      // endless: every page full, the next one always after it
      const benchmarks = Array.from({ length: limit }, (_, i) => ({ slug: `b-${offset + i}` }));
      return res.end(JSON.stringify({ benchmarks, offset, limit, next_offset: offset + limit }));
    }
    if (url.pathname === "/api/v1/benchmarks/runs/run-00000000000000aa/tasks") {
      // endless pages of 10 tasks with 1 KiB prompts, each following the last
      const tasks = Array.from({ length: 10 }, (_, i) => ({ ordinal: offset + i, prompt: "p".repeat(1024) }));
      return res.end(
        JSON.stringify({ run_id: "run-00000000000000aa", tasks, offset, next_offset: offset + 10 }),
      );
    }
    if (url.pathname === "/empty/api/v1/benchmarks/runs/mine") {
      // an empty page naming its own offset as the next (probe38 W-F2: paged forever)
      return res.end(JSON.stringify({ runs: [], offset, limit, next_offset: offset }));
    }
    if (url.pathname === "/api/v1/benchmarks/runs/mine") {
      // a next_offset that stays put: the same page again and again
      return res.end(JSON.stringify({ runs: [{ run_id: "run-1" }], offset, limit, next_offset: 0 }));
    }
    res.end("{}");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

describe("whole-list reads are bounded while paging", () => {
  it("a list whose pages never end stops past MAX_LIST_ITEMS, nothing past it asked", async () => {
    pages = 0;
    const client = new BenchBountyClient({ baseUrl: base });
    const e = await client.listBenchmarks().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe("invalid_answer");
    expect((e as ApiError).message).toContain(
      `GET ${base}/api/v1/benchmarks: the list has more than ${MAX_LIST_ITEMS} items`,
    );
    expect((e as ApiError).details).toMatchObject({ max_items: MAX_LIST_ITEMS });
    expect(pages).toBe(MAX_LIST_ITEMS / 1000 + 1);
  });

  it("a next_offset that does not follow its page is refused at that page", async () => {
    pages = 0;
    const client = new BenchBountyClient({
      baseUrl: base,
      apiKey: `bbk_${"a".repeat(12)}_${"b".repeat(43)}`,
    });
    const e = await client.runsMine().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe("invalid_answer");
    expect((e as ApiError).message).toContain("next_offset 0 does not follow offset 0 and its 1 items");
    expect(pages).toBe(1);
  });

  it("an empty page naming a next one is refused at once (probe38 W-F2)", async () => {
    pages = 0;
    const client = new BenchBountyClient({
      baseUrl: `${base}/empty`,
      apiKey: `bbk_${"a".repeat(12)}_${"b".repeat(43)}`,
    });
    const e = await client.runsMine().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe("invalid_answer");
    expect((e as ApiError).message).toContain("next_offset 0 does not follow offset 0 and its 0 items");
    expect(pages).toBe(1);
  });

  it("a run's task pages whose prompts pass maxPromptBytes are refused, nothing past them kept (probe38 W-F3)", async () => {
    pages = 0;
    const client = new BenchBountyClient({
      baseUrl: base,
      apiKey: `bbk_${"a".repeat(12)}_${"b".repeat(43)}`,
    });
    const e = await client
      .restOfTasks("run-00000000000000aa", 0, { maxTasks: 100_000, maxPromptBytes: 50 * 1024 })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe("invalid_answer");
    expect((e as ApiError).message).toContain(`the run's prompts pass ${50 * 1024} bytes`);
    expect(pages).toBe(6); // 10 KiB of prompts a page: five reach 50 KiB exactly, the sixth passes it
  });
});

describe("nextOffsetFollows: the one next_offset rule of every paged answer", () => {
  it.each([
    [0, 3, null, true],
    [0, 3, undefined, true],
    [0, 0, null, true],
    [0, 3, 3, true],
    [40, 10, 50, true],
    [0, 2, 5, false], // skips ordinals 2-4 (probe38 W-F4)
    [0, 0, 0, false], // an empty page naming itself pages forever (probe38 W-F2)
    [7, 0, 7, false],
    [10, 5, 12, false], // goes back into the page
    [0, 3, "3", false], // not a number
  ])("offset %i with %i items, next_offset %j: %s", (offset, count, next, follows) => {
    expect(nextOffsetFollows(offset, count, next)).toBe(follows);
  });
});
