/**
 * The SQLite store's group commit (`src/store/wal-sync.ts`): a transaction and an autocommit write
 * return only once an fsync of the WAL after their commit finished, and concurrent transactions share
 * fsyncs. (A kill -9 in the middle of finalize is `crash.test.ts`.)
 */
import { afterEach, describe, expect, it } from "vitest";
import { Store } from "../src/store.js";
import { cleanup, tempDir } from "./helpers.js";

afterEach(cleanup);

describe("group commit on SQLite", () => {
  it("acknowledges each commit once on disk; 40 concurrent transactions share fsyncs", async () => {
    const store = await Store.open({ dir: tempDir() });
    expect(store.walStats()!.written).toBe(store.walStats()!.durable); // the migrations' commits
    const before = store.walStats()!;
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        store
          .tx(async (t) => {
            await t.benchmarks.bumpBoard(`slug-${i}`);
            // each transaction's own return already waited for an fsync after its commit
            return i;
          })
          .then(() => {
            const s = store.walStats()!;
            expect(s.durable).toBeGreaterThanOrEqual(before.written + 1);
          }),
      ),
    );
    const after = store.walStats()!;
    expect(after.written - before.written).toBe(40);
    expect(after.durable).toBe(after.written);
    expect(after.syncs - before.syncs).toBeGreaterThanOrEqual(1);
    expect(after.syncs - before.syncs).toBeLessThan(40);
    // an autocommit write (outside a transaction) returns once on disk too
    await store.benchmarks.bumpBoard("no-such-slug");
    const auto = store.walStats()!;
    expect(auto.written).toBe(after.written + 1);
    expect(auto.durable).toBe(auto.written);
    // reads write nothing
    await store.benchmarks.get("no-such-slug");
    expect(store.walStats()!.written).toBe(auto.written);
    await store.close();
  });
});
