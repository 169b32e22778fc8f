/**
 * The platform's state: one store on one SQL engine through Kysely, either an embedded SQLite file
 * (`<dir>/platform.sqlite`, better-sqlite3; runner checkpoints beside it in `<dir>/runs/`) or a
 * PostgreSQL database (`DATABASE_URL`, shared by several `serve` processes).
 *
 * Privacy: the store holds every benchmark's private gold, so what the platform creates under it is its
 * owner's only ({@link STORE_DIR_MODE} directories, {@link STORE_FILE_MODE} files: `platform.sqlite` and
 * its `-wal` / `-shm`, which SQLite creates with the database file's mode, the runner's checkpoints and
 * agent logs). An existing store that other users can reach is opened with a loud warning on stderr
 * naming the `chmod` that fixes it ({@link warnIfExposed}); it is not refused, so an upgrade never stops
 * a deployment whose bounties are open. Tables are reached only
 * through their data-access modules (`store/*.ts`, one per table); the schema comes from versioned
 * migrations (`store/migrations/`). Minted evidence packs live in the `packs` table.
 *
 * Durability: on SQLite a WAL journal with group commit (`store/wal-sync.ts`: a transaction or write
 * returns once an fsync of the WAL after its commit finished, so an acknowledged write survives a
 * crash or power loss; concurrent commits share one fsync, run off the event loop) and IMMEDIATE
 * transactions (the write lock is taken at BEGIN); on PostgreSQL its own WAL. Every multi-row change is one {@link Store.tx} (all or nothing), so a crash at any
 * point leaves the state before or after a step. Where two processes could race on PostgreSQL, rows
 * are locked (`FOR UPDATE`), constraints decide (one run in progress per agent, one answer per
 * ordinal, one award per benchmark, one anchor per digest), and a transaction that lost a
 * serialization or deadlock conflict is retried a bounded number of times.
 */
