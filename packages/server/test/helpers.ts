/**
 * Test support: a live server on a fresh store (loopback, any free port), and plain-fetch helpers
 * that call it the way a stranger would.
 */
import { execFile } from "node:child_process";
import { request as httpRequest } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startDevChain, type DevChain } from "@bench-bounty/devchain";
import {
  ChainGateway,
  Platform,
  type AwardEvidenceResult,
  type PlatformOptions,
} from "@bench-bounty/platform";
import {
  citiesAnswer,
  citiesDataset,
  dropPostgresSchema,
  freshPostgresTarget,
  TEST_ENGINE,
} from "@bench-bounty/platform/testing";
import { afterAll, beforeAll } from "vitest";
import {
  platformDomain,
  serveApp,
  type Domain,
  type Limits,
  type ListeningServer,
  type ServerTimeouts,
} from "../src/index.js";

export const OPERATOR_KEY = "bb_operator_test_key_0123456789abcdef0123456789";

/** A running server with its platform and store directory. */
export interface Live {
  url: string;
  platform: Platform;
  dir: string;
  server: ListeningServer;
  /** The PostgreSQL schema of the store (another session reaches its rows there), null on SQLite. */
  schema: string | null;
  stop(): Promise<void>;
}

/** Starts a server on a fresh store (off-chain unless `chain` is given). */
export async function startLive(
  opts: {
    limits?: Partial<Limits>;
    log?: (e: unknown) => void;
    /** More options of the platform (a publish quota, ...). */
    platform?: Partial<PlatformOptions>;
    /** The rate limiters' clock (ms). */
    now?: () => number;
    /** The HTTP server's deadlines. */
    timeouts?: Partial<ServerTimeouts>;
    /** PostgreSQL: the store's pool size (default {@link freshPostgresTarget}'s, 4; `serve`'s is 10). */
    poolSize?: number;
    /** Wraps the platform's domain before the server takes it (to watch what the edge asks of it). */
    wrapDomain?: (domain: Domain) => Domain;
  } = {},
): Promise<Live> {
  const dir = mkdtempSync(join(tmpdir(), "bb-server-"));
  // The engine under test (BB_TEST_ENGINE): SQLite in `dir`, or a fresh PostgreSQL schema.
  const database =
    TEST_ENGINE === "postgres"
      ? {
          ...(await freshPostgresTarget()),
          ...(opts.poolSize !== undefined ? { poolSize: opts.poolSize } : {}),
        }
      : undefined;
  const platform = await Platform.open({
    ...(database ? { database, runsDir: join(dir, "runs") } : { dir }),
    operatorKey: OPERATOR_KEY,
    ...opts.platform,
  });
  const domain = opts.wrapDomain ? opts.wrapDomain(platformDomain(platform)) : platformDomain(platform);
  const server = await serveApp({
    domain,
    port: 0,
    host: "127.0.0.1",
    ...(opts.limits ? { limits: opts.limits } : {}),
    ...(opts.log ? { log: opts.log } : {}),
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.timeouts ? { timeouts: opts.timeouts } : {}),
  });
  const url = server.url;
  return {
    url,
    platform,
    dir,
    server,
    schema: database?.schema ?? null,
    async stop() {
      await server.close();
      await platform.close();
      if (database) await dropPostgresSchema(database.schema!);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The file's live server: started by a `beforeAll` and stopped by an `afterAll` registered here (a
 * file's own `beforeAll` set-up, registered after this call, runs once the server is up). The handle
 * reads the running server; reading it outside a hook or test throws.
 */
export function useLive(opts: Parameters<typeof startLive>[0] = {}): Live {
  let current: Live | undefined;
  beforeAll(async () => {
    current = await startLive(opts);
  });
  afterAll(async () => {
    await current?.stop();
  });
  const running = (): Live => {
    if (!current) throw new Error("useLive: the server starts in beforeAll; read it inside a hook or a test");
    return current;
  };
  return {
    get url() {
      return running().url;
    },
    get platform() {
      return running().platform;
    },
    get dir() {
      return running().dir;
    },
    get server() {
      return running().server;
    },
    get schema() {
      return running().schema;
    },
    stop: () => running().stop(),
  };
}

/** One HTTP exchange: status, headers, parsed JSON (or null) and the raw text. */
export interface Exchange {
  status: number;
  headers: Headers;
  json: any;
  text: string;
}

/** A plain fetch with an optional key and JSON body. */
export async function call(
  base: string,
  method: string,
  path: string,
  opts: { key?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<Exchange> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers["x-api-key"] = opts.key;
  let body: string | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined && !headers["content-type"]) headers["content-type"] = "application/json";
  const res = await fetch(base + path, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, json, text };
}

/**
 * A request through `node:http` rather than fetch, for headers fetch will not send as given: a `Host`
 * of the caller's choosing (what a browser sends for a DNS-rebinding page) and a header repeated
 * (an array value: one header line per element). `body` is sent as is.
 */
export function callRaw(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string | string[]>,
  body?: string,
): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (d: Buffer) => chunks.push(d));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = null;
        }
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers))
          if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(", ") : v);
        resolve({ status: res.statusCode ?? 0, headers: h, json, text });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Registers an account; returns its key and account id. */
