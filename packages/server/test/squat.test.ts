/**
 * A squatted commitment (its root anchored first by someone else with another kind, recorded in
 * `anchors.squat_json`) is named on every public answer and no run starts on it, over REST and MCP
 * (probe15 A-F6). The squat is recorded here as a flush records it (the chain part is the platform's
 * operator-spend test).
 */
import { describe, expect, it } from "vitest";
import { call, postToolCall, publishCities, registerAndStartRun, useLive } from "./helpers.js";

const live = useLive();

describe("a squatted commitment (probe15 A-F6)", () => {
  it("the detail, commitment, door and verification say squatted; REST and MCP starts are 409 anchor_squatted", async () => {
    const { slug } = await publishCities(live.url, 4, "squat");
    const store = live.platform.ctx.store;
    const root = (await live.platform.getBenchmark(slug)).commit_root;
    const stranger = "0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc";
    await store.anchors.addPending(root, "commitment", slug, new Date().toISOString());
    await store.anchors.markSquatted(root, {
      kind: `0x${"ab".repeat(32)}`,
      kind_name: "pack",
      anchorer: stranger,
      anchor_block: 8,
    });
    const squat = { found_kind: "pack", anchorer: stranger, anchor_block: 8 };
    const detail = await call(live.url, "GET", `/api/v1/benchmarks/${slug}`);
    expect(detail.json.commitment).toMatchObject({ commit_root: null, status: "squatted", squat });
    const commitment = await call(live.url, "GET", `/api/v1/benchmarks/${slug}/commitment`);
    expect(commitment.json).toMatchObject({
      commit_root: null,
      commitment_anchor_status: "squatted",
      commitment_squat: squat,
    });
    for (const path of ["award-evidence", "verification"]) {
      const r = await call(live.url, "GET", `/api/v1/benchmarks/${slug}/${path}`);
      expect(r.status, path).toBe(404);
      expect(r.json.error.details.reason, path).toBe("anchor_squatted");
    }
    const { agent: competitor, start } = await registerAndStartRun(live.url, slug, "squat-competitor");
    expect(start.status).toBe(409);
    expect(start.json.error).toMatchObject({
      code: "anchor_squatted",
      details: { kind: "commitment", ...squat },
    });
    const mcp = await postToolCall(live.url, "benchmark_start_run", { slug }, competitor.key);
    expect(mcp.body.result.isError).toBe(true);
    expect(mcp.body.result.structuredContent.error.code).toBe("anchor_squatted");
    expect(await store.runs.ofBenchmark(slug)).toEqual([]);
  });
});
