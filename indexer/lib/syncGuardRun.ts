/**
 * Runs {@link guardSyncStore} against the indexer's database before Ponder
 * starts (called from `ponder.config.ts` when the RPC cache is disabled, i.e.
 * on a local chain). PostgreSQL is reached with `pg`, a PGlite directory with
 * `@electric-sql/pglite` (opened and closed again before Ponder opens it).
 */
import { existsSync, readdirSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { databaseErrorLine } from "./databaseCheck";
import { rpcFetch } from "./rpcTransport";
import { guardSyncStore, type SqlRun, type SyncGuardResult } from "./syncGuard";
import type { IndexerSettings } from "./settings";

/** Deadline of one RPC call of the guard, headers and body (milliseconds). */
export const SYNC_GUARD_RPC_TIMEOUT_MS = 15_000;

/**
 * One JSON-RPC call through a plain `fetch` (the redacting transport: errors name the RPC's origin only).
 * The whole exchange, headers and body, must end within `timeoutMs` (an RPC that drips its
 * answer would otherwise hold the indexer's start for ever).
 * @returns the call's `result`.
 * @throws Error naming the call (`call`, e.g. `eth_getCode`): an RPC error, an answer not in time, or not JSON
 */
export async function rpcCall(
  rpcUrl: string,
  method: string,
  params: unknown[],
  timeoutMs: number = SYNC_GUARD_RPC_TIMEOUT_MS,
  call: string = method,
): Promise<unknown> {
  let body: { result?: unknown; error?: { message?: string } };
  try {
    const res = await rpcFetch(rpcUrl)({
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      signal: AbortSignal.timeout(timeoutMs), // also aborts reading the body
    });
    body = (await res.json()) as typeof body;
  } catch (e) {
    const timedOut = e instanceof DOMException && e.name === "TimeoutError";
    throw new Error(
      timedOut
        ? `${call}: the RPC did not answer in full within ${timeoutMs} ms`
        : `${call}: ${e instanceof Error ? e.message : String(e)}`,
      { cause: e },
    );
  }
  if (body.error !== undefined) throw new Error(`${call}: ${body.error.message ?? "error"}`);
  return body.result;
}

/**
 * `eth_getBlockByNumber(n, false).hash` through {@link rpcCall}; null when there is no such block.
 * @throws Error naming the call: an RPC error, an answer not in time, or not JSON
 */
export async function rpcBlockHash(
  rpcUrl: string,
  n: bigint,
  timeoutMs: number = SYNC_GUARD_RPC_TIMEOUT_MS,
): Promise<string | null> {
  const result = (await rpcCall(
    rpcUrl,
    "eth_getBlockByNumber",
    [`0x${n.toString(16)}`, false],
    timeoutMs,
    `eth_getBlockByNumber(${n})`,
  )) as { hash?: string } | null | undefined;
  return result?.hash ?? null;
}

/**
 * The one line printed when {@link runSyncGuard} fails at start, never a stack (probe17 B-F4): a
 * PostgreSQL refusal by its SQLSTATE only (`databaseErrorLine`: its message may quote the URL's user or
 * options), anything else (an RPC error names its call) by its message, on one line.
 */
export function syncGuardFailureLine(s: IndexerSettings, e: unknown): string {
  const pgError = typeof (e as { severity?: unknown } | null)?.severity === "string";
  if (pgError && s.database.kind === "postgres")
    return `indexer settings: ${databaseErrorLine("the sync store check", s.database.connectionString, e)}`;
  const message = (e instanceof Error ? e.message : String(e)).replace(/\s*\n\s*/g, " ");
  return `indexer: the sync store check failed: ${message}`;
}

/**
 * Checks (and if stale, clears) the chain's rows of the sync store.
 * @param rootDir - the indexer folder (default PGlite directory `.ponder/pglite` lives there).
 */
export async function runSyncGuard(s: IndexerSettings, rootDir: string): Promise<SyncGuardResult> {
  const hashOf = (n: bigint) => rpcBlockHash(s.rpcUrl, n);
  if (s.database.kind === "postgres") {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: s.database.connectionString });
    await client.connect();
    try {
      const run: SqlRun = async (sql, params) => (await client.query(sql, params)).rows;
      return await guardSyncStore(run, hashOf, s.chainId);
    } finally {
      await client.end();
    }
  }
  const given = s.database.directory;
  const dir =
    given === undefined ? join(rootDir, ".ponder", "pglite") : isAbsolute(given) ? given : resolve(given);
  if (!existsSync(dir) || readdirSync(dir).length === 0) return { outcome: "no-store", checked: [] };
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite(dir);
  try {
    const run: SqlRun = async (sql, params) => (await db.query<Record<string, unknown>>(sql, params)).rows;
    return await guardSyncStore(run, hashOf, s.chainId);
  } finally {
    await db.close();
  }
}
