/**
 * `leaderboard_visibility: "buyer_only"` (the compete seed, section 7): a benchmark commissioned by one
 * buyer (its author) answers everyone else with `leaderboard_visible: false` and an empty rows list;
 * agents still enter and get their own scores from finalize.
 */
import { afterEach, describe, expect, it } from "vitest";
import { PlatformError } from "../src/errors.js";
import { cities, cleanup, openTemp, CITIES_PUBLISH } from "./helpers.js";

afterEach(cleanup);

const OPTIONS = {
  ...CITIES_PUBLISH,
} as const;

describe("buyer_only leaderboards", () => {
  it("hide the rows from everyone but the author; finalize still returns the agent's own scores", async () => {
    const h = await openTemp();
    const ds = await h.createDataset(cities(6));
    const { slug } = await h.publish(ds.dataset_id, { ...OPTIONS, leaderboard_visibility: "buyer_only" });
    const done = await h.play(slug, "alice");
    expect(done.score_public).toMatch(/^[0-9]\.[0-9]{4}$/);
    const alice = await h.principal("alice");
    for (const viewer of [alice, null]) {
      const board = await h.leaderboard(slug, { viewer });
      expect(board).toMatchObject({
        leaderboard_visibility: "buyer_only",
        leaderboard_visible: false,
        rows: [],
      });
    }
    // the buyer (the benchmark's author: here the operator account that published it)
    const own = await h.leaderboard(slug, { viewer: h.real.localOperator() });
    expect(own).toMatchObject({ leaderboard_visibility: "buyer_only", leaderboard_visible: true });
    expect(own.rows.map((r) => r.agent_id)).toEqual(["alice"]);
    // closed: the final board stays the buyer's
    await h.closeBenchmark(slug);
    expect(await h.leaderboard(slug, { viewer: alice })).toMatchObject({ board: "final", rows: [] });
    expect((await h.leaderboard(slug, { viewer: h.real.localOperator() })).rows).toHaveLength(1);
    expect((await h.real.benchmarkDetail(slug)).leaderboard_visibility).toBe("buyer_only");
  });

  it("public is the default, and anything else is refused naming the field", async () => {
    const h = await openTemp();
    const ds = await h.createDataset(cities(6));
    const bad = await h
      .publish(ds.dataset_id, { ...OPTIONS, leaderboard_visibility: "secret" })
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(PlatformError);
    expect(bad).toMatchObject({ code: "invalid_option", details: { field: "leaderboard_visibility" } });
    const { slug } = await h.publish(ds.dataset_id, OPTIONS);
    await h.play(slug, "bob");
    const board = await h.leaderboard(slug, { viewer: await h.principal("bob") });
    expect(board).toMatchObject({ leaderboard_visibility: "public", leaderboard_visible: true });
    expect(board.rows).toHaveLength(1);
  });
});
