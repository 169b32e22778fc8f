/**
 * probe16 A-F1/F2: U+0000 (NUL) in any text is refused the same on both engines, naming where it is,
 * never a 500 (PostgreSQL's `text` cannot hold it: "invalid byte sequence for encoding UTF8: 0x00" was
 * a 500 with a logged stack, anonymously too, while SQLite stored the same input).
 */
import { describe, expect, it } from "vitest";
import {
  CITIES_PUBLISH,
  call,
  citiesDataset,
  postToolCall,
  publishCities,
  register,
  registerAndStartRun,
  useLive,
} from "./helpers.js";

const live = useLive();

describe("U+0000 in text (probe16 A-F1/F2)", () => {
  it("an answer, a dataset row, a dataset name and a title holding it are refused naming the JSON path", async () => {
    const { slug } = await publishCities(live.url, 4, "nul-a");
    const { agent: me, start } = await registerAndStartRun(live.url, slug, "nul-agent");
    expect(start.status, start.text).toBe(201);
    const runId = start.json.run.id as string;
    const submit = await call(live.url, "POST", `/api/v1/benchmarks/runs/${runId}/submissions`, {
      key: me.key,
      body: { answers: [{ ordinal: 0, answer_text: "a\u0000b" }] },
    });
    expect(submit.status, submit.text).toBe(422);
    expect(submit.json.error.details.errors[0]).toMatchObject({
      code: "nul_character",
      path: "$.answers[0].answer_text",
    });
    // nothing was stored: the same ordinal takes a clean answer
    const clean = await call(live.url, "POST", `/api/v1/benchmarks/runs/${runId}/submissions`, {
      key: me.key,
      body: { answers: [{ ordinal: 0, answer_text: "answer-0" }] },
    });
    expect(clean.status, clean.text).toBe(200);

    const author = await register(live.url, "nul-author");
    const rows = citiesDataset(3, "nul-rows");
    (rows.rows[1] as { payload: Record<string, unknown> }).payload.city = "a\u0000b";
    const ds = await call(live.url, "POST", "/api/v1/datasets", { key: author.key, body: rows });
    expect(ds.status, ds.text).toBe(422);
    expect(ds.json.error).toMatchObject({ code: "invalid_dataset" });
    expect(JSON.stringify(ds.json.error.details)).toContain("nul_character");
    expect(ds.json.error.message).toMatch(/U\+0000/);
    const named = await call(live.url, "POST", "/api/v1/datasets", {
      key: author.key,
      body: { ...citiesDataset(3), name: "nul\u0000name" },
    });
    expect(named.status, named.text).toBe(422);
    expect(named.json.error.details).toMatchObject({ path: "$.name", reason: "nul_character" });

    const good = await call(live.url, "POST", "/api/v1/datasets", {
      key: author.key,
      body: citiesDataset(3, "nul-ok"),
    });
    expect(good.status, good.text).toBe(201);
    const titled = await call(live.url, "POST", `/api/v1/datasets/${good.json.dataset_id}/benchmark`, {
      key: author.key,
      body: { ...CITIES_PUBLISH, title: "T\u0000" },
    });
    expect(titled.status, titled.text).toBe(422);
    expect(titled.json.error.details).toMatchObject({ path: "$.title", reason: "nul_character" });
  });

  it("a path parameter or an MCP argument holding it is 422 invalid_text, anonymous or keyed, never a 500", async () => {
    const me = await register(live.url, "nul-paths");
    // probe17 A-F4: the refusal names the parameter that held it
    for (const [method, path, parameter] of [
      ["GET", "/api/v1/benchmarks/a%00b", "slug"],
      ["GET", "/api/v1/benchmarks/a%00b/leaderboard", "slug"],
      ["GET", "/api/v1/benchmarks/a%00b/commitment", "slug"],
      ["GET", "/api/v1/benchmarks/a%00b/award-evidence", "slug"],
      ["GET", "/api/v1/benchmarks/a%00b/task-scores", "slug"],
      ["GET", "/api/v1/benchmarks/a%00b/runs/r%00/receipt", "slug"],
      ["GET", "/api/v1/benchmarks/runs/r%00b", "run_id"],
      ["POST", "/api/v1/benchmarks/a%00b/runs", "slug"],
      ["DELETE", "/api/v1/datasets/d%00", "dataset_id"],
    ] as const) {
      const r = await call(live.url, method, path, {
        key: me.key,
        ...(method === "POST" ? { body: {} } : {}),
      });
      expect(r.status, `${path}: ${r.text}`).toBe(422);
      expect(r.json.error, path).toMatchObject({
        code: "invalid_text",
        details: { parameter, reason: "nul_character" },
      });
    }
    const { slug } = await publishCities(live.url, 2, "nul-start");
    const agentId = await call(live.url, "POST", `/api/v1/benchmarks/${slug}/runs`, {
      key: me.key,
      body: { agent_id: "z\u0000" },
    });
    expect(agentId.status, agentId.text).toBe(422);
    expect(agentId.json.error).toMatchObject({ code: "invalid_option", details: { field: "agent_id" } });
    const mcp = await postToolCall(live.url, "benchmark_detail", { slug: "a\u0000b" }, me.key);
    expect(mcp.status).toBe(200);
    expect(JSON.stringify(mcp.body)).not.toMatch(/internal_error/);
    // probe17 A-F4: the tool error names the argument
    for (const [name, args, path] of [
      ["benchmark_detail", { slug: "a\u0000b" }, "$.slug"],
      ["benchmark_finalize_run", { run_id: "r\u0000" }, "$.run_id"],
    ] as const) {
      const r = await postToolCall(live.url, name, args, me.key);
      const result = (r.body as { result: { isError: boolean; structuredContent: { error: unknown } } })
        .result;
      expect(result.isError, name).toBe(true);
      expect(result.structuredContent.error, name).toMatchObject({
        code: "invalid_text",
        details: { path, reason: "nul_character" },
      });
    }
    const endpoint = await postToolCall(
      live.url,
      "benchmark_detail",
      {},
      me.key,
      "/mcp/benchmarks/a%00b/http",
    );
    // probe18 F4: the one-benchmark endpoint's slug is named as a REST path parameter is
    expect(endpoint.status).toBe(422);
    expect(endpoint.body.error).toMatchObject({
      code: "invalid_text",
      details: { parameter: "slug", reason: "nul_character" },
    });
  });
});
