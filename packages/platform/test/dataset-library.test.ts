/**
 * An author's stored datasets (the dataset quota left them no way to free space): the owner lists
 * them with their bytes and deletes one never published, in the library and the CLI; nobody else can,
 * and a published one stays. On PostgreSQL a deletion and a publication of one dataset take turns on
 * its row: one of the two is refused cleanly, never a benchmark without its dataset nor a foreign-key
 * error.
 */
import pg from "pg";
import { MAX_DATASETS_PER_ACCOUNT } from "../src/publish.js";
import { DELETE_CHUNK } from "../src/store/datasets.js";
import { afterEach, describe, expect, it } from "vitest";
import {
  CITIES_PUBLISH,
  cities,
  cleanup,
  cliAccount,
  freshPostgresTarget,
  openAt,
  openTemp,
  rejection,
  runCli,
  tempDir,
  TEST_ENGINE,
  waitForLockWaiters,
} from "./helpers.js";

afterEach(cleanup);

describe("the owner's datasets", () => {
  it("lists them with their bytes and the benchmark of each; deletes one never published, freeing its bytes", async () => {
    const h = await openTemp({ datasetBytesPerAccount: 1_000_000 });
    try {
      const p = h.real;
      const ann = await p.authenticate((await p.createAccount({ name: "ann" })).api_key);
      const bob = await p.authenticate((await p.createAccount({ name: "bob" })).api_key);
      const kept = await p.createDataset(ann, cities(4, "kept"));
      const spare = await p.createDataset(ann, cities(3, "spare"));
      const { slug } = await p.publish(ann, kept.dataset_id, CITIES_PUBLISH);
      const mine = await p.myDatasets(ann);
      expect(mine.limit_bytes).toBe(1_000_000);
      expect(mine.datasets.map((d) => [d.dataset_id, d.benchmark]).sort()).toEqual(
        [
          [kept.dataset_id, slug],
          [spare.dataset_id, null],
        ].sort(),
      );
      expect(mine.used_bytes).toBe(mine.datasets.reduce((n, d) => n + d.stored_bytes, 0));
      expect(mine.used_bytes).toBeGreaterThan(0);
      // bob sees none of them and deletes none
      expect(await p.myDatasets(bob)).toEqual({ datasets: [], used_bytes: 0, limit_bytes: 1_000_000 });
      expect((await rejection(p.deleteDataset(bob, spare.dataset_id))).details).toMatchObject({
        rule: "dataset_owner_only",
      });
      // the published one stays
      const published = await rejection(p.deleteDataset(ann, kept.dataset_id));
      expect(published).toMatchObject({ code: "dataset_published", details: { slug } });
      const spareBytes = mine.datasets.find((d) => d.dataset_id === spare.dataset_id)!.stored_bytes;
      expect(await p.deleteDataset(ann, spare.dataset_id)).toEqual({
        dataset_id: spare.dataset_id,
        freed_bytes: spareBytes,
      });
      const after = await p.myDatasets(ann);
      expect(after.datasets.map((d) => d.dataset_id)).toEqual([kept.dataset_id]);
      expect(after.used_bytes).toBe(mine.used_bytes - spareBytes);
      expect(await h.ctx.store.datasets.rows(spare.dataset_id)).toEqual([]);
      expect((await rejection(p.deleteDataset(ann, spare.dataset_id))).code).toBe("unknown_dataset");
      // the operator owns no quota bound
      expect((await p.myDatasets(await p.localOperator())).limit_bytes).toBeNull();
    } finally {
      await h.close();
    }
  });

  it("the CLI lists and deletes with the caller's key; another key is refused naming the rule", async () => {
    const store = tempDir();
    const annKey = await cliAccount(store, "ann");
    const bobKey = await cliAccount(store, "bob");
    const h = await openAt({ dir: store });
    const ds = await h.real.createDataset(await h.real.authenticate(annKey), cities(3, "cli"));
    await h.close();
    const list = await runCli("datasets", "--store", store, "--api-key", annKey);
    expect(list.code, list.err).toBe(0);
    expect(JSON.parse(list.out).datasets).toMatchObject([{ dataset_id: ds.dataset_id, benchmark: null }]);
    const theirs = await runCli("delete-dataset", ds.dataset_id, "--store", store, "--api-key", bobKey);
    expect(theirs.code).not.toBe(0);
    expect(theirs.err).toContain("dataset_owner_only");
    expect(theirs.err).not.toMatch(/\n\s+at /);
    const del = await runCli("delete-dataset", ds.dataset_id, "--store", store, "--api-key", annKey);
    expect(del.code, del.err).toBe(0);
    expect(JSON.parse(del.out)).toMatchObject({ dataset_id: ds.dataset_id });
    const empty = await runCli("datasets", "--store", store, "--api-key", annKey);
    expect(JSON.parse(empty.out).datasets).toEqual([]);
  });
});

