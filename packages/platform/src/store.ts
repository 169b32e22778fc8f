/**
 * The platform's state: one SQLite file per store (`<dir>/platform.sqlite`, better-sqlite3), plus the
 * minted packs (`<dir>/packs/<slug>.json`) and runner checkpoints (`<dir>/runs/<run_id>.json`).
 *
 * Durability: WAL journal with `synchronous = FULL` (a committed transaction survives a crash or power
 * loss), every multi-row change in one transaction, and files written with {@link writeFileDurably}
 * (write to a temporary file, fsync, atomic rename, fsync the directory). A crash at any point leaves
 * either the state before or the state after a step, never a half-written one.
 */
import Database from "better-sqlite3";
import {
  accessSync,
  closeSync,
  constants as fsConstants,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  statSync,
  writeSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { PlatformError } from "./errors.js";
import { OPERATOR_ACCOUNT_ID } from "./identity/principal.js";
import { AccountsTable } from "./store/accounts.js";
import { AgentsTable } from "./store/agents.js";

/** Schema version written in `meta.schema_version`. */
export const SCHEMA_VERSION = "2";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS accounts (
  account_id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  roles_json TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS api_keys (
  key_prefix TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(account_id),
  key_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE TABLE IF NOT EXISTS datasets (
  dataset_id TEXT PRIMARY KEY,
  owner_account_id TEXT NOT NULL REFERENCES accounts(account_id),
  name TEXT NOT NULL,
  description TEXT,
  label_policy TEXT,
  options_json TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  row_count INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS dataset_rows (
  dataset_id TEXT NOT NULL REFERENCES datasets(dataset_id),
  row_index INTEGER NOT NULL,
  row_hash TEXT NOT NULL,
  body_json TEXT NOT NULL,
  PRIMARY KEY (dataset_id, row_index)
);
CREATE TABLE IF NOT EXISTS benchmarks (
  slug TEXT PRIMARY KEY,
  dataset_id TEXT NOT NULL UNIQUE REFERENCES datasets(dataset_id),
  author_account_id TEXT NOT NULL REFERENCES accounts(account_id),
  title TEXT NOT NULL,
  config_json TEXT NOT NULL,
  commit_root TEXT NOT NULL,
  leaf_count INTEGER NOT NULL,
  public_count INTEGER NOT NULL,
  private_count INTEGER NOT NULL,
  plan_seed TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('published', 'closed', 'awarded')),
  created_at TEXT NOT NULL,
  closed_at TEXT,
  commitment_anchor_json TEXT,
  bounty_json TEXT,
  board_version INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS tasks (
  slug TEXT NOT NULL REFERENCES benchmarks(slug),
  ordinal INTEGER NOT NULL,
  prompt TEXT NOT NULL,
  prompt_hash TEXT NOT NULL,
  gold_json TEXT NOT NULL,
  salt TEXT NOT NULL,
  visibility TEXT NOT NULL CHECK (visibility IN ('public', 'private')),
  grader_type TEXT NOT NULL,
  row_index INTEGER NOT NULL,
  PRIMARY KEY (slug, ordinal)
);
CREATE TABLE IF NOT EXISTS agents (
  agent_id TEXT PRIMARY KEY,
  owner_account_id TEXT NOT NULL REFERENCES accounts(account_id),
  withdrawal_address TEXT,
  is_author_agent INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS runs (
  run_id TEXT PRIMARY KEY,
  slug TEXT NOT NULL REFERENCES benchmarks(slug),
  agent_id TEXT NOT NULL REFERENCES agents(agent_id),
  account_id TEXT NOT NULL REFERENCES accounts(account_id),
  attempt INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('in_progress', 'finalized')),
  plan_json TEXT NOT NULL,
  started_at_ms INTEGER NOT NULL,
  finalized_at_ms INTEGER,
  answer_salt TEXT,
  receipt_json TEXT,
  receipt_hash TEXT,
  rank_accuracy TEXT,
  score_public TEXT,
  score_composite TEXT,
  score_composite_public TEXT,
  wall_seconds TEXT,
  queries_used INTEGER,
  usdc_spent TEXT,
  UNIQUE (slug, agent_id, attempt)
);
CREATE UNIQUE INDEX IF NOT EXISTS runs_one_in_progress ON runs (slug, agent_id) WHERE status = 'in_progress';
CREATE TABLE IF NOT EXISTS answers (
  run_id TEXT NOT NULL REFERENCES runs(run_id),
  ordinal INTEGER NOT NULL,
  answer_text TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (run_id, ordinal)
);
CREATE TABLE IF NOT EXISTS anchors (
  digest TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('commitment', 'receipt', 'pack')),
  slug TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'anchored')),
  registry_address TEXT,
  tx_hash TEXT,
  anchor_block INTEGER,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS awards (
  slug TEXT PRIMARY KEY REFERENCES benchmarks(slug),
  status TEXT NOT NULL CHECK (status IN ('prepared', 'sent', 'confirmed', 'packed')),
  rank_derivation_json TEXT NOT NULL,
  ranking_digest TEXT NOT NULL,
  winners_json TEXT NOT NULL,
  award_tx TEXT,
  award_block INTEGER,
  pack_hash TEXT,
  pack_file TEXT,
  created_at TEXT NOT NULL
);
`;

/** An open store: the database handle and its directory layout. */
export class Store {
  /** The better-sqlite3 handle (synchronous; one writer per store file). */
  readonly db!: Database.Database;
  /** Directory of the store. */
  readonly dir: string;
  /** The `accounts` and `api_keys` tables. */
  readonly accounts: AccountsTable;
  /** The `agents` table. */
  readonly agents: AgentsTable;

  /**
   * Opens (or creates) the store in `dir`.
   *
   * A `platform.sqlite` that is not an SQLite database, or a non-empty database without the store's
   * marker (`meta.schema_version`, written at creation), is refused before anything is written to it:
   * the store never extends someone else's database.
   * @param opts `existing: true` opens only a store that exists (read-only commands): nothing is created
   * @throws PlatformError `invalid_option` when the directory cannot be created; `invalid_store` when
   *   the database file is not a bench-bounty store (or cannot be opened), naming the file; `no_store`
   *   (404) with `existing` when there is no `platform.sqlite` in `dir`
   */
  constructor(dir: string, opts: { existing?: boolean } = {}) {
    this.dir = dir;
    if (opts.existing) requireExistingStore(dir, "store");
    ensureWritableDir(dir, "store");
    ensureWritableDir(this.packsDir, "store");
    ensureWritableDir(this.runsDir, "store");
    const file = join(dir, "platform.sqlite");
    const refuse = (why: string, cause?: unknown): never => {
      if (this.db?.open) this.db.close();
      throw new PlatformError("invalid_store", `${file} is not a bench-bounty store: ${why}`, {
        field: "store",
        path: file,
        ...(cause !== undefined ? { sqlite_code: (cause as { code?: unknown }).code ?? null } : {}),
      });
    };
    try {
      this.db = new Database(file);
      this.db.pragma("busy_timeout = 5000");
      // Read before any write: a file that is not a database throws here (SQLITE_NOTADB).
      const tables = (
        this.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
          name: string;
        }[]
      ).map((t) => t.name);
      if (tables.length > 0) {
        const version = tables.includes("meta")
          ? (
              this.db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as
                | { value: string }
                | undefined
            )?.value
          : undefined;
        if (version === undefined)
          refuse(
            `an SQLite database without the store's marker meta.schema_version (tables: ${tables.join(", ")})`,
          );
        if (version !== SCHEMA_VERSION)
          refuse(`schema version ${version}, this platform reads version ${SCHEMA_VERSION}`);
      }
      this.db.pragma("journal_mode = WAL");
      this.db.pragma("synchronous = FULL");
      this.db.pragma("foreign_keys = ON");
      // Schema and marker in one transaction: another process sees no tables or all of them.
      this.tx(() => {
        this.db.exec(SCHEMA);
        this.db
          .prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', ?)")
          .run(SCHEMA_VERSION);
        this.db
          .prepare(
            "INSERT OR IGNORE INTO accounts (account_id, name, roles_json, created_at) VALUES (?, 'operator', '[\"author\",\"operator\"]', ?)",
          )
          .run(OPERATOR_ACCOUNT_ID, new Date().toISOString());
      });
    } catch (e) {
      if (e instanceof PlatformError) throw e;
      const code = (e as { code?: unknown }).code;
      if (code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT") refuse((e as Error).message, e);
      if (typeof code === "string" && code.startsWith("SQLITE_")) {
        if (this.db?.open) this.db.close();
        throw new PlatformError("invalid_store", `cannot open ${file}: ${(e as Error).message}`, {
          field: "store",
          path: file,
          sqlite_code: code,
        });
      }
      throw e;
    }
    this.accounts = new AccountsTable(this.db, (fn) => this.tx(fn));
    this.agents = new AgentsTable(this.db);
  }

  /** Directory of the minted packs. */
  get packsDir(): string {
    return join(this.dir, "packs");
  }

  /** Directory of the runner checkpoints. */
  get runsDir(): string {
    return join(this.dir, "runs");
  }

  /** Runs `fn` in one IMMEDIATE transaction (all or nothing). */
  tx<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /** Closes the database. */
  close(): void {
    if (this.db.open) this.db.close();
  }
}

