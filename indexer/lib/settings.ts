/**
 * Reads the indexer's settings from environment variables and the deployment
 * address book (`@bench-bounty/contracts`'s `deployments.json`). Pure apart
 * from the address book lookup passed in, so it can be tested on its own.
 *
 * Variables (all optional except the RPC URL):
 * - `PONDER_RPC_URL_<chainId>`: JSON-RPC URL of the chain (required; http(s) only, ws/wss refused).
 * - `CHAIN_ID`: 8453 (Base, default) or 84532 (Base Sepolia); the local Base profile is 8453.
 * - `BOUNTY_ADDRESS`, `ANCHOR_REGISTRY_ADDRESS`, `START_BLOCK`: override the address book.
 * - `ADDRESS_BOOK`: which entry of the address book to read (`8453` or `84532`; default the chain id). A
 *   local node's deployment is never in the address book: give its addresses and start block instead.
 * - `DATABASE_URL`: PostgreSQL connection string; without it the embedded PGlite is used.
 * - `PONDER_PGLITE_DIR`: PGlite directory (default `.ponder/pglite` in the indexer folder); a path
 *   that exists and is not a directory is refused.
 * - `PONDER_POLLING_INTERVAL_MS`: head polling interval (default 1000, 250 on a loopback RPC).
 * - `PONDER_DISABLE_CACHE`: `true`/`false`; default `true` on a loopback RPC (a restarted local
 *   chain reuses chain id 8453, so cached RPC answers would be stale), else `false`.
 * - `PONDER_GETLOGS_BLOCK_RANGE`: maximum `eth_getLogs` block range (default: Ponder's detection).
 * - `INDEXER_UNSAFE_SQL_ON_PGLITE`: `true` serves `/sql/db` on PGlite too (default `false`: a
 *   statement the planner underestimates can hold PGlite, and the whole indexer, for minutes).
 * - `INDEXER_SQL_ROLE`: on PostgreSQL, the role `/sql/db` statements run as (`SET LOCAL ROLE`): one
 *   with `USAGE` on the schema, `SELECT` on the indexer's tables and nothing else (no superuser
 *   catalog access), the connection's role a member of it; without them `/sql/db` answers 503
 *   `sql_misconfigured` naming the missing grant (`src/api/sql.ts`).
 */
import fs from "node:fs";
import { addressForm } from "@bench-bounty/contracts";
import type { Address } from "viem";

/** Where the two contracts are, as an address book entry gives it. */
export interface ContractLocation {
  benchmarkBounty: Address | null;
  anchorRegistry: Address | null;
  startBlock: number | null;
}

/** The resolved settings of one indexer instance. */
export interface IndexerSettings {
  chainId: number;
  rpcUrl: string;
  bountyAddress: Address;
  anchorRegistryAddress: Address;
  /** First block to read (inclusive). */
  startBlock: number;
  /** Milliseconds between head polls. */
  pollingIntervalMs: number;
  /** Whether Ponder's RPC cache is bypassed. */
  disableCache: boolean;
  ethGetLogsBlockRange: number | undefined;
  /** Whether `/sql/db` is served on PGlite (`INDEXER_UNSAFE_SQL_ON_PGLITE`; always on PostgreSQL). */
  unsafeSqlOnPglite: boolean;
  /** Role of `/sql/db` statements on PostgreSQL (`INDEXER_SQL_ROLE`), or undefined: the connection's. */
  sqlRole: string | undefined;
  database:
    | { kind: "pglite"; directory: string | undefined }
    | { kind: "postgres"; connectionString: string };
}

/** A bad or missing setting; the message names the environment variable. */
export class IndexerSettingsError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = "IndexerSettingsError";
  }
}

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

/**
 * Refuses a path that exists and is not a directory (`PONDER_PGLITE_DIR=/dev/null` stopped the
 * indexer with "ENOTDIR: not a directory, scandir '/dev/null'", naming no variable: probe26 B-F7).
 * A path that does not exist yet is PGlite's to create.
 * @throws IndexerSettingsError `<variable>: <path> is not a directory (a file, a device ...)`
 */
function refuseNonDirectory(variable: string, directory: string): void {
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(directory);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return;
    if (code === "ENOTDIR")
      throw new IndexerSettingsError(
        variable,
        `${directory} is not a directory (a part of its path is a file)`,
      );
    throw new IndexerSettingsError(variable, `${directory} cannot be read (${code ?? "error"})`);
  }
  if (!stat.isDirectory())
    throw new IndexerSettingsError(
      variable,
      `${directory} is not a directory (${stat.isFile() ? "a file" : "a device, FIFO or socket"})`,
    );
}

