/**
 * Benchmark (probe29 A-F3): the worst latency of a keyed read (`authenticate`: the key is read from
 * `api_keys`) polled by another account while one account uploads a large dataset into a SQLite store.
 * A request's upload (`storeDataset` with `answerBy`) inserts its rows in transactions of their own,
 * the store free between two; the baseline, measured in the same run on the same store, is the same
 * upload in one transaction (`storeDataset` without `answerBy`, as the CLI stores), which held the
 * store's one connection for the whole insert.
 *
 *   npx pnpm@12.4.2 --filter @bench-bounty/platform bench:upload
 *   ROWS=100000 PAD=560 ... (defaults: 100,000 rows of about 620 bytes, the probe's 63 MB; SQLite)
 */
import { rmSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Platform } from "../src/platform.js";
import { datasetBytes } from "../src/publish.js";
import { preparedDataset } from "../src/testing.js";

const ROWS = Number(process.env.ROWS ?? 100_000);
const PAD = "x".repeat(Number(process.env.PAD ?? 560));

/** A prepared dataset of ROWS rows of about PAD bytes each, as the CLI's validation would store them. */
const dataset = (name: string) =>
  preparedDataset(name, ROWS, (i) =>
    JSON.stringify({ decision_ts: "2026-01-01", payload: { q: `q${i}`, p: PAD }, label: `L${i}` }),
  );

const dir = mkdtempSync(join(tmpdir(), "bb-bench-upload-"));
const platform = await Platform.open({ dir, datasetBytesPerAccount: null });
try {
  const uploader = await platform.authenticate((await platform.createAccount({ name: "bench-uploader" })).api_key);
  const { api_key } = await platform.createAccount({ name: "bench-reader" });

  /** Runs `upload` while reading the key every 5 ms; the reads' count and worst latency (ms). */
  async function measure(
    upload: () => Promise<unknown>,
  ): Promise<{ uploadMs: number; reads: number; worstMs: number; worstAtMs: number }> {
    let done = false;
    let reads = 0;
    let worstMs = 0;
    let worstAtMs = 0;
    const t0 = performance.now();
    const poll = (async () => {
      while (!done) {
        const t = performance.now();
        await platform.authenticate(api_key);
        if (performance.now() - t > worstMs) [worstMs, worstAtMs] = [performance.now() - t, t - t0];
        reads++;
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    await upload();
    const uploadMs = performance.now() - t0;
    done = true;
    await poll;
    return { uploadMs, reads, worstMs, worstAtMs };
  }

  const one = dataset("one-transaction");
  console.log(`${ROWS} rows, ${(datasetBytes(one) / 1e6).toFixed(1)} MB per upload (SQLite ${dir})`);
  const fmt = (r: { uploadMs: number; reads: number; worstMs: number; worstAtMs: number }) =>
    `upload ${(r.uploadMs / 1000).toFixed(2)} s, ${r.reads} keyed reads, worst ${r.worstMs.toFixed(0)} ms ` +
    `(begun ${(r.worstAtMs / 1000).toFixed(2)} s in)`;
  const before = await measure(() => platform.storeDataset(uploader, one));
  console.log(`baseline, one transaction (no answerBy): ${fmt(before)}`);
  const sliced = dataset("sliced"); // built before the reads begin: 100,000 rows take a while
  const after = await measure(() => platform.storeDataset(uploader, sliced, { answerBy: Date.now() + 600_000 }));
  console.log(`a request's upload, slices of their own:  ${fmt(after)}`);
} finally {
  await platform.close();
  rmSync(dir, { recursive: true, force: true });
}