/**
 * Writes a file so that a crash leaves either the old content or the whole new content: the bytes go
 * to `<path>.tmp-<pid>`, are fsync'd, the file is renamed over `path` (atomic on POSIX), and the
 * directory is fsync'd so the rename itself is durable.
 */
export function writeFileDurably(path: string, bytes: Uint8Array | string): void {
  const data = typeof bytes === "string" ? Buffer.from(bytes, "utf8") : bytes;
  const tmp = `${path}.tmp-${process.pid}`;
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(tmp, "w", 0o644);
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
 * @throws PlatformError `no_store` (404) naming `option` and `dir` when `dir` or its `platform.sqlite` does
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
  } catch {
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
 * @throws PlatformError `invalid_option` naming `option` when a level is not a directory, the nearest
 *   existing ancestor is not writable, or a level cannot be created
 */
export function ensureWritableDir(dir: string, option: string): void {
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
    } catch {
      refuse(`${cur} is not writable`);
    }
    break;
  }
  for (const level of missing.reverse()) {
    try {
      mkdirSync(level);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "EEXIST") {
        let isDir: boolean;
        try {
          isDir = statSync(level).isDirectory();
        } catch {
          isDir = false;
        }
        if (isDir) continue;
      }
      refuse(`cannot create ${level} (${code ?? (e as Error).message})`);
    }
  }
}
