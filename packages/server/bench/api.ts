/**
 * `bench:api`: figures of the HTTP edge on loopback (a script that prints figures, not a timed test).
 *
 * 1. requests/s and p99 of detail, leaderboard and award evidence with autocannon, each against a bare
 *    Hono handler serving the same bytes in the same run (the ratio is the edge's cost);
 * 2. the leaderboard of a benchmark with 10,000 finalized runs (seeded straight into the store, see
 *    `seed.ts`): the default page and the whole board, each against the bare handler (issue 13's
 *    target: >= 500 req/s);
 * 3. full runs per second (start, submit 200 answers, finalize) with 1, 10 and 50 concurrent agents,
 *    and the finalize p99; the agents play in a worker thread (`agents-worker.ts`; as remote agents,
 *    they do not share the server's event loop), or with `--agents-in-process` on it.
 *
 * autocannon runs in this process (as does the bare handler), so both sides of a ratio share the
 * client's cost. Store: SQLite in a temporary directory, or with `--database-url URL` a new schema
 * `bb_bench_<hex>` of that PostgreSQL database (created for the run, dropped after it).
 * Usage (repository root): `npx pnpm@12.4.2 --filter @bench-bounty/server bench [--seconds 5]
 * [--board-runs 10000] [--only routes,board,runs] [--agents-in-process] [--profile DIR]
 * [--database-url postgresql://...]` (or `npm run bench:api -- [options]`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { Platform } from "@bench-bounty/platform";
import autocannon from "autocannon";
import { Hono } from "hono";
import pg from "pg";
import { closeDatasetWorker, platformDomain, serveApp, type ListeningServer } from "../src/index.js";
import { Worker } from "node:worker_threads";
import { playUntil, post, serverThreadSched } from "./full-run.mjs";
import { seedBoard } from "./seed.js";

const arg = (name: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
const seconds = Number(arg("--seconds")) || 5;
const boardRuns = Number(arg("--board-runs")) || 10_000;
const only = new Set((arg("--only") ?? "routes,board,runs").split(","));
/** `--agents-in-process`: the full runs' agents on the server's event loop (default: in a worker thread). */
const agentsInProcess = process.argv.includes("--agents-in-process");
/** `--profile DIR`: a V8 CPU profile of each edge figure (the autocannon phase of the edge) in DIR. */
const profileDir = arg("--profile");
/** `--database-url URL`: PostgreSQL (a fresh schema of that database) instead of SQLite. */
const databaseUrl = arg("--database-url");
const TASKS = 200;

/**
 * autocannon on `url`: requests/s, p99 (ms), errors (socket errors and timeouts; a route's own status
 * is not one) and the process's CPU time per request in µs (server and client: steadier than req/s
 * on a machine shared with other work).
 */
async function cannon(url: string): Promise<{ rps: number; p99: number; errors: number; cpuUs: number }> {
  const cpu0 = process.cpuUsage();
  const r = await autocannon({ url, connections: 10, duration: seconds });
  const cpu = process.cpuUsage(cpu0);
  return {
    rps: r.requests.average,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    cpuUs: (cpu.user + cpu.system) / Math.max(1, r.requests.total),
  };
}

/** A bare Hono app that answers `bytes` with the same status and content type. */
async function bare(
  bytes: Buffer,
  status: number,
  type: string,
): Promise<{ url: string; close: () => void }> {
  const app = new Hono();
  app.get("/", (c) => c.body(new Uint8Array(bytes), status as 200, { "content-type": type }));
  return new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) =>
      resolve({ url: `http://127.0.0.1:${info.port}/`, close: () => s.close() }),
    );
  });
}

