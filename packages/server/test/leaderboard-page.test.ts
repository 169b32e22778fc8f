/** The leaderboard one page at a time over REST (issue 13 item 9): limit/offset, defaults, refusals, OpenAPI. */
import { beforeAll, describe, expect, it } from "vitest";
import { call, citiesAnswer, publishCities, register, useLive } from "./helpers.js";

const live = useLive();
let slug: string;
beforeAll(async () => {
  slug = (await publishCities(live.url, 6, "paged")).slug;
  for (const name of ["ann", "bob", "cat"]) {
    const a = await register(live.url, `paged-${name}`);
    const s = await call(live.url, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: a.key });
    const answers = s.json.tasks.map((t: { ordinal: number; prompt: string }) => ({
      ordinal: t.ordinal,
      answer_text: citiesAnswer(t.prompt),
    }));
    await call(live.url, "POST", `/api/v1/benchmarks/runs/${s.json.run.id}/submissions`, {
      key: a.key,
      body: { answers },
    });
    expect(
      (await call(live.url, "POST", `/api/v1/benchmarks/runs/${s.json.run.id}/finalize`, { key: a.key }))
        .status,
    ).toBe(200);
  }
});

const board = (q = "") => call(live.url, "GET", `/api/v1/benchmarks/${slug}/leaderboard${q}`);

