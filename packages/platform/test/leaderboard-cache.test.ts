import { afterEach, describe, expect, it } from "vitest";
import { Platform } from "../src/platform.js";
import { Harness, cities, cleanup, tempDir, CITIES_PUBLISH } from "./helpers.js";

afterEach(cleanup);

describe("the leaderboard is cached and invalidated on finalize (issue 13 item 9)", () => {
  it("repeated reads reuse one board; a finalize in this or another process invalidates it", async () => {
    const dir = tempDir();
    const a = new Harness(await Platform.open({ dir }));
    const ds = await a.createDataset(cities(6));
    const { slug } = await a.publish(ds.dataset_id, {
      ...CITIES_PUBLISH,
    });
    await a.play(slug, "alice");
    const first = await a.leaderboard(slug);
    expect(await a.leaderboard(slug)).toBe(first); // not rebuilt
    await a.play(slug, "bob");
    const second = await a.leaderboard(slug);
    expect(second).not.toBe(first);
    expect(second.rows.map((r) => r.agent_id).sort()).toEqual(["alice", "bob"]);
    // another process on the same store (here: another handle) finalizes: the version in the store moves
    const b = new Harness(await Platform.open({ dir }));
    await b.play(slug, "carol");
    expect((await a.leaderboard(slug)).rows).toHaveLength(3);
    // closing switches to the final board
    await a.closeBenchmark(slug);
    expect((await a.leaderboard(slug)).board).toBe("final");
    await a.close();
    await b.close();
  });
});