/** One row per phase (start, submit, finalize): its server-thread CPU µs, p50 and mean. */
function phaseRows(phases: Record<string, number[]>): string[] {
  return Object.entries(phases)
    .filter(([, us]) => us.length > 0)
    .map(([name, us]) => {
      const sorted = [...us].sort((a, b) => a - b);
      const mean = us.reduce((a, b) => a + b, 0) / us.length;
      return `| ${name} | ${us.length} | ${pct(sorted, 50).toFixed(0)} | ${mean.toFixed(0)} |`;
    });
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** Runs `fn` under the V8 CPU profiler; writes `<profileDir>/<name>.cpuprofile`. */
async function profiled<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const session = new Session();
  session.connect();
  const send = (method: string) =>
    new Promise<any>((res, rej) => session.post(method, (e, r) => (e ? rej(e) : res(r))));
  await send("Profiler.enable");
  await send("Profiler.start");
  try {
    return await fn();
  } finally {
    const { profile } = await send("Profiler.stop");
    mkdirSync(profileDir!, { recursive: true });
    const file = join(profileDir!, `${name.replace(/[^A-Za-z0-9]+/g, "-")}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    console.log(`profile: ${file}`);
    session.disconnect();
  }
}

/** Reads a route once: the bytes the bare handler will serve. */
async function read(url: string) {
  const res = await fetch(url);
  return {
    status: res.status,
    type: res.headers.get("content-type") ?? "application/json",
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

/** One table row: the edge's route against a bare Hono handler serving its bytes, in the same run. */
async function versusBare(name: string, url: string): Promise<string> {
  const r = await read(url);
  const b = await bare(r.bytes, r.status, r.type);
  const edge = profileDir ? await profiled(name, () => cannon(url)) : await cannon(url);
  const base = await cannon(b.url);
  b.close();
  const errors = edge.errors > 0 ? ` (${edge.errors} errors)` : "";
  return `| ${name} | ${r.status} | ${r.bytes.length} | ${edge.rps.toFixed(0)}${errors} | ${edge.p99} | ${edge.cpuUs.toFixed(0)} | ${base.rps.toFixed(0)} | ${base.p99} | ${base.cpuUs.toFixed(0)} | ${(edge.rps / base.rps).toFixed(2)} | ${(base.cpuUs / edge.cpuUs).toFixed(2)} |`;
}

const ROUTE_HEADER = [
  "| route | status | bytes | edge req/s | edge p99 ms | edge CPU µs/req | bare Hono req/s | bare p99 ms | bare CPU µs/req | ratio (req/s) | ratio (CPU) |",
  "|---|---|---|---|---|---|---|---|---|---|---|",
];

/** One SQL statement on `url` (the bench's own schema: create, drop). */
async function sql(url: string, statement: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "bb-bench-api-"));
  const schema = `bb_bench_${process.pid}_${Date.now().toString(16)}`;
  if (databaseUrl) await sql(databaseUrl, `CREATE SCHEMA ${schema}`);
  // from here on the schema and the directory are removed whatever fails (the platform's open, the
  // server's listen, the bench)
  let platform: Platform | undefined;
  let server: ListeningServer | undefined;
  const out: string[] = [];
  try {
    platform = await Platform.open(
      databaseUrl ? { database: { engine: "postgres", url: databaseUrl, schema } } : { dir },
    );
    server = await serveApp({
      domain: platformDomain(platform),
      port: 0,
      limits: { rateBurst: 1e9, ratePerSecond: 1e9, accountBurst: 1e9, accountPerSecond: 1e9 },
    });
    const u = server.url;
    console.log(
      `bench:api on loopback, ${databaseUrl ? `PostgreSQL store (schema ${schema})` : "SQLite store"}, ${seconds} s per autocannon figure (10 connections), ${TASKS} tasks per run`,
    );
    if (only.has("board")) {
      const t0 = performance.now();
      const big = await seedBoard(platform, boardRuns);
      console.log(`seeded ${boardRuns} finalized runs in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      const board = `${u}/api/v1/benchmarks/${big}/leaderboard`;
      out.push(`\nLeaderboard of ${boardRuns} finalized runs (one agent each):\n`, ...ROUTE_HEADER);
      out.push(await versusBare("leaderboard, default page", board));
      out.push(
        await versusBare(`leaderboard, whole board (limit=${boardRuns})`, `${board}?limit=${boardRuns}`),
      );
    }
    if (only.has("routes") || only.has("runs")) out.push(...(await competeAndRead(platform, u)));
  } finally {
    await server?.close();
    // the dataset worker thread keeps a process alive once it has checked a dataset (as `serve` does)
    await closeDatasetWorker();
    await platform?.close();
    rmSync(dir, { recursive: true, force: true });
    if (databaseUrl) await sql(databaseUrl, `DROP SCHEMA ${schema} CASCADE`);
  }
  for (const l of out) console.log(l);
}

