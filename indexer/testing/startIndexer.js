// @ts-check
/**
 * Starts the bench-bounty indexer (`ponder start`) as a child process against
 * a chain, typically a `@bench-bounty/devchain` node, and waits until it has
 * indexed the chain's head. Used by the indexer's own tests and benchmark, and
 * by the demo and verifier to get an indexer URL.
 *
 * Plain ESM JavaScript (checked by tsc through JSDoc, types in
 * `startIndexer.d.ts`) so that any Node 20 code can import it without a build:
 * `import { startIndexer } from "@bench-bounty/indexer/testing"`.
 *
 * Each call gets its own database schema (and, for PGlite, its own temporary
 * directory unless one is given), listens on 127.0.0.1 only, and has
 * telemetry and the RPC cache off. Ponder runs in its own process group,
 * stopped and killed with `@bench-bounty/devchain/processes` (a dev dependency:
 * this module is a test and demo helper, not part of the indexer app).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { killOnExit, stopProcessGroup } from "@bench-bounty/devchain/processes";

/** The indexer package folder (the Ponder root). */
export const INDEXER_ROOT = fileURLToPath(new URL("..", import.meta.url));

/** @returns {string} path of Ponder's CLI entry (run with `node`). */
function ponderBin() {
  const candidates = [
    join(INDEXER_ROOT, "node_modules", "ponder", "dist", "esm", "bin", "ponder.js"),
    join(INDEXER_ROOT, "..", "node_modules", "ponder", "dist", "esm", "bin", "ponder.js"),
  ];
  const hit = candidates.find((p) => existsSync(p));
  if (hit === undefined) {
    throw new Error(
      `ponder is not installed (looked for ${candidates.join(", ")}): run npx pnpm@12.4.2 install`,
    );
  }
  return hit;
}

/** @returns {Promise<number>} a TCP port that was free on 127.0.0.1 a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr !== null ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * `eth_blockNumber` of an RPC endpoint.
 * @param {string} rpcUrl
 * @returns {Promise<number>}
 */
export async function rpcBlockNumber(rpcUrl) {
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
  });
  const body = /** @type {{ result?: string, error?: { message: string } }} */ (await res.json());
  if (body.result === undefined)
    throw new Error(`eth_blockNumber failed: ${body.error?.message ?? res.status}`);
  return Number(BigInt(body.result));
}

/**
 * Starts the indexer.
 * @param {import("./startIndexer").StartIndexerOptions} opts
 * @returns {Promise<import("./startIndexer").RunningIndexer>}
 * @throws Error when Ponder exits early or does not reach the chain head within `timeoutMs`
 *   (the message carries the tail of its output).
 */
