/**
 * Reading the JSON files the tasks take (commitments, test sets, rank
 * derivations, withdrawal addresses) with the strict SPEC 2 parser of
 * @bench-bounty/evidence, so a bad file is refused with its path and the JSON
 * path of the problem, never half-read.
 */
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

/**
 * The bytes of `file` by @bench-bounty/evidence's `readBoundedFile`: opened without blocking (a FIFO
 * with no writer would hang), checked to be a regular file of at most `PACK_LIMITS.maxPackBytes` (512
 * MiB), then read (never more than that, nor more than its size should it grow meanwhile). The tasks'
 * file options ({@link readJsonFile}) and the address book files read it.
 * @param flag the option or variable named in the refusal (`--commitment`, `BENCH_BOUNTY_LOCAL_DEPLOYMENT`)
 * @throws TaskError `<flag>: <file> is a character device, not a regular file.`,
 *   `<flag>: <file> holds <n> bytes, over the limit of <bound> (512 MiB).`,
 *   `<flag>: <file> grew while it was read; run again.`, `<flag>: <file> is not a regular file of known
 *   size ...` (a /proc file) or `<flag>: cannot read <file> (<code>).`
 */
export function readBoundedFile(file: string, flag: string): Buffer {
  const ev = evidence();
  try {
    const bytes = ev.readBoundedFile(file);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  } catch (e) {
    if (!(e instanceof ev.BoundedFileError)) throw e;
    const p = e.problem;
    const limit = e.maxBytes;
    switch (p.reason) {
      case "not_regular":
        throw new TaskError(`${flag}: ${file} is ${p.kind}, not a regular file.`);
      case "too_large":
        throw new TaskError(
          `${flag}: ${file} holds ${p.size} bytes, over the limit of ${limit} (${limit / 1024 / 1024} MiB).`,
        );
      case "grew":
        throw new TaskError(`${flag}: ${file} grew while it was read; run again.`);
      case "size_unknown":
        throw new TaskError(`${flag}: ${file} ${ev.SIZE_UNKNOWN_TEXT}.`);
      case "unreadable":
        throw new TaskError(`${flag}: cannot read ${file} (${p.code}).`);
    }
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
