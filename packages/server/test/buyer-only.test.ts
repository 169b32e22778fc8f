/**
 * A `buyer_only` benchmark over REST (the compete seed, section 7): the author (the buyer) sees the
 * leaderboard's rows; a competitor and an anonymous reader get `leaderboard_visible: false` and no
 * rows, while the competitor still gets their own scores from finalize.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CITIES_PUBLISH,
  call,
  citiesAnswer,
  citiesDataset,
  register,
  startLive,
  type Live,
} from "./helpers.js";

let live: Live;
beforeAll(async () => {
  live = await startLive();
});
afterAll(async () => {
  await live.stop();
});

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
    expect(bad.json.error).toMatchObject({
      code: "invalid_option",
      details: { field: "leaderboard_visibility" },
    });
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
  });
});
