/**
 * SQLite: the named locks of `Store.withLock` across processes (probe19 A-F9: they held only within the
 * process, so the CLI's `award` beside a running `serve` on the same store took the award's steps at
 * the same time). Each name is one empty lock file in `<database file>-locks/` (the real file's
 * directory, beside its `-wal` and `-shm`), held by an open SQLite connection (better-sqlite3) in an
 * EXCLUSIVE transaction: SQLite's own file lock (POSIX `fcntl`), the mechanism that already guards the
 * store's writes across processes. The operating system drops it when its holder's process ends, a
 * crash or a SIGKILL included, so a dead process never holds a lock; a live one holds it until it lets
 * go. Nothing is ever written to a lock file (it stays empty) and a lock file is never removed (a
 * waiter holding the old file open would then lock another file than the next taker); only a lock path
 * nobody can lock is replaced ({@link takeFileLock}).
 */
import BetterSqlite3 from "better-sqlite3";
import { basename, dirname, join } from "node:path";
import { closeSync, constants as fsConstants, fstatSync, mkdirSync, openSync, renameSync } from "node:fs";
import { PlatformError } from "../errors.js";

/** Longest pause (ms) between two tries while another process holds the lock. */
const MAX_POLL_MS = 100;

/** A lock file held: {@link takeFileLock}. */
export interface HeldFileLock {
  /** Lets the lock go (ends the transaction, closes the connection). */
  release(): void;
}

/**
 * The directory of the lock files of the SQLite database at `realFile` (symlinks resolved):
 * `<realFile>-locks`.
 */
export function lockDirOf(realFile: string): string {
  return join(dirname(realFile), `${basename(realFile)}-locks`);
}

/**
 * Takes the lock `name` in `dir` (created with `dirMode`, its files with `fileMode`, when missing),
 * trying again (every few ms, up to {@link MAX_POLL_MS}) while another process holds it, until
 * `deadline` (epoch ms; undefined: as long as it takes). No order among the processes that wait.
 * A lock path nobody can hold a lock on is repaired where that loses nothing: a lock file something
 * wrote into (probe20 F2), a symlink (never followed: serve creates no file elsewhere) or a FIFO or
 * socket there is replaced by an empty file; one that cannot be replaced is refused (probe21 A-F4/B-F2:
 * each was a 500 with a stack trace).
 * @returns the held lock, or null when another process still held it at `deadline`
 * @throws PlatformError `invalid_store` naming the lock path (relative to the database file's directory)
 *   and what to do: `dir` is not a directory or cannot be created, the lock file's path is a directory,
 *   or the lock file cannot be opened or locked (permissions, a read-only file system)
 */
export async function takeFileLock(
  dir: string,
  name: string,
  deadline: number | undefined,
  modes: { dirMode: number; fileMode: number },
): Promise<HeldFileLock | null> {
  const file = join(dir, `${encodeURIComponent(name)}.lock`);
  ensureLockFile(dir, file, modes);
  try {
    return await holdWithin(file, deadline);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    // a lock file something else wrote into (probe20 F2: every publish was a 500 "file is not a
    // database"): nobody can hold a lock on it, so it is replaced by an empty one and taken again
    if (code === "SQLITE_NOTADB") {
      replaceWithEmptyFile(dir, file, modes.fileMode);
      return holdWithin(file, deadline);
    }
    if (typeof code === "string" && code.startsWith("SQLITE_"))
      throw unusableLockPath(dir, file, `cannot be locked (${code}): check that it is a writable file`);
    throw e;
  }
}

/**
 * Creates `dir` and the empty lock file `file` in it when missing (an existing one is left as it is),
 * never following a symlink at `file` and never blocking on a FIFO there (both are replaced).
 * @throws PlatformError `invalid_store` ({@link unusableLockPath}) for a path that cannot be used
 */
