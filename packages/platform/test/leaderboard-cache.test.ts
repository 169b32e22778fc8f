import { afterEach, describe, expect, it } from "vitest";
import { Platform } from "../src/platform.js";
import { Harness, cities, cleanup, tempDir, CITIES_PUBLISH } from "./helpers.js";

afterEach(cleanup);

/** A fresh store with the cities benchmark (6 rows) published on it. */
async function publishedCities(dir = tempDir()): Promise<{ a: Harness; slug: string }> {
  const a = new Harness(await Platform.open({ dir }));
  const ds = await a.createDataset(cities(6));
  const { slug } = await a.publish(ds.dataset_id, CITIES_PUBLISH);
  return { a, slug };
}

describe("the leaderboard is cached and invalidated on finalize (issue 13 item 9)", () => {
  it("repeated reads reuse one board; a finalize in this or another process invalidates it", async () => {
    const dir = tempDir();
    const { a, slug } = await publishedCities(dir);
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

describe("leaderboard pages (issue 13 item 9: 10,000 rows are not one response)", () => {
  it("cuts pages from the cached board, keeps them until it changes, and refuses a bad page naming the field", async () => {
    const { a, slug } = await publishedCities();
    for (const agent of ["alice", "bob", "carol"]) await a.play(slug, agent);
    const whole = await a.real.leaderboard(slug);
    const first = await a.real.leaderboard(slug, { page: { offset: 0, limit: 2 } });
    expect(first).toMatchObject({
      slug,
      board: "public",
      total_rows: 3,
      offset: 0,
      limit: 2,
      next_offset: 2,
    });
    expect(first.rows).toEqual(whole.rows.slice(0, 2));
    expect(await a.real.leaderboard(slug, { page: { offset: 0, limit: 2 } })).toBe(first); // cached
    const last = await a.real.leaderboard(slug, { page: { offset: 2, limit: 2 } });
    expect(last).toMatchObject({ total_rows: 3, offset: 2, next_offset: null });
    expect(last.rows.map((r) => r.rank)).toEqual([3]);
    await a.play(slug, "dave");
    const after = await a.real.leaderboard(slug, { page: { offset: 0, limit: 2 } });
    expect(after).not.toBe(first);
    expect(after.total_rows).toBe(4);
    for (const [page, field] of [
      [{ offset: -1, limit: 2 }, "offset"],
      [{ offset: 1.5, limit: 2 }, "offset"],
      [{ offset: 0, limit: 0 }, "limit"],
      [{ offset: 0, limit: 10_001 }, "limit"],
    ] as const) {
      const e = await a.real.leaderboard(slug, { page }).catch((x: unknown) => x);
      expect(e).toMatchObject({ code: "invalid_option", details: { field } });
    }
    await a.close();
  });

  it("a board's concurrent readers after a finalize share one build", async () => {
    const { a, slug } = await publishedCities();
    await a.play(slug, "alice");
    const boards = await Promise.all(Array.from({ length: 5 }, () => a.leaderboard(slug)));
    for (const b of boards) expect(b).toBe(boards[0]);
    await a.close();
  });
});

// probe21 A-F6: a reader appending pages could not tell that the board moved between two reads
describe("every page names its board's version, so a reader can tell that two pages are of one board", () => {
  it("pages of one board carry the same board_version; a finalize or the close moves it", async () => {
    const { a, slug } = await publishedCities();
    for (const agent of ["alice", "bob", "carol"]) await a.play(slug, agent);
    const page = (offset: number) => a.real.leaderboard(slug, { page: { offset, limit: 2 } });
    const first = await page(0);
    expect(typeof first.board_version).toBe("string");
    expect((await page(2)).board_version).toBe(first.board_version);
    await a.play(slug, "dave");
    const moved = await page(2);
    expect(moved.board_version).not.toBe(first.board_version);
    await a.closeBenchmark(slug);
    const closed = await page(0);
    expect(closed.board).toBe("final");
    expect(closed.board_version).not.toBe(moved.board_version);
    await a.close();
  });
});
