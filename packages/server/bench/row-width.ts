/**
 * probe30 B-F5, measured (not a test): what a dataset body of wide rows costs the dataset worker's job
 * (`checkDatasetBytes`: strict parse, body schema, the platform's row checks), before and after rows'
 * objects were bounded (`MAX_ROW_OBJECT_MEMBERS`), in one run.
 *
 *   cd packages/server && node --import tsx bench/row-width.ts [MEMBERS] [ROWS]
 *
 * Bodies (default: the probe's 40,000 members x 25 rows, 10.7 MB, which held the worker 33 s):
 * - `before`: the wide body through the job as it was: the parse without a member bound
 *   (`DATASET_BODY` with `maxMembers: Infinity`), then every row walked by the platform's checks; the
 *   platform now refuses such a row at its first check, so the figure is the job's cost up to there
 *   plus the row walks the old job did (the text, limit, depth, number checks and the hash of every
 *   row, measured on the same parsed rows);
 * - `after`: the same body through today's job (413 at `$.rows[0].payload`, the parser stopped there);
 * - `at the limit`: the same number of cells as rows of `MAX_ROW_OBJECT_MEMBERS` members, validated
 *   in full (what an accepted body of that many cells costs now).
 * Timings in ms of one run each, on this machine (shared, so only rough).
 */
import { canonicalHash, valueLimitProblems } from "@bench-bounty/evidence";
import { MAX_ROW_OBJECT_MEMBERS, checkDataset, toJsonValue } from "@bench-bounty/platform";
import { DATASET_BODY } from "../src/body-limits.js";
import { checkDatasetBytes } from "../src/dataset-check.js";
import { strictParse, validateBody } from "../src/route.js";
import { DatasetBody } from "../src/schemas.js";

const members = Number(process.argv[2] ?? "40000");
const rows = Number(process.argv[3] ?? "25");

/** A dataset body of `n` rows whose payload has `m` members `"c<i>":1`. */
function body(m: number, n: number): Uint8Array {
  const payload = Array.from({ length: m }, (_, i) => `"c${i}":1`).join(",");
  const row = (r: number) =>
    `{"decision_ts":"2020-01-01T${String(Math.floor(r / 60) % 24).padStart(2, "0")}:${String(r % 60).padStart(2, "0")}:00Z","payload":{${payload}},"label":"a"}`;
  return new TextEncoder().encode(
    `{"name":"wide","rows":[${Array.from({ length: n }, (_, r) => row(r)).join(",")}]}`,
  );
}

function timed<T>(f: () => T): [number, T] {
  const t = performance.now();
  const v = f();
  return [performance.now() - t, v];
}

const wide = body(members, rows);
// before: the parse unbounded in members, the platform's first checks, and the row walks of the old job
const [beforeMs] = timed(() => {
  const doc = validateBody(DatasetBody, strictParse(wide, { ...DATASET_BODY, maxMembers: Infinity })) as {
    rows: unknown[];
  };
  checkDataset(doc);
  for (const r of doc.rows) {
    valueLimitProblems(r, { path: "" });
    canonicalHash(toJsonValue(r));
  }
  return doc;
});
const [afterMs, afterAnswer] = timed(() => {
  try {
    return JSON.stringify(checkDatasetBytes(wide)).slice(0, 80);
  } catch (e) {
    return `${(e as { code?: string }).code}: ${(e as Error).message.slice(0, 100)}`;
  }
});
const cells = members * rows;
const atRows = Math.max(1, Math.round(cells / MAX_ROW_OBJECT_MEMBERS));
const atLimit = body(MAX_ROW_OBJECT_MEMBERS, Math.min(atRows, 1_440));
const [limitMs, limitReport] = timed(() => checkDatasetBytes(atLimit) as { ok: boolean });

console.log(`${members} members x ${rows} rows (${wide.byteLength} bytes):`);
console.log(`  before (unbounded members): ${beforeMs.toFixed(0)} ms`);
console.log(
  `  after  (MAX_ROW_OBJECT_MEMBERS ${MAX_ROW_OBJECT_MEMBERS}): ${afterMs.toFixed(0)} ms -> ${afterAnswer}`,
);
console.log(
  `  at the limit: ${MAX_ROW_OBJECT_MEMBERS} members x ${Math.min(atRows, 1_440)} rows (${atLimit.byteLength} bytes), validated in full: ${limitMs.toFixed(0)} ms, ok ${limitReport.ok}`,
);
