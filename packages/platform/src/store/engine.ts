/**
 * The two engines under one Kysely database: SQLite (better-sqlite3, one file, WAL + group commit
 * (`wal-sync.ts`: `synchronous = NORMAL` and one fsync off the event loop per group of commits, each
 * write acknowledged once on disk) + foreign keys + a busy timeout) and PostgreSQL (a `pg` Pool, 64-bit integers
 * read as numbers). Opening checks that the target is empty or a bench-bounty store of a version this
 * build reads before anything is written to it.
 */
import { realpathSync } from "node:fs";
import BetterSqlite3 from "better-sqlite3";
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
} from "kysely";
import type pg from "pg";
import { PlatformError } from "../errors.js";
import type { Database } from "./schema.js";
import { NulTextDialect } from "./nul-text.js";
import { WalSync } from "./wal-sync.js";

/** The engine of a store. */
export type Engine = "sqlite" | "postgres";

/** Where a store lives: an SQLite file, or a PostgreSQL database (optionally one schema of it). */
export type StoreTarget =
  | { engine: "sqlite"; file: string }
  | { engine: "postgres"; url: string; schema?: string; poolSize?: number };

/** What is printed of a PostgreSQL URL pg cannot read: nothing of it (probe16 B-F2). */
const UNREADABLE_URL = "DATABASE_URL: not a PostgreSQL URL pg can read (the value is not shown)";

/**
 * `host:port/database` of a PostgreSQL URL (no user, no password): what `serve` prints. A URL the URL
 * parser refuses (a port over 65535, an unclosed `[`, libpq's multi-host form) is not shown at all: its
 * user and host would be (probe16 B-F2).
 */
export function describePostgres(url: string, schema?: string): string {
  try {
    const u = new URL(url);
    return `postgresql ${u.hostname}${u.port ? `:${u.port}` : ""}${u.pathname}${schema ? ` (schema ${schema})` : ""}`;
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return "postgresql (DATABASE_URL, not shown: the URL parser refuses it)";
  }
}

/** What a PostgreSQL SQLSTATE or a socket error code means, in words that quote nothing of the server's text. */
const POSTGRES_FAILURES: Readonly<Record<string, string>> = {
  "28P01": "authentication failed: check the user and password",
  "28000": "authentication failed: the server accepts no such user or host",
  "3D000": "no such database",
  // the session connected, but its search path (`-c search_path=` in the URL's options, or the store's `schema`)
  // names no existing schema: nothing to read or create the store's tables in (probe17 B-F8)
  "3F000":
    "the store's schema cannot be used: the search path (DATABASE_URL's options, or the schema the store is opened in) names no existing schema",
  // query_canceled: a statement timeout set for the session cancels the store's queries (probe17 B-F8)
  "57014":
    "a statement timeout (statement_timeout in DATABASE_URL's options, or the role's or database's setting) cancels the store's queries",
  "22023": "a connection parameter (options) has an invalid value",
  "42704": "a connection parameter (options) is unknown",
  "42501": "permission denied",
  "53300": "too many connections",
  "57P03": "the server is starting up or shutting down",
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host not found",
  ETIMEDOUT: "timed out",
  EHOSTUNREACH: "host unreachable",
  ECONNRESET: "the connection was reset",
  // pg reads the files of `sslcert`, `sslkey` and `sslrootcert` when it parses the URL
  ENOENT: "a file the URL's ssl parameters name cannot be read",
  EACCES: "a file the URL's ssl parameters name cannot be read",
  EISDIR: "a file the URL's ssl parameters name cannot be read",
};

/**
 * Why a PostgreSQL connection or its first queries failed, in words of this project and the error's
 * code, never PostgreSQL's own text: the server quotes connection parameters in it (`invalid value for
 * parameter "search_path": "..."` echoed a masked `?options=`, `password authentication failed for user
 * "..."` the user; probe15 B-F15).
 */
