/**
 * Test support (`@bench-bounty/platform/testing`) for the packages that test the store (platform,
 * server): which engine the current test run exercises, the vitest projects that select it
 * ({@link engineProjects}), fresh, isolated PostgreSQL schemas for it, and the "cities" test set
 * ({@link citiesDataset}, {@link citiesAnswer}) their tests publish, and how a printed command line reads
 * pasted into a shell ({@link pastedArgs}), and an RPC proxy that echoes an anchoring's digest in its
 * refusal ({@link echoingProxy}).
 *
 * A test run selects its engine with `BB_TEST_ENGINE` (`sqlite`, the default, or `postgres`); the
 * packages' vitest configs run the store's tests once per engine (projects `sqlite` and `postgres`).
 * The PostgreSQL leg reads `TEST_DATABASE_URL`; when `CI` is set and it is not, the leg fails loudly
 * instead of being skipped. Each {@link freshPostgresTarget} is its own schema (`search_path`), so
 * parallel test files never collide; {@link dropPostgresSchemas} drops them.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { MAX_RPC_MESSAGE_CHARS } from "@bench-bounty/verifier/rpc-refusal";
import pg from "pg";
import { seattleWeatherCsvPath } from "./csv.js";
import type { DatasetInput } from "./dataset.js";
import type { PreparedDataset } from "./publish.js";
import type { StoreTarget } from "./store/engine.js";

/** An engine a test run exercises. */
export type TestEngine = "sqlite" | "postgres";

/** The engine of this test run (`BB_TEST_ENGINE`, default `sqlite`). */
export const TEST_ENGINE: TestEngine = process.env.BB_TEST_ENGINE === "postgres" ? "postgres" : "sqlite";

/**
 * The engines to test: `sqlite` always, `postgres` when `TEST_DATABASE_URL` is set.
 * @throws Error when `CI` is set and `TEST_DATABASE_URL` is not (CI must test PostgreSQL)
 */
export function engines(): TestEngine[] {
  if (process.env.TEST_DATABASE_URL) return ["sqlite", "postgres"];
  if (process.env.CI)
    throw new Error("CI is set but TEST_DATABASE_URL is not: the PostgreSQL leg cannot run");
  return ["sqlite"];
}

/** `TEST_DATABASE_URL`. @throws Error when it is not set */
export function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error("TEST_DATABASE_URL is not set: the PostgreSQL tests need a database");
  return url;
}

const made: string[] = [];
let counter = 0;

/** Creates a fresh schema in `TEST_DATABASE_URL` and returns the store target on it. */
export async function freshPostgresTarget(): Promise<StoreTarget & { engine: "postgres" }> {
  const url = testDatabaseUrl();
  const schema = `bbt_${process.pid}_${++counter}_${randomBytes(4).toString("hex")}`;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await c.end();
  }
  made.push(schema);
  return { engine: "postgres", url, schema, poolSize: 4 };
}

/** Drops one schema made by {@link freshPostgresTarget}. */
export async function dropPostgresSchema(schema: string): Promise<void> {
  const i = made.indexOf(schema);
  if (i >= 0) made.splice(i, 1);
  const c = new pg.Client({ connectionString: testDatabaseUrl() });
  await c.connect();
  try {
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await c.end();
  }
}

/** A `DATABASE_URL` for a `serve` process that selects `schema` (libpq's `options` with the search path). */
export function databaseUrlWithSchema(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set("options", `-c search_path=${schema}`);
  return u.toString();
}

/** Drops every schema {@link freshPostgresTarget} made in this process so far. */
export async function dropPostgresSchemas(): Promise<void> {
  if (made.length === 0) return;
  const c = new pg.Client({ connectionString: testDatabaseUrl() });
  await c.connect();
  try {
    for (const s of made.splice(0)) await c.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
  } finally {
    await c.end();
  }
}

/** A vitest project of {@link engineProjects} (structurally vitest's inline project configuration). */
export interface EngineProject {
  extends: true;
  test: { name: TestEngine; include?: string[]; env: { BB_TEST_ENGINE: TestEngine } };
}

/**
 * The vitest projects of a package that tests the store: `sqlite` runs every test; `postgres` runs
 * `postgresTests` again on PostgreSQL (`BB_TEST_ENGINE=postgres`, a fresh schema of `TEST_DATABASE_URL`
 * per store). The PostgreSQL project is there when `TEST_DATABASE_URL` is set, and also when `CI` is set
 * without it, so that a CI without a database fails loudly ({@link engines}) instead of skipping the leg.
 */
export function engineProjects(postgresTests: readonly string[]): EngineProject[] {
  const withPostgres = Boolean(process.env.TEST_DATABASE_URL || process.env.CI);
  return [
    { extends: true, test: { name: "sqlite", env: { BB_TEST_ENGINE: "sqlite" } } },
    ...(withPostgres
      ? [
          {
            extends: true as const,
            test: {
              name: "postgres" as const,
              include: [...postgresTests],
              env: { BB_TEST_ENGINE: "postgres" as const },
            },
          },
        ]
      : []),
  ];
}

/**
 * A synthetic prepared dataset `name` of `n` rows (no validation: for tests and benchmarks of the
 * store's part of an upload). Row `i` has the row hash `i` (32 bytes, big-endian) and the body
 * `bodyOf(i)`, stored as given (a raw NUL stays raw); the content hash is the name's first 32 bytes.
 */
