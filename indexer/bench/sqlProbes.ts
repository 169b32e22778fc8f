/**
 * The one-query DoS probes of `/sql/db` (issue 13 item 2, re-probes h/probe3 and this fix's own
 * variants), each run once through the handler on a standalone PGlite (or PostgreSQL with
 * `--postgres URL` / env `TEST_DATABASE_URL`) in a child process of its own, killed after
 * `--timeout` seconds: prints status, wall time, the CPU time of the request (PGlite runs in the
 * child's own thread, so on PGlite this is the statement's work however loaded the machine is),
 * the child's peak RSS and the answer's code/limit.
 * Usage: npx tsx bench/sqlProbes.ts [--only name] [--timeout 40] [--postgres URL]
 */
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";

const values = (n: number) => Array.from({ length: n }, (_, i) => `(${i})`).join(",");
const v100 = `WITH v(x) AS (VALUES ${values(100)})`;

/** name → statement. */
export const PROBES: Record<string, string> = {
  // h/probe3 sql-tochar: 3,000-character format over 100^3 rows (20.9 s on the live indexer)
  tochar: `${v100} SELECT count(*) AS c FROM v a, v b, v c WHERE to_char(a.x + b.x + c.x, '${"9x".repeat(1500)}') = 'x'`,
  // the same with a format at the constant limit over 100^3 rows
  tocharShort: `${v100} SELECT count(*) AS c FROM v a, v b, v c WHERE to_char(a.x + b.x + c.x, '${"9x".repeat(128)}') = 'x'`,
  // a format at maxFormatChars (64) over 100^3 rows, and 40^3
  tochar64: `${v100} SELECT count(*) AS c FROM v a, v b, v c WHERE to_char(a.x + b.x + c.x, '${"9x".repeat(32)}') = 'x'`,
  tochar64small: `WITH v(x) AS (VALUES ${values(40)}) SELECT count(*) AS c FROM v a, v b, v c WHERE to_char(a.x + b.x + c.x, '${"9x".repeat(32)}') = 'x'`,
  // h/probe3 sql-pad-memory: array_agg of padded values (char(10485760) now refused: char(1000))
  arrayAggPad: `${v100} SELECT cardinality(array_agg((a.x + b.x + c.x)::char(1000))) AS c FROM v a, v b, v c`,
  stringAggPad: `${v100} SELECT length(string_agg((a.x + b.x + c.x)::char(1000), '')) AS c FROM v a, v b, v c`,
  jsonAggPad: `${v100} SELECT json_array_length(json_agg((a.x + b.x + c.x)::char(1000))) AS c FROM v a, v b, v c`,
  // four aggregates of 30^3 rows of 1,000 characters
  fourAggs: `WITH v(x) AS (VALUES ${values(30)}) SELECT ${[1, 2, 3, 4].map((k) => `cardinality(array_agg((a.x + b.x + c.x + ${k})::char(1000)))`).join(" + ")} AS c FROM v a, v b, v c`,
  // 40 rows of char(1000) answered (sql-pad-rows with the new maxTypeLength)
  padRows: `SELECT a.x::char(1000) AS padded FROM (VALUES ${values(40)}) a(x)`,
  // a long string constant concatenated and compared over rows
  longConstant: `${v100} SELECT count(*) AS c FROM v a, v b, v c WHERE ('${"y".repeat(4000)}' || a.x) LIKE '%z%'`,
  // strings at maxConstantChars over 40^3 rows
  constants40: `WITH v(x) AS (VALUES ${values(40)}) SELECT count(*) AS c FROM v a, v b, v c WHERE ('${"y".repeat(250)}' || a.x || '${"y".repeat(250)}' || b.x) LIKE '%z${"y".repeat(200)}%'`,
  // nested json_build_array over rows (per-row work grows with the nesting)
  jsonNest: `${v100} SELECT count(*) AS c FROM v a, v b WHERE ${"json_build_array(".repeat(60)}a.x + b.x${")".repeat(60)}::text = 'x'`,
  // to_timestamp with a long format, per row
  toTimestamp: `${v100} SELECT count(*) AS c FROM v a, v b, v c WHERE to_timestamp((a.x + b.x + c.x)::text, '${"FM9".repeat(600)}') IS NULL`,
  // a scalar subquery's string_agg scanned on every row of a join
  aggScan: `${v100} SELECT count(*) AS c FROM v a, v b WHERE strpos((SELECT string_agg(p.x::char(1000), '') FROM v p, v q), (a.x + b.x)::text) = 0`,
  // the typmod variants of the maxTypeLength fix (5815cd1)
  castVarying: `SELECT cast(a.x AS character varying(99999999)) AS y FROM (VALUES (1)) a(x)`,
  bpchar: `SELECT a.x::bpchar(9999999) AS y FROM (VALUES ('1')) a(x)`,
  charArray: `SELECT ARRAY[a.x]::char(9999999)[] AS y FROM (VALUES ('1')) a(x)`,
  intervalPrecision: `SELECT '1 day'::interval(6) AS y`,
  // legitimate: the README's and Drizzle's shapes
  readme: `SELECT bounty_id, place, account, amount FROM award_winner WHERE place = 1 ORDER BY awarded_block DESC LIMIT 5`,
  relational: `SELECT b.id, (SELECT json_agg(json_build_array(w.place, w.account, w.amount)) FROM award_winner w WHERE w.bounty_id = b.id) AS winners FROM bounty b ORDER BY b.id DESC LIMIT 20`,
  totals: `SELECT account, count(*) AS n, sum(amount) AS total FROM award_winner GROUP BY account ORDER BY total DESC`,
};

