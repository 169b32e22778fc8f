/**
 * Reading a local file whole, bounded: the one reader of the files the tools take from a path (a
 * dataset, a run checkpoint, the Hardhat tasks' JSON files and address books). A path that names no
 * document (a device such as `/dev/zero`, a directory, a socket, a FIFO unless pipes are asked for) is
 * refused unread, a regular file over the bound by its size, and nothing is ever read past the bound
 * (probe19 B-F11, B-F12, probe23 F4: `/dev/zero` read whole grew a process to GBs; a FIFO with no
 * writer blocked it for good).
 *
 * @packageDocumentation
 */
import { Buffer } from "node:buffer";
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from "node:fs";
import { PACK_LIMITS } from "./pack/limits.js";

/** What a path that is not a regular file names, as a refusal words it. */
export type FileKind =
  | "a directory"
  | "a character device"
  | "a block device"
  | "a FIFO"
  | "a socket"
  | "a symbolic link"
  | "an unknown kind of file";

/**
 * Why {@link readBoundedFile} refused a file:
 * - `unreadable`: it cannot be opened or read; `code` is the system's error code (`ENOENT`,
 *   `EACCES`, `EIO`...), else its message;
 * - `not_regular`: it is `kind`, not a regular file (nor, with `pipes`, a FIFO);
 * - `too_large`: it holds more than the bound; `size` in bytes for a regular file (by its size, unread),
 *   null for a pipe (refused while read, at the bound);
 * - `grew`: a regular file of `size` bytes when opened held more while it was read;
 * - `size_unknown`: a regular file whose size reads 0 but that holds data (a /proc or /sys file such as
 *   `/proc/self/environ`: its size is not known before it is read, probe24).
 */
export type BoundedFileProblem =
  | { reason: "unreadable"; code: string }
  | { reason: "not_regular"; kind: FileKind }
  | { reason: "too_large"; size: number | null }
  | { reason: "grew"; size: number }
  | { reason: "size_unknown" };

/**
 * The refusal of {@link readBoundedFile}: the file's `path`, the bound `maxBytes` (bytes) and the
 * {@link BoundedFileProblem}. Callers word it as their own error; `message` is a plain default.
 */
export class BoundedFileError extends Error {
  override readonly name = "BoundedFileError";
  constructor(
    readonly path: string,
    readonly maxBytes: number,
    readonly problem: BoundedFileProblem,
    options?: { cause?: unknown },
  ) {
    super(`${path}: ${problemText(problem, maxBytes)}`, options);
  }
}

/** How {@link readBoundedFile} reads. */
export interface BoundedFileOptions {
  /** The most bytes read (bytes); default `PACK_LIMITS.maxPackBytes` (512 MiB, what a verifier reads). */
  maxBytes?: number;
  /**
   * Accept a FIFO (a pipe: `<(cat data.json)`, `mkfifo`) and read it to its end, waiting for its writer,
   * at most `maxBytes`; default false: a FIFO is refused unread, never waited on.
   */
  pipes?: boolean;
}

/**
 * The bytes of the file at `path` (symlinks followed): opened non-blocking (a FIFO with no writer
 * never blocks the open), checked to be a regular file (or, with `pipes`, a FIFO) of at most `maxBytes`
 * bytes, then read synchronously, never more than `maxBytes` bytes nor, for a regular file, more than
 * its size when opened (a file that grows meanwhile is refused, not read on). With `pipes`, a FIFO is
 * opened blocking and read until its writer closes it: the open and the reads wait for the writer.
 * @throws BoundedFileError naming the path, the bound and the {@link BoundedFileProblem}
 */
