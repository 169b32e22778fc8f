/**
 * probe30 A-F10: `serve` stopped (SIGTERM) while a request's upload inserted its rows closed the store
 * under it: the next slice failed "driver has already been destroyed" (an unexpected error, its stack
 * in the log), the client got no answer, and the pending dataset stayed behind (counted by the quota;
 * after an immediate restart every re-upload of it was 503 "another request is storing this same
 * dataset"). A stop (`Platform.stopUploads`, and `Platform.close`) now ends each upload in flight at its
 * next slice: its pending dataset is marked deleted and its rows removed while the store is still open,
 * the upload is refused `server_busy` (`details.stopping`), and only then is the store closed; an
 * upload begun after the stop is refused with nothing written.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { planPublication } from "../src/publish/plan.js";
import { preparedDataset } from "../src/testing.js";
import {
  cleanup,
  freshStoreLocation,
  openAt,
  rejection,
  storedDatasetCounts as stored,
  type Harness,
} from "./helpers.js";

afterEach(cleanup);

/** A prepared dataset of `n` rows of about 450 bytes. */
const bigDataset = (name: string, n: number) =>
  preparedDataset(name, n, (i) => JSON.stringify({ q: `q${i}`, p: "x".repeat(400) }));

/** Resolves once some of the upload's rows, not all, are in (`total` rows in all). */
async function someRowsIn(h: Harness, total: number): Promise<void> {
  for (;;) {
    const { rows } = await stored(h);
    if (rows > 0 && rows < total) return;
    if (rows >= total) throw new Error("the upload ended before it was stopped");
    await nextTurn();
  }
}

describe("a stop while a request's upload inserts its rows (probe30 A-F10)", () => {
  it("close ends the upload at its next slice: refused server_busy (stopping), nothing left behind, the store closed after", async () => {
    const where = await freshStoreLocation();
    const h = await openAt(where);
    const p = await h.principal("stopped-uploader");
    const big = bigDataset("stopped", 20_000); // 40 slices of 500 rows
    const up = rejection(h.real.storeDataset(p, big, { answerBy: Date.now() + 120_000 }));
    await someRowsIn(h, big.rows.length);
    await h.close();
    const e = await up;
    expect(e).toMatchObject({ code: "server_busy", details: { stopping: true, retry_after_seconds: 5 } });
    expect(e.message).toContain("this server is stopping");
    // nothing left behind: the next open finds no pending dataset, no row, and the quota free
    const after = await openAt(where);
    expect(await stored(after)).toEqual({ rows: 0, datasets: 0 });
    expect(await after.ctx.store.datasets.bytesOf(p.account_id)).toBe(0);
    // the same upload on the restarted platform is stored (not "another request is storing it")
    const again = await after.real.storeDataset(p, big, { answerBy: Date.now() + 120_000 });
    expect(await stored(after)).toEqual({ rows: 20_000, datasets: 1 });
    expect((await after.real.myDatasets(p)).datasets.map((d) => d.dataset_id)).toEqual([again.dataset_id]);
    await after.close();
  });

  it("stopUploads answers the upload in flight before the store closes; an upload begun after it is refused, nothing written", async () => {
    const where = await freshStoreLocation();
    const h = await openAt(where);
    const p = await h.principal("stopped-uploader-2");
    const big = bigDataset("stopped-2", 20_000);
    const up = rejection(h.real.storeDataset(p, big, { answerBy: Date.now() + 120_000 }));
    await someRowsIn(h, big.rows.length);
    const stopped = h.real.stopUploads();
    expect(await up).toMatchObject({ code: "server_busy", details: { stopping: true } });
    await stopped;
    // the store is still open: the upload cleaned up after itself
    expect(await stored(h)).toEqual({ rows: 0, datasets: 0 });
    expect(await h.ctx.store.datasets.bytesOf(p.account_id)).toBe(0);
    const late = await rejection(
      h.real.storeDataset(p, bigDataset("late", 10), { answerBy: Date.now() + 120_000 }),
    );
    expect(late).toMatchObject({ code: "server_busy", details: { stopping: true } });
    expect(await stored(h)).toEqual({ rows: 0, datasets: 0 });
    await h.close();
  });
});

/**
 * probe31 A-F6: a request's publish (`publish` with `answerBy`) was not counted by the stop: `close`
 * closed the store while the publish's planning ran (serve: in its dataset worker), and the publish's
 * next read failed "The database connection is not open" (an unexpected error; the client got no
 * answer). Now `close` waits for the publish in flight, which writes nothing after its planning and is
 * refused `server_busy` (`details.stopping`); a publish begun after the stop is refused before it reads.
 */
describe("a stop while a request's publish is planned (probe31 A-F6)", () => {
  const OPTIONS = { title: "stopped", prompt_template: "Q {payload.q}", grader_type: "exact" } as const;
  const rows = (name: string) =>
    preparedDataset(name, 50, (i) =>
      JSON.stringify({ decision_ts: "2026-01-01", payload: { q: `q${i}` }, label: `l${i % 3}` }),
    );

  it("close waits for the publish: refused server_busy (stopping) after its planning, nothing published, the store closed after", async () => {
    const where = await freshStoreLocation();
    const h = await openAt(where);
    const p = await h.principal("stopped-publisher");
    const ds = await h.real.storeDataset(p, rows("to-publish"), {});
    let inPlanner!: () => void;
    const planning = new Promise<void>((r) => (inPlanner = r));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const pub = rejection(
      h.real.publish(p, ds.dataset_id, OPTIONS, {
        answerBy: Date.now() + 120_000,
        planner: async (job) => {
          inPlanner();
          await released;
          return planPublication(job);
        },
      }),
    );
    await planning;
    let closed = false;
    const closing = h.close().then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 100));
    expect(closed).toBe(false); // the store stays open for the publish
    release();
    const e = await pub;
    expect(e).toMatchObject({ code: "server_busy", details: { stopping: true, retry_after_seconds: 5 } });
    expect(e.message).toContain("this server is stopping: the benchmark was not published");
    await closing;
    // nothing was published: the restarted platform publishes the same dataset
    const after = await openAt(where);
    expect((await after.real.benchmarkList()).rows).toHaveLength(0);
    const again = await after.real.publish(p, ds.dataset_id, OPTIONS, { answerBy: Date.now() + 120_000 });
    expect(again.status).toBe("published");
    await after.close();
  });

  it("a publish begun after stopUploads is refused (stopping) before it reads anything", async () => {
    const h = await openAt(await freshStoreLocation());
    const p = await h.principal("late-publisher");
    const ds = await h.real.storeDataset(p, rows("late"), {});
    await h.real.stopUploads();
    let planned = false;
    const e = await rejection(
      h.real.publish(p, ds.dataset_id, OPTIONS, {
        answerBy: Date.now() + 120_000,
        planner: async (job) => {
          planned = true;
          return planPublication(job);
        },
      }),
    );
    expect(e).toMatchObject({ code: "server_busy", details: { stopping: true } });
    expect(planned).toBe(false);
    expect((await h.real.benchmarkList()).rows).toHaveLength(0);
    await h.close();
  });
});