const { values: opt } = parseArgs({
  options: {
    only: { type: "string" },
    one: { type: "string" },
    timeout: { type: "string", default: "40" },
    postgres: { type: "string" },
  },
});
const databaseUrl = opt.postgres ?? process.env.TEST_DATABASE_URL;

if (opt.one !== undefined) {
  const { startSqlHarness } = await import("../test/helpers/sqlHarness");
  const h = await startSqlHarness(databaseUrl);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const r = await h.sql(PROBES[opt.one]!);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const e = r.body.error as { code?: string; limit?: string; message?: string } | undefined;
  const what =
    e === undefined
      ? `rows ${JSON.stringify(r.body.rows).length} B`
      : `${e.code}${e.limit ? ` ${e.limit}` : ""}: ${e.message?.slice(0, 90)}`;
  console.log(
    JSON.stringify({
      status: r.status,
      ms: Math.round(ms),
      cpuMs: Math.round(cpuMs),
      rssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      what,
    }),
  );
  await h.stop();
  process.exit(0);
}

const self = fileURLToPath(import.meta.url);
console.log(`database: ${databaseUrl === undefined ? "PGlite (standalone, in memory)" : "PostgreSQL"}`);
for (const name of Object.keys(PROBES)) {
  if (opt.only !== undefined && !opt.only.split(",").includes(name)) continue;
  const t0 = Date.now();
  const child = spawnSync(
    process.execPath,
    ["--import", "tsx", self, "--one", name, ...(opt.postgres ? ["--postgres", opt.postgres] : [])],
    {
      encoding: "utf8",
      timeout: Number(opt.timeout) * 1000,
      env: process.env,
    },
  );
  const line = child.stdout.trim().split("\n").at(-1) ?? "";
  let shown: string;
  try {
    const r = JSON.parse(line) as { status: number; ms: number; cpuMs: number; rssMb: number; what: string };
    shown = `HTTP ${r.status} ${String(r.ms).padStart(6)} ms (CPU ${String(r.cpuMs).padStart(6)} ms)  peak RSS ${String(r.rssMb).padStart(5)} MB  ${r.what}`;
  } catch {
    shown = `no answer after ${Date.now() - t0} ms (${child.signal ?? `exit ${child.status}`}) ${child.stderr.trim().split("\n").at(-1)?.slice(0, 120) ?? ""}`;
  }
  console.log(`${name.padEnd(18)} ${shown}`);
}