/** Publishes the 200-task benchmark, plays the full runs (1, 10, 50 agents), then reads its routes. */
async function competeAndRead(platform: Platform, u: string): Promise<string[]> {
  const author = await post(`${u}/api/v1/accounts`, null, { name: "bench-author" });
  const rows = Array.from({ length: TASKS }, (_, i) => ({
    decision_ts: "2026-01-01",
    payload: { index: i },
    label: `answer-${i}`,
  }));
  const ds = await post(`${u}/api/v1/datasets`, author.api_key, { name: "bench", rows });
  const bench = await post(`${u}/api/v1/datasets/${ds.dataset_id}/benchmark`, author.api_key, {
    title: "Bench",
    prompt_template: "Row #{payload.index}",
    grader_type: "exact",
    public_fraction: "0.5",
    max_attempts: 1000,
  });
  const slug = bench.slug as string;
  const agents = await Promise.all(
    Array.from({ length: 61 }, (_, i) => post(`${u}/api/v1/accounts`, null, { name: `bench-agent-${i}` })),
  );

  /** `keys` play full runs until `until` (Date.now() ms), here or in a worker: finalize latencies, phases' CPU. */
  type Played = { lat: number[]; phases?: Record<"start" | "submit" | "finalize", number[]> };
  const play = async (keys: string[], until: number): Promise<Played> => {
    if (agentsInProcess) return playUntil(u, slug, keys, until);
    const worker = new Worker(new URL("./agents-worker.mjs", import.meta.url), {
      workerData: { url: u, slug, keys, until },
    });
    return new Promise((resolve, reject) => {
      worker.once("message", (played: Played) => {
        resolve(played);
        void worker.terminate();
      });
      worker.once("error", reject);
    });
  };

  const runsTable: string[] = [];
  const phaseTable: string[] = [];
  let offset = 0;
  for (const n of only.has("runs") ? [1, 10, 50] : [50]) {
    const until = Date.now() + (only.has("runs") ? seconds * 1000 : 0);
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const thread0 = serverThreadSched();
    const elu0 = performance.eventLoopUtilization();
    const keys = agents.slice(offset, (offset += n)).map((a) => a.api_key as string);
    const wal0 = platform.ctx.store.walStats();
    const { lat, phases } =
      profileDir && only.has("runs")
        ? await profiled(`full runs, ${n} agents`, () => play(keys, until))
        : await play(keys, until);
    const elapsed = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const cpuPerRun = (cpu.user + cpu.system) / 1000 / lat.length;
    const thread1 = serverThreadSched();
    const perRun = (ns: number) => (ns / 1e6 / lat.length).toFixed(1);
    const threadPerRun =
      thread0 && thread1
        ? `${perRun(thread1.onCpuNs - thread0.onCpuNs)} / ${perRun(thread1.waitNs - thread0.waitNs)}`
        : "-";
    const busy = performance.eventLoopUtilization(elu0).utilization;
    if (phases) phaseTable.push(...phaseRows(phases));
    const wal1 = platform.ctx.store.walStats();
    const syncs = wal0 && wal1 ? wal1.syncs - wal0.syncs : 0;
    const commits =
      wal0 && wal1
        ? `${wal1.written - wal0.written} / ${syncs} / ${((wal1.syncMs - wal0.syncMs) / Math.max(1, syncs)).toFixed(1)} / ${wal1.maxSyncMs.toFixed(0)}`
        : "-";
    lat.sort((a, b) => a - b);
    runsTable.push(
      `| ${n} | ${lat.length} | ${(lat.length / elapsed).toFixed(2)} | ${cpuPerRun.toFixed(1)} | ${threadPerRun} | ${(busy * 100).toFixed(0)} % | ${commits} | ${pct(lat, 50).toFixed(1)} | ${pct(lat, 99).toFixed(1)} |`,
    );
  }
  const out: string[] = [];
  if (only.has("routes")) {
    out.push(`\nRoutes of the ${TASKS}-task benchmark:\n`, ...ROUTE_HEADER);
    out.push(await versusBare("detail", `${u}/api/v1/benchmarks/${slug}`));
    out.push(
      await versusBare(`leaderboard (${offset} agents ranked)`, `${u}/api/v1/benchmarks/${slug}/leaderboard`),
    );
    out.push(
      await versusBare(
        "award evidence (404 before the award)",
        `${u}/api/v1/benchmarks/${slug}/award-evidence`,
      ),
    );
  }
  if (only.has("runs")) {
    out.push(
      `\nFull runs (start, submit 200 answers, finalize; agents ${agentsInProcess ? "on the server's event loop" : "in a worker thread"}):\n`,
    );
    out.push(
      "| concurrent agents | full runs | runs/s | CPU ms per run (server and agents) | server thread ms per run on CPU / waiting for a CPU | server event loop busy | commits / fsyncs / fsync mean ms / max ms | finalize p50 ms | finalize p99 ms |",
      "|---|---|---|---|---|---|---|---|---|",
    );
    out.push(...runsTable);
    if (phaseTable.length > 0) {
      out.push(
        `\nServer thread CPU per request at 1 agent (µs; ${agentsInProcess ? "with the agent's own cost: it shares the thread" : "the server alone"}):\n`,
        "| phase | requests | p50 µs | mean µs |",
        "|---|---|---|---|",
        ...phaseTable,
      );
    }
  }
  return out;
}

await main();