export function postgresFailure(e: unknown): string {
  const code = (e as { code?: unknown }).code;
  if (typeof code !== "string")
    return "cannot connect (the server's message is not shown: it may quote DATABASE_URL)";
  const words = POSTGRES_FAILURES[code];
  const kind = /^[0-9A-Z]{5}$/.test(code) ? `SQLSTATE ${code}` : code;
  return `${words ?? "refused by the server"} (${kind})`;
}

/**
 * A write refused because another writer held the store's lock too long (SQLite's busy timeout,
 * PostgreSQL's `lock_timeout` set from a caller's deadline): nothing was written.
 * @returns PlatformError `server_busy`, `details: {retry_after_seconds: 5}`
 */
export function storeBusy(): PlatformError {
  return new PlatformError(
    "server_busy",
    "the store is busy: another writer held its lock too long and nothing was written; retry later",
    { retry_after_seconds: 5 },
  );
}

/**
 * A request's write refused because its own rows took longer to insert than the request allows (the
 * deadline passed during {@link insertInChunks}' statements, which wait on no other writer: fresh rows of
 * a new dataset or benchmark), not because of another writer (probe29 A-F4: a 63 MB upload on PostgreSQL
 * was told `server_busy` "another writer held its lock too long" though none was there, and a retry
 * failed the same way). Nothing was written; retrying the same write will not help.
 * @param what what was being inserted (`the dataset's rows`, `the benchmark's tasks`)
 * @param rows how many rows it had
 * @returns PlatformError `write_too_long`, `details: {limit: "request_deadline", rows}`
 */
export function writeTooLong(what: string, rows: number): PlatformError {
  return new PlatformError(
    "write_too_long",
    `${what} (${rows} rows) took longer to insert than one request allows, and nothing was written: ` +
      "this is its size, not a busy store, so the same request fails again. Send a smaller one, or write it " +
      "where no request deadline applies (the CLI on the store)",
    { limit: "request_deadline", rows },
  );
}

/**
 * How long (ms) a SQLite statement waits in all for the write lock another process holds, the event loop
 * free, before it is refused `server_busy` (the busy timeout of opening the store, synchronous, is the
 * same 5 s: it runs once, before anything is served).
 */
export const SQLITE_BUSY_WAIT_MS = 5_000;

/**
 * The turns of a SQLite store's one connection, first asked first served: Kysely's own mutex (off:
 * {@link OwnTurnsSqliteAdapter}) is held from acquiring the connection to releasing it, so a write waiting
 * for another process's lock kept every read out for its whole wait (probe21 A-F1/B-F3).
 */
class ConnectionTurns {
  private held = false;
  private readonly waiting: (() => void)[] = [];
  /** Resolves once the caller has the connection (after those who asked before). */
  take(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((r) => this.waiting.push(r));
  }
  /** Hands the connection to the next who asked, or frees it. */
  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
  }
}

/** SQLite's adapter, with the one connection's turns kept by {@link ImmediateSqliteDriver}, not Kysely. */
class OwnTurnsSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true; // not so: the driver hands its one connection out in turns itself (ConnectionTurns)
  }
}