describe("datasets per account (probe13 C11: 3,616 in 30 s, a list without bound)", () => {
  it("an account keeps at most MAX_DATASETS_PER_ACCOUNT; deleting one makes room", async () => {
    const h = await openTemp();
    try {
      const p = h.real;
      const ann = await p.authenticate((await p.createAccount({ name: "ann" })).api_key);
      await h.ctx.store.tx(async (t) => {
        for (let i = 0; i < MAX_DATASETS_PER_ACCOUNT; i++)
          await t.datasets.insertIfAbsent(
            {
              dataset_id: `ds-filler-${i}`,
              owner_account_id: ann.account_id,
              name: `filler-${i}`,
              description: null,
              label_policy: null,
              options_json: "{}",
              content_hash: `0x${"00".repeat(32)}`,
              row_count: 0,
              created_at: "2026-12-01T00:00:00.000Z",
              stored_bytes: 0,
            },
            [],
          );
      });
      const refused = await rejection(p.createDataset(ann, cities(3, "one-too-many")));
      expect(refused).toMatchObject({
        code: "dataset_quota_exceeded",
        details: { limit: "datasets_per_account", limit_count: MAX_DATASETS_PER_ACCOUNT },
      });
      await p.deleteDataset(ann, "ds-filler-0");
      expect((await p.createDataset(ann, cities(3, "one-too-many"))).row_count).toBe(3);
    } finally {
      await h.close();
    }
  });
});

describe.runIf(TEST_ENGINE === "postgres")("a deletion racing a publication (PostgreSQL)", () => {
  it("one of the two is refused with its code; the state is the other's", async () => {
    const target = await freshPostgresTarget();
    const h = await openTemp({ database: target });
    const holder = new pg.Client({ connectionString: target.url });
    await holder.connect();
    try {
      const p = h.real;
      const ann = await p.authenticate((await p.createAccount({ name: "ann" })).api_key);
      const ds = await p.createDataset(ann, cities(4, "race"));
      await holder.query(`SET search_path TO ${target.schema}`);
      await holder.query("BEGIN");
      await holder.query("SELECT dataset_id FROM datasets WHERE dataset_id = $1 FOR UPDATE", [ds.dataset_id]);
      const settled = Promise.allSettled([
        p.deleteDataset(ann, ds.dataset_id),
        p.publish(ann, ds.dataset_id, CITIES_PUBLISH),
      ]);
      try {
        await waitForLockWaiters(holder, 2);
      } finally {
        await holder.query("COMMIT");
      }
      const [deleted, published] = await settled;
      expect([deleted.status, published.status].sort()).toEqual(["fulfilled", "rejected"]);
      const stored = await h.ctx.store.datasets.get(ds.dataset_id);
      const slug = await h.ctx.store.benchmarks.slugOfDataset(ds.dataset_id);
      if (deleted.status === "fulfilled") {
        expect(published).toMatchObject({ reason: { code: "unknown_dataset" } });
        expect({ stored, slug }).toEqual({ stored: null, slug: null });
      } else {
        expect(deleted).toMatchObject({ reason: { code: "dataset_published" } });
        expect(stored?.dataset_id).toBe(ds.dataset_id);
        expect(slug).not.toBeNull();
      }
    } finally {
      await holder.end();
      await h.close();
    }
  });
});