function ensureLockFile(dir: string, file: string, modes: { dirMode: number; fileMode: number }): void {
  try {
    mkdirSync(dir, { recursive: true, mode: modes.dirMode });
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (code === "EEXIST" || code === "ENOTDIR")
      throw unusableLockPath(dir, dir, "is not a directory: remove it (the store creates the directory)");
    throw unusableLockPath(dir, dir, `cannot be created (${String(code)}): check its permissions`);
  }
  let fd: number;
  try {
    // O_NOFOLLOW: a symlink there fails ELOOP (with O_CREAT alone it was followed, creating its target);
    // O_NONBLOCK: a FIFO with no reader fails ENXIO, rather than blocking the event loop forever
    fd = openSync(file, OPEN_FLAGS, modes.fileMode);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (code === "ELOOP" || code === "ENXIO") return replaceWithEmptyFile(dir, file, modes.fileMode);
    if (code === "EISDIR")
      throw unusableLockPath(dir, file, "is a directory: remove it (the store creates an empty file there)");
    throw unusableLockPath(dir, file, `cannot be opened (${String(code)}): check its permissions`);
  }
  let regular: boolean;
  try {
    regular = fstatSync(fd).isFile();
  } finally {
    closeSync(fd);
  }
  if (!regular) replaceWithEmptyFile(dir, file, modes.fileMode);
}

const OPEN_FLAGS =
  fsConstants.O_CREAT | fsConstants.O_WRONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK;

/**
 * Puts an empty lock file at `file` (in `dir`) in place of what is there (not a directory): an atomic
 * rename, so a taker sees the old entry or the new file.
 * @throws PlatformError `invalid_store` ({@link unusableLockPath}) when it cannot be replaced
 */
function replaceWithEmptyFile(dir: string, file: string, fileMode: number): void {
  const fresh = `${file}.${process.pid}.fresh`;
  try {
    closeSync(openSync(fresh, FRESH_FLAGS, fileMode));
    renameSync(fresh, file);
  } catch (e) {
    const code = String((e as { code?: unknown }).code);
    throw unusableLockPath(dir, file, `cannot be replaced by an empty file (${code}): remove it`);
  }
}

const FRESH_FLAGS = fsConstants.O_CREAT | fsConstants.O_TRUNC | fsConstants.O_WRONLY | fsConstants.O_NOFOLLOW;

/**
 * The refusal of a lock path the store cannot use: `invalid_store`, `details.path` the path from the
 * database file's directory (`platform.sqlite-locks/publish-budget.lock`: the server's own paths are
 * not served), `why` what is wrong and what to do.
 */
function unusableLockPath(dir: string, path: string, why: string): PlatformError {
  const shown = path === dir ? basename(dir) : `${basename(dir)}/${basename(path)}`;
  return new PlatformError(
    "invalid_store",
    `the store's lock path ${shown} (beside its database file) ${why}; the operations under this lock are refused until then, nothing was written`,
    { field: "store", path: shown },
  );
}

/** {@link takeFileLock} on the lock file `file`, which exists. */
async function holdWithin(file: string, deadline: number | undefined): Promise<HeldFileLock | null> {
  // timeout 0: a busy lock answers SQLITE_BUSY at once (a busy timeout would block the event loop)
  const conn = new BetterSqlite3(file, { timeout: 0 });
  try {
    for (let pause = 5; ; pause = Math.min(MAX_POLL_MS, pause * 2)) {
      try {
        conn.exec("BEGIN EXCLUSIVE");
        return {
          release: () => {
            try {
              conn.exec("ROLLBACK");
            } finally {
              conn.close(); // drops the file lock in any case
            }
          },
        };
      } catch (e) {
        if ((e as { code?: unknown }).code !== "SQLITE_BUSY") throw e;
      }
      const left = deadline === undefined ? pause : deadline - Date.now();
      if (left <= 0) break;
      await new Promise((r) => setTimeout(r, Math.min(pause, left)));
    }
  } catch (e) {
    conn.close();
    throw e;
  }
  conn.close();
  return null;
}