describe("leaderboard pages", () => {
  it("serves the first 100 rows by default and says where the page sits", async () => {
    const r = await board();
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      slug,
      board: "public",
      total_rows: 3,
      offset: 0,
      limit: 100,
      next_offset: null,
    });
    expect(r.json.rows.map((x: { agent_id: string }) => x.agent_id).sort()).toEqual([
      "paged-ann",
      "paged-bob",
      "paged-cat",
    ]);
    expect(r.json.rows.map((x: { rank: number }) => x.rank)).toEqual([1, 2, 3]);
  });

  it("walks the whole board with limit and next_offset; rows keep their board-wide rank", async () => {
    const whole = (await board()).json.rows;
    const first = await board("?limit=2");
    expect(first.json).toMatchObject({ total_rows: 3, offset: 0, limit: 2, next_offset: 2 });
    expect(first.json.rows).toEqual(whole.slice(0, 2));
    const second = await board(`?limit=2&offset=${first.json.next_offset}`);
    expect(second.json).toMatchObject({ total_rows: 3, offset: 2, limit: 2, next_offset: null });
    expect(second.json.rows).toEqual(whole.slice(2));
    expect(second.json.rows[0].rank).toBe(3);
    // probe21 A-F6: every page names its board, so a reader appends only pages of one board
    expect(typeof first.json.board_version).toBe("string");
    expect(second.json.board_version).toBe(first.json.board_version);
    const past = await board("?offset=10");
    expect(past.json).toMatchObject({ total_rows: 3, offset: 10, next_offset: null, rows: [] });
  });

  it("refuses a malformed parameter naming it (400), an out-of-range one (422), never a 500", async () => {
    const word = await board("?limit=ten");
    expect(word.status).toBe(400);
    expect(word.json.error).toMatchObject({ code: "invalid_query", details: { parameter: "limit" } });
    const negative = await board("?offset=-1");
    expect(negative.status).toBe(400);
    expect(negative.json.error.details.parameter).toBe("offset");
    const zero = await board("?limit=0");
    expect(zero.status).toBe(422);
    expect(zero.json.error).toMatchObject({ code: "invalid_option", details: { field: "limit" } });
    const huge = await board("?limit=10001");
    expect(huge.status).toBe(422);
    expect(huge.json.error.details.field).toBe("limit");
  });

  // probe14 D1-F9: a canonical number past 15 digits was refused as "not a whole number in decimal digits"
  it.each(["?offset=9007199254740991", "?limit=99999999999999999999"])(
    "refuses %s as too large, not as malformed",
    async (q) => {
      const r = await board(q);
      expect(r.status).toBe(400);
      expect(r.json.error.message).toMatch(/is too large \(at most 15 digits\)/);
      expect(r.json.error.message).not.toMatch(/decimal digits \(no sign/);
    },
  );

  // probe14 D1-F14: the GAOS entries were the whole board in one answer, rebuilt on every request
  it("pages the GAOS entries like the board, with an ETag and 304", async () => {
    const entries = (q = "", h: Record<string, string> = {}) =>
      call(live.url, "GET", `/api/v1/benchmarks/${slug}/entries${q}`, { headers: h });
    const whole = (await board()).json.rows.map((x: { run_id: string }) => x.run_id);
    const first = await entries("?limit=2");
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ total_rows: 3, offset: 0, limit: 2, next_offset: 2 });
    expect(first.json.entries.map((e: { submissionId: string }) => e.submissionId)).toEqual(
      whole.slice(0, 2),
    );
    const second = await entries(`?limit=2&offset=${first.json.next_offset}`);
    expect(second.json).toMatchObject({ total_rows: 3, offset: 2, next_offset: null });
    expect(second.json.entries.map((e: { submissionId: string }) => e.submissionId)).toEqual(whole.slice(2));
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    const again = await entries("?limit=2", { "if-none-match": etag! });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect((await entries("?limit=2")).text).toBe(first.text);
    const bad = await entries("?limit=ten");
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ code: "invalid_query", details: { parameter: "limit" } });
  });

  // issue 13 re-probe: `?offset[]=1` was read as offset 0, `offset=1&offset=2` as 1.
  it.each([
    ["?offset[]=1", "offset[]"],
    ["?offset%5B%5D=1", "offset[]"],
    ["?offset[0]=1", "offset[0]"],
    ["?offset=1&offset=2", "offset"],
    ["?limit=1&limit=1", "limit"],
    ["?offset=1e3", "offset"],
    ["?offset=%2B1", "offset"],
    ["?offset=+1", "offset"],
    ["?offset=%201", "offset"],
    ["?offset=1%20", "offset"],
    ["?offset=0x10", "offset"],
    ["?offset=01", "offset"],
    ["?limit=1.0", "limit"],
    ["?limit=", "limit"],
    ["?limt=2", "limt"],
  ])("refuses %s with a 400 naming %s (anonymous and with a key)", async (q, parameter) => {
    const me = await register(live.url, `paged-q-${Math.random().toString(36).slice(2, 8)}`);
    for (const key of [null, me.key]) {
      const r = await call(live.url, "GET", `/api/v1/benchmarks/${slug}/leaderboard${q}`, { key });
      expect(r.status, `${q} key=${key !== null}`).toBe(400);
      expect(r.json.error).toMatchObject({ code: "invalid_query", details: { parameter } });
    }
  });

  it("every other REST route refuses a query parameter it does not declare (re-probe 7, N7)", async () => {
    const me = await register(live.url, `paged-n7-${Math.random().toString(36).slice(2, 8)}`);
    for (const [method, path, parameter] of [
      ["GET", "/api/v1/benchmarks?statsu=open", "statsu"],
      ["GET", `/api/v1/benchmarks/${slug}?offset=1`, "offset"],
      ["POST", `/api/v1/benchmarks/${slug}/runs?dry=1`, "dry"],
    ] as const) {
      for (const key of [null, me.key]) {
        if (method === "POST" && key === null) continue;
        const r = await call(live.url, method, path, { key });
        expect(r.status, `${method} ${path} key=${key !== null}`).toBe(400);
        expect(r.json.error).toMatchObject({ code: "invalid_query", details: { parameter } });
        expect(r.json.error.message).toContain(parameter);
      }
    }
    expect((await call(live.url, "GET", "/api/v1/benchmarks")).status).toBe(200);
    expect((await call(live.url, "GET", `/api/v1/benchmarks/${slug}`)).status).toBe(200);
  });

  it("still reads canonical pages (0 and plain digits)", async () => {
    expect((await board("?offset=0&limit=1")).json).toMatchObject({ offset: 0, limit: 1 });
    expect((await board("?limit=2&offset=1")).json).toMatchObject({ offset: 1, limit: 2 });
  });

  it("documents limit and offset in OpenAPI", async () => {
    const doc = (await call(live.url, "GET", "/api/v1/openapi.json")).json;
    const op = doc.paths["/api/v1/benchmarks/{slug}/leaderboard"].get;
    const names = op.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`).sort();
    expect(names).toEqual(["path:slug", "query:limit", "query:offset"]);
    expect(JSON.stringify(op.parameters)).toContain("default 100");
  });

  it("answers reads with the CORS headers of a public read, errors included", async () => {
    const ok = await board();
    expect(ok.headers.get("access-control-allow-origin")).toBe("*");
    expect(ok.headers.get("access-control-expose-headers")).toBe("ETag,Retry-After");
    const missing = await call(live.url, "GET", "/api/v1/benchmarks/no-such/leaderboard");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("access-control-allow-origin")).toBe("*");
  });
});