function parseAddress(variable: string, value: string): Address {
  // the platform's one address rule (EIP-55: unchecksummed, or mixed case with a valid checksum)
  const form = addressForm(value);
  if (form === "not_an_address")
    throw new IndexerSettingsError(variable, `expected a 0x-prefixed 20-byte hex address, got "${value}"`);
  if (form === "bad_checksum")
    throw new IndexerSettingsError(
      variable,
      `"${value}" is mixed-case with a wrong EIP-55 checksum (a mistyped address?): give it checksummed or all lower-case`,
    );
  if (value.toLowerCase() === ZERO_ADDRESS)
    throw new IndexerSettingsError(variable, "the zero address is not a contract");
  return value.toLowerCase() as Address;
}

function parseNonNegativeInt(variable: string, value: string, min = 0): number {
  if (!/^\d+$/.test(value))
    throw new IndexerSettingsError(variable, `expected a non-negative integer, got "${value}"`);
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min)
    throw new IndexerSettingsError(variable, `expected an integer >= ${min}, got "${value}"`);
  return n;
}

function parseBool(variable: string, value: string): boolean {
  if (value === "true" || value === "1") return true;
  if (value === "false" || value === "0") return false;
  throw new IndexerSettingsError(variable, `expected true or false, got "${value}"`);
}

/** True for RPC URLs on the loopback interface (a local chain). */
/**
 * `INDEXER_UNSAFE_SQL_ON_PGLITE`: whether SQL over HTTP is served on the embedded PGlite, which
 * cannot interrupt a statement (issue 13 re-probe 6, O2). Unset or empty: `false`.
 * @throws IndexerSettingsError for a value other than true/false/1/0.
 */
export function readUnsafeSqlOnPglite(env: Record<string, string | undefined>): boolean {
  const v = env.INDEXER_UNSAFE_SQL_ON_PGLITE?.trim();
  return v === undefined || v === "" ? false : parseBool("INDEXER_UNSAFE_SQL_ON_PGLITE", v);
}

/**
 * `INDEXER_SQL_ROLE`: the PostgreSQL role `/sql/db` statements run as, or undefined (unset or empty).
 * @throws IndexerSettingsError for a value that is not a plain role name (letters, digits, `_`, at most 63).
 */
export function readSqlRole(env: Record<string, string | undefined>): string | undefined {
  const v = env.INDEXER_SQL_ROLE?.trim();
  if (v === undefined || v === "") return undefined;
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(v))
    throw new IndexerSettingsError(
      "INDEXER_SQL_ROLE",
      `expected a role name (letters, digits, _), got "${v}"`,
    );
  return v;
}

