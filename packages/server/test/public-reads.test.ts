/**
 * Anonymous leaderboard reads answered before the middleware chain (`src/public-reads.ts`): the same
 * bytes and headers as the route a keyed caller goes through, an ETag with 304, the anonymous rate
 * limit, and never a stale board when another server on the same store (another process) finalizes
 * or closes. On the engine under test (SQLite: two handles on one file; PostgreSQL: one schema).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Platform } from "@bench-bounty/platform";
import { dropPostgresSchema, freshPostgresTarget, TEST_ENGINE } from "@bench-bounty/platform/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { platformDomain, serveApp, type ListeningServer } from "../src/index.js";
import { call, citiesAnswer, OPERATOR_KEY, publishCities, register } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "bb-public-reads-"));
let database: Awaited<ReturnType<typeof freshPostgresTarget>> | undefined;
const platforms: Platform[] = [];
const servers: ListeningServer[] = [];

/** A server on the shared store, as another `serve` process would be. */
async function serveShared(limits?: { rateBurst: number; ratePerSecond: number }) {
  const platform = await Platform.open({
    ...(database ? { database, runsDir: join(dir, "runs") } : { dir }),
    operatorKey: OPERATOR_KEY,
  });
  platforms.push(platform);
  const server = await serveApp({ domain: platformDomain(platform), port: 0, ...(limits ? { limits } : {}) });
  servers.push(server);
  return { url: server.url, platform };
}

/** One agent's full run through `base`. */
async function play(base: string, slug: string, name: string) {
  const a = await register(base, name);
  const s = await call(base, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: a.key });
  const answers = s.json.tasks.map((t: { ordinal: number; prompt: string }) => ({
    ordinal: t.ordinal,
    answer_text: citiesAnswer(t.prompt),
  }));
  await call(base, "POST", `/api/v1/benchmarks/runs/${s.json.run.id}/submissions`, {
    key: a.key,
    body: { answers },
  });
  const f = await call(base, "POST", `/api/v1/benchmarks/runs/${s.json.run.id}/finalize`, { key: a.key });
  expect(f.status).toBe(200);
  return a;
}

beforeAll(async () => {
  if (TEST_ENGINE === "postgres") database = await freshPostgresTarget();
});
afterAll(async () => {
  for (const s of servers) await s.close();
  for (const p of platforms) await p.close();
  if (database) await dropPostgresSchema(database.schema!);
  rmSync(dir, { recursive: true, force: true });
});

describe("anonymous leaderboard reads before the middleware chain", () => {
  it("answer what the route answers, with an ETag, and are never stale after another server's finalize or close", async () => {
    const a = await serveShared();
    const b = await serveShared();
    const { slug, author } = await publishCities(a.url, 6, "early");
    const ann = await play(b.url, slug, "early-ann");
    const path = `/api/v1/benchmarks/${slug}/leaderboard`;

    const anon = await call(a.url, "GET", path);
    const keyed = await call(a.url, "GET", path, { key: ann.key }); // through the chain and the route
    expect(anon.status).toBe(200);
    expect(anon.json.rows.map((r: { agent_id: string }) => r.agent_id)).toEqual(["early-ann"]);
    expect(anon.text).toBe(keyed.text);
    const etag = anon.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    for (const h of ["etag", "content-type", "access-control-allow-origin", "access-control-expose-headers"])
      expect(anon.headers.get(h)).toBe(keyed.headers.get(h));
    // 304 on a matching If-None-Match, on both paths
    for (const key of [null, ann.key]) {
      const again = await call(a.url, "GET", path, { key, headers: { "if-none-match": etag } });
      expect(again.status).toBe(304);
      expect(again.headers.get("etag")).toBe(etag);
      expect(again.text).toBe("");
    }

    // another server finalizes: the next anonymous read here has the new row and a new ETag
    await play(b.url, slug, "early-bob");
    const after = await call(a.url, "GET", path, { headers: { "if-none-match": etag } });
    expect(after.status).toBe(200);
    expect(after.json.rows.map((r: { agent_id: string }) => r.agent_id).sort()).toEqual([
      "early-ann",
      "early-bob",
    ]);
    expect(after.headers.get("etag")).not.toBe(etag);
    // a page, and a bad one (the route's 400 naming the parameter)
    const page = await call(a.url, "GET", `${path}?limit=1&offset=1`);
    expect(page.json).toMatchObject({ total_rows: 2, offset: 1, limit: 1, next_offset: null });
    expect(page.json.rows[0].rank).toBe(2);
    const bad = await call(a.url, "GET", `${path}?limit=x`);
    expect(bad.status).toBe(400);
    expect(bad.json.error.details).toMatchObject({ parameter: "limit" });
    const unknown = await call(a.url, "GET", "/api/v1/benchmarks/no-such-board/leaderboard");
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe("unknown_benchmark");

    // the author closes it through the other server: the final board here at once (SPEC 6.1)
    const closed = await b.platform.closeBenchmark(await b.platform.authenticate(author.key), slug);
    expect(closed.status).toBe("closed");
    const final = await call(a.url, "GET", path);
    expect(final.json).toMatchObject({ board: "final", open: false });
    expect(final.json.rows[0]).toHaveProperty("rank_accuracy");
  });

  it("take the anonymous caller's rate-limit bucket: 429 with Retry-After once it is empty", async () => {
    const { slug } = await publishCities((await serveShared()).url, 6, "early-limit");
    const a = await serveShared({ rateBurst: 2, ratePerSecond: 0.01 });
    const path = `/api/v1/benchmarks/${slug}/leaderboard`;
    expect((await call(a.url, "GET", path)).status).toBe(200);
    expect((await call(a.url, "GET", path)).status).toBe(200);
    const r = await call(a.url, "GET", path);
    expect(r.status).toBe(429);
    expect(r.json.error.code).toBe("rate_limited");
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });
});
