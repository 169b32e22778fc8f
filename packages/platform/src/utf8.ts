/**
 * Strict UTF-8 decoding of uploaded files (issue 13 item 9): an invalid byte sequence is refused,
 * naming its byte offset and line, instead of being replaced by U+FFFD (which would change the data the
 * commitment hashes without anyone noticing).
 */
import { PlatformError, type PlatformErrorCode } from "./errors.js";

/**
 * Byte offset of the first invalid UTF-8 sequence in `b` (overlong forms, surrogates, code points above
 * U+10FFFF and truncated sequences included), or -1 when `b` is well-formed.
 */
export function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let n: number;
    let min: number;
    if (c >= 0xc2 && c <= 0xdf) {
      n = 1;
      min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
      n = 2;
      min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3;
      min = 0x10000;
    } else return i;
    let cp = c & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const d = b[i + k];
      if (d === undefined || (d & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (d & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n + 1;
  }
  return -1;
}

/**
 * Decodes `bytes` as UTF-8 or refuses them.
 * @param what the file, for the message
 * @param rowOfLine maps a 1-based line number to the dataset row it holds (CSV: line 2 is row 0), or null
 * @throws PlatformError `code` with `details {reason: "invalid_utf8", byte_offset, line, row_index}`
 */
export function decodeUtf8Strict(
  bytes: Uint8Array,
  what: string,
  code: PlatformErrorCode,
  rowOfLine: (line: number) => number | null = () => null,
): string {
  const bad = firstInvalidUtf8(bytes);
  if (bad < 0) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  let line = 1;
  for (let i = 0; i < bad; i++) if (bytes[i] === 0x0a) line++;
  const row = rowOfLine(line);
  throw new PlatformError(
    code,
    `${what}: invalid UTF-8 at byte offset ${bad} (line ${line}${row !== null ? `, row ${row}` : ""}): save the file as UTF-8`,
    {
      reason: "invalid_utf8",
      byte_offset: bad,
      line,
      row_index: row,
      byte: `0x${bytes[bad]!.toString(16).padStart(2, "0")}`,
    },
  );
}
