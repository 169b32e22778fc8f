/**
 * probe29 A-F3: a request's upload inserted all its rows in one transaction, which on SQLite kept the
 * store's one connection for the whole insert (a 63 MB, 100,000-row upload: every keyed request waited
 * 2.8-5.9 s). A request's upload (`storeDataset` with `answerBy`) now reserves its dataset, marked
 * pending, in one short transaction, inserts its rows in short transactions of their own, and makes it
 * visible in one more: the store answers others between two, a pending dataset is invisible to every
 * read yet counted by the quota, and a failure, or a process dying, leaves nothing behind.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { PENDING_UPLOAD_GRACE_MS } from "../src/publish.js";
import { preparedDataset } from "../src/testing.js";
import {
  cleanup,
  freshStoreLocation,
  openAt,
  openTemp,
  rejection,
  storedDatasetCounts as stored,
} from "./helpers.js";

afterEach(cleanup);

/** A prepared dataset of `n` rows of about 450 bytes; row `nulAt` holds a raw NUL (JSON.stringify would escape it). */
function bigDataset(name: string, n: number, nulAt = -1): ReturnType<typeof preparedDataset> {
  const pad = "x".repeat(400);
  return preparedDataset(name, n, (i) =>
    i === nulAt ? `{"p":"\u0000"}` : JSON.stringify({ q: `q${i}`, p: pad }),
  );
}

describe("a request's upload inserts its rows in transactions of their own (probe29 A-F3)", () => {
  it("the store answers between two slices; the dataset is invisible until all its rows are in, counted by the quota meanwhile", async () => {
    const h = await openTemp();
    const p = await h.principal("big-uploader");
    const big = bigDataset("big", 6000); // 12 slices of 500 rows
    let settled = false;
    const up = h.real.storeDataset(p, big, { answerBy: Date.now() + 120_000 });
    void up.then(
      () => (settled = true),
      () => (settled = true),
    );
    // poll the store as another request would: a read answered while the rows go in
    let during: { bytes: number; listed: number; rows: number } | undefined;
    while (!settled) {
      const bytes = await h.ctx.store.datasets.bytesOf(p.account_id);
      if (bytes > 0) {
        const listed = (await h.real.myDatasets(p)).datasets.length;
        const { rows } = await stored(h);
        if (rows < big.rows.length) {
          during = { bytes, listed, rows };
          break;
        }
      }
      await nextTurn();
    }
    // seen half inserted: counted by the quota, listed nowhere
    expect(during).toBeDefined();
    expect(during!.listed).toBe(0);
    const d = await up;
    expect(await h.ctx.store.datasets.get(d.dataset_id)).toMatchObject({ row_count: 6000 });
    expect((await h.real.myDatasets(p)).datasets.map((x) => x.dataset_id)).toEqual([d.dataset_id]);
    expect((await h.ctx.store.datasets.rows(d.dataset_id)).length).toBe(6000);
    // the same upload again: the same dataset, not counted twice
    expect((await h.real.storeDataset(p, big, { answerBy: Date.now() + 60_000 })).dataset_id).toBe(
      d.dataset_id,
    );
    expect(await stored(h)).toEqual({ rows: 6000, datasets: 1 });
    await h.close();
  });

  it("a failure half-way through the rows leaves nothing visible and nothing behind; the quota is free again", async () => {
    const h = await openTemp();
    const p = await h.principal("failing-uploader");
    // row 1,700 (the 4th slice) holds a NUL the store refuses: three slices are in when it fails
    const e = await rejection(
      h.real.storeDataset(p, bigDataset("half", 3000, 1700), { answerBy: Date.now() + 120_000 }),
    );
    expect(e).toMatchObject({ code: "invalid_text" });
    expect((await h.real.myDatasets(p)).datasets).toEqual([]);
    expect(await h.ctx.store.datasets.bytesOf(p.account_id)).toBe(0);
    expect(await h.ctx.store.datasets.countOf(p.account_id)).toBe(0);
    expect(await stored(h)).toEqual({ rows: 0, datasets: 0 });
    // the same rows without the NUL store
    const ok = await h.real.storeDataset(p, bigDataset("half", 3000), { answerBy: Date.now() + 120_000 });
    expect(await stored(h)).toEqual({ rows: 3000, datasets: 1 });
    expect((await h.real.myDatasets(p)).datasets.map((x) => x.dataset_id)).toEqual([ok.dataset_id]);
    await h.close();
  });

  it("an upload past the quota while another's rows are pending is refused: the pending one counts", async () => {
    const big = bigDataset("first", 3000);
    const bytes = big.rows.reduce((n, r) => n + Buffer.byteLength(r.body_json), 0);
    const h = await openTemp({ datasetBytesPerAccount: bytes + 100 });
    const p = await h.principal("quota-uploader");
    const first = h.real.storeDataset(p, big, { answerBy: Date.now() + 120_000 });
    while ((await h.ctx.store.datasets.bytesOf(p.account_id)) === 0) await nextTurn();
    const second = await rejection(
      h.real.storeDataset(p, bigDataset("second", 10), { answerBy: Date.now() + 120_000 }),
    );
    expect(second).toMatchObject({ code: "dataset_quota_exceeded", details: { used_bytes: bytes } });
    await first;
    expect(await stored(h)).toEqual({ rows: 3000, datasets: 1 });
    await h.close();
  });

  it("a pending dataset a dead process left is removed by the next open, its bytes freed", async () => {
    const where = await freshStoreLocation();
    const before = await openAt(where);
    const p = await before.principal("dead-uploader");
    const deadline = Date.now() - PENDING_UPLOAD_GRACE_MS - 1000;
    await before.ctx.store.tx((t) =>
      t.datasets.insertPending(
        {
          dataset_id: "ds-0123456789abcdef",
          owner_account_id: p.account_id,
          name: "dead",
          description: null,
          label_policy: null,
          options_json: "{}",
          content_hash: `0x${"cd".repeat(32)}`,
          row_count: 1200,
          created_at: new Date().toISOString(),
          stored_bytes: 5000,
        },
        deadline,
      ),
    );
    await before.ctx.store.tx((t) =>
      t.datasets.insertRowSlice(
        Array.from({ length: 700 }, (_, i) => ({
          dataset_id: "ds-0123456789abcdef",
          row_index: i,
          row_hash: `0x${i.toString(16).padStart(64, "0")}`,
          body_json: "{}",
        })),
      ),
    );
    // a live upload's (its deadline ahead) is kept
    await before.ctx.store.tx((t) =>
      t.datasets.insertPending(
        {
          dataset_id: "ds-fedcba9876543210",
          owner_account_id: p.account_id,
          name: "live",
          description: null,
          label_policy: null,
          options_json: "{}",
          content_hash: `0x${"ef".repeat(32)}`,
          row_count: 1,
          created_at: new Date().toISOString(),
          stored_bytes: 7,
        },
        Date.now() + 120_000,
      ),
    );
    expect(await before.ctx.store.datasets.bytesOf(p.account_id)).toBe(5007);
    await before.close();
    const after = await openAt(where);
    expect(await after.ctx.store.datasets.bytesOf(p.account_id)).toBe(7);
    expect(await stored(after)).toEqual({ rows: 0, datasets: 1 });
    expect(await after.ctx.store.datasets.get("ds-fedcba9876543210")).toBeNull();
    await after.close();
  });
});

