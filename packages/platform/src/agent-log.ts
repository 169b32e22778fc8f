/**
 * A run's agent log, `<store>/runs/RUN_ID.agent.log`: what the run's agent processes write on stderr,
 * kept to {@link MAX_AGENT_LOG_BYTES} over the whole run (every batch, every `resume`). The agent is
 * somebody else's code: unbounded, one looping agent filled the operator's disk beside the store's
 * database (probe24 B-F1: 2 GB from one task in 6 s). Past the bound the bytes are dropped, never held
 * in memory, and the log ends with one note saying how many were dropped in all
 * ({@link agentLogDroppedNote}).
 * @packageDocumentation
 */
import {
  appendFileSync,
  closeSync,
  constants as fsConstants,
  fstatSync,
  ftruncateSync,
  openSync,
  readSync,
  statSync,
  writeSync,
} from "node:fs";

/**
 * Most bytes of agent output a run's agent log keeps (16 MiB, as much as the runner reads of one
 * process's stdout): the first ones; the rest are counted and dropped.
 */
export const MAX_AGENT_LOG_BYTES = 16 * 1024 * 1024;

/** Mode of a log file it creates: the owner's only, as the store's other files. */
const LOG_FILE_MODE = 0o600;

/**
 * The note that ends a log past its bound: on a line of its own, naming the bound and the bytes dropped
 * (`dropped`: in all, over the run's processes).
 */
export function agentLogDroppedNote(dropped: number): string {
  return `\n[bench-bounty: this log keeps the first ${MAX_AGENT_LOG_BYTES} bytes of the agent's stderr (MAX_AGENT_LOG_BYTES); ${dropped} bytes after them were dropped]\n`;
}

/** Reads the count of an existing note (the text after the first {@link MAX_AGENT_LOG_BYTES}). */
const NOTE_COUNT = /; (\d{1,16}) bytes after them were dropped\]\n$/;

/** Longest note read back (a note is about 150 bytes). */
const MAX_NOTE_BYTES = 1024;

/**
 * The log of one agent process: {@link AgentLogWriter.append} its output as it comes,
 * {@link AgentLogWriter.close} when the process ended. Several processes of one run (parallel batches)
 * may write the same file at once: each reads the file's size, not a count of its own. Logging is best
 * effort: a full disk or a removed store never fails the run (the error is dropped).
 */
export class AgentLogWriter {
  /** Bytes of this process dropped since the last note. */
  private dropped = 0;
  /** The file reached the bound (it never shrinks below it again). */
  private full = false;

  /** @param file the run's log, `<store>/runs/RUN_ID.agent.log` (created {@link LOG_FILE_MODE}) */
  constructor(readonly file: string) {}

  /** Appends `data` while the log is under its bound; counts the rest as dropped. */
  append(data: string | Buffer): void {
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    try {
      const room = this.full ? 0 : MAX_AGENT_LOG_BYTES - sizeOf(this.file);
      if (room <= 0) {
        this.full = true;
        this.dropped += bytes.length;
        return;
      }
      appendFileSync(this.file, room >= bytes.length ? bytes : bytes.subarray(0, room), {
        mode: LOG_FILE_MODE,
      });
      if (room <= bytes.length) this.full = true;
      if (room < bytes.length) this.dropped += bytes.length - room;
    } catch (e) {
      if (!(e instanceof Error)) throw e;
    }
  }

  /**
   * Ends the log of this process: when some of its output was dropped, the log is cut back to its bound
   * and ends with the one note, its count the previous note's (if any) plus this process's.
   */
  close(): void {
    if (this.dropped === 0) return;
    const dropped = this.dropped;
    this.dropped = 0;
    let fd: number;
    try {
      fd = openSync(this.file, fsConstants.O_RDWR | fsConstants.O_NOFOLLOW);
    } catch (e) {
      if (!(e instanceof Error)) throw e;
      return;
    }
    try {
      const size = fstatSync(fd).size;
      const at = Math.min(size, MAX_AGENT_LOG_BYTES);
      const before = size > at ? previousCount(fd, at, size) : 0;
      if (size > at) ftruncateSync(fd, at);
      const note = Buffer.from(agentLogDroppedNote(before + dropped), "utf8");
      let off = 0;
      while (off < note.length) off += writeSync(fd, note, off, note.length - off, at + off);
    } catch (e) {
      if (!(e instanceof Error)) throw e;
    } finally {
      closeSync(fd);
    }
  }
}

/** Size of `file` in bytes, 0 when it does not exist yet. */
function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw e;
  }
}

/** The count of the note between `at` and `size` (0 when there is none that reads as one). */
function previousCount(fd: number, at: number, size: number): number {
  const len = Math.min(size - at, MAX_NOTE_BYTES);
  const buf = Buffer.alloc(len);
  const got = readSync(fd, buf, 0, len, size - len);
  const m = NOTE_COUNT.exec(buf.subarray(0, got).toString("utf8"));
  return m === null ? 0 : Number(m[1]);
}
