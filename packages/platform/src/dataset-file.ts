/**
 * Reading a dataset file from disk (the CLI's `validate` and `publish`, JSON or CSV), bounded: a path that
 * names no document (a device such as `/dev/zero`, a directory, a socket) is refused unread, a regular
 * file larger than {@link MAX_DATASET_FILE_BYTES} is refused by its size, and a pipe (`<(cat data.json)`)
 * is read only up to the bound (probe19 B-F12: `validate /dev/zero` grew to 2.3 GB with no word).
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { PACK_LIMITS } from "@bench-bounty/evidence";
import { PlatformError, type PlatformErrorCode } from "./errors.js";

/**
 * The most bytes of a dataset file read (bytes): a whole evidence pack's limit (`PACK_LIMITS.maxPackBytes`,
 * 512 MiB), as a dataset larger than the pack that reveals its test set could never be published.
 */
export const MAX_DATASET_FILE_BYTES = PACK_LIMITS.maxPackBytes;

/**
 * The bytes of the dataset file at `path`.
 * @param code the refusal's code (`invalid_dataset` for JSON, `invalid_csv` for CSV)
 * @param field the refusal's `details.field` (`file`, `path`)
 * @param maxBytes the bound (default {@link MAX_DATASET_FILE_BYTES})
 * @throws PlatformError `code` naming `field`: no such file, not a file (a device, a directory, a
 *   socket), over {@link MAX_DATASET_FILE_BYTES}, or a read error (its code)
 */
export async function readDatasetFile(
  path: string,
  code: PlatformErrorCode,
  field: string,
  maxBytes: number = MAX_DATASET_FILE_BYTES,
): Promise<Uint8Array> {
  const refuse = (why: string): PlatformError =>
    new PlatformError(code, `cannot read ${path}: ${why}`, { field });
  const st = await stat(path).catch((e: unknown) => {
    throw refuse((e as NodeJS.ErrnoException).code ?? (e as Error).message);
  });
  if (!st.isFile() && !st.isFIFO())
    throw refuse(`${kindOf(st)}, not a file (give a JSON or CSV file, or a pipe)`);
  const tooLarge = (): PlatformError =>
    refuse(`larger than ${maxBytes} bytes, the most a dataset file may be (MAX_DATASET_FILE_BYTES)`);
  if (st.size > maxBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of createReadStream(path)) {
      total += (chunk as Buffer).byteLength;
      if (total > maxBytes) throw tooLarge(); // a pipe, or a file that grew
      chunks.push(chunk as Buffer);
    }
  } catch (e) {
    if (e instanceof PlatformError) throw e;
    throw refuse((e as NodeJS.ErrnoException).code ?? (e as Error).message);
  }
  return Buffer.concat(chunks, total);
}

function kindOf(st: import("node:fs").Stats): string {
  if (st.isDirectory()) return "a directory";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSocket()) return "a socket";
  return "not a regular file";
}