export function isLoopbackRpc(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === "localhost" || host === "[::1]" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

/**
 * Resolves the settings.
 * @param env - the environment (usually `process.env`).
 * @param lookup - returns the address book entry for a key (`8453`, `84532`), or throws.
 * @throws IndexerSettingsError naming the variable that is missing or malformed.
 */
export function readIndexerSettings(
  env: Record<string, string | undefined>,
  lookup: (key: string) => ContractLocation,
): IndexerSettings {
  const get = (name: string): string | undefined => {
    const v = env[name];
    return v === undefined || v.trim() === "" ? undefined : v.trim();
  };

  const chainIdRaw = get("CHAIN_ID");
  const chainId = chainIdRaw === undefined ? 8453 : parseNonNegativeInt("CHAIN_ID", chainIdRaw, 1);
  if (chainId !== 8453 && chainId !== 84532) {
    throw new IndexerSettingsError(
      "CHAIN_ID",
      `expected 8453 (Base) or 84532 (Base Sepolia), got ${chainId}`,
    );
  }

  const rpcVar = `PONDER_RPC_URL_${chainId}`;
  const rpcUrl = get(rpcVar);
  if (rpcUrl === undefined) throw new IndexerSettingsError(rpcVar, "is required (the chain's JSON-RPC URL)");
  let rpcProtocol: string;
  try {
    rpcProtocol = new URL(rpcUrl).protocol;
  } catch {
    // not echoed: a provider's RPC URL carries its API key
    throw new IndexerSettingsError(rpcVar, "is not a URL (the value is not printed: it may carry a key)");
  }
  // Only an http(s) RPC goes through the origin-only transport (lib/rpcTransport.ts). Ponder logs a
  // failing ws:// or wss:// connection's WebSocket object whole, key included (probe11 O2).
  if (rpcProtocol !== "http:" && rpcProtocol !== "https:")
    throw new IndexerSettingsError(
      rpcVar,
      "must be an http:// or https:// URL: use your provider's http(s) endpoint (a ws:// or wss:// URL " +
        "would be logged whole, key included; the value is not printed)",
    );

  const bookKey = get("ADDRESS_BOOK") ?? String(chainId);
  if (bookKey !== "8453" && bookKey !== "84532")
    // probe31 B-F1: the README offered `local`, which no address book has
    throw new IndexerSettingsError(
      "ADDRESS_BOOK",
      `expected 8453 or 84532, got ${JSON.stringify(bookKey.slice(0, 40))}: a local node's deployment is not in ` +
        "the address book; set BOUNTY_ADDRESS, ANCHOR_REGISTRY_ADDRESS and START_BLOCK instead (README " +
        '"Running against the local chain")',
    );
  const needBook =
    get("BOUNTY_ADDRESS") === undefined ||
    get("ANCHOR_REGISTRY_ADDRESS") === undefined ||
    get("START_BLOCK") === undefined;
  let book: ContractLocation = { benchmarkBounty: null, anchorRegistry: null, startBlock: null };
  if (needBook) {
    try {
      book = lookup(bookKey);
    } catch (e) {
      throw new IndexerSettingsError(
        "ADDRESS_BOOK",
        `no address book entry "${bookKey}" (${(e as Error).message})`,
      );
    }
  }

  const addressFrom = (variable: string, fromBook: Address | null): Address => {
    const v = get(variable);
    if (v !== undefined) return parseAddress(variable, v);
    if (fromBook === null || fromBook.toLowerCase() === ZERO_ADDRESS) {
      throw new IndexerSettingsError(
        variable,
        `is not set and the address book entry "${bookKey}" has no address yet`,
      );
    }
    return parseAddress(`address book "${bookKey}"`, fromBook);
  };

  const bountyAddress = addressFrom("BOUNTY_ADDRESS", book.benchmarkBounty);
  const anchorRegistryAddress = addressFrom("ANCHOR_REGISTRY_ADDRESS", book.anchorRegistry);

  const startRaw = get("START_BLOCK");
  let startBlock: number;
  if (startRaw !== undefined) startBlock = parseNonNegativeInt("START_BLOCK", startRaw);
  else if (book.startBlock !== null) startBlock = book.startBlock;
  else
    throw new IndexerSettingsError(
      "START_BLOCK",
      `is not set and the address book entry "${bookKey}" has no start block`,
    );

  const loopback = isLoopbackRpc(rpcUrl);
  const pollRaw = get("PONDER_POLLING_INTERVAL_MS");
  const pollingIntervalMs =
    pollRaw === undefined
      ? loopback
        ? 250
        : 1000
      : parseNonNegativeInt("PONDER_POLLING_INTERVAL_MS", pollRaw, 50);
  const cacheRaw = get("PONDER_DISABLE_CACHE");
  const disableCache = cacheRaw === undefined ? loopback : parseBool("PONDER_DISABLE_CACHE", cacheRaw);
  const rangeRaw = get("PONDER_GETLOGS_BLOCK_RANGE");
  const ethGetLogsBlockRange =
    rangeRaw === undefined ? undefined : parseNonNegativeInt("PONDER_GETLOGS_BLOCK_RANGE", rangeRaw, 1);

  const databaseUrl = get("DATABASE_URL");
  let database: IndexerSettings["database"];
  if (databaseUrl !== undefined) {
    if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
      throw new IndexerSettingsError(
        "DATABASE_URL",
        "expected a postgres:// or postgresql:// connection string",
      );
    }
    database = { kind: "postgres", connectionString: databaseUrl };
  } else {
    const directory = get("PONDER_PGLITE_DIR");
    if (directory !== undefined) refuseNonDirectory("PONDER_PGLITE_DIR", directory);
    database = { kind: "pglite", directory };
  }

  return {
    chainId,
    rpcUrl,
    bountyAddress,
    anchorRegistryAddress,
    startBlock,
    pollingIntervalMs,
    disableCache,
    ethGetLogsBlockRange,
    unsafeSqlOnPglite: readUnsafeSqlOnPglite(env),
    sqlRole: readSqlRole(env),
    database,
  };
}