export function preparedDataset(name: string, n: number, bodyOf: (i: number) => string): PreparedDataset {
  return {
    name,
    description: null,
    label_policy: null,
    options_json: "{}",
    content_hash: `0x${Buffer.from(name.padEnd(32, "-").slice(0, 32)).toString("hex")}`,
    rows: Array.from({ length: n }, (_, i) => ({
      row_hash: `0x${i.toString(16).padStart(64, "0")}` as const,
      body_json: bodyOf(i),
    })),
  };
}

/**
 * The "cities" test set: `n` rows `{payload: {city: "City<i>", index: i}, label: "answer-<i>"}`, one
 * decision day each (cycling through January 2026). Publish it with a template that prints
 * `#{payload.index}`, and {@link citiesAnswer} answers every task right.
 */
export function citiesDataset(n: number, name = "cities"): DatasetInput {
  return {
    name,
    rows: Array.from({ length: n }, (_, i) => ({
      decision_ts: `2026-01-${String((i % 28) + 1).padStart(2, "0")}T00:00:00Z`,
      payload: { city: `City${i}`, index: i },
      label: `answer-${i}`,
    })),
  };
}

/** The right answer of a {@link citiesDataset} prompt: `answer-<index>`, the index read after its `#`. */
export function citiesAnswer(prompt: string): string {
  const m = /#(\d+)/.exec(prompt);
  if (!m) throw new Error(`not a cities prompt (no #<index>): ${prompt}`);
  return `answer-${m[1]}`;
}

/**
 * The `bench-bounty publish` arguments of the Seattle weather benchmark the CLI tests publish: the
 * bundled `seattle-weather.csv` labelled `weather`, every 100th row (15 leaves: 8 public and 7 private
 * under seed `t`), as `slug`. Add `--store DIR` (and any other option) after them.
 */
export function seattlePublishArgs(slug: string): string[] {
  return [
    "publish",
    seattleWeatherCsvPath(),
    "--label",
    "weather",
    "--decision-ts",
    "date",
    "--every",
    "100",
    "--title",
    "Seattle weather",
    "--template",
    "On {payload.date}: precipitation {payload.precipitation}, max {payload.temp_max}. Weather? #{payload.wind}",
    "--grader",
    "exact",
    "--slug",
    slug,
    "--seed",
    "t",
  ];
}

/**
 * Waits until `n` backends of `c`'s database wait on a lock (bounded: 10 s), for race tests that hold a
 * row from a second connection while the platform's transactions queue behind it. `c` may be inside
 * its transaction, where PostgreSQL keeps one snapshot of the statistics: it is cleared before each look.
 */
export async function waitForLockWaiters(c: pg.Client, n: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    await c.query("SELECT pg_stat_clear_snapshot()");
    const r = await c.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
    );
    if (Number(r.rows[0]!.n) >= n) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`fewer than ${n} transactions waited on a lock within 10 s`);
}

/**
 * The arguments a printed command line gives its program when pasted as printed into a shell with only
 * PATH and `env` set: the shell expands the words after the program (variables,
 * quoted paths), a stand-in for the program prints them. The program is the line's first word.
 * @throws Error when the shell refuses the line (a syntax error)
 */
export function pastedArgs(line: string, env: Record<string, string> = {}): string[] {
  const r = spawnSync(
    "bash",
    ["-c", `program() { printf '%s\\0' "$@"; }\nprogram ${line.slice(line.indexOf(" ") + 1)}`],
    { env: { PATH: process.env.PATH!, ...env }, encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(`the shell refused the pasted line (${r.status}): ${r.stderr}`);
  return r.stdout.split("\0").slice(0, -1);
}

/** `anchor(bytes32,bytes32)`'s selector: the call an echoing gateway refuses. */
const ANCHOR_SELECTOR = "0xa21f3c6a";

/**
 * A JSON-RPC proxy to `target` that refuses the simulation of `anchor(digest, kind)` with a JSON-RPC error
 * -32000 echoing the call (the probe's `echoproxy.mjs`): `cut`, the digest where the message's bound
 * ({@link MAX_RPC_MESSAGE_CHARS}) leaves 62 of its 64 digits; `wrap`, the call data folded at 40 columns
 * (probe40 V-F1). Every other request is forwarded. Listens on 127.0.0.1, a free port.
 * @returns its `url`, and `close`
 */
export async function echoingProxy(target: string, mode: "cut" | "wrap") {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const call = JSON.parse(body.toString()) as {
        id: number;
        method: string;
        params?: { data?: string }[];
      };
      const data = call.method === "eth_call" ? call.params?.[0]?.data : undefined;
      if (typeof data === "string" && data.startsWith(ANCHOR_SELECTOR)) {
        const digest = `0x${data.slice(10, 74)}`;
        const head = "request refused by the gateway policy: ";
        const message =
          mode === "cut"
            ? `${head}${"x".repeat(MAX_RPC_MESSAGE_CHARS - head.length - 64)}${digest}`
            : `rejected data:\n${(data.match(/.{1,40}/g) ?? []).map((l) => `      ${l}`).join("\n")}`;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id: call.id, error: { code: -32000, message } }));
        return;
      }
      fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body })
        .then(async (r) => {
          res.writeHead(r.status, { "content-type": "application/json" });
          res.end(Buffer.from(await r.arrayBuffer()));
        })
        .catch(() => {
          res.writeHead(502);
          res.end();
        });
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