describe("a pending dataset a dead process left is removed by the processes still running (probe30 A-F5)", () => {
  it("the next upload removes it: a re-upload of the same dataset is stored, not server_busy; used_bytes counts what the quota counts", async () => {
    const h = await openTemp();
    const p = await h.principal("crashed-uploader");
    const other = await h.principal("other-crashed-uploader");
    const big = bigDataset("crashed", 1200);
    const bytes = big.rows.reduce((n, r) => n + Buffer.byteLength(r.body_json), 0);
    // a live upload's pending row counts in used_bytes as in the quota, listed nowhere
    const live = h.real.storeDataset(other, bigDataset("live", 3000), { answerBy: Date.now() + 120_000 });
    while ((await h.ctx.store.datasets.bytesOf(other.account_id)) === 0) await nextTurn();
    const during = await h.real.myDatasets(other);
    expect(during.datasets).toEqual([]);
    expect(during.used_bytes).toBe(await h.ctx.store.datasets.bytesOf(other.account_id));
    expect(during.used_bytes).toBeGreaterThan(0);
    await live;
    // the state a process killed while inserting leaves: stored, then set back to pending with its
    // deadline past the grace and part of its rows gone
    const d = await h.real.storeDataset(p, big, { answerBy: Date.now() + 120_000 });
    await h.ctx.store.db
      .updateTable("datasets")
      .set({ pending_until: Date.now() - PENDING_UPLOAD_GRACE_MS - 1000 })
      .where("dataset_id", "=", d.dataset_id)
      .execute();
    await h.ctx.store.db
      .deleteFrom("dataset_rows")
      .where("row_index", ">=", 700)
      .where("dataset_id", "=", d.dataset_id)
      .execute();
    expect((await h.real.myDatasets(p)).used_bytes).toBe(bytes);
    // the running process: the same account uploads the same dataset again
    const again = await h.real.storeDataset(p, big, { answerBy: Date.now() + 120_000 });
    expect(again.dataset_id).toBe(d.dataset_id);
    expect((await h.ctx.store.datasets.rows(d.dataset_id)).length).toBe(1200);
    const mine = await h.real.myDatasets(p);
    expect(mine.datasets.map((x) => x.dataset_id)).toEqual([d.dataset_id]);
    expect(mine.used_bytes).toBe(bytes);
    await h.close();
  });

  it("another account's upload removes a stale pending dataset, rows included, and its bytes leave the quotas", async () => {
    const h = await openTemp();
    const p = await h.principal("dead-uploader-2");
    const q = await h.principal("next-uploader");
    const d = await h.real.storeDataset(p, bigDataset("dead2", 1200), { answerBy: Date.now() + 120_000 });
    await h.ctx.store.db
      .updateTable("datasets")
      .set({ pending_until: Date.now() - PENDING_UPLOAD_GRACE_MS - 1000 })
      .where("dataset_id", "=", d.dataset_id)
      .execute();
    expect(await h.ctx.store.datasets.bytesOf(p.account_id)).toBeGreaterThan(0);
    // CLI's path (no answerBy) too
    await h.real.storeDataset(q, bigDataset("next", 10));
    expect(await h.ctx.store.datasets.bytesOf(p.account_id)).toBe(0);
    expect(await stored(h)).toEqual({ rows: 10, datasets: 1 });
    await h.close();
  });
});
