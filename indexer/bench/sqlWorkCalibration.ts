/**
 * Calibration of `maxPlanWorkPglite` (README "Query limits"): runs statements of several kinds
 * straight on a standalone PGlite (no limit applied) and prints each one's plan rows, work
 * estimate (`workOf`), plan cost and CPU time, and the CPU time per work unit.
 * Usage: npx tsx bench/sqlWorkCalibration.ts (ONLY=name,name to pick some)
 */
import { PGlite } from "@electric-sql/pglite";
import { checkReadOnlySelect } from "../lib/sqlGuard";
import { rowsHandled, workOf } from "../src/api/sql";
const values = (n: number) => Array.from({ length: n }, (_, i) => `(${i})`).join(",");
const v = (n: number) => `WITH v(x) AS (VALUES ${values(n)})`;
const Q: Record<string, string> = {
  plain100: `${v(100)} SELECT count(*) FROM v a, v b, v c WHERE a.x + b.x + c.x = -1`,
  tochar9999: `${v(100)} SELECT count(*) FROM v a, v b, v c WHERE to_char(a.x + b.x + c.x, '9999') = 'x'`,
  tochar64_40: `${v(40)} SELECT count(*) FROM v a, v b, v c WHERE to_char(a.x + b.x + c.x, '${"9x".repeat(32)}') = 'x'`,
  tocharFM_40: `${v(40)} SELECT count(*) FROM v a, v b, v c WHERE to_char(to_timestamp(a.x + b.x + c.x), 'FMMonth FMDay YYYY-MM-DD HH24:MI:SS TZ FMDDth Q') = 'x'`,
  constants40: `${v(40)} SELECT count(*) AS c FROM v a, v b, v c WHERE ('${"y".repeat(250)}' || a.x || '${"y".repeat(250)}' || b.x) LIKE '%z${"y".repeat(200)}%'`,
  jsonNest30: `${v(100)} SELECT count(*) AS c FROM v a, v b WHERE ${"json_build_array(".repeat(30)}a.x + b.x${")".repeat(30)}::text = 'x'`,
  arrayAgg30: `${v(30)} SELECT cardinality(array_agg((a.x + b.x + c.x)::char(1000))) AS c FROM v a, v b, v c`,
  pad1000_30: `${v(30)} SELECT count(*) FROM v a, v b, v c WHERE (a.x + b.x + c.x)::char(1000) LIKE '%z%'`,
  lower_40: `${v(40)} SELECT count(*) FROM v a, v b, v c WHERE upper(lower(upper(lower((a.x + b.x + c.x)::char(250))))) LIKE '%z%'`,
};
const db = new PGlite();
await db.exec("SELECT 1");
for (const [name, sql] of Object.entries(Q)) {
  if (process.env.ONLY && !process.env.ONLY.split(",").includes(name)) continue;
  const shape = await checkReadOnlySelect(sql, new Map(), []).catch((e) => ({
    error: String(e.message).slice(0, 60),
  }));
  if ("error" in shape) {
    console.log(name, shape.error);
    continue;
  }
  const plan = ((await db.query(`EXPLAIN (FORMAT JSON) ${sql}`)).rows[0] as any)["QUERY PLAN"][0].Plan;
  const rows = rowsHandled(plan);
  const work = workOf(rows, shape);
  const c0 = process.cpuUsage();
  await db.query(sql);
  const c = process.cpuUsage(c0);
  const ms = (c.user + c.system) / 1000;
  console.log(
    `${name.padEnd(12)} rows ${Math.round(rows)} work ${Math.round(work)} cost ${plan["Total Cost"]} cpu ${Math.round(ms)} ms  ${((ms * 1000) / work).toFixed(3)} us/unit`,
  );
}
