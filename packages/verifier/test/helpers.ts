/**
 * Test helpers: the shared vector packs, and a "forger" that edits a pack's
 * parsed JSON and then re-hashes whatever a forger can re-hash (the ranking
 * digest and the pack hash), so that the one thing it could not fix is what
 * the verifier must catch.
 */
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";
import {
  canonicalJson,
  packHash,
  parseJson,
  rankingDigest,
  type JsonObject,
  type JsonValue,
} from "@bench-bounty/evidence";

export const VECTORS = fileURLToPath(new URL("../../../spec/vectors/packs/", import.meta.url));

export interface ExpectedPack {
  pack: string;
  policy: string;
  policy_met: boolean;
  facts: Record<string, string>;
  values: Record<string, unknown>;
}

export function packBytes(name: string): Uint8Array {
  return readFileSync(`${VECTORS}${name}.json`);
}

export function expected(name: string): ExpectedPack {
  return JSON.parse(readFileSync(`${VECTORS}${name}.expected.json`, "utf8")) as ExpectedPack;
}

/** The pack as a mutable parsed JSON tree (lossless: big integers and floats survive). */
export function packTree(name: string): JsonObject {
  return parseJson(packBytes(name)) as JsonObject;
}

/** Serialize a parsed tree back to bytes (canonical JSON: lossless). */
export function toBytes(tree: JsonValue): Uint8Array {
  return canonicalJson(tree);
}

/** Walk a path of keys/indexes. */
export function at(tree: JsonValue, ...path: (string | number)[]): any {
  let v: any = tree;
  for (const p of path) v = v[p];
  return v;
}

/**
 * Re-hash like a forger would: `benchmark.ranking_digest` from `rank_derivation`, then `pack_hash`.
 * @param keepPackHash leave `pack_hash` as it is (the pack_hash tampering)
 */
export function rehash(tree: JsonObject, keepPackHash = false): JsonObject {
  (tree.benchmark as JsonObject).ranking_digest = rankingDigest(tree.rank_derivation as never);
  if (!keepPackHash) tree.pack_hash = packHash(tree as never);
  return tree;
}

/** What a CLI run printed and how it ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Run the verifier's CLI (`src/bin.ts` through tsx) to its end, blocking this process (a test with no
 * server of its own to keep answering); `input` is its standard input.
 */
export function runCliSync(args: string[], input?: Uint8Array | string): CliRun {
  const r = spawnSync(process.execPath, ["--import", "tsx", BIN, ...args], {
    cwd: PKG,
    input,
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: "1" },
    encoding: "utf8",
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The verifier's CLI entry point and package folder, for the runners below and tests spawning it themselves. */
export const BIN = fileURLToPath(new URL("../src/bin.ts", import.meta.url));
export const PKG = fileURLToPath(new URL("..", import.meta.url));

/**
 * Run the verifier's CLI (`src/bin.ts` through tsx) as a child process without blocking this process
 * (a test's own http server or chain must keep answering). `env` is added to this process's environment.
 */
export function runCliAsync(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", BIN, ...args], {
      cwd: PKG,
      env: { ...process.env, NO_COLOR: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A shape of {@link startRpcProxy} that replaces a call's whole answer object by `change(answer)`. */
export class WholeAnswer {
  constructor(readonly change: (answer: { id: unknown; result?: unknown }) => unknown) {}
}

/** A JSON-RPC proxy on loopback (see {@link startRpcProxy}). */
export interface RpcProxy {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  close(): void;
}

/** Listen on a free loopback port; the proxy's origin and how to close it. */
async function listenOnLoopback(server: import("node:http").Server): Promise<RpcProxy> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/**
 * A JSON-RPC proxy on loopback in front of `upstream` that replaces the `result` of one method by any
 * JSON value: a request to `<origin>/<method>/<k>` forwards to `upstream` (single or batched) and answers
 * `shapes[k]` as the result of every call of `<method>`; other methods pass through unchanged. A shape
 * that is a {@link WholeAnswer} replaces the call's whole answer object instead (`undefined`, dropped from
 * the JSON, is an answer with neither `result` nor `error`).
 */
export async function startRpcProxy(upstream: string, shapes: readonly unknown[]): Promise<RpcProxy> {
  const { createServer } = await import("node:http");
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d: string) => (body += d));
    req.on("end", () => {
      const [, method, k] = (req.url ?? "").split("/");
      const asked = JSON.parse(body) as { id: unknown; method: string } | { id: unknown; method: string }[];
      const calls = Array.isArray(asked) ? asked : [asked];
      void fetch(upstream, { method: "POST", headers: { "content-type": "application/json" }, body })
        .then((r) => r.json())
        .then((answer: unknown) => {
          const shape = shapes[Number(k)];
          const replace = (m: { id: unknown; result?: unknown }): unknown =>
            calls.find((c) => c.id === m.id)?.method !== method
              ? m
              : shape instanceof WholeAnswer
                ? shape.change(m)
                : { ...m, result: shape };
          const out = Array.isArray(answer) ? answer.map(replace) : replace(answer as { id: unknown });
          res.setHeader("content-type", "application/json");
          res.end(JSON.stringify(out));
        });
    });
  });
  return listenOnLoopback(server);
}

/**
 * An HTTP proxy on loopback in front of `upstream` (an indexer) that forwards GET requests and rewrites
 * each JSON answer with `rewrite(path, body)` (return the body to change it in place), as a lying or
 * broken indexer would answer.
 */
export async function startJsonProxy(
  upstream: string,
  rewrite: (path: string, body: any) => void,
): Promise<RpcProxy> {
  const { createServer } = await import("node:http");
  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    void fetch(new URL(path, upstream)).then(async (r) => {
      const body: unknown = await r.json();
      rewrite(path, body);
      res.statusCode = r.status;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(body));
    });
  });
  return listenOnLoopback(server);
}

/**
 * A stub indexer on loopback: every GET is answered with `answer(url)`'s status and JSON body, as an
 * honest, lying or broken indexer would answer ({@link found} for a body or a 404).
 */
export async function startStubIndexer(
  answer: (url: URL) => { status: number; body: unknown },
): Promise<RpcProxy> {
  const { createServer } = await import("node:http");
  const server = createServer((req, res) => {
    const { status, body } = answer(new URL(req.url ?? "/", "http://x"));
    res.statusCode = status;
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(body));
  });
  return listenOnLoopback(server);
}

/** A stub indexer's answer: `body` (200), or, for null, the indexer's 404 `not_found`. */
export function found(body: unknown): { status: number; body: unknown } {
  return body === null ? { status: 404, body: { error: { code: "not_found" } } } : { status: 200, body };
}

/**
 * Starts a stub indexer ({@link startStubIndexer}) before the file's tests and closes it after them.
 * @returns its origin (`http://127.0.0.1:PORT`), read once the tests run
 */
export function useStubIndexer(answer: (url: URL) => { status: number; body: unknown }): () => string {
  let stub: RpcProxy | undefined;
  beforeAll(async () => {
    stub = await startStubIndexer(answer);
  });
  afterAll(() => stub?.close());
  return () => stub!.origin;
}
