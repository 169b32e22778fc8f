/**
 * Group commit for the SQLite store: commits are written to the WAL without an fsync
 * (`synchronous = NORMAL`), and one `fsync` of the WAL file, run on libuv's thread pool (the event loop
 * never waits on the disk), makes every commit written before it durable. A write is acknowledged
 * only once such an fsync has finished: `Store.tx` and the driver's autocommit writes wait for
 * {@link WalSync.flush} before they return, so what a caller was told is on disk, exactly as with
 * `synchronous = FULL`, while the commits of concurrent requests share one fsync.
 *
 * Why it holds: a commit's WAL frames are written (`write(2)`) before its COMMIT returns; `fsync(2)`
 * flushes the file's data whichever descriptor wrote it; and WAL recovery keeps a prefix of the
 * commits (frames are appended in commit order and checksummed), so an fsync that started after a
 * commit returned covers it and every earlier one. A kill -9 loses nothing committed either way (the
 * frames are in the kernel's page cache). Checkpoints keep SQLite's own syncs.
 */
import { closeSync, fsync, fsyncSync, openSync } from "node:fs";
import { dirname } from "node:path";

/** The durability of one SQLite store's commits in this process. */
export class WalSync {
  /** Commits written by this process (counted when their COMMIT or autocommit write ran). */
  private written = 0;
  /** Commits known to be on disk. */
  private durable = 0;
  /** The fsync under way, if any. */
  private running: Promise<void> | null = null;
  private fd: number | null = null;

  /** @param walFile the database's `-wal` file (it exists once the store is open in WAL mode) */
  constructor(private readonly walFile: string) {}

  /** An autocommit write since {@link takeAutocommit} last ran. */
  private autocommit = false;

  /** The store is not in WAL mode (every COMMIT syncs by itself): nothing to wait for. */
  disable(): void {
    this.off = true;
  }
  private off = false;

  /** Counts a commit just written to the WAL (not yet durable); `autocommit`: a write outside a transaction. */
  wrote(opts: { autocommit?: boolean } = {}): void {
    this.written++;
    if (opts.autocommit === true) this.autocommit = true;
  }

  /** True once after an autocommit write (the driver then waits for its flush). */
  takeAutocommit(): boolean {
    const was = this.autocommit;
    this.autocommit = false;
    return was;
  }

  /** Counters (tests, benchmarks): commits written, commits on disk, fsyncs run, their total and longest ms. */
  stats(): { written: number; durable: number; syncs: number; syncMs: number; maxSyncMs: number } {
    return {
      written: this.written,
      durable: this.durable,
      syncs: this.syncs,
      syncMs: this.syncMs,
      maxSyncMs: this.maxSyncMs,
    };
  }
  private syncs = 0;
  private syncMs = 0;
  private maxSyncMs = 0;

  /** True when a written commit is not yet known to be on disk. */
  get pending(): boolean {
    return !this.off && this.durable < this.written;
  }

  /**
   * Resolves once every commit written so far is on disk (at once when none is pending). Callers
   * waiting together share one fsync; a commit written during an fsync is covered by the next one.
   * @throws the fsync's error (the write may or may not survive a power loss: it was not acknowledged)
   */
  async flush(): Promise<void> {
    if (this.off) return;
    const target = this.written;
    while (this.durable < target) {
      if (this.running === null) this.running = this.syncOnce().finally(() => (this.running = null));
      await this.running;
    }
  }

  private async syncOnce(): Promise<void> {
    const upTo = this.written;
    if (this.fd === null) {
      this.fd = openSync(this.walFile, "r+");
      // The WAL file's own directory entry, once (SQLite created the file when the store opened).
      const dir = openSync(dirname(this.walFile), "r");
      try {
        fsyncSync(dir);
      } finally {
        closeSync(dir);
      }
    }
    const fd = this.fd;
    const t0 = performance.now();
    await new Promise<void>((resolve, reject) => fsync(fd, (e) => (e ? reject(e) : resolve())));
    const ms = performance.now() - t0;
    this.syncMs += ms;
    if (ms > this.maxSyncMs) this.maxSyncMs = ms;
    this.syncs++;
    if (upTo > this.durable) this.durable = upTo;
  }

  /** Closes the WAL descriptor (after the database is closed). */
  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