export async function register(base: string, name: string, extra: Record<string, unknown> = {}) {
  const r = await call(base, "POST", "/api/v1/accounts", { body: { name, ...extra } });
  if (r.status !== 201) throw new Error(`register ${name}: ${r.status} ${r.text}`);
  return {
    key: r.json.api_key as string,
    account_id: r.json.account.account_id as string,
    agent_id: r.json.account.agents[0].agent_id as string,
  };
}

/**
 * A new account (`name`) starts a run of `slug` over REST: `POST /api/v1/benchmarks/:slug/runs` with
 * its key and the body `{}` (its default agent, named after it). Returns the account and the exchange, whatever its
 * status (201 `{run, tasks}` or the refusal).
 */
export async function registerAndStartRun(base: string, slug: string, name: string) {
  const agent = await register(base, name);
  const start = await call(base, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: agent.key, body: {} });
  return { agent, start };
}

/** The shared "cities" test set (`n` rows `{payload: {city, index}, label: answer-i}`) and its right answer. */
export { citiesAnswer, citiesDataset };

export const CITIES_PUBLISH = {
  title: "Cities",
  prompt_template: "City {payload.city} #{payload.index}: answer answer-<index>",
  grader_type: "exact",
  public_fraction: "0.5",
  max_attempts: 2,
  time_budget_seconds: 600,
};

/**
 * An author publishes the cities benchmark over REST (`options` over {@link CITIES_PUBLISH}, e.g.
 * `{ leaderboard_visibility: "buyer_only" }`); returns the author's key and the slug.
 */
export async function publishCities(
  base: string,
  n: number,
  name = "cities",
  options: Record<string, unknown> = {},
) {
  const author = await register(base, `author-${name}`);
  const ds = await call(base, "POST", "/api/v1/datasets", { key: author.key, body: citiesDataset(n, name) });
  if (ds.status !== 201) throw new Error(`dataset: ${ds.status} ${ds.text}`);
  const b = await call(base, "POST", `/api/v1/datasets/${ds.json.dataset_id}/benchmark`, {
    key: author.key,
    body: { ...CITIES_PUBLISH, ...options },
  });
  if (b.status !== 201) throw new Error(`publish: ${b.status} ${b.text}`);
  return { author, dataset_id: ds.json.dataset_id as string, slug: b.json.slug as string, detail: b.json };
}

/** One competitor's finalized run, and the credit an exact grader must give each answer it sent. */
export interface PlayedRun {
  key: string;
  agent_id: string;
  runId: string;
  /** Run ordinal -> `1/1` or `0/1`: an expectation independent of the grader. */
  expected: string[];
}

