/**
 * Per-task credit over REST and MCP (issue 17: per-task score tables and GAOS `taskScores` once the
 * benchmark closes; SPEC 6.1). Runs finalized while open carry `credit: null` in their receipts; once
 * closed, `GET /benchmarks/:slug/task-scores` serves every run's regraded credits, the entries route
 * fills `taskScores` from them, and the MCP tool serves the same. The no-leak side: while open nothing
 * per-task reaches anyone but the author, and on a buyer_only board the wrong person is refused at
 * every stage.
 */
import { ApiError, BenchBountyClient } from "@bench-bounty/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { call, playCities, publishCities, useLive, type PlayedRun } from "./helpers.js";

const live = useLive();

/** One competitor's run: `right(i)` says whether run ordinal `i` gets the right answer. */
function play(slug: string, name: string, right: (i: number) => boolean): Promise<PlayedRun> {
  return playCities(live.url, slug, name, right);
}

/** `played`'s expected credits as served to a non-author before the award: private ones null (probe36 C-F2). */
function beforeAward(played: PlayedRun, served: { visibility: string }[]): (string | null)[] {
  return played.expected.map((c, i) => (served[i]!.visibility === "private" ? null : c));
}

/** The GAOS taskScores of a served run: numbers by bank ordinal, withheld (null) credits left out. */
function gaosOf(run: { tasks: { bank_ordinal: number; credit: string | null }[] }): Record<string, number> {
  return Object.fromEntries(
    run.tasks
      .filter((t) => t.credit !== null)
      .map((t) => [String(t.bank_ordinal), t.credit === "1/1" ? 1 : 0]),
  );
}

async function close(slug: string): Promise<void> {
  await live.platform.closeBenchmark(live.platform.localOperator(), slug);
}

