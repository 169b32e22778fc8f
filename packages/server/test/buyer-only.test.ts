/**
 * A `buyer_only` benchmark over REST (the compete seed, section 7): the author (the buyer) sees the
 * leaderboard's rows; a competitor and an anonymous reader get `leaderboard_visible: false` and no
 * rows, while the competitor still gets their own scores from finalize.
 */
import { describe, expect, it } from "vitest";
import {
  CITIES_PUBLISH,
  OPERATOR_KEY,
  call,
  citiesAnswer,
  citiesDataset,
  register,
  useLive,
} from "./helpers.js";

const live = useLive();
describe("leaderboard_visibility buyer_only over REST", () => {
  it("serves the rows to the buyer only; a bad value is a 422 naming the field", async () => {
    const base = live.url;
    const author = await register(base, "buyer");
    const ds = await call(base, "POST", "/api/v1/datasets", {
      key: author.key,
      body: citiesDataset(6, "bo"),
    });
    const path = `/api/v1/datasets/${ds.json.dataset_id}/benchmark`;
    const bad = await call(base, "POST", path, {
      key: author.key,
      body: { ...CITIES_PUBLISH, leaderboard_visibility: "friends" },
    });
    expect(bad.status).toBe(422);
    // the OpenAPI enum is the schema the edge validates with: the error names the path and the values
    expect(bad.json.error).toMatchObject({
      code: "invalid_request",
      details: { path: "$.leaderboard_visibility" },
    });
    expect(bad.json.error.message).toMatch(/public.*buyer_only/);
    // a misspelt option is refused, not ignored (the author meant to hide the board)
    const typo = await call(base, "POST", path, {
      key: author.key,
      body: { ...CITIES_PUBLISH, leaderboard_visiblity: "buyer_only" },
    });
    expect(typo.status).toBe(422);
    expect(typo.text).toContain("leaderboard_visiblity");
    const pub = await call(base, "POST", path, {
      key: author.key,
      body: { ...CITIES_PUBLISH, leaderboard_visibility: "buyer_only" },
    });
    expect(pub.status).toBe(201);
    const slug = pub.json.slug as string;

    const agent = await register(base, "competitor");
    const start = await call(base, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: agent.key, body: {} });
    expect(start.status).toBe(201);
    const runId = start.json.run.id as string;
    const answers = (start.json.tasks as { ordinal: number; prompt: string }[]).map((t) => ({
      ordinal: t.ordinal,
      answer_text: citiesAnswer(t.prompt),
    }));
    await call(base, "POST", `/api/v1/benchmarks/runs/${runId}/submissions`, {
      key: agent.key,
      body: { answers },
    });
    const fin = await call(base, "POST", `/api/v1/benchmarks/runs/${runId}/finalize`, { key: agent.key });
    expect(fin.status).toBe(200);
    expect(fin.json.score_public).toBe("1.0000");

    const board = `/api/v1/benchmarks/${slug}/leaderboard`;
    for (const key of [agent.key, undefined]) {
      const r = await call(base, "GET", board, key ? { key } : {});
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({
        leaderboard_visibility: "buyer_only",
        leaderboard_visible: false,
        rows: [],
      });
    }
    const own = await call(base, "GET", board, { key: author.key });
    expect(own.json.leaderboard_visible).toBe(true);
    expect(own.json.rows).toHaveLength(1);

    // Closed: SPEC 6.1 would serve receipts to everyone; buyer_only keeps every per-run read the
    // author's (probe of issue 15: receipts were public after close).
    await live.platform.closeBenchmark(live.platform.localOperator(), slug);
    const receipt = `/api/v1/benchmarks/${slug}/runs/${runId}/receipt`;
    const other = await register(base, "stranger");
    const operator = { key: OPERATOR_KEY };
    for (const who of [{ key: agent.key }, { key: other.key }, operator, {}]) {
      const r = await call(base, "GET", receipt, who);
      expect(r.status, JSON.stringify(who)).toBe(404);
      expect(r.json.error).toMatchObject({ code: "receipt_withheld", details: { reason: "buyer_only" } });
      const b = await call(base, "GET", `/api/v1/benchmarks/${slug}/leaderboard`, who);
      expect(b.json.rows, JSON.stringify(who)).toEqual([]);
      const e = await call(base, "GET", `/api/v1/benchmarks/${slug}/entries`, who);
      expect(e.status).toBe(200);
      expect(e.json.entries, JSON.stringify(who)).toEqual([]);
    }
    // the run's owner and the operator read the run, but not its receipt
    for (const key of [agent.key, OPERATOR_KEY]) {
      const r = await call(base, "GET", `/api/v1/benchmarks/runs/${runId}`, { key });
      expect(r.status).toBe(200);
      expect(r.json).not.toHaveProperty("receipt");
      expect(r.text).not.toMatch(/"credit"/);
    }
    const mine = await call(base, "GET", "/api/v1/benchmarks/runs/mine", { key: agent.key });
    expect(mine.text).not.toMatch(/"credit"/);
    // the author sees everything
    const authorsReceipt = await call(base, "GET", receipt, { key: author.key });
    expect(authorsReceipt.status).toBe(200);
    expect(authorsReceipt.json.receipt.tasks.length).toBeGreaterThan(0);
    const authorsEntries = await call(base, "GET", `/api/v1/benchmarks/${slug}/entries`, { key: author.key });
    expect(authorsEntries.json.entries).toHaveLength(1);
    expect(authorsEntries.json.entries[0].submissionId).toBe(runId);
    const authorsRun = await call(base, "GET", `/api/v1/benchmarks/runs/${runId}`, { key: author.key });
    expect(authorsRun.json.receipt).toBeDefined();
    // MCP: the leaderboard tool follows the same rule
    const rpc = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${agent.key}`,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "benchmark_leaderboard", arguments: { slug } },
      }),
    });
    const tool = (await rpc.json()) as { result: { structuredContent: { rows: unknown[] } } };
    expect(tool.result.structuredContent.rows).toEqual([]);
  });
  it("serves strangers the same hidden board whatever the competition does: no counter, no moving ETag (probe29 A-F1)", async () => {
    const base = live.url;
    const author = await register(base, "buyer2");
    const ds = await call(base, "POST", "/api/v1/datasets", {
      key: author.key,
      body: citiesDataset(6, "bv"),
    });
    const pub = await call(base, "POST", `/api/v1/datasets/${ds.json.dataset_id}/benchmark`, {
      key: author.key,
      body: { ...CITIES_PUBLISH, leaderboard_visibility: "buyer_only" },
    });
    expect(pub.status).toBe(201);
    const slug = pub.json.slug as string;
    const stranger = await register(base, "watcher");
    const mcpBoard = async (key?: string) => {
      const rpc = await fetch(`${base}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(key ? { authorization: `Bearer ${key}` } : {}),
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "benchmark_leaderboard", arguments: { slug } },
        }),
      });
      return JSON.stringify(
        ((await rpc.json()) as { result: { structuredContent: unknown } }).result.structuredContent,
      );
    };
    // what a stranger and an anonymous reader see: REST bytes and ETag, entries, MCP
    const seen = async () => {
      const out: string[] = [];
      for (const key of [stranger.key, undefined]) {
        const board = await call(base, "GET", `/api/v1/benchmarks/${slug}/leaderboard`, key ? { key } : {});
        expect(board.status).toBe(200);
        out.push(board.text, String(board.headers.get("etag")));
        const entries = await call(base, "GET", `/api/v1/benchmarks/${slug}/entries`, key ? { key } : {});
        out.push(entries.text, String(entries.headers.get("etag")));
        out.push(await mcpBoard(key));
      }
      return out;
    };
    const before = await seen();
    const authorsBefore = await call(base, "GET", `/api/v1/benchmarks/${slug}/leaderboard`, {
      key: author.key,
    });
    for (const name of ["rival1", "rival2"]) {
      const agent = await register(base, name);
      const start = await call(base, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: agent.key, body: {} });
      expect(start.status).toBe(201);
      const runId = start.json.run.id as string;
      const answers = (start.json.tasks as { ordinal: number; prompt: string }[]).map((t) => ({
        ordinal: t.ordinal,
        answer_text: citiesAnswer(t.prompt),
      }));
      await call(base, "POST", `/api/v1/benchmarks/runs/${runId}/submissions`, {
        key: agent.key,
        body: { answers },
      });
      const fin = await call(base, "POST", `/api/v1/benchmarks/runs/${runId}/finalize`, { key: agent.key });
      expect(fin.status).toBe(200);
      expect(await seen()).toEqual(before);
    }
    // the author's own board still moves with each finalize
    const authorsAfter = await call(base, "GET", `/api/v1/benchmarks/${slug}/leaderboard`, {
      key: author.key,
    });
    expect(authorsAfter.json.rows).toHaveLength(2);
    expect(authorsAfter.json.board_version).not.toBe(authorsBefore.json.board_version);
  });
});