export function readBoundedFile(path: string, options: BoundedFileOptions = {}): Uint8Array {
  const maxBytes = options.maxBytes ?? PACK_LIMITS.maxPackBytes;
  const refuse = (problem: BoundedFileProblem, cause?: unknown) =>
    new BoundedFileError(path, maxBytes, problem, cause === undefined ? undefined : { cause });
  const unreadable = (e: unknown) => refuse({ reason: "unreadable", code: errorCode(e) }, e);
  // an empty name reads as ENOENT of nothing (probe25 B-F8: "cannot read : ENOENT"): say what it is
  if (path === "") throw refuse({ reason: "unreadable", code: "the file name is empty" });
  // a FIFO asked for as a pipe is opened blocking (its open waits for a writer, as its reads will);
  // anything else non-blocking (a FIFO then opens at once, and is refused)
  const pipe = options.pipes === true && isFifo(path);
  let fd: number;
  try {
    fd = openSync(path, pipe ? constants.O_RDONLY : constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    // a socket does not open (ENXIO): it is no file, whatever the open says
    const code = (e as NodeJS.ErrnoException).code;
    const st = code === "EISDIR" || code === "ENXIO" ? statOrNull(path) : null;
    if (st && !st.isFile()) throw refuse({ reason: "not_regular", kind: fileKind(st) });
    throw unreadable(e);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() && !(st.isFIFO() && pipe)) throw refuse({ reason: "not_regular", kind: fileKind(st) });
    if (st.isFile() && st.size > maxBytes) throw refuse({ reason: "too_large", size: st.size });
    const most = st.isFile() ? st.size : maxBytes;
    const bytes = readAtMost(fd, most, st.isFile() ? most + 1 : Math.min(most + 1, 64 * 1024));
    if (bytes.byteLength > most) {
      if (!st.isFile()) throw refuse({ reason: "too_large", size: null });
      throw refuse(st.size === 0 ? { reason: "size_unknown" } : { reason: "grew", size: st.size });
    }
    return bytes;
  } catch (e) {
    if (e instanceof BoundedFileError) throw e;
    throw unreadable(e);
  } finally {
    closeSync(fd);
  }
}

/**
 * The bytes of `fd` up to its end or `most + 1` bytes, whichever comes first (one more than `most`
 * tells that there were more), into a buffer of `capacity` bytes at first, doubled as needed.
 */
function readAtMost(fd: number, most: number, capacity: number): Uint8Array {
  let buffer = Buffer.allocUnsafe(capacity);
  let length = 0;
  while (length <= most) {
    if (length === buffer.length) {
      const larger = Buffer.allocUnsafe(Math.min(most + 1, buffer.length * 2));
      buffer.copy(larger, 0, 0, length);
      buffer = larger;
    }
    const n = readSync(fd, buffer, length, buffer.length - length, null);
    if (n === 0) break;
    length += n;
  }
  return buffer.subarray(0, length);
}

/** The stat of `path` (symlinks followed), or null when it cannot be read. */
function statOrNull(path: string): Stats | null {
  try {
    return statSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/** True when `path` names a FIFO (symlinks followed). */
function isFifo(path: string): boolean {
  return statOrNull(path)?.isFIFO() === true;
}

/**
 * What a path that is not a regular file is, as every refusal of one words it (this reader's, the
 * verifier's pack source and `--out`): `st` from `stat` (links followed) or `lstat` ("a symbolic link").
 */
export function fileKind(st: Stats): FileKind {
  if (st.isDirectory()) return "a directory";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isFIFO()) return "a FIFO";
  if (st.isSocket()) return "a socket";
  if (st.isSymbolicLink()) return "a symbolic link";
  return "an unknown kind of file";
}

/** The system's error code of `e` (`ENOENT`...), else its message. */
function errorCode(e: unknown): string {
  return e instanceof Error ? ((e as NodeJS.ErrnoException).code ?? e.message) : String(e);
}

/** How every reader words a `size_unknown` refusal (a /proc or /sys file). */
export const SIZE_UNKNOWN_TEXT =
  "is not a regular file of known size (its size reads 0 but it holds data, as a /proc or /sys file): copy it to a file first";

/** The default wording of a {@link BoundedFileProblem} under the bound `maxBytes` (bytes). */
function problemText(p: BoundedFileProblem, maxBytes: number): string {
  switch (p.reason) {
    case "unreadable":
      return `cannot be read (${p.code})`;
    case "not_regular":
      return `is ${p.kind}, not a regular file`;
    case "too_large":
      return p.size === null
        ? `holds more than ${maxBytes} bytes, the limit`
        : `holds ${p.size} bytes, over the limit of ${maxBytes}`;
    case "grew":
      return `grew past its ${p.size} bytes while it was read`;
    case "size_unknown":
      return SIZE_UNKNOWN_TEXT;
  }
}