/** The SQLite driver with IMMEDIATE transactions: the write lock is taken at BEGIN, not at the first write. */
class ImmediateSqliteDriver extends SqliteDriver {
  private readonly turns = new ConnectionTurns();
  constructor(
    private readonly database: ReturnType<typeof withStatementCache>,
    private readonly wal: WalSync,
  ) {
    super({ database });
  }
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
  /**
   * The one connection, in turn ({@link ConnectionTurns}). A statement that finds the write lock held by
   * another process (`SQLITE_BUSY` at once: the busy timeout is 0 once the store is open) is tried again
   * after a pause that grows to 100 ms, the event loop free meanwhile (probe20 F3: SQLite's own busy
   * timeout waited synchronously, and an unrelated read waited 23 s), for {@link SQLITE_BUSY_WAIT_MS}
   * from its first try; then it is refused as {@link storeBusy} (probe17 A-F7: a 500 with a stack). A
   * statement refused busy did nothing, so trying it again is safe; in a transaction only its `begin
   * immediate` meets the lock. Outside a transaction (a `begin immediate` refused busy opened none) the
   * connection is handed on during each pause (probe21 A-F1/B-F3): reads (WAL: they never need the
   * lock) answer while writes wait, and the writes waiting wait side by side, not one after the other.
   */
  override async acquireConnection(): Promise<DatabaseConnection> {
    await this.turns.take();
    const c = await super.acquireConnection();
    return {
      executeQuery: async (query) => {
        const giveUpAt = Date.now() + SQLITE_BUSY_WAIT_MS;
        for (let pause = 5; ; pause = Math.min(100, pause * 2)) {
          try {
            return await c.executeQuery(query);
          } catch (e) {
            if ((e as { code?: unknown }).code !== "SQLITE_BUSY") throw e;
            if (Date.now() >= giveUpAt) throw storeBusy();
            await this.pauseBetweenTries(pause);
          }
        }
      },
      streamQuery: (query, chunkSize) => c.streamQuery(query, chunkSize),
    };
  }
  /** Waits `ms`, handing the connection on meanwhile unless a transaction is open on it. */
  private async pauseBetweenTries(ms: number): Promise<void> {
    const handOn = !this.database.inTransaction;
    if (handOn) this.turns.give();
    try {
      await new Promise((r) => setTimeout(r, ms));
    } finally {
      if (handOn) await this.turns.take();
    }
  }
  /**
   * An autocommit write (outside any transaction) is acknowledged once on disk: its fsync is waited
   * for here, holding the connection (they are few: accounts, keys, agents). A transaction's commit
   * is waited for by `Store.tx` once the connection is free, so concurrent commits share an fsync.
   */
  override async releaseConnection(): Promise<void> {
    try {
      if (this.wal.takeAutocommit()) await this.wal.flush();
    } finally {
      this.turns.give();
    }
  }
}

/** Prepared statements kept per SQLite store (distinct SQL texts of the store's queries: a few dozen). */
const STATEMENTS_CACHED = 512;

/** What a statement does to the WAL: `commit` ends a transaction, `autocommit` writes outside one. */
type WalEffect = "none" | "commit" | "write";

function walEffectOf(sql: string, stmt: BetterSqlite3.Statement): WalEffect {
  if (/^\s*commit\b/i.test(sql)) return "commit";
  if (stmt.reader || /^\s*(begin|rollback|savepoint|release|pragma)\b/i.test(sql)) return "none";
  return "write";
}

/**
 * The database as Kysely's SQLite driver sees it, with its prepared statements reused: the driver
 * prepares every query it runs, which costs more than running the store's small indexed queries
 * (bench:api). Safe because the driver only runs statements to completion (`all`, `run`; the store
 * never streams), and SQLite re-prepares a statement by itself after a schema change. Each COMMIT
 * and each write outside a transaction is counted in `wal` (`prepare` is called right before the
 * statement runs).
 */
function withStatementCache(sqlite: BetterSqlite3.Database, wal: WalSync) {
  const statements = new Map<string, { stmt: BetterSqlite3.Statement; effect: WalEffect }>();
  return {
    prepare(sql: string): BetterSqlite3.Statement {
      let hit = statements.get(sql);
      if (hit === undefined) {
        const stmt = sqlite.prepare(sql);
        hit = { stmt, effect: walEffectOf(sql, stmt) };
        if (statements.size >= STATEMENTS_CACHED) statements.delete(statements.keys().next().value!);
        statements.set(sql, hit);
      }
      if (hit.effect === "commit") wal.wrote();
      else if (hit.effect === "write" && !sqlite.inTransaction) wal.wrote({ autocommit: true });
      return hit.stmt;
    },
    /** True while a transaction is open on the connection. */
    get inTransaction(): boolean {
      return sqlite.inTransaction;
    },
    close(): void {
      statements.clear();
      sqlite.close();
      wal.close();
    },
  };
}

