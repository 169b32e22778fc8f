/**
 * Reading the JSON files the tasks take (commitments, test sets, rank
 * derivations, withdrawal addresses) with the strict SPEC 2 parser of
 * @bench-bounty/evidence, so a bad file is refused with its path and the JSON
 * path of the problem, never half-read.
 */
import fs from "node:fs";
import { TaskError } from "./errors";
import { evidence } from "./packages";

/**
 * Reads and parses a JSON file (duplicate keys refused, integers exact), the one reader of the tasks'
 * file options: a regular file of at most `PACK_LIMITS.maxPackBytes` of @bench-bounty/evidence (512 MiB,
 * what a verifier reads; a rank derivation or a test set of 100,000 tasks is well under it), checked
 * before it is read (probe19 B-F11: `/dev/zero` grew the task to GBs and never ended).
 * @throws TaskError naming the flag, the file and the JSON path; a device, FIFO, socket or directory,
 *   or a file over the bound, before it is read
 */
export function readJsonFile(file: string, flag: string): unknown {
  const bytes = readBoundedFile(file, flag);
  try {
    return evidence().parseJson(new Uint8Array(bytes));
  } catch (e) {
    throw new TaskError(`${flag}: ${file} is not valid JSON: ${describeError(e)}`);
  }
}

/** What a file that is not a regular file is, for the refusal. */
function fileKind(stat: fs.Stats): string {
  if (stat.isDirectory()) return "a directory";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  if (stat.isFIFO()) return "a FIFO";
  if (stat.isSocket()) return "a socket";
  return "not a file";
}

/**
 * The refusal of a regular file that held more bytes than its size said (`size`): a size of 0 is a
 * file whose size is not known before it is read (a /proc or /sys file, `/proc/self/environ`:
 * probe24, which was said to have "grown"); any other, a file written while it was read.
 */
function changedSize(file: string, flag: string, size: number): TaskError {
  if (size === 0)
    return new TaskError(
      `${flag}: ${file} is not a regular file of known size (its size reads 0 but it holds data, as a /proc or /sys file): copy it to a file first.`,
    );
  return new TaskError(
    `${flag}: ${file} changed size while it was read (it was ${size} bytes): run again once nothing writes to it.`,
  );
}

/**
 * The bytes of `file`: opened without blocking (a FIFO with no writer would hang), checked to be a
 * regular file of at most the bound, then read (never more than the bound, should it grow meanwhile).
 * The tasks' file options ({@link readJsonFile}) and the address book files read it.
 * @param flag the option or variable named in the refusal (`--commitment`, `BENCH_BOUNTY_LOCAL_DEPLOYMENT`)
 * @throws TaskError `<flag>: <file> is a character device, not a regular file.`,
 *   `<flag>: <file> holds <n> bytes, over the limit of <bound> (512 MiB).`, a file holding more than
 *   its size says ({@link changedSize}) or `<flag>: cannot read ...`
 */
export function readBoundedFile(file: string, flag: string): Buffer {
  const limit = evidence().PACK_LIMITS.maxPackBytes;
  const cannotRead = (e: unknown) =>
    new TaskError(
      `${flag}: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`,
    );
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EISDIR" || (e as NodeJS.ErrnoException).code === "ENXIO") {
      const stat = fs.statSync(file, { throwIfNoEntry: false });
      if (stat && !stat.isFile())
        throw new TaskError(`${flag}: ${file} is ${fileKind(stat)}, not a regular file.`);
    }
    throw cannotRead(e);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new TaskError(`${flag}: ${file} is ${fileKind(stat)}, not a regular file.`);
    if (stat.size > limit)
      throw new TaskError(
        `${flag}: ${file} holds ${stat.size} bytes, over the limit of ${limit} (${limit / 1024 / 1024} MiB).`,
      );
    const buffer = Buffer.alloc(stat.size + 1);
    let length = 0;
    for (let n = 1; n > 0 && length < buffer.length; length += n)
      n = fs.readSync(fd, buffer, length, buffer.length - length, null);
    if (length > stat.size) throw changedSize(file, flag, stat.size);
    return buffer.subarray(0, length);
  } catch (e) {
    if (e instanceof TaskError) throw e;
    throw cannotRead(e);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * "path: reason" for an EvidenceError (the path printed once: its message
 * already starts with the path, except at the root `$` where it is the reason
 * alone), else the message.
 * @param root where the checked value sits in the file, when it is not the
 *   file's root: `$.rank_derivation` turns `$.rows[0]` into `$.rank_derivation.rows[0]`
 */
export function describeError(e: unknown, root = "$"): string {
  const ev = evidence();
  if (ev.isEvidenceError(e)) {
    const path = e.path === "" ? "$" : e.path;
    const reason = e.message.startsWith(`${path}: `) ? e.message.slice(path.length + 2) : e.message;
    const shown = path.startsWith("$") ? `${root}${path.slice(1)}` : path;
    return `${shown}: ${reason}`;
  }
  return (e as Error)?.message ?? String(e);
}

/** A plain object, or a TaskError naming where. */
export function asObject(v: unknown, where: string): Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v))
    throw new TaskError(`${where} must be a JSON object.`);
  return v as Record<string, unknown>;
}
