/**
 * Types of `startIndexer.js`: start the bench-bounty indexer (`ponder start`)
 * against a chain, e.g. a `@bench-bounty/devchain` node.
 */

/** The chain to index; a `DevChain` from `@bench-bounty/devchain` fits as is. */
export interface IndexedChain {
  /** JSON-RPC URL (`http://127.0.0.1:<port>` for a devchain). */
  rpcUrl: string;
  /** 8453 (Base, also the local profile) or 84532; default 8453. */
  chainId?: number;
  contracts: { benchmarkBounty: string; anchorRegistry: string };
  /** First block to read (the deployment block). */
  startBlock: number;
}

export interface StartIndexerOptions {
  chain: IndexedChain;
  /** PostgreSQL connection string; without it the embedded PGlite is used. */
  databaseUrl?: string;
  /** PGlite directory; default a fresh temporary directory, removed by `stop()` unless `keepDir`. */
  pgliteDir?: string;
  /** Keep the temporary PGlite directory after `stop()` (default false). */
  keepDir?: boolean;
  /**
   * Database schema (lowercase identifier, at most 45 characters); default a
   * fresh unique name. Pass the previous instance's schema to restart on its data.
   */
  schema?: string;
  /** HTTP port on 127.0.0.1; default a free port. */
  port?: number;
  /** Bypass Ponder's RPC cache (`PONDER_DISABLE_CACHE`); default true. */
  disableCache?: boolean;
  /** Head polling interval in milliseconds (default 200). */
  pollingIntervalMs?: number;
  /**
   * Serve `/sql/db` on PGlite too (`INDEXER_UNSAFE_SQL_ON_PGLITE=true`; default false: PGlite answers
   * 501 `not_served`, it cannot interrupt a statement). No effect with `databaseUrl`.
   */
  unsafeSqlOnPglite?: boolean;
  /** Ponder log level passed as `--log-level` (`error`, `warn`, `info`, `debug`, `trace`). */
  logLevel?: string;
  /** `true` copies Ponder's output to stderr; a function receives it chunk by chunk. */
  log?: boolean | ((chunk: string) => void);
  /** `"head"` (default): resolve once the chain head at start is indexed; `"none"`: resolve at once. */
  wait?: "head" | "none";
  /** Milliseconds to wait for the head (default 120000). */
  timeoutMs?: number;
}

export interface RunningIndexer {
  /** `http://127.0.0.1:<port>`: REST routes, `/graphql`, `/sql/*`, `/status`, `/ready`, `/health`. */
  url: string;
  port: number;
  schema: string;
  databaseUrl: string | undefined;
  pgliteDir: string | undefined;
  pid: number;
  /** Ponder's output so far (the last 200,000 characters). */
  output(): string;
  /** The block number `/status` reports as indexed, or null before the first checkpoint. */
  indexedBlock(): Promise<number | null>;
  /**
   * Waits until `/ready` answers 200 and then `/status` reports at least `block`;
   * resolves to the indexed block. (`/status` alone can show a stale block during
   * Ponder's crash recovery after a restart.)
   */
  waitForBlock(block: number, timeoutMs?: number): Promise<number>;
  /** Waits until the chain's current head is indexed; resolves to the indexed block. */
  waitForHead(timeoutMs?: number): Promise<number>;
  /** SIGTERM (SIGKILL after 10 s), waits for the exit; resolves to the exit code. Idempotent. */
  stop(): Promise<number | null>;
  /** Resolves with the exit code when the process ends. */
  exited: Promise<number | null>;
}

/** Directory of the indexer package (the Ponder root). */
export declare const INDEXER_ROOT: string;
/** A TCP port that was free on 127.0.0.1 a moment ago. */
export declare function freePort(): Promise<number>;
/** `eth_blockNumber` of an RPC endpoint. */
export declare function rpcBlockNumber(rpcUrl: string): Promise<number>;
/**
 * Starts the indexer and (by default) waits until it has indexed the chain head.
 * @throws Error with the tail of Ponder's output when it exits early or times out.
 */
export declare function startIndexer(opts: StartIndexerOptions): Promise<RunningIndexer>;