describe("deleting a large dataset (probeD1 F16)", () => {
  it("removes its rows in chunks, yielding between; readers see the dataset gone at once, never half there", async () => {
    const h = await openTemp();
    try {
      const p = h.real;
      const ann = await p.authenticate((await p.createAccount({ name: "ann-big" })).api_key);
      const rowCount = 5 * DELETE_CHUNK + 17;
      const big = await p.createDataset(ann, cities(rowCount, "big"));
      const bytes = (await p.myDatasets(ann)).used_bytes;
      // what a reader sees after each chunk's transaction, and the event loop's turns by then (a ticker
      // on every turn): read in the deletion's own await, so every chunk is seen whatever the load (a
      // free-running poller could miss them all on a busy machine: CI29)
      const seen: { dataset: boolean; listed: boolean; rows: number; ticks: number }[] = [];
      let ticks = 0;
      let deleting = true;
      const ticker = async (): Promise<void> => {
        while (deleting) {
          await new Promise((r) => setImmediate(r));
          ticks++;
        }
      };
      const ticking = ticker();
      const store = h.ctx.store;
      const tx = store.tx.bind(store);
      store.tx = (async (fn: Parameters<typeof tx>[0], o?: Parameters<typeof tx>[1]) => {
        const out = await tx(fn, o);
        if (deleting)
          seen.push({
            dataset: (await store.datasets.get(big.dataset_id)) !== null,
            listed: (await p.myDatasets(ann)).datasets.length > 0,
            rows: (await store.datasets.rows(big.dataset_id)).length,
            ticks,
          });
        return out;
      }) as typeof store.tx;
      const deleted = await p.deleteDataset(ann, big.dataset_id).finally(() => {
        store.tx = tx;
        deleting = false;
      });
      await ticking;
      expect(deleted).toEqual({ dataset_id: big.dataset_id, freed_bytes: bytes });
      // chunk by chunk: rows remained after some, and the dataset was gone to readers meanwhile
      const midway = seen.filter((s) => s.rows > 0 && s.rows < rowCount);
      expect(midway.length).toBeGreaterThanOrEqual(4);
      for (const s of midway) expect(s).toMatchObject({ dataset: false, listed: false });
      // the event loop turned between two chunks
      for (let i = 1; i < midway.length; i++) expect(midway[i]!.ticks).toBeGreaterThan(midway[i - 1]!.ticks);
      // never a dataset served with fewer rows than it has
      for (const s of seen) if (s.dataset) expect(s.rows).toBe(rowCount);
      expect(await h.ctx.store.datasets.rows(big.dataset_id)).toEqual([]);
      expect((await p.myDatasets(ann)).used_bytes).toBe(0);
      // uploaded again: a new dataset of the same id, whole
      expect((await p.createDataset(ann, cities(rowCount, "big"))).row_count).toBe(rowCount);
      expect((await h.ctx.store.datasets.rows(big.dataset_id)).length).toBe(rowCount);
    } finally {
      await h.close();
    }
  });

  it("a deletion cut short is finished when the platform opens again", async () => {
    const dir = tempDir();
    const first = await openAt({ dir });
    const ann = await first.real.authenticate((await first.real.createAccount({ name: "ann-cut" })).api_key);
    const ds = await first.real.createDataset(ann, cities(3 * DELETE_CHUNK, "cut"));
    await first.ctx.store.tx((t) => t.datasets.markDeleted(ds.dataset_id, "2026-12-01T00:00:00.000Z"));
    await first.ctx.store.tx((t) => t.datasets.removeRows(ds.dataset_id, 0, DELETE_CHUNK));
    expect((await first.ctx.store.datasets.rows(ds.dataset_id)).length).toBe(2 * DELETE_CHUNK);
    await first.close();
    const again = await openAt({ dir });
    try {
      expect(await again.ctx.store.datasets.rows(ds.dataset_id)).toEqual([]);
      expect(await again.ctx.store.datasets.deleting()).toEqual([]);
    } finally {
      await again.close();
    }
  });
});
