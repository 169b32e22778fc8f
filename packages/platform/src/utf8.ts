/**
 * Strict UTF-8 decoding of uploaded files (issue 13 item 9): an invalid byte sequence is refused,
 * naming its byte offset and line, instead of being replaced by U+FFFD (which would change the data the
 * commitment hashes without anyone noticing).
 */
import {
  appendPath,
  isEvidenceError,
  isJsonFloat,
  isWellFormedText,
  parseJson,
  type ParseOptions,
} from "@bench-bounty/evidence";
import { readFileSync } from "node:fs";
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
 * The JSON path (`$.rows[3].payload.x`) of the value a JSON document is inside at byte `offset`: the
 * strict parser (SPEC 2) reads the bytes before it and names where they stop. Used to place an invalid
 * UTF-8 byte (its offset from {@link firstInvalidUtf8}: the bytes before it are well-formed) in a JSON
 * document that is often one line (probeD3 F5). `$` when the bytes before it hold a whole value (the
 * byte is trailing data); an earlier syntax error gives that error's path.
 * @param options the parser's limits (a server's body limits: the read stops at the first one over, at
 *   its path)
 */
export function jsonPathAtByte(bytes: Uint8Array, offset: number, options: ParseOptions = {}): string {
  try {
    parseJson(bytes.subarray(0, offset), options);
    return "$";
  } catch (e) {
    if (!isEvidenceError(e)) throw e;
    return e.path;
  }
}

/** The row of a dataset document (`{name, rows: [...]}`) a JSON path is in (`$.rows[3].payload.x`: 3), or null. */
export function datasetRowOfPath(path: string): number | null {
  const m = /^\$\.rows\[(\d+)\]/.exec(path);
  return m ? Number(m[1]) : null;
}

/**
 * This process's environment as its raw bytes (Linux: `/proc/self/environ`, `NAME=value` entries
 * NUL-separated), as it was when the process started; empty where there is none (not Linux): Node's
 * `process.env` holds the values decoded lossily, a byte that is not UTF-8 as U+FFFD.
 */
export function processEnviron(): Uint8Array {
  try {
    return readFileSync("/proc/self/environ");
  } catch {
    return new Uint8Array(0);
  }
}

/**
 * The names of the variables of `environ` whose values are not UTF-8 (the one rule of every check of
 * an environment variable's bytes: an option's environment form, `run --agent-env`; probe32 B-F4,
 * probe33 B-F11). A name that is not UTF-8 itself is left out (no option or `--agent-env` can name it).
 * @param environ `NAME=value` entries NUL-separated, as {@link processEnviron}
 */
export function environNotUtf8(environ: Uint8Array): Set<string> {
  const bad = new Set<string>();
  let start = 0;
  for (let i = 0; i <= environ.length; i++)
    if (i === environ.length || environ[i] === 0) {
      const entry = environ.subarray(start, i);
      start = i + 1;
      const eq = entry.indexOf(0x3d); // "="
      if (
        eq > 0 &&
        firstInvalidUtf8(entry.subarray(eq + 1)) >= 0 &&
        firstInvalidUtf8(entry.subarray(0, eq)) < 0
      )
        bad.add(Buffer.from(entry.subarray(0, eq)).toString("utf8"));
    }
  return bad;
}

/**
 * Where a file's invalid byte is: by the dataset row holding the byte at an offset (CSV: the record
 * that holds it, quoted newlines and any line ending counted as the parser does), or by JSON path (a
 * JSON dataset).
 */
export type Utf8Locator =
  | { rowAtByte: (bytes: Uint8Array, offset: number) => number | null }
  | { json: true };

/**
 * The 1-based line of the byte at `offset`: a line ends at LF, CR LF or a lone CR (probe33 B-F4: a file
 * with CR line endings was all "line 1").
 */
export function lineAtByte(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++)
    if (bytes[i] === 0x0a || (bytes[i] === 0x0d && bytes[i + 1] !== 0x0a)) line++;
  return line;
}

/**
 * Decodes `bytes` as UTF-8 or refuses them, naming the byte offset, the line and, when `locate` says
 * how, the dataset row (and for JSON the path of the value holding the byte).
 * @param what the file, for the message
 * @param locate `{rowAtByte}`: the dataset row holding the byte at an offset (CSV), or null;
 *   `{json: true}`: the file is a JSON dataset document ({@link jsonPathAtByte}, {@link datasetRowOfPath})
 * @throws PlatformError `code` with `details {reason: "invalid_utf8", byte_offset, line, row_index, byte}`
 *   (`path` too for JSON)
 */