/**
 * A competitor registers as `name`, starts a run of `slug`, answers and finalizes it over REST.
 * `right(ordinal, index, count)` says whether the task at `index` of `count` gets the right answer
 * (else `wrong`). Throws when the finalize is not a 200.
 */
export async function playCities(
  base: string,
  slug: string,
  name: string,
  right: (ordinal: number, index: number, count: number) => boolean,
): Promise<PlayedRun> {
  const me = await register(base, name);
  const start = await call(base, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: me.key });
  const tasks = start.json.tasks as { ordinal: number; prompt: string }[];
  const answers = tasks.map((t, i) => ({
    ordinal: t.ordinal,
    answer_text: right(t.ordinal, i, tasks.length) ? citiesAnswer(t.prompt) : "wrong",
  }));
  const runId = start.json.run.id as string;
  await call(base, "POST", `/api/v1/benchmarks/runs/${runId}/submissions`, {
    key: me.key,
    body: { answers },
  });
  const fin = await call(base, "POST", `/api/v1/benchmarks/runs/${runId}/finalize`, { key: me.key });
  if (fin.status !== 200) throw new Error(`finalize ${name}: ${fin.status} ${fin.text}`);
  return {
    key: me.key,
    agent_id: me.agent_id,
    runId,
    expected: answers.map((a, i) => (a.answer_text === citiesAnswer(tasks[i]!.prompt) ? "1/1" : "0/1")),
  };
}

/**
 * A POST to `base + path` with key `key` declaring `length` bytes of JSON (`null`: chunked, no length)
 * that sends only `first` and holds the connection open (a body that is not arriving); `abort` closes it.
 */
export function holdBody(base: string, path: string, key: string, length: number | null, first: string) {
  const req = httpRequest(`${base}${path}`, {
    method: "POST",
    // no length: the body is sent chunked
    headers: {
      "content-type": "application/json",
      ...(length === null ? {} : { "content-length": String(length) }),
      "x-api-key": key,
    },
  });
  req.on("error", () => undefined); // the caller aborts it
  req.write(first);
  return { abort: () => req.destroy() };
}

/**
 * A raw MCP POST to `base + path` (default `/mcp`): `raw` is the body as sent (a JSON text, or anything
 * a test wants to try), `key` the Bearer key. Returns the status, the headers and the body's text.
 */
export async function postMcpText(
  base: string,
  raw: string,
  key?: string,
  path = "/mcp",
): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    body: raw,
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** {@link postMcpText} with the answer parsed as JSON: the status and the parsed body. */
export async function postMcp(
  base: string,
  raw: string,
  key?: string,
  path = "/mcp",
): Promise<{ status: number; body: any }> {
  const { status, text } = await postMcpText(base, raw, key, path);
  return { status, body: JSON.parse(text) as any };
}

/** One MCP `tools/call` of `name` with `args` ({@link postMcp}). */
export async function postToolCall(
  base: string,
  name: string,
  args: Record<string, unknown>,
  key?: string,
  path = "/mcp",
): Promise<{ status: number; body: any }> {
  const message = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } };
  return postMcp(base, JSON.stringify(message), key, path);
}

/**
 * A fake evidence door over `answer(slug)`, the door's logic (a real door reads the benchmark and award
 * rows each time it runs): `doorRuns` counts its runs, `bytesReads` the reads of the pack's bytes
 * (`awardEvidenceBytes`, by the head's hash), probe20 F4, `chunkReads` the door's streamed reads
 * (`awardEvidenceChunks`, `chunkBytes` a chunk), probe26 A-F2.
 */