import { sql, type QueryExecutorProvider } from "kysely";
import { Migrator } from "kysely/migration";
import {
  accessSync,
  closeSync,
  constants as fsConstants,
  fsyncSync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  statSync,
  writeSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { PlatformError } from "./errors.js";
import { shellWord } from "./terminal.js";
import { AccountsTable } from "./store/accounts.js";
import { AgentsTable } from "./store/agents.js";
import { AnchorsTable } from "./store/anchors.js";
import { AnswerTotalsTable } from "./store/answer-totals.js";
import { AnswersTable } from "./store/answers.js";
import { AwardsTable } from "./store/awards.js";
import { BenchmarksTable } from "./store/benchmarks.js";
import { DatasetsTable } from "./store/datasets.js";
import {
  notAStore,
  openPostgres,
  openSqlite,
  storeBusy,
  type Engine,
  type OpenedEngine,
  type StoreTarget,
} from "./store/engine.js";
import type { Executor } from "./store/executor.js";
import { lockDirOf, takeFileLock } from "./store/file-lock.js";
import type { WalSync } from "./store/wal-sync.js";
import { LOCK_TIMEOUT, pastTxDeadline, withTxDeadline } from "./store/tx-deadline.js";
import { WriteSlots } from "./store/write-slots.js";
import { migrationsFor } from "./store/migrations/index.js";
import { PacksTable } from "./store/packs.js";
import { RunsTable } from "./store/runs.js";
import { TasksTable } from "./store/tasks.js";
import { VerificationJobsTable } from "./store/verification-jobs.js";

/** Mode of the directories the store creates (its directory, `runs/`): the owner's only. */
export const STORE_DIR_MODE = 0o700;

/** Mode of the files the store creates (`platform.sqlite`, checkpoints, agent logs): the owner's only. */
export const STORE_FILE_MODE = 0o600;

/** Schema version written in `meta.schema_version` by the migrations. */
export const SCHEMA_VERSION = "3";

/** Kysely's own bookkeeping tables (present, without the marker, while another process creates the store). */
const MIGRATOR_TABLES = ["kysely_migration", "kysely_migration_lock"];

/** Transactions retried after a serialization failure or a deadlock (PostgreSQL 40001 / 40P01). */
const TX_ATTEMPTS = 5;

/** Every table's data-access module over one executor (the store's database, or one transaction). */
export class Tables {
  /** The `accounts` and `api_keys` tables. */
  readonly accounts: AccountsTable;
  /** The `agents` table. */
  readonly agents: AgentsTable;
  /** The `datasets` and `dataset_rows` tables. */
  readonly datasets: DatasetsTable;
  /** The `benchmarks` table. */
  readonly benchmarks: BenchmarksTable;
  /** The `tasks` table. */
  readonly tasks: TasksTable;
  /** The `runs` table. */
  readonly runs: RunsTable;
  /** The `answers` table. */
  readonly answers: AnswersTable;
  /** The `answer_bytes_totals` table (the stored-answer quotas' counters). */
  readonly answerTotals: AnswerTotalsTable;
  /** The `anchors` table. */
  readonly anchors: AnchorsTable;
  /** The `awards` table. */
  readonly awards: AwardsTable;
  /** The `packs` table. */
  readonly packs: PacksTable;
  /** The `verification_jobs` table (the verifier worker's queue). */
  readonly verificationJobs: VerificationJobsTable;

  constructor(
    /** The Kysely executor these modules run on. */
    readonly db: Executor,
    /** The engine. */
    readonly engine: Engine,
  ) {
    this.accounts = new AccountsTable(db, engine);
    this.agents = new AgentsTable(db, engine);
    this.datasets = new DatasetsTable(db, engine);
    this.benchmarks = new BenchmarksTable(db, engine);
    this.tasks = new TasksTable(db, engine);
    this.runs = new RunsTable(db, engine);
    this.answers = new AnswersTable(db, engine);
    this.answerTotals = new AnswerTotalsTable(db, engine);
    this.anchors = new AnchorsTable(db, engine);
    this.awards = new AwardsTable(db, engine);
    this.packs = new PacksTable(db, engine);
    this.verificationJobs = new VerificationJobsTable(db, engine);
  }
}

/** Where to open a store: an SQLite directory, or any {@link StoreTarget}. */
export type StoreLocation = { dir: string } | StoreTarget;

const isRetryable = (e: unknown): boolean => {
  const code = (e as { code?: unknown }).code;
  return code === "40001" || code === "40P01";
};

/** An open store. Its table modules run outside any transaction; {@link Store.tx} gives them inside one. */
export class Store extends Tables {
  /** `sqlite /path/platform.sqlite` or `postgresql host:port/db` (never a password). */
  readonly description: string;
  private readonly localDir: string | null;
  private readonly checkpoints: string | null;
  /** The SQLite database file as opened (null on PostgreSQL). */
  private readonly sqliteFile: string | null;
  /** {@link withLock}'s holders by name: shared by every store of this process on one SQLite file. */
  private readonly locks: Map<string, Promise<unknown>>;
  /** SQLite: the directory of {@link withLock}'s lock files, across processes (null: `:memory:`, PostgreSQL). */
  private readonly lockDir: string | null;
  /** SQLite: the group commit (a transaction returns once its commit is on disk). */
  private readonly wal: WalSync | undefined;
  /** PostgreSQL: the pool's connections a request's write may hold (`store/write-slots.ts`). */
  private readonly writeSlots: WriteSlots | null;

  private constructor(opened: OpenedEngine, dir: string | null, runsDir: string | null) {
    super(opened.db, opened.engine);
    this.wal = opened.wal;
    this.writeSlots = opened.poolSize === undefined ? null : new WriteSlots(opened.poolSize);
    this.description = opened.description;
    this.localDir = dir;
    this.sqliteFile = opened.engine === "sqlite" ? opened.label : null;
    this.locks = sqliteLocksOf(this.sqliteFile);
    this.lockDir =
      this.sqliteFile === null || this.sqliteFile === ":memory:"
        ? null
        : lockDirOf(realFileOrSelf(this.sqliteFile));
    this.checkpoints = runsDir ?? (dir === null ? null : join(dir, "runs"));
  }

  /**
   * Opens (or creates) a store and brings its schema to the latest migration.
   *
   * A file that is not an SQLite database, or a non-empty database (the current schema on PostgreSQL)
   * without the store's marker `meta.schema_version` or with a version this build does not read, is
   * refused before anything is written to it: the store never extends someone else's database.
   * @param opts `existing: true` opens only an SQLite store that exists (read-only commands);
   *   `runsDir`: where the local runner keeps its checkpoints (default `<dir>/runs`; a PostgreSQL
   *   store has none unless given)
   * @throws PlatformError `invalid_option` when the directory cannot be created; `invalid_store` when
   *   the target is not a bench-bounty store or cannot be opened, naming the file or the URL (password
   *   redacted); `no_store` with `existing` when there is no `platform.sqlite` in `dir`
   */
  static async open(
    where: StoreLocation,
    opts: { existing?: boolean; runsDir?: string } = {},
  ): Promise<Store> {
    let dir: string | null = null;
    let opened: OpenedEngine;
    let localPaths: string[] = [];
    if ("dir" in where || where.engine === "sqlite") {
      let file: string;
      if ("dir" in where) {
        dir = where.dir;
        if (opts.existing) requireExistingStore(dir, "store");
        ensureWritableDir(dir, "store", STORE_DIR_MODE);
        ensureWritableDir(join(dir, "runs"), "store", STORE_DIR_MODE);
        file = join(dir, "platform.sqlite");
      } else file = where.file;
      createPrivateFile(file);
      opened = openSqlite(file);
      localPaths = dir === null ? [file] : [dir, join(dir, "runs"), file];
    } else opened = await openPostgres(where);
    try {
      refuseForeign(opened);
      warnIfExposed(localPaths); // only for a store of ours: a foreign file is refused in one line
      await migrate(opened);
      await opened.wal?.flush(); // the migrations' commits
    } catch (e) {
      await opened.db.destroy();
      throw e;
    }
    return new Store(opened, dir, opts.runsDir ?? null);
  }

  /** Directory of an SQLite store. @throws PlatformError `invalid_option` on PostgreSQL (no local directory) */
  get dir(): string {
    if (this.localDir === null)
      throw new PlatformError(
        "invalid_option",
        `the store ${this.description} has no local directory: the local runner needs --store DIR`,
        { field: "store" },
      );
    return this.localDir;
  }

  /**
   * Directory of the local runner's checkpoints (`<dir>/runs`, or the `runsDir` given at open).
   * @throws PlatformError `invalid_option` for a PostgreSQL store opened without one
   */
  get runsDir(): string {
    if (this.checkpoints === null)
      throw new PlatformError(
        "invalid_option",
        `the store ${this.description} has no local checkpoint directory: the local runner needs --store DIR`,
        { field: "store" },
      );
    return this.checkpoints;
  }

  /**
   * The local paths of the store, what a CLI agent must not see (issue 13 item 3): its directory, its
   * checkpoint directory, the database file itself, and the **real** directory of the database file
   * (symlinks resolved), where SQLite keeps the file's `-journal` (created at each write), `-wal` and
   * `-shm`: a `platform.sqlite` symlinked to another disk is hidden there too. Paths may overlap; the
   * sandbox (`hiddenMounts`) resolves and merges them. Empty for a PostgreSQL store without checkpoints.
   */
  get localPaths(): string[] {
    const paths: string[] = [];
    if (this.localDir !== null) paths.push(this.localDir);
    if (this.checkpoints !== null) paths.push(this.checkpoints);
    if (this.sqliteFile !== null && this.sqliteFile !== ":memory:") {
      const real = realFileOrSelf(this.sqliteFile);
      paths.push(real, dirname(real));
    }
    return paths;
  }

  /**
   * Runs `fn` in one transaction, all or nothing: IMMEDIATE on SQLite; on PostgreSQL READ COMMITTED,
   * with rows locked by the modules' `lock` reads, and retried up to 5 times after a serialization
   * failure or a deadlock (so `fn` must only touch the store). Inside `fn` use only the given
   * `Tables`: on SQLite the store's own modules wait for the transaction's connection. Returns once
   * the commit is on disk (SQLite: the group commit's fsync, shared with concurrent transactions).
   * @param opts.locksBy on PostgreSQL, a request's write: the transaction ends by this time (unix ms,
   *   wall clock), committed or not at all. Before each statement its `lock_timeout` and
   *   `statement_timeout` are the time left, and the time is checked again right before COMMIT
   *   (`store/tx-deadline.ts`; probe17 A-F2, probe19 A-F3: a write waited past its request's
   *   deadline, then wrote; probe21 A-F5: a `lock_timeout` set once bounded each of three waits, not
   *   their sum). It first takes, by then, a write slot of `opts.account` and one of the pool
   *   (`store/write-slots.ts`, probe21 A-F7: writes parked on a held row took every connection).
   *   Undefined: no bound (background work, the award, the CLI)
   * @param opts.account the account whose request writes (with `locksBy`; undefined: anonymous)
   * @throws PlatformError `server_busy` (nothing written) when `opts.locksBy` passes first (a lock wait,
   *   a slot, a statement, the COMMIT); on both engines when the transaction begins (gets its connection
   *   and, on SQLite, the write lock) at or past `opts.locksBy` (probe21 A-F10: a write queued past its
   *   request's answer committed); or on SQLite when another process holds the write lock past the busy
   *   wait (5 s)
   */
  async tx<T>(
    fn: (t: Tables) => Promise<T>,
    opts: { locksBy?: number | undefined; account?: string | undefined } = {},
  ): Promise<T> {
    const deadline = this.engine === "postgres" ? opts.locksBy : undefined;
    if (deadline === undefined || this.writeSlots === null) return this.txAttempts(fn, opts.locksBy);
    const slotted = await this.writeSlots.run(opts.account, deadline, () =>
      withTxDeadline(deadline, () => this.txAttempts(fn, opts.locksBy)),
    );
    if (!slotted.ran) throw storeBusy();
    return slotted.result;
  }

  /**
   * {@link tx}'s transaction, tried again after a serialization failure or a deadlock; refused
   * `server_busy` when it begins at or past `beginBy` (unix ms).
   */
  private async txAttempts<T>(fn: (t: Tables) => Promise<T>, beginBy: number | undefined): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await this.db.transaction().execute((trx) => {
          // begun past the deadline (SQLite: queued for the one connection, or the busy wait, behind
          // other writes): refused, rolled back, nothing written (probe21 A-F10)
          if (beginBy !== undefined && Date.now() >= beginBy) throw storeBusy();
          return fn(new Tables(trx, this.engine));
        });
        await this.wal?.flush();
        return result;
      } catch (e) {
        if (this.engine === "postgres" && beginBy !== undefined && pastTxDeadline(e)) throw storeBusy();
        if (attempt >= TX_ATTEMPTS || !isRetryable(e)) throw e;
        await new Promise((r) => setTimeout(r, 5 * attempt + Math.floor(Math.random() * 10)));
      }
    }
  }

  /**
   * Runs `fn` while holding the named lock, one holder at a time across processes: on PostgreSQL a
   * session advisory lock, released when `fn` ends or the holder's connection dies; on SQLite a lock
   * file of `<database file>-locks/` held by SQLite's own file lock (`store/file-lock.ts`, probe19
   * A-F9: it held only within the process, so the CLI's `award` beside a `serve` ran at the same time),
   * released when `fn` ends or the holder's process dies. Within the process the callers take their
   * turns in order first (every store this process opened on the same SQLite file shares them). The
   * award holds its benchmark's lock, an anchor flush `anchor-flush`, a publish under a budget for all
   * accounts `publish-budget`.
   * @param opts.waitMs wait at most this long (ms) for the lock (default: as long as it takes)
   * @throws LockWaitExpired when the lock is still held by another after `opts.waitMs`
   */
  async withLock<T>(name: string, fn: () => Promise<T>, opts: { waitMs?: number } = {}): Promise<T> {
    const deadline = opts.waitMs === undefined ? undefined : Date.now() + opts.waitMs;
    const prev = this.locks.get(name) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const chained = prev.then(() => mine);
    this.locks.set(name, chained);
    if (!(await settlesBy(prev, deadline))) {
      // the followers chained after this caller wait for `prev` alone; the entry stays until it settles
      release();
      throw new LockWaitExpired(name, opts.waitMs!);
    }
    try {
      if (this.engine !== "postgres") return await this.underLockFile(name, fn, deadline, opts.waitMs);
      return await this.db.connection().execute(async (conn) => {
        await advisoryLockBy(conn, name, deadline, opts.waitMs);
        try {
          return await fn();
        } finally {
          await sql`SELECT pg_advisory_unlock(hashtextextended(${name}, 0))`.execute(conn);
        }
      });
    } finally {
      release();
      if (this.locks.get(name) === chained) this.locks.delete(name);
    }
  }

  /** SQLite: runs `fn` holding the lock file `name` (none for `:memory:`). @throws LockWaitExpired */
  private async underLockFile<T>(
    name: string,
    fn: () => Promise<T>,
    deadline: number | undefined,
    waitMs: number | undefined,
  ): Promise<T> {
    if (this.lockDir === null) return fn();
    const held = await takeFileLock(this.lockDir, name, deadline, {
      dirMode: STORE_DIR_MODE,
      fileMode: STORE_FILE_MODE,
    });
    if (held === null) throw new LockWaitExpired(name, waitMs!);
    try {
      return await fn();
    } finally {
      held.release();
    }
  }

  /**
   * SQLite: the group commit's counters (commits written, commits on disk, fsyncs run, their total
   * and longest duration in ms), for tests and benchmarks; null on PostgreSQL.
   */
  walStats(): { written: number; durable: number; syncs: number; syncMs: number; maxSyncMs: number } | null {
    return this.wal?.stats() ?? null;
  }

  /** Closes the database (the pool on PostgreSQL). */
  async close(): Promise<void> {
    await this.db.destroy();
  }
}

