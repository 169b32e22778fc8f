/**
 * One runner per run (probe28 B-F1): while a `run` or `resume` drives a run, its checkpoint directory
 * holds `<run_id>.lock` (created with `O_EXCL`, mode 0600) naming the runner's process id and host. A
 * second `resume` of the same run is refused at once, before any agent starts, naming that process:
 * two runners would each start the agent on every remaining task (a paid model billed twice) and race
 * to finalize. The lock is removed when the runner returns or throws; the lock of a runner that died
 * without removing it (`kill -9`, a power cut) names a process that no longer exists on this host and
 * is taken over by the next `resume`.
 */
import {
  closeSync,
  constants as fsConstants,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { PlatformError } from "../errors.js";
import { STORE_DIR_MODE, STORE_FILE_MODE } from "../store.js";

/** What a run's lock file holds. */
interface LockOwner {
  pid: number;
  host: string;
}

/** The lock file of `runId` in the checkpoint directory `dir`. */
export function runLockFile(dir: string, runId: string): string {
  return join(dir, `${runId}.lock`);
}

/** A held run lock: {@link RunLock.release} removes it (once; later calls do nothing). */
export interface RunLock {
  readonly file: string;
  release(): void;
}

/**
 * Takes the lock of run `runId` in the checkpoint directory `dir` for process `pid` (default: this one).
 * A lock whose process is gone (same host, `kill(pid, 0)` answers `ESRCH`) or that cannot be read as a
 * lock is stale and taken over.
 * @returns the held lock; release it when the runner stops
 * @throws PlatformError `run_in_progress` (`details.rule: "one_runner_per_run"`, `pid`, `host`,
 *   `lock_file`) when a live process (this one included), or a process on another host, holds it
 */
export function acquireRunLock(dir: string, runId: string, pid: number = process.pid): RunLock {
  const file = runLockFile(dir, runId);
  mkdirSync(dir, { recursive: true, mode: STORE_DIR_MODE });
  const me: LockOwner = { pid, host: hostname() };
  for (let tries = 0; tries < 5; tries++) {
    if (createExclusive(file, JSON.stringify(me) + "\n")) return held(file);
    const owner = readOwner(file);
    if (owner === "gone") continue; // released meanwhile: try again
    if (owner !== null && !stale(owner)) throw refusal(runId, file, owner);
    // stale: move it aside under a name of our own (only one taker succeeds), then check what was moved
    const aside = `${file}.stale-${pid}-${process.pid}`;
    try {
      renameSync(file, aside);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw e;
    }
    const moved = readOwner(aside);
    if (moved !== "gone" && moved !== null && !stale(moved)) {
      // another taker's fresh lock was moved: put it back (unless a third one holds the name now)
      try {
        linkSync(aside, file);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      }
      rmSync(aside, { force: true });
      throw refusal(runId, file, moved);
    }
    rmSync(aside, { force: true });
  }
  throw new PlatformError(
    "run_in_progress",
    `run ${runId} is being taken over by other runners at once (lock ${file}): try again`,
    { run_id: runId, rule: "one_runner_per_run", lock_file: file },
  );
}

function held(file: string): RunLock {
  let released = false;
  return {
    file,
    release() {
      if (released) return;
      released = true;
      rmSync(file, { force: true });
    },
  };
}

/** Creates `file` holding `text` when it does not exist; false when it does. */
function createExclusive(file: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_WRONLY, STORE_FILE_MODE);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  }
  try {
    const b = Buffer.from(text, "utf8");
    let off = 0;
    while (off < b.length) off += writeSync(fd, b, off, b.length - off);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The lock's owner; null when the file is not a lock (stale: its writer died mid-write); "gone" when missing. */
function readOwner(file: string): LockOwner | null | "gone" {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return "gone";
    throw e;
  }
  try {
    const o = JSON.parse(text) as Partial<LockOwner>;
    if (Number.isSafeInteger(o.pid) && (o.pid as number) > 0 && typeof o.host === "string")
      return { pid: o.pid as number, host: o.host };
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
  }
  return null;
}

/** True when the lock's process is known to be gone: on this host, `kill(pid, 0)` answers ESRCH. */
function stale(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (e) {
    // EPERM: the process exists (another user's)
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
}

function refusal(runId: string, file: string, owner: LockOwner): PlatformError {
  const who =
    owner.host === hostname() ? `process ${owner.pid}` : `process ${owner.pid} on host ${owner.host}`;
  return new PlatformError(
    "run_in_progress",
    `run ${runId} is being run by ${who} (lock ${file}): one runner per run; wait for it to end or stop it (Ctrl-C), then resume; ` +
      `if ${who} is not a bench-bounty runner (its lock outlived it), delete ${file}`,
    { run_id: runId, rule: "one_runner_per_run", pid: owner.pid, host: owner.host, lock_file: file },
  );
}
