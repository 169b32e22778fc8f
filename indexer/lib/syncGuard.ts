/**
 * Stale sync-store guard for local chains.
 *
 * Ponder keeps the raw chain data it fetched (blocks, logs, transactions...) in
 * the `ponder_sync` schema of the database, keyed by chain id and block number,
 * and inserts with "on conflict do nothing". A local chain restarted with the
 * same chain id (8453) and, through CREATE2, the same contract addresses has
 * different blocks at the same numbers: the old rows stay, the new logs no
 * longer join their blocks, and events silently go missing from a backfill,
 * even with `disableCache`. (Seen here on PostgreSQL: bounties created in the
 * re-indexed range vanished after a restart.)
 *
 * Before Ponder starts on a local chain, this guard compares a few stored block
 * hashes of the chain id with the chain itself and, when they differ (or the
 * stored blocks lie beyond the head), deletes that chain id's rows from
 * `ponder_sync`. On the same chain (a restart) the hashes match and nothing is
 * touched. Two different local chains with the same id must not share one
 * database at the same time.
 */

/** Runs one SQL statement with positional parameters; returns the rows. */
export type SqlRun = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;
/** `eth_getBlockByNumber(number, false)` of the chain: the block hash, or null if the block does not exist. */
export type BlockHashOf = (blockNumber: bigint) => Promise<string | null>;

/** Tables of `ponder_sync` with a `chain_id` column, children first. */
export const SYNC_TABLES = [
  "logs",
  "transaction_receipts",
  "transactions",
  "traces",
  "blocks",
  "rpc_request_results",
  "intervals",
  "factory_addresses",
] as const;

/** Outcome of {@link guardSyncStore}. */
export interface SyncGuardResult {
  /** `no-store`: no `ponder_sync` schema or no rows for the chain; `fresh`: stored blocks match; `discarded`: stale rows deleted. */
  outcome: "no-store" | "fresh" | "discarded";
  /** Block numbers compared. */
  checked: bigint[];
  /** Why the rows were stale (for the log line), when discarded. */
  reason?: string;
}

/**
 * Checks the stored blocks of `chainId` against the chain and deletes the
 * chain id's sync rows when they belong to another chain.
 * @param run - SQL runner on the indexer's database (PostgreSQL or PGlite).
 * @param hashOf - reads a block hash from the chain's RPC.
 */
export async function guardSyncStore(
  run: SqlRun,
  hashOf: BlockHashOf,
  chainId: number,
): Promise<SyncGuardResult> {
  const schema = await run(
    "SELECT 1 FROM information_schema.tables WHERE table_schema = 'ponder_sync' AND table_name = 'blocks'",
  );
  if (schema.length === 0) return { outcome: "no-store", checked: [] };
  const rows = await run(
    `(SELECT number, hash FROM ponder_sync.blocks WHERE chain_id = $1 ORDER BY number DESC LIMIT 1)
     UNION ALL
     (SELECT number, hash FROM ponder_sync.blocks WHERE chain_id = $1 AND number > 0 ORDER BY number ASC LIMIT 1)`,
    [chainId],
  );
  if (rows.length === 0) return { outcome: "no-store", checked: [] };
  const checked: bigint[] = [];
  let reason: string | undefined;
  for (const row of rows) {
    const n = BigInt(String(row.number));
    const stored = String(row.hash).toLowerCase();
    checked.push(n);
    const onChain = await hashOf(n);
    if (onChain === null) {
      reason = `stored block ${n} is beyond the chain's head`;
      break;
    }
    if (onChain.toLowerCase() !== stored) {
      reason = `stored block ${n} has hash ${stored}, the chain has ${onChain.toLowerCase()}`;
      break;
    }
  }
  if (reason === undefined) return { outcome: "fresh", checked };
  await run("BEGIN");
  try {
    for (const table of SYNC_TABLES) {
      const exists = await run(
        "SELECT 1 FROM information_schema.columns WHERE table_schema = 'ponder_sync' AND table_name = $1 AND column_name = 'chain_id'",
        [table],
      );
      if (exists.length > 0) await run(`DELETE FROM ponder_sync.${table} WHERE chain_id = $1`, [chainId]);
    }
    await run("COMMIT");
  } catch (e) {
    await run("ROLLBACK");
    throw e;
  }
  return { outcome: "discarded", checked, reason };
}