export function decodeUtf8Strict(
  bytes: Uint8Array,
  what: string,
  code: PlatformErrorCode,
  locate: Utf8Locator = { rowAtByte: () => null },
): string {
  const bad = firstInvalidUtf8(bytes);
  if (bad < 0) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  const line = lineAtByte(bytes, bad);
  let path: string | null = null;
  let row: number | null;
  if ("json" in locate) {
    path = jsonPathAtByte(bytes, bad);
    row = datasetRowOfPath(path);
  } else row = locate.rowAtByte(bytes, bad);
  const where = [`line ${line}`, ...(row !== null ? [`row ${row}`] : []), ...(path !== null ? [path] : [])];
  throw new PlatformError(
    code,
    `${what}: invalid UTF-8 at byte offset ${bad} (${where.join(", ")}): save the file as UTF-8`,
    {
      reason: "invalid_utf8",
      byte_offset: bad,
      line,
      row_index: row,
      ...(path !== null ? { path } : {}),
      byte: `0x${bytes[bad]!.toString(16).padStart(2, "0")}`,
    },
  );
}

/** Why a text is not stored: an unpaired UTF-16 surrogate, or U+0000 (PostgreSQL cannot store it). */
export type TextProblem = "lone_surrogate" | "nul_character";

/**
 * What the store refuses in a text (the one text rule of the platform), or null: an unpaired UTF-16
 * surrogate (no UTF-8 form: a store would silently turn it into U+FFFD) or U+0000 (PostgreSQL's `text`
 * cannot hold it; probe16 A-F1: a 500 on PostgreSQL, stored on SQLite).
 */
export function textProblem(s: string): TextProblem | null {
  if (!isWellFormedText(s)) return "lone_surrogate";
  return s.includes("\u0000") ? "nul_character" : null;
}

/** What each {@link TextProblem} means, for messages. */
export const TEXT_PROBLEM_TEXT: Readonly<Record<TextProblem, string>> = {
  lone_surrogate: "holds an unpaired UTF-16 surrogate (no UTF-8 form): send well-formed Unicode",
  nul_character: "holds U+0000 (NUL), which the store cannot keep: remove it",
};

/**
 * The JSON path (from `path`) of the first string or object key of `value` with a {@link textProblem},
 * and the problem, or null. Walks any depth without recursion; values that are not strings, arrays or
 * plain objects are skipped.
 */
export function firstTextProblem(value: unknown, path = "$"): { path: string; reason: TextProblem } | null {
  const stack: { v: unknown; path: string }[] = [{ v: value, path }];
  while (stack.length > 0) {
    const { v, path: at } = stack.pop()!;
    if (typeof v === "string") {
      const reason = textProblem(v);
      if (reason !== null) return { path: at, reason };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: appendPath(at, i) });
    } else if (typeof v === "object" && v !== null && !isJsonFloat(v)) {
      const entries = Object.entries(v);
      for (const [k] of entries) {
        const reason = textProblem(k);
        if (reason !== null) return { path: appendPath(at, k), reason };
      }
      for (let i = entries.length - 1; i >= 0; i--)
        stack.push({ v: entries[i]![1], path: appendPath(at, entries[i]![0]) });
    }
  }
  return null;
}

/**
 * Refuses text input with a {@link textProblem} (an unpaired UTF-16 surrogate, issue 13 re-probe: it
 * was stored as U+FFFD silently; U+0000, probe16 A-F1): the one check every text input of the platform
 * goes through (publish options, datasets, answers; names, ids, slugs and addresses are ASCII by their
 * own rules; the store refuses U+0000 in any query's text as well, `store/nul-text.ts`).
 * @param path the JSON path of `value` (`$`, `$.title`)
 * @throws PlatformError `code` with `details {field, path, reason}` (`reason` the {@link TextProblem};
 *   `field`: the path without its leading `$.`)
 */
export function assertWellFormedText(value: unknown, path: string, code: PlatformErrorCode): void {
  const bad = firstTextProblem(value, path);
  if (bad === null) return;
  throw new PlatformError(code, `${bad.path}: the text ${TEXT_PROBLEM_TEXT[bad.reason]}`, {
    field: bad.path.replace(/^\$\.?/, "") || "$",
    path: bad.path,
    reason: bad.reason,
  });
}