async function mcp(key?: string): Promise<Client> {
  const client = new Client({ name: "bench-bounty-test", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${live.url}/mcp`), {
      ...(key ? { requestInit: { headers: { authorization: `Bearer ${key}` } } } : {}),
    }),
  );
  return client;
}

describe("GET /api/v1/benchmarks/:slug/task-scores", () => {
  it("withholds per-task credit while open from all but the author, then serves every run's credits", async () => {
    const { author, slug } = await publishCities(live.url, 8, "pertask");
    const good = await play(slug, "pt-good", () => true);
    const half = await play(slug, "pt-half", (i) => i % 2 === 0);
    const path = `/api/v1/benchmarks/${slug}/task-scores`;

    // open: anonymous, a competitor, the run's own agent: nothing per-task
    for (const key of [null, half.key, good.key]) {
      const r = await call(live.url, "GET", path, { key });
      expect(r.status).toBe(404);
      expect(r.json.error).toMatchObject({
        code: "task_scores_withheld",
        details: { reason: "withheld_live_contest" },
      });
      expect(r.text).not.toMatch(/"credit"|1\/1|0\/1/);
      const entries = await call(live.url, "GET", `/api/v1/benchmarks/${slug}/entries`, { key });
      for (const e of entries.json.entries) expect(e.taskScores).toEqual({});
    }
    const own = await call(live.url, "GET", path, { key: author.key });
    expect(own.status).toBe(200);
    expect(own.json).toMatchObject({ stage: "open", served_to: "author" });
    const m = await mcp(half.key);
    const openTool = await m.callTool({ name: "benchmark_task_scores", arguments: { slug } });
    expect(openTool.isError).toBe(true);
    expect((openTool.structuredContent as any).error.code).toBe("task_scores_withheld");
    expect(JSON.stringify(openTool)).not.toMatch(/1\/1|0\/1/);
    const client = new BenchBountyClient({ baseUrl: live.url });
    const refused = await client.taskScores(slug).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe("task_scores_withheld");

    await close(slug);
    // closed, not awarded: public credits to everyone, private ones withheld (probe36 C-F2)
    const closed = await call(live.url, "GET", path);
    expect(closed.status).toBe(200);
    expect(closed.json).toMatchObject({
      slug,
      stage: "closed",
      served_to: "everyone",
      open: false,
      private_credits: "withheld",
    });
    for (const played of [good, half]) {
      const run = closed.json.runs.find((x: any) => x.run_id === played.runId);
      expect(run.tasks.map((t: any) => t.credit)).toEqual(beforeAward(played, run.tasks));
    }
    await live.platform.ctx.store.benchmarks.markAwarded(slug);
    const r = await call(live.url, "GET", path);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ slug, stage: "awarded", served_to: "everyone", private_credits: "shown" });
    const byRun = new Map<string, any>(r.json.runs.map((x: any) => [x.run_id, x]));
    for (const played of [good, half]) {
      const run = byRun.get(played.runId);
      expect(run.tasks.map((t: any) => t.credit)).toEqual(played.expected);
      // the receipt (anchored at finalize, while open) still carries no credit
      const receipt = await call(live.url, "GET", `/api/v1/benchmarks/${slug}/runs/${played.runId}/receipt`);
      expect(receipt.status).toBe(200);
      expect(receipt.json.receipt.tasks.every((t: any) => t.credit === null)).toBe(true);
      expect(receipt.json.receipt.tasks.map((t: any) => t.bank_ordinal)).toEqual(
        run.tasks.map((t: any) => t.bank_ordinal),
      );
    }
    expect(new Set(byRun.get(half.runId).tasks.map((t: any) => t.visibility))).toEqual(
      new Set(["public", "private"]),
    );
    // the recomputed scores are the final board's
    const board = await call(live.url, "GET", `/api/v1/benchmarks/${slug}/leaderboard`);
    for (const row of board.json.rows)
      expect(byRun.get(row.run_id)).toMatchObject({
        score_public: row.score_public,
        score_composite: row.score_composite,
        rank_accuracy: row.rank_accuracy,
      });
    // GAOS taskScores: the same credits, as numbers by bank ordinal
    const entries = await call(live.url, "GET", `/api/v1/benchmarks/${slug}/entries`);
    expect(entries.json.entries).toHaveLength(2);
    for (const e of entries.json.entries) {
      const run = byRun.get(e.submissionId);
      expect(e.taskScores).toEqual(gaosOf(run));
      expect(Object.keys(e.taskScores)).toHaveLength(run.tasks.length);
    }
    // the typed client and MCP serve the same object
    expect(await client.taskScores(slug)).toEqual(r.json);
    const closedTool = await m.callTool({ name: "benchmark_task_scores", arguments: { slug } });
    expect(closedTool.isError).toBeFalsy();
    expect(closedTool.structuredContent).toEqual(r.json);
    await m.close();
    // documented
    const doc = await call(live.url, "GET", "/api/v1/openapi.json");
    expect(doc.json.paths["/api/v1/benchmarks/{slug}/task-scores"].get.responses["200"]).toBeDefined();
    expect(doc.json.components.schemas.TaskScores.properties.runs).toBeDefined();
    expect((await call(live.url, "GET", "/api/v1/benchmarks/no-such/task-scores")).status).toBe(404);
  });

  // probe16 A-F8: every finalized run x every task was one answer (REST and MCP)
  // probe19 A-F10: each request regraded its page (a 304 included); now a page is kept per board version
  it("answers a repeat with the same ETag and a 304, other pages and entries limits alike, and shows the award", async () => {
    const { slug } = await publishCities(live.url, 6, "pt-cache");
    const runs = [];
    for (const name of ["pc-a", "pc-b", "pc-c"]) runs.push(await play(slug, name, (i) => i % 3 !== 0));
    await close(slug);
    // the same class (probe19 A-F10, related): a closed run's receipt is hash-bound, its ETag its hash
    const receiptPath = `/api/v1/benchmarks/${slug}/runs/${runs[0]!.runId}/receipt`;
    const receipt = await call(live.url, "GET", receiptPath);
    expect(receipt.status).toBe(200);
    expect(receipt.headers.get("etag")).toBe(`"${receipt.json.receipt_hash}"`);
    const receiptAgain = await call(live.url, "GET", receiptPath, {
      headers: { "if-none-match": receipt.headers.get("etag")! },
    });
    expect(receiptAgain.status).toBe(304);
    const path = `/api/v1/benchmarks/${slug}/task-scores`;
    const first = await call(live.url, "GET", `${path}?limit=2`);
    const etag = first.headers.get("etag")!;
    expect(first.status).toBe(200);
    const again = await call(live.url, "GET", `${path}?limit=2`);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("etag")).toBe(etag);
    const notModified = await call(live.url, "GET", `${path}?limit=2`, {
      headers: { "if-none-match": etag },
    });
    expect(notModified.status).toBe(304);
    const all = await call(live.url, "GET", path);
    expect(all.json.runs.slice(0, 2)).toEqual(first.json.runs);
    // entries: every limit is a slice of the same board, with the same taskScores
    const pages = [];
    for (const limit of [1, 2, 3])
      pages.push(await call(live.url, "GET", `/api/v1/benchmarks/${slug}/entries?limit=${limit}`));
    for (const p of pages)
      expect(p.json.entries).toEqual(pages[2]!.json.entries.slice(0, p.json.entries.length));
    // the award moves the board's version: the page (and its ETag) is built again
    await live.platform.ctx.store.benchmarks.markAwarded(slug);
    const awarded = await call(live.url, "GET", `${path}?limit=2`, { headers: { "if-none-match": etag } });
    expect(awarded.status).toBe(200);
    expect(awarded.json).toMatchObject({ stage: "awarded", status: "awarded", private_credits: "shown" });
    // the same credits, the private ones now served (probe36 C-F2)
    expect(
      awarded.json.runs.map((x: any) => ({
        ...x,
        tasks: x.tasks.map((t: any) => (t.visibility === "private" ? { ...t, credit: null } : t)),
      })),
    ).toEqual(first.json.runs);
    expect(awarded.headers.get("etag")).not.toBe(etag);
  });

  it("is paged over runs: offset/limit, next_offset, the page checked (REST, MCP, the typed client)", async () => {
    const { slug } = await publishCities(live.url, 6, "pt-page");
    const played = [];
    for (const name of ["pg-a", "pg-b", "pg-c"]) played.push(await play(slug, name, () => true));
    await close(slug);
    const path = `/api/v1/benchmarks/${slug}/task-scores`;
    const all = await call(live.url, "GET", path);
    expect(all.json).toMatchObject({ offset: 0, limit: 100, next_offset: null });
    const ids = all.json.runs.map((x: any) => x.run_id);
    expect(new Set(ids)).toEqual(new Set(played.map((x) => x.runId)));
    const first = await call(live.url, "GET", `${path}?limit=2`);
    expect(first.json).toMatchObject({ offset: 0, limit: 2, next_offset: 2 });
    expect(first.json.runs.map((x: any) => x.run_id)).toEqual(ids.slice(0, 2));
    const last = await call(live.url, "GET", `${path}?offset=2&limit=2`);
    expect(last.json).toMatchObject({ offset: 2, limit: 2, next_offset: null });
    expect(last.json.runs.map((x: any) => x.run_id)).toEqual(ids.slice(2));
    const tooMany = await call(live.url, "GET", `${path}?limit=1001`);
    expect(tooMany.status).toBe(422);
    expect(tooMany.json.error).toMatchObject({ code: "invalid_option", details: { field: "limit" } });
    const notANumber = await call(live.url, "GET", `${path}?limit=two`);
    expect(notANumber.status).toBe(400);
    expect(notANumber.json.error).toMatchObject({ code: "invalid_query", details: { parameter: "limit" } });
    const client = new BenchBountyClient({ baseUrl: live.url });
    expect(await client.taskScores(slug, { offset: 2, limit: 2 })).toEqual(last.json);
    const m = await mcp();
    const tool = await m.callTool({
      name: "benchmark_task_scores",
      arguments: { slug, offset: 0, limit: 2 },
    });
    expect(tool.structuredContent).toEqual(first.json);
    await m.close();
    // the entries of a closed board: one page, its runs' taskScores
    const entries = await call(live.url, "GET", `/api/v1/benchmarks/${slug}/entries?limit=2`);
    expect(entries.json).toMatchObject({ offset: 0, limit: 2, next_offset: 2 });
    // public tasks only before the award (probe36 C-F2); every run draws the whole bank of 6
    const publicTasks = all.json.bank.filter((t: any) => t.visibility === "public").length;
    expect(publicTasks).toBeGreaterThan(0);
    expect(publicTasks).toBeLessThan(6);
    for (const e of entries.json.entries) expect(Object.keys(e.taskScores)).toHaveLength(publicTasks);
  });

  // probe20 F1: the web board looked for its rows' runs by reading pages from offset 0
  it("serves the runs named by run_ids in the order asked (REST, MCP), under the page's rule", async () => {
    const { author, slug } = await publishCities(live.url, 6, "pt-ids");
    const played = [];
    for (const name of ["id-a", "id-b", "id-c"]) played.push(await play(slug, name, (i) => i % 2 === 0));
    const path = `/api/v1/benchmarks/${slug}/task-scores`;
    const asked = `${path}?run_ids=${played[2]!.runId},${played[0]!.runId}`;
    // open: anonymous and a competitor (the run's own agent) refused; the author served
    for (const key of [null, played[0]!.key]) {
      const r = await call(live.url, "GET", asked, { key });
      expect(r.status).toBe(404);
      expect(r.json.error).toMatchObject({ code: "task_scores_withheld" });
      expect(r.text).not.toMatch(/"credit"/);
    }
    expect((await call(live.url, "GET", asked, { key: author.key })).json.runs).toHaveLength(2);
    await close(slug);
    const byId = await call(live.url, "GET", asked);
    expect(byId.status).toBe(200);
    expect(byId.json).toMatchObject({ offset: 0, limit: 2, next_offset: null, stage: "closed" });
    expect(byId.json.runs.map((x: any) => x.run_id)).toEqual([played[2]!.runId, played[0]!.runId]);
    expect(byId.json.runs[1].tasks.map((x: any) => x.credit)).toEqual(
      beforeAward(played[0]!, byId.json.runs[1].tasks),
    );
    for (const [query, status, detail] of [
      [`run_ids=${played[0]!.runId}&limit=2`, 400, { parameter: "run_ids" }],
      [`run_ids=${played[0]!.runId},nope`, 422, { field: "run_ids[1]" }],
      [`run_ids=`, 422, { field: "run_ids[0]" }],
      [`run_ids=${played[0]!.runId},${played[0]!.runId}`, 422, { field: "run_ids[1]" }],
    ] as const) {
      const r = await call(live.url, "GET", `${path}?${query}`);
      expect(r.status, query).toBe(status);
      expect(r.json.error.details, query).toMatchObject(detail);
    }
    const m = await mcp();
    const tool = await m.callTool({
      name: "benchmark_task_scores",
      arguments: { slug, run_ids: [played[2]!.runId, played[0]!.runId] },
    });
    expect(tool.structuredContent).toEqual(byId.json);
    const both = await m.callTool({
      name: "benchmark_task_scores",
      arguments: { slug, run_ids: [played[0]!.runId], limit: 1 },
    });
    expect(both.isError).toBe(true);
    expect(both.structuredContent).toMatchObject({
      error: { code: "invalid_option", details: { field: "run_ids" } },
    });
    await m.close();
  });

  // probe36 C-F2: after the close (award window running, unawarded, reclaimed: the platform knows them all as
  // closed and not awarded) anyone read every private task's credit from REST, MCP and the entries route, so
  // one constant-answer agent per label class read every private label
  it("a constant-answer agent learns no private label before the award from REST, MCP or entries; the author's reads are not shared; after the award all are served", async () => {
    const { author, slug } = await publishCities(live.url, 6, "pt-label");
    const constant = await play(slug, "pt-const", (i) => i % 2 === 0);
    await close(slug);
    const path = `/api/v1/benchmarks/${slug}/task-scores`;
    const entriesPath = `/api/v1/benchmarks/${slug}/entries`;
    // the author reads first (REST and entries): every credit, and nothing of it kept for others
    const own = await call(live.url, "GET", path, { key: author.key });
    expect(own.json).toMatchObject({ stage: "closed", private_credits: "shown" });
    const ownRun = own.json.runs[0];
    expect(ownRun.tasks.map((t: any) => t.credit)).toEqual(constant.expected);
    const priv = ownRun.tasks.filter((t: any) => t.visibility === "private");
    expect(priv.length).toBeGreaterThan(0);
    const ownEntries = await call(live.url, "GET", entriesPath, { key: author.key });
    expect(ownEntries.json.entries[0].taskScores).toEqual(gaosOf(ownRun));
    const m = await mcp(constant.key);
    const anonMcp = await mcp();
    for (const key of [null, constant.key]) {
      const r = await call(live.url, "GET", path, { key });
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ stage: "closed", private_credits: "withheld" });
      expect(r.json.note).toMatch(
        /shown once the award reveals the test set, never for a reclaimed prize .*a closed test set is spent/,
      );
      const run = r.json.runs[0];
      for (const t of run.tasks) expect(t.credit === null).toBe(t.visibility === "private");
      const byIds = await call(live.url, "GET", `${path}?run_ids=${constant.runId}`, { key });
      expect(byIds.json.runs).toEqual(r.json.runs);
      const entries = await call(live.url, "GET", entriesPath, { key });
      const scores = entries.json.entries[0].taskScores;
      for (const t of priv) expect(scores).not.toHaveProperty(String(t.bank_ordinal));
      expect(scores).toEqual(gaosOf(run));
      const tool = await (key === null ? anonMcp : m).callTool({
        name: "benchmark_task_scores",
        arguments: { slug },
      });
      expect(tool.structuredContent).toEqual(r.json);
    }
    // awarded: everyone reads every credit, on every route
    await live.platform.ctx.store.benchmarks.markAwarded(slug);
    const after = await call(live.url, "GET", path);
    expect(after.json).toMatchObject({ stage: "awarded", private_credits: "shown" });
    expect(after.json.runs[0].tasks.map((t: any) => t.credit)).toEqual(constant.expected);
    const entries = await call(live.url, "GET", entriesPath);
    expect(entries.json.entries[0].taskScores).toEqual(gaosOf(after.json.runs[0]));
    const tool = await anonMcp.callTool({ name: "benchmark_task_scores", arguments: { slug } });
    expect(tool.structuredContent).toEqual(after.json);
    await m.close();
    await anonMcp.close();
  });

  it("on a buyer_only board: the author only, before and after close; nobody else gets a credit", async () => {
    const { author: buyer, slug } = await publishCities(live.url, 6, "pt-bo", {
      leaderboard_visibility: "buyer_only",
    });
    const rival = await play(slug, "pt-rival", () => true);
    const other = await play(slug, "pt-other", () => false);
    const path = `/api/v1/benchmarks/${slug}/task-scores`;
    for (const stage of ["open", "closed"]) {
      if (stage === "closed") await close(slug);
      for (const key of [other.key, rival.key, null]) {
        const r = await call(live.url, "GET", path, { key });
        expect(r.status, `${stage}: ${r.text}`).toBe(403);
        expect(r.json.error).toMatchObject({
          code: "forbidden",
          details: { rule: "benchmark_author_only" },
        });
        expect(r.text).not.toMatch(/1\/1|0\/1/);
        const entries = await call(live.url, "GET", `/api/v1/benchmarks/${slug}/entries`, { key });
        expect(entries.json.entries).toEqual([]);
      }
      const m = await mcp(other.key);
      const tool = await m.callTool({ name: "benchmark_task_scores", arguments: { slug } });
      expect((tool.structuredContent as any).error.code, stage).toBe("forbidden");
      await m.close();
      const own = await call(live.url, "GET", path, { key: buyer.key });
      expect(own.status).toBe(200);
      expect(own.json.stage).toBe(stage);
      const byRun = new Map<string, any>(own.json.runs.map((x: any) => [x.run_id, x]));
      expect(byRun.get(rival.runId).tasks.map((t: any) => t.credit)).toEqual(rival.expected);
      expect(byRun.get(other.runId).tasks.map((t: any) => t.credit)).toEqual(other.expected);
    }
    // the buyer's entries carry the taskScores once closed
    const entries = await call(live.url, "GET", `/api/v1/benchmarks/${slug}/entries`, { key: buyer.key });
    expect(entries.json.entries).toHaveLength(2);
    for (const e of entries.json.entries) expect(Object.keys(e.taskScores).length).toBeGreaterThan(0);
  });
});