class ImmediateSqliteDialect extends SqliteDialect {
  private readonly sqlite: ReturnType<typeof withStatementCache>;
  constructor(
    sqlite: BetterSqlite3.Database,
    private readonly wal: WalSync,
  ) {
    const cached = withStatementCache(sqlite, wal);
    super({ database: cached });
    this.sqlite = cached;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.sqlite, this.wal);
  }
  override createAdapter(): SqliteAdapter {
    return new OwnTurnsSqliteAdapter();
  }
}

/** An opened engine: the Kysely database and what the store checks before migrating. */
export interface OpenedEngine {
  engine: Engine;
  db: Kysely<Database>;
  /** Names of the tables already there (the current schema on PostgreSQL). */
  tables: string[];
  /** `meta.schema_version`, when there is a `meta` table with it. */
  version: string | undefined;
  /** What to name in messages: the file, or the redacted URL. */
  label: string;
  /** Human description: `sqlite /path` or `postgresql host:port/db`. */
  description: string;
  /** PostgreSQL: the schema the store lives in (`current_schema()`), where the migrator keeps its tables. */
  schema?: string;
  /** SQLite: the group commit of its WAL (`Store.tx` waits for its flush before returning). */
  wal?: WalSync;
  /** PostgreSQL: the pool's size (connections), which `Store.tx` shares out (`write-slots.ts`). */
  poolSize?: number;
}

/** The refusal of a target that is not a bench-bounty store. */
export function notAStore(label: string, why: string, details: Record<string, unknown> = {}): PlatformError {
  return new PlatformError("invalid_store", `${label} is not a bench-bounty store: ${why}`, {
    field: "store",
    path: label,
    ...details,
  });
}

/** Opens the SQLite file; reads (never writes) its tables and marker. @throws PlatformError `invalid_store` */
export function openSqlite(file: string): OpenedEngine {
  let sqlite: BetterSqlite3.Database | undefined;
  try {
    sqlite = new BetterSqlite3(file);
    sqlite.pragma("busy_timeout = 5000");
    // Read before any write: a file that is not a database throws here (SQLITE_NOTADB).
    const tables = (
      sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
        name: string;
      }[]
    ).map((t) => t.name);
    const version = tables.includes("meta")
      ? (
          sqlite.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as
            | { value: string }
            | undefined
        )?.value
      : undefined;
    // from here on a statement meets a held write lock at once and waits for it without blocking the
    // event loop (ImmediateSqliteDriver, SQLITE_BUSY_WAIT_MS)
    sqlite.pragma("busy_timeout = 0");
    // SQLite keeps the -wal beside the real file when platform.sqlite is a symlink
    const wal = new WalSync(`${realpathSync(file)}-wal`);
    return {
      engine: "sqlite",
      db: new Kysely<Database>({
        dialect: new NulTextDialect(new ImmediateSqliteDialect(sqlite, wal)),
      }),
      wal,
      tables,
      version,
      label: file,
      description: `sqlite ${file}`,
    };
  } catch (e) {
    if (sqlite?.open) sqlite.close();
    const code = (e as { code?: unknown }).code;
    if (code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT")
      throw notAStore(file, (e as Error).message, { sqlite_code: code });
    if (typeof code === "string" && code.startsWith("SQLITE_"))
      throw new PlatformError("invalid_store", `cannot open ${file}: ${(e as Error).message}`, {
        field: "store",
        path: file,
        sqlite_code: code,
      });
    throw e;
  }
}

const INT8_OID = 20;

/** Type parsers of the store's pool: int8 (counts, unix ms, blocks) as a JS number, not a string. */
const storeTypes = (types: typeof pg.types) => ({
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === INT8_OID && format !== "binary") return (v: string) => Number(v);
    return types.getTypeParser(oid, format as "text");
  },
});

const SCHEMA_RE = /^[a-z_][a-z0-9_]{0,62}$/;

/** Connections of a PostgreSQL store's pool unless its target names another size. */
export const DEFAULT_POOL_SIZE = 10;