/** {@link Store.withLock} gave up: another holder kept the lock longer than the caller would wait. */
export class LockWaitExpired extends Error {
  constructor(
    /** The lock's name. */
    readonly lock: string,
    /** How long the caller waited, in ms. */
    readonly waitMs: number,
  ) {
    super(`the lock ${lock} was held by another for more than ${waitMs} ms`);
    this.name = "LockWaitExpired";
  }
}

/** True once `p` settles, false if `deadline` (epoch ms; undefined: none) passes first. */
async function settlesBy(p: Promise<unknown>, deadline: number | undefined): Promise<boolean> {
  if (deadline === undefined) return p.then(() => true);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<boolean>(
    (r) => (timer = setTimeout(() => r(false), Math.max(0, deadline - Date.now()))),
  );
  try {
    return await Promise.race([p.then(() => true), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Takes the session advisory lock `name` on `conn`, waiting at most until `deadline` (PostgreSQL's
 * `lock_timeout` for this one statement; SQLSTATE 55P03 when it expires).
 * @throws LockWaitExpired when the deadline passes first
 */
async function advisoryLockBy(
  conn: QueryExecutorProvider,
  name: string,
  deadline: number | undefined,
  waitMs: number | undefined,
): Promise<void> {
  if (deadline === undefined) {
    await sql`SELECT pg_advisory_lock(hashtextextended(${name}, 0))`.execute(conn);
    return;
  }
  const left = Math.max(1, deadline - Date.now());
  await sql`SELECT set_config('lock_timeout', ${`${left}ms`}, false)`.execute(conn);
  try {
    await sql`SELECT pg_advisory_lock(hashtextextended(${name}, 0))`.execute(conn);
  } catch (e) {
    if ((e as { code?: unknown }).code === LOCK_TIMEOUT) throw new LockWaitExpired(name, waitMs!);
    throw e;
  } finally {
    await sql`SELECT set_config('lock_timeout', '0', false)`.execute(conn);
  }
}

/** SQLite: {@link Store.withLock}'s holders of each database file (by real path) open in this process. */
const SQLITE_LOCKS = new Map<string, Map<string, Promise<unknown>>>();

/** The lock holders of a store: those of its SQLite file (shared), else its own. */
function sqliteLocksOf(file: string | null): Map<string, Promise<unknown>> {
  if (file === null || file === ":memory:") return new Map();
  const key = realFileOrSelf(file);
  let locks = SQLITE_LOCKS.get(key);
  if (locks === undefined) SQLITE_LOCKS.set(key, (locks = new Map()));
  return locks;
}

/** Refuses a database that holds tables but is not a store of a version this build reads. */
function refuseForeign(o: OpenedEngine): void {
  const foreign = o.tables.filter((t) => !MIGRATOR_TABLES.includes(t));
  if (foreign.length === 0) return;
  const kind = o.engine === "sqlite" ? "an SQLite database" : "a PostgreSQL schema";
  if (o.version === undefined)
    throw notAStore(
      o.label,
      `${kind} without the store's marker meta.schema_version (tables: ${foreign.join(", ")})`,
    );
  if (o.version === "2")
    throw notAStore(
      o.label,
      `schema version 2 (an earlier build's store, packs kept as files); this platform reads version ${SCHEMA_VERSION} and does not migrate version 2: publish into a new store`,
    );
  if (o.version !== SCHEMA_VERSION)
    throw notAStore(o.label, `schema version ${o.version}, this platform reads version ${SCHEMA_VERSION}`);
}

/** Durability pragmas (SQLite), then every pending migration. @throws PlatformError `invalid_store` */
async function migrate(o: OpenedEngine): Promise<void> {
  if (o.engine === "sqlite") {
    const mode = await sql<{ journal_mode: string }>`PRAGMA journal_mode = WAL`.execute(o.db);
    // Group commit (store/wal-sync.ts) needs the WAL: elsewhere every COMMIT syncs by itself.
    const wal = mode.rows[0]?.journal_mode === "wal";
    if (!wal) o.wal?.disable();
    await sql.raw(`PRAGMA synchronous = ${wal ? "NORMAL" : "FULL"}`).execute(o.db);
    await sql`PRAGMA foreign_keys = ON`.execute(o.db);
  }
  // On PostgreSQL the migrator's tables live in the store's own schema (it would otherwise take
  // another schema's `kysely_migration` for its own).
  const migrator = new Migrator({
    db: o.db,
    provider: migrationsFor(o.engine),
    ...(o.schema !== undefined ? { migrationTableSchema: o.schema } : {}),
  });
  const { error } = await migrator.migrateToLatest();
  if (error !== undefined)
    throw new PlatformError(
      "invalid_store",
      `cannot migrate the store ${o.label}: ${(error as Error).message ?? String(error)}`,
      {
        field: "store",
        path: o.label,
      },
    );
}

/**
 * Writes a file so that a crash leaves either the old content or the whole new content: the bytes go
 * to `<path>.tmp-<pid>`, are fsync'd, the file is renamed over `path` (atomic on POSIX), and the
 * directory is fsync'd so the rename itself is durable. The file is the owner's only
 * ({@link STORE_FILE_MODE}; a checkpoint holds the run's answers), a directory it creates too
 * ({@link STORE_DIR_MODE}).
 */
export function writeFileDurably(path: string, bytes: Uint8Array | string): void {
  const data = typeof bytes === "string" ? Buffer.from(bytes, "utf8") : bytes;
  const tmp = `${path}.tmp-${process.pid}`;
  mkdirSync(dirname(path), { recursive: true, mode: STORE_DIR_MODE });
  const fd = openSync(tmp, "w", STORE_FILE_MODE);
  try {
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  const dfd = openSync(dirname(path), "r");
  try {
    fsyncSync(dfd);
  } finally {
    closeSync(dfd);
  }
}

/**
 * Makes sure `dir` holds a store (`platform.sqlite`) without creating anything: for commands that only
 * read, or need a benchmark that is already stored.
 * @param option the option that named `dir` (`--store`), used in the message
 * @throws PlatformError `no_store` naming `option` and `dir` when `dir` or its `platform.sqlite` does
 *   not exist; `invalid_option` (as {@link ensureWritableDir}) when `dir` or a level above it is a file
 */
export function requireExistingStore(dir: string, option: string): void {
  const missing = (): never => {
    throw new PlatformError(
      "no_store",
      `${option} ${dir}: no store at ${dir} (no platform.sqlite; publish creates one)`,
      { field: option, path: dir },
    );
  };
  try {
    statSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") missing();
  }
  // Exists (or a level is a file): refuses a file without creating anything, since dir exists or an
  // ancestor is not a directory.
  ensureWritableDir(dir, option);
  let isFile: boolean;
  try {
    isFile = statSync(join(dir, "platform.sqlite")).isFile();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") throw e;
    isFile = false;
  }
  if (!isFile) missing();
}

/**
 * Makes sure `dir` is a writable directory, creating it (and missing parents) level by level.
 *
 * Walks up to the nearest existing ancestor, requires it to be a writable directory, then creates each
 * missing level with a plain (non-recursive) `mkdir`, stopping on the first unexpected error. This avoids
 * Node's recursive mkdir, which loops forever on some pseudo filesystems (`/proc`).
 * @param option the option or field that named `dir` (`--store`, `--out`), used in the message
 * @param mode mode of the levels it creates (default 0o777 less the umask, as `mkdir`; the store passes
 *   {@link STORE_DIR_MODE}); an existing level is left as it is
 * @throws PlatformError `invalid_option` naming `option` when a level is not a directory, the nearest
 *   existing ancestor is not writable, or a level cannot be created
 */
export function ensureWritableDir(dir: string, option: string, mode = 0o777): void {
  const target = resolve(dir);
  const missing: string[] = [];
  let cur = target;
  const refuse = (why: string): never => {
    throw new PlatformError("invalid_option", `${option} ${dir}: ${why}`, { field: option });
  };
  for (;;) {
    let st;
    try {
      st = statSync(cur);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // ENOTDIR: some level above is a file; keep walking up to name it.
      if (code === "ENOENT" || code === "ENOTDIR") {
        const parent = dirname(cur);
        if (parent === cur) refuse("no existing ancestor directory");
        missing.push(cur);
        cur = parent;
        continue;
      }
      refuse(`cannot inspect ${cur} (${code ?? (e as Error).message})`);
    }
    if (!st!.isDirectory())
      refuse(cur === target ? "exists and is not a directory" : `${cur} exists and is not a directory`);
    try {
      accessSync(cur, fsConstants.W_OK | fsConstants.X_OK);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "EACCES" && code !== "EROFS" && code !== "EPERM") throw e;
      refuse(`${cur} is not writable`);
    }
    break;
  }
  for (const level of missing.reverse()) {
    try {
      mkdirSync(level, { mode });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "EEXIST") {
        let isDir: boolean;
        try {
          isDir = statSync(level).isDirectory();
        } catch (e2) {
          const c2 = (e2 as NodeJS.ErrnoException).code;
          if (c2 !== "ENOENT" && c2 !== "ENOTDIR") throw e2;
          isDir = false;
        }
        if (isDir) continue;
      }
      refuse(`cannot create ${level} (${code ?? (e as Error).message})`);
    }
  }
}

/**
 * Creates an empty `file` with {@link STORE_FILE_MODE} when it does not exist, so that SQLite (which
 * otherwise creates it 0644, and its `-wal` / `-shm` with the same mode) opens a file only its owner
 * reads. An existing file is left as it is; any other error is left to SQLite's open to report.
 */
function createPrivateFile(file: string): void {
  try {
    closeSync(
      openSync(file, fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_WRONLY, STORE_FILE_MODE),
    );
  } catch (e) {
    if (typeof (e as NodeJS.ErrnoException).code !== "string") throw e;
  }
}

const warnedExposed = new Set<string>();

/**
 * Writes one warning per path and process to stderr for each of `paths` (the store's directory, its
 * `runs/`, its database file) that its group or other users may read, write or enter, naming the
 * `chmod` that fixes it. Missing paths are skipped.
 * @returns the exposed paths (for tests)
 */
export function warnIfExposed(paths: readonly string[]): string[] {
  const exposed: string[] = [];
  for (const path of paths) {
    let st;
    try {
      st = statSync(path);
    } catch (e) {
      if (typeof (e as NodeJS.ErrnoException).code !== "string") throw e;
      continue;
    }
    if ((st.mode & 0o077) === 0) continue;
    exposed.push(path);
    if (warnedExposed.has(path)) continue;
    warnedExposed.add(path);
    // quoted (probeD3 F13: a path with a space did not paste); the file's `*` stays outside the quotes
    const fix = st.isDirectory()
      ? `chmod ${STORE_DIR_MODE.toString(8)} ${shellWord(path)}`
      : `chmod ${STORE_FILE_MODE.toString(8)} ${shellWord(path)}*`;
    process.stderr.write(
      `warning: ${path} is readable by other users (mode ${(st.mode & 0o777).toString(8)}) and the store holds every benchmark's private gold: run ${fix}\n`,
    );
  }
  return exposed;
}

/** The real path of a file (symlinks resolved), or its absolute path when it does not exist (yet). */
function realFileOrSelf(file: string): string {
  try {
    return realpathSync(resolve(file));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    return resolve(file);
  }
}