export async function startIndexer(opts) {
  const chain = opts.chain;
  const chainId = chain.chainId ?? 8453;
  const schema =
    opts.schema ?? `bb_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 7)}`;
  if (!/^[a-z_][a-z0-9_]{0,44}$/.test(schema)) {
    throw new Error(
      `startIndexer: schema must be a lowercase SQL identifier of at most 45 characters, got "${schema}"`,
    );
  }
  const port = opts.port ?? (await freePort());
  const databaseUrl = opts.databaseUrl;
  let pgliteDir = opts.pgliteDir;
  let ownDir = false;
  if (databaseUrl === undefined && pgliteDir === undefined) {
    pgliteDir = mkdtempSync(join(tmpdir(), "bench-bounty-indexer-"));
    ownDir = true;
  }
  const timeoutMs = opts.timeoutMs ?? 120_000;

  /** @type {NodeJS.ProcessEnv} */
  const env = { ...process.env };
  // Variables that would override what this helper decides.
  for (const v of [
    "PORT",
    "DATABASE_URL",
    "DATABASE_PRIVATE_URL",
    "DATABASE_SCHEMA",
    "PONDER_PGLITE_DIR",
    "ADDRESS_BOOK",
    "INDEXER_UNSAFE_SQL_ON_PGLITE",
  ]) {
    delete env[v];
  }
  Object.assign(env, {
    PONDER_TELEMETRY_DISABLED: "true",
    CHAIN_ID: String(chainId),
    [`PONDER_RPC_URL_${chainId}`]: chain.rpcUrl,
    BOUNTY_ADDRESS: chain.contracts.benchmarkBounty,
    ANCHOR_REGISTRY_ADDRESS: chain.contracts.anchorRegistry,
    START_BLOCK: String(chain.startBlock),
    PONDER_POLLING_INTERVAL_MS: String(opts.pollingIntervalMs ?? 200),
    PONDER_DISABLE_CACHE: String(opts.disableCache ?? true),
  });
  if (databaseUrl !== undefined) env.DATABASE_URL = databaseUrl;
  else env.PONDER_PGLITE_DIR = pgliteDir;
  if (opts.unsafeSqlOnPglite === true) env.INDEXER_UNSAFE_SQL_ON_PGLITE = "true";

  const args = [
    ponderBin(),
    "start",
    "--root",
    INDEXER_ROOT,
    "--schema",
    schema,
    "-p",
    String(port),
    "-H",
    "127.0.0.1",
  ];
  if (opts.logLevel !== undefined) args.push("--log-level", opts.logLevel);
  const child = spawn(process.execPath, args, {
    cwd: INDEXER_ROOT,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  killOnExit(child);
  /** @type {number | null} */
  let exitCode = null;
  let exitedFlag = false;
  /** @type {Promise<number | null>} */
  const exited = new Promise((resolve) =>
    child.once("exit", (code, signal) => {
      exitedFlag = true;
      exitCode = code ?? (signal === null ? null : 128);
      resolve(exitCode);
    }),
  );

  let output = "";
  /** @param {Buffer} d */
  const onData = (d) => {
    const text = d.toString();
    output = (output + text).slice(-200_000);
    if (opts.log === true) process.stderr.write(text);
    else if (typeof opts.log === "function") opts.log(text);
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);

  const url = `http://127.0.0.1:${port}`;
  const tail = () => output.split("\n").slice(-40).join("\n");

  /** @returns {Promise<number | null>} the indexed block number, or null before the first checkpoint. */
  const indexedBlock = async () => {
    const res = await fetch(`${url}/status`);
    if (!res.ok) return null;
    const body = /** @type {Record<string, { block?: { number?: number } }>} */ (await res.json());
    const first = Object.values(body)[0];
    return first?.block?.number ?? null;
  };

  // `/status` alone is not enough: after a restart on the same schema, Ponder's crash
  // recovery rolls the unfinalized blocks back while `/status` still shows the old
  // latest block, until the backfill is over (`/ready` 200). Only then does `/status`
  // count up from the finalized block again. So: `/ready` first, then `/status`.
  let readySeen = false;
  /** @returns {Promise<boolean>} whether `/ready` has answered 200 (sticky for this process). */
  const isReady = async () => {
    if (!readySeen) readySeen = (await fetch(`${url}/ready`).catch(() => null))?.status === 200;
    return readySeen;
  };

  /** @param {number} block @param {number} [ms] */
  const waitForBlock = async (block, ms = timeoutMs) => {
    const deadline = Date.now() + ms;
    for (;;) {
      if (exitedFlag)
        throw new Error(
          `indexer exited (${exitCode}) while waiting for block ${block}; last output:\n${tail()}`,
        );
      const n = (await isReady()) ? await indexedBlock().catch(() => null) : null;
      if (n !== null && n >= block) return n;
      if (Date.now() > deadline) {
        throw new Error(
          `indexer did not reach block ${block} within ${ms} ms (at ${n}); last output:\n${tail()}`,
        );
      }
      await sleep(100);
    }
  };

  /** @param {number} [ms] */
  const waitForHead = async (ms = timeoutMs) => waitForBlock(await rpcBlockNumber(chain.rpcUrl), ms);

  let stopping = false;
  const stop = async () => {
    if (!stopping) {
      stopping = true;
      await stopProcessGroup(child, exited, 10_000);
      if (ownDir && opts.keepDir !== true && pgliteDir !== undefined)
        rmSync(pgliteDir, { recursive: true, force: true });
    }
    return exited;
  };

  try {
    if (opts.wait !== "none") await waitForHead(timeoutMs);
  } catch (e) {
    await stop();
    throw e;
  }

  return {
    url,
    port,
    schema,
    databaseUrl,
    pgliteDir,
    pid: child.pid ?? -1,
    output: () => output,
    indexedBlock,
    waitForBlock,
    waitForHead,
    stop,
    exited,
  };
}
