/**
 * `bench:publish`: how long a large publish holds the event loop (a script that prints figures, not a
 * timed test). The server plans a publication (parse, render and hash the rows: the platform's
 * `planPublication`) in its dataset worker thread; the baseline, in the same run, is the same publish
 * planned inline, on the event loop, as before.
 *
 * For each: the publish's duration and the event loop's worst delay meanwhile
 * (the longest gap between the ticks of a 10 ms timer): what every other request of `serve` waited
 * at most. Two datasets of the same rows (SQLite in a temporary directory). `--repeat N`: the template
 * renders the city N times (probe17 A-F6: 5,000 rows, a ~100 MB test set, held the loop 6.7 s while its
 * tasks were inserted).
 * Usage (repository root): `npx pnpm@12.4.2 --filter @bench-bounty/server bench:publish [--rows 50000] [--repeat 1]`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Platform, type PublishHow } from "@bench-bounty/platform";
import { DatasetChecker } from "../src/dataset-check.js";

const arg = (name: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
const ROWS = Number(arg("--rows")) || 50_000;
const REPEAT = Number(arg("--repeat")) || 1;
const OPTIONS = {
  title: "Publish bench",
  prompt_template: `What is the answer for ${"{payload.city} ".repeat(REPEAT)}#{payload.index}?`,
  grader_type: "exact" as const,
  // a run serves 100 public tasks and the private ones (the pack budget of 50,000-task runs would leave
  // no answer bytes)
  public_fraction: "0.95",
  public_tasks_per_run: 100,
};

const dataset = (name: string) => ({
  name,
  rows: Array.from({ length: ROWS }, (_, i) => ({
    decision_ts: "2026-01-01T00:00:00Z",
    payload: { city: `city-${i}-${"p".repeat(200)}`, index: i },
    label: `answer-${i}`,
  })),
});

const dir = mkdtempSync(join(tmpdir(), "bb-bench-publish-"));
const platform = await Platform.open({ dir, datasetBytesPerAccount: null, datasetBytesAllAccounts: null });
const checker = new DatasetChecker();
try {
  const { api_key } = await platform.createAccount({ name: "bench-author" });
  const author = await platform.authenticate(api_key);
  const measure = async (label: string, how: PublishHow) => {
    const ds = await platform.createDataset(author, dataset(label));
    // a 10 ms timer: the longest gap between its ticks is the longest the event loop was held
    let last = performance.now();
    let worst = 0;
    const tick = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
    }, 10);
    const t = performance.now();
    await platform.publish(author, ds.dataset_id, { ...OPTIONS, title: label }, how);
    const ms = performance.now() - t;
    clearInterval(tick);
    worst = Math.max(worst, performance.now() - last);
    console.log(
      `${label}: publish ${ms.toFixed(0)} ms; event loop held at most ${worst.toFixed(0)} ms at a time`,
    );
  };
  console.log(`rows: ${ROWS}, the city rendered ${REPEAT} time(s) per prompt`);
  await measure("baseline-inline", {});
  await measure("worker", { planner: (job) => checker.plan(job, author.account_id) });
} finally {
  await checker.close();
  await platform.close();
  rmSync(dir, { recursive: true, force: true });
}
