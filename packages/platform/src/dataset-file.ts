/**
 * Reading a dataset file from disk (the CLI's `validate` and `publish`, JSON or CSV), bounded: a path that
 * names no document (a device such as `/dev/zero`, a directory, a socket) is refused unread, a regular
 * file larger than {@link MAX_DATASET_FILE_BYTES} is refused by its size, and a pipe (`<(cat data.json)`)
 * is read only up to the bound (probe19 B-F12: `validate /dev/zero` grew to 2.3 GB with no word).
 */
import { BoundedFileError, PACK_LIMITS, readBoundedFile, SIZE_UNKNOWN_TEXT } from "@bench-bounty/evidence";
import { PlatformError, type PlatformErrorCode } from "./errors.js";

/**
 * The most bytes of a dataset file read (bytes): a whole evidence pack's limit (`PACK_LIMITS.maxPackBytes`,
 * 512 MiB), as a dataset larger than the pack that reveals its test set could never be published.
 */
export const MAX_DATASET_FILE_BYTES = PACK_LIMITS.maxPackBytes;

/** The words of a read error's code a user meets (the code itself for the others). */
const UNREADABLE_WORDS: Readonly<Record<string, string>> = {
  ENOENT: "no such file (ENOENT)",
  ENOTDIR: "a part of the path is not a directory (ENOTDIR)",
  EACCES: "permission denied (EACCES)",
  ELOOP: "too many symbolic links (ELOOP)",
  ENAMETOOLONG: "the name is too long (ENAMETOOLONG)",
};

/**
 * The bytes of the dataset file at `path` (evidence's `readBoundedFile`, pipes accepted: read
 * synchronously, waiting for a pipe's writer).
 * @param code the refusal's code (`invalid_dataset` for JSON, `invalid_csv` for CSV)
 * @param field the refusal's `details.field` (`file`, `path`)
 * @param maxBytes the bound in bytes (default {@link MAX_DATASET_FILE_BYTES})
 * @throws PlatformError `code` naming `field`: no such file, not a file (a device, a directory, a
 *   socket), over `maxBytes` (a file by its size, a pipe while it is read), a file that grew while it
 *   was read, or a read error (its code)
 */
export async function readDatasetFile(
  path: string,
  code: PlatformErrorCode,
  field: string,
  maxBytes: number = MAX_DATASET_FILE_BYTES,
): Promise<Uint8Array> {
  try {
    return readBoundedFile(path, { maxBytes, pipes: true });
  } catch (e) {
    if (!(e instanceof BoundedFileError)) throw e;
    const refuse = (why: string): PlatformError =>
      new PlatformError(code, `cannot read ${path}: ${why}`, { field });
    const p = e.problem;
    switch (p.reason) {
      case "unreadable":
        // in words, with the errno (probe33 B-N1: `cannot read nosuch.json: ENOENT`)
        throw refuse(UNREADABLE_WORDS[p.code] ?? p.code);
      case "not_regular":
        throw refuse(`${p.kind}, not a file (give a JSON or CSV file, or a pipe)`);
      case "too_large":
        throw refuse(
          `larger than ${maxBytes} bytes, the most a dataset file may be (MAX_DATASET_FILE_BYTES)`,
        );
      case "grew":
        throw refuse(`it grew while it was read (from ${p.size} bytes); run again`);
      case "size_unknown":
        throw refuse(`it ${SIZE_UNKNOWN_TEXT}`);
    }
  }
}