/**
 * Refuses a database whose transactions are read-only (a standby, or `default_transaction_read_only`
 * in the URL's `options` or the server's settings): every command writes (an account, a run, a
 * migration), and the first write would fail as `cannot execute INSERT in a read-only transaction`,
 * an internal error (probe16 B-F11). `label` names the store (no user, no password).
 * @throws PlatformError `invalid_store` (SQLSTATE 25006, read-only SQL transaction) naming the database
 */
async function refuseReadOnly(pool: pg.Pool, label: string): Promise<void> {
  const { rows } = await pool.query<{ read_only: string; standby: boolean }>(
    "SELECT current_setting('transaction_read_only') AS read_only, pg_is_in_recovery() AS standby",
  );
  const row = rows[0];
  if (row?.read_only !== "on" && row?.standby !== true) return;
  throw new PlatformError(
    "invalid_store",
    `the PostgreSQL store ${label} is read-only (${row.standby ? "a standby in recovery" : "default_transaction_read_only is on"}): DATABASE_URL must name a writable primary`,
    { field: "DATABASE_URL", path: label, pg_code: "25006" },
  );
}

/**
 * Opens a pool on the PostgreSQL database (one `schema` of it when given: the search path of every
 * connection); reads its tables and marker. @throws PlatformError `invalid_store` (unreachable,
 * refused credentials, no such database), naming the redacted URL
 */
export async function openPostgres(target: {
  url: string;
  schema?: string;
  poolSize?: number;
}): Promise<OpenedEngine> {
  // the store's name in its refusals (`cannot migrate the store ...`): never the user (probe16 B-F2)
  const label = describePostgres(target.url, target.schema);
  if (target.schema !== undefined && !SCHEMA_RE.test(target.schema))
    throw new PlatformError("invalid_option", `schema ${target.schema} must match ${SCHEMA_RE}`, {
      field: "schema",
    });
  // Loaded on first use: the CLI's SQLite commands never pay for the PostgreSQL client.
  const { default: pgm } = await import("pg");
  const pool = new pgm.Pool({
    connectionString: target.url,
    max: target.poolSize ?? DEFAULT_POOL_SIZE,
    types: storeTypes(pgm.types),
    ...(target.schema ? { options: `-c search_path=${target.schema}` } : {}),
  });
  // An idle client's error (the server restarted) must not crash the process: the next query fails.
  pool.on("error", () => undefined);
  const db = new Kysely<Database>({
    dialect: new NulTextDialect(new PostgresDialect({ pool })),
  });
  try {
    const schema = (await pool.query<{ s: string }>("SELECT current_schema() AS s")).rows[0]?.s;
    // current_schema() is null when no schema of the search path exists: PostgreSQL's invalid_schema_name
    if (!schema) throw Object.assign(new Error("no current schema"), { code: "3F000" });
    await refuseReadOnly(pool, label);
    const tables = (
      await pool.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name",
      )
    ).rows.map((r) => r.table_name);
    const version = tables.includes("meta")
      ? (await pool.query<{ value: string }>("SELECT value FROM meta WHERE key = 'schema_version'")).rows[0]
          ?.value
      : undefined;
    return {
      engine: "postgres",
      db,
      tables,
      version,
      label,
      description: describePostgres(target.url, target.schema),
      schema,
      poolSize: target.poolSize ?? DEFAULT_POOL_SIZE,
    };
  } catch (e) {
    await db.destroy();
    if (e instanceof PlatformError) throw e;
    const code = (e as { code?: unknown }).code;
    // pg parses the URL on the first connection: a URL it cannot read was never sent to a server
    if (code === "ERR_INVALID_URL")
      throw new PlatformError("invalid_store", UNREADABLE_URL, { field: "DATABASE_URL" });
    const shown = describePostgres(target.url, target.schema);
    throw new PlatformError(
      "invalid_store",
      `cannot open the PostgreSQL store ${shown}: ${postgresFailure(e)}`,
      {
        field: "DATABASE_URL",
        path: shown,
        ...(typeof code === "string" ? { pg_code: code } : {}),
      },
    );
  }
}
