/**
 * Runs {@link guardSyncStore} against the indexer's database before Ponder
 * starts (called from `ponder.config.ts` when the RPC cache is disabled, i.e.
 * on a local chain). PostgreSQL is reached with `pg`, a PGlite directory with
 * `@electric-sql/pglite` (opened and closed again before Ponder opens it).
 */
import { existsSync, readdirSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { guardSyncStore, type SqlRun, type SyncGuardResult } from "./syncGuard";
import type { IndexerSettings } from "./settings";

/** `eth_getBlockByNumber(n, false).hash` through a plain JSON-RPC call; null when there is no such block. */
async function blockHash(rpcUrl: string, n: bigint): Promise<string | null> {
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "eth_getBlockByNumber",
      params: [`0x${n.toString(16)}`, false],
    }),
  });
  const body = (await res.json()) as { result?: { hash?: string } | null; error?: { message?: string } };
  if (body.error !== undefined)
    throw new Error(`eth_getBlockByNumber(${n}): ${body.error.message ?? "error"}`);
  return body.result?.hash ?? null;
}

/**
 * Checks (and if stale, clears) the chain's rows of the sync store.
 * @param rootDir - the indexer folder (default PGlite directory `.ponder/pglite` lives there).
 */
export async function runSyncGuard(s: IndexerSettings, rootDir: string): Promise<SyncGuardResult> {
  const hashOf = (n: bigint) => blockHash(s.rpcUrl, n);
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
