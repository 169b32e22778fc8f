/**
 * SQLite: the named locks of `Store.withLock` across processes (probe19 A-F9: they held only within the
 * process, so the CLI's `award` beside a running `serve` on the same store took the award's steps at
 * the same time). Each name is one empty lock file in `<database file>-locks/` (the real file's
 * directory, beside its `-wal` and `-shm`), held by an open SQLite connection (better-sqlite3) in an
 * EXCLUSIVE transaction: SQLite's own file lock (POSIX `fcntl`), the mechanism that already guards the
 * store's writes across processes. The operating system drops it when its holder's process ends, a
 * crash or a SIGKILL included, so a dead process never holds a lock; a live one holds it until it lets
 * go. Nothing is ever written to a lock file (it stays empty) and a lock file is never removed (a
 * waiter holding the old file open would then lock another file than the next taker).
 */
import BetterSqlite3 from "better-sqlite3";
import { basename, dirname, join } from "node:path";
import { closeSync, constants as fsConstants, mkdirSync, openSync, renameSync } from "node:fs";

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
 * @returns the held lock, or null when another process still held it at `deadline`
 * @throws the file system's error when `dir` or the lock file cannot be created or opened
 */
export async function takeFileLock(
  dir: string,
  name: string,
  deadline: number | undefined,
  modes: { dirMode: number; fileMode: number },
): Promise<HeldFileLock | null> {
  mkdirSync(dir, { recursive: true, mode: modes.dirMode });
  const file = join(dir, `${encodeURIComponent(name)}.lock`);
  // created with the store's file mode (SQLite would create it 0644); an existing one is left as it is
  closeSync(openSync(file, fsConstants.O_CREAT | fsConstants.O_WRONLY, modes.fileMode));
  try {
    return await holdWithin(file, deadline);
  } catch (e) {
    // a lock file something else wrote into (probe20 F2: every publish was a 500 "file is not a
    // database"): nobody can hold a lock on it, so it is replaced by an empty one (an atomic rename: a
    // taker sees the old file or the new one) and taken again
    if ((e as { code?: unknown }).code !== "SQLITE_NOTADB") throw e;
    const fresh = `${file}.${process.pid}.fresh`;
    closeSync(
      openSync(fresh, fsConstants.O_CREAT | fsConstants.O_TRUNC | fsConstants.O_WRONLY, modes.fileMode),
    );
    renameSync(fresh, file);
    return holdWithin(file, deadline);
  }
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