export function doorOf(answer: (slug: string) => AwardEvidenceResult) {
  const door = {
    doorRuns: 0,
    bytesReads: 0,
    /** Streamed reads of the pack (`awardEvidenceChunks`), and the bytes of each of their chunks. */
    chunkReads: 0,
    chunkBytes: 1024,
    domain: {
      awardEvidenceHead: async (slug: string) => {
        door.doorRuns += 1;
        const r = answer(slug);
        return r.kind === "pack" ? { kind: r.kind, pack_hash: r.pack_hash, pack_size: r.pack_size } : r;
      },
      awardEvidenceBytes: async (slug: string, packHash: string) => {
        door.bytesReads += 1;
        const r = answer(slug);
        if (r.kind !== "pack" || r.pack_hash !== packHash) throw new Error(`no pack ${packHash} of ${slug}`);
        return r.bytes;
      },
      awardEvidenceChunks: async function* (
        slug: string,
        packHash: string,
        size: number,
      ): AsyncIterable<Uint8Array> {
        door.chunkReads += 1;
        const r = answer(slug);
        if (r.kind !== "pack" || r.pack_hash !== packHash || r.pack_size !== size)
          throw new Error(`no pack ${packHash} of ${slug}`);
        for (let at = 0; at < size; at += door.chunkBytes) yield r.bytes.slice(at, at + door.chunkBytes);
      },
    } satisfies Pick<Domain, "awardEvidenceHead" | "awardEvidenceBytes" | "awardEvidenceChunks">,
  };
  return door;
}

/** The platform's chain options on the devchain, signing as account `index` (0: the operator `serve` signs with). */
export function devChainConfig(dc: DevChain, index = 0) {
  return {
    rpcUrl: dc.rpcUrl,
    chainId: dc.chainId,
    contracts: dc.contracts,
    privateKey: dc.accounts[index]!.privateKey,
  };
}

/** The file's devchain, platform (a fresh SQLite store signing as account 0) and server: {@link useChainServer}. */
export interface ChainServer {
  readonly dc: DevChain;
  readonly platform: Platform;
  readonly server: ListeningServer;
}

/**
 * Starts, in the file's `beforeAll`, a devchain and a server on a fresh SQLite store (in a temporary
 * directory named after `tag`) whose platform signs as the chain's account 0 (`localChain`), and stops
 * them in its `afterAll`. The handle reads the running ones; reading it outside a hook or test throws.
 */
export function useChainServer(tag: string): ChainServer {
  let current: ChainServer | undefined;
  beforeAll(async () => {
    const dc = await startDevChain();
    const platform = await Platform.open({
      dir: mkdtempSync(join(tmpdir(), `bb-${tag}-`)),
      operatorKey: OPERATOR_KEY,
      chain: devChainConfig(dc, 0),
    });
    const server = await serveApp({ domain: platformDomain(platform, { localChain: true }), port: 0 });
    current = { dc, platform, server };
  }, 240_000);
  afterAll(async () => {
    await current?.server.close();
    await current?.platform.close();
    await current?.dc.stop();
  });
  const running = (): ChainServer => {
    if (!current) throw new Error("useChainServer: started in beforeAll; read it inside a hook or a test");
    return current;
  };
  return {
    get dc() {
      return running().dc;
    },
    get platform() {
      return running().platform;
    },
    get server() {
      return running().server;
    },
  };
}

/** A chain gateway on the devchain signing as account `index` (0: the operator `serve` signs with). */
export function gatewayOf(dc: DevChain, index = 0): ChainGateway {
  return ChainGateway.connect(devChainConfig(dc, index));
}

/** The built `bench-bounty` CLI (packages/cli's dist). */
export const CLI = new URL("../../cli/dist/index.js", import.meta.url).pathname;

/**
 * Runs the built CLI with `args` and only PATH and `env` in its environment: its exit code (0 on
 * success), stdout and stderr, whatever the exit.
 */
export async function runCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH!, ...env },
    encoding: "utf8",
  }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({
      code: e.code,
      stdout: e.stdout,
      stderr: e.stderr,
    }),
  );
}
