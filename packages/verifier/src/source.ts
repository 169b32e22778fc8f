/**
 * Reading the bytes of a pack (or a receipt, a JWKS) from a file, standard
 * input, an http(s) URL or memory. The bytes are returned as served: the pack
 * hash is recomputed from what was read, whatever its key order and white
 * space.
 *
 * @packageDocumentation
 */
import { closeSync, constants, createReadStream, openSync } from "node:fs";
import { stat } from "node:fs/promises";
import { Socket } from "node:net";
import { addAbortSignal, Readable } from "node:stream";
import { fileKind, PACK_LIMITS } from "@bench-bounty/evidence";
import { VerifierInputError, VerifierNetworkError, describeError } from "./errors.js";
import { printable } from "./text.js";
import {
  AnswerTimeoutError,
  AnswerTooLargeError,
  boundedFetch,
  concat,
  fetchWithin,
  readBodyWithin,
} from "./body.js";
import { credentialsToHeader } from "./url.js";

// the bounded read of an http answer lives in body.ts (browser-safe, `@bench-bounty/verifier/body`)
export { AnswerTimeoutError, AnswerTooLargeError, boundedFetch, fetchWithin, readBodyWithin };

/**
 * What of a pack's URL is printed (errors, the report's source): its origin and path, never its
 * userinfo, query or fragment, where a private door puts a password or token.
 */
export function shownDocumentUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}${u.search !== "" || u.hash !== "" ? " (query not shown)" : ""}`;
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return "(not a URL)";
  }
}

/** Where a document comes from: a file path, `-` (standard input), an http(s) URL, or the bytes themselves. */
export type DocumentSource = string | Uint8Array;

/** Options of {@link readSource}. */
export interface ReadSourceOptions {
  /** Refuse documents larger than this many bytes (default {@link DEFAULT_MAX_DOCUMENT_BYTES}). */
  maxBytes?: number;
  /** Timeout of an http(s) fetch, milliseconds (default 30 000). */
  timeoutMs?: number;
  /** Standard input stream (tests pass their own). */
  stdin?: AsyncIterable<Uint8Array | string>;
  /** What the document is, for messages (`pack`, `JWKS`, `receipt`). */
  what?: string;
  /** Aborts the read (the verification's total deadline, `withinDeadline`). */
  signal?: AbortSignal;
}

/**
 * Default size limit of one document: 512 MiB, evidence's `PACK_LIMITS.maxPackBytes` (a 100 000-task
 * pack with three winners is ~150 MB).
 */
export const DEFAULT_MAX_DOCUMENT_BYTES = PACK_LIMITS.maxPackBytes;

/** The bytes of a document and a label saying where they came from. */
export interface SourceBytes {
  /** The raw bytes as served. */
  bytes: Uint8Array;
  /** `file <path>`, `stdin`, `url <url>` or `bytes`. */
  label: string;
}

/** True when `s` is an http(s) URL. */
export function isHttpUrl(s: string): boolean {
  return /^https?:\/\//i.test(s);
}

/**
 * Read a document's bytes.
 *
 * @throws VerifierInputError `too_large` when the document exceeds `maxBytes` (every source is
 *   bounded while it is read: a file, a FIFO, standard input, a URL); `no_such_file` / `not_a_file`
 *   when a file path names no file, or a directory, a device or a socket
 * @throws VerifierNetworkError when the file, standard input or URL cannot be read
 *   (including an http status other than 200: `http 404: <reason>: <message>`, the door's
 *   machine-readable reason and message quoted from its JSON error body, see {@link readErrorDetail})
 */
export async function readSource(
  source: DocumentSource,
  options: ReadSourceOptions = {},
): Promise<SourceBytes> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
  const what = options.what ?? "document";
  const tooLarge = (n: number): VerifierInputError =>
    new VerifierInputError(
      "too_large",
      "$",
      `the ${what} is ${n} bytes, more than the limit of ${maxBytes} bytes`,
    );

  if (source instanceof Uint8Array) {
    if (source.byteLength > maxBytes) throw tooLarge(source.byteLength);
    return { bytes: source, label: "bytes" };
  }
  if (source === "-") {
    const chunks: Uint8Array[] = [];
    let total = 0;
    // standard input (a pipe, a terminal) is destroyed at the deadline: a silent writer kept the
    // process alive after the deadline was printed (probe21 B-F1)
    const input = options.stdin ?? process.stdin;
    if (options.signal !== undefined && input instanceof Readable) addAbortSignal(options.signal, input);
    try {
      for await (const chunk of input) {
        const b = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
        total += b.byteLength;
        if (total > maxBytes) throw tooLarge(total);
        chunks.push(b);
      }
    } catch (e) {
      if (e instanceof VerifierInputError) throw e;
      throw new VerifierNetworkError("stdin", describeError(e), { cause: e });
    }
    return { bytes: concat(chunks, total), label: "stdin" };
  }
  if (isHttpUrl(source)) {
    // userinfo is sent as Basic auth (fetch refuses a URL with credentials, and its message repeats the
    // URL); what is printed is the URL without userinfo, query or fragment (probe13 B1)
    const { url, headers } = credentialsToHeader(source);
    const shown = shownDocumentUrl(source);
    const target = `url ${shown}`;
    const scrub = (text: string): string => text.split(source).join(shown).split(url).join(shown);
    let res: Response;
    try {
      // the timeout runs to the body's last byte (fetchWithin: a dripped body is cut off at it)
      res = await fetchWithin(
        url,
        { headers: { ...headers, accept: "application/json" } },
        { what, timeoutMs: options.timeoutMs ?? 30_000, signal: options.signal },
      );
    } catch (e) {
      throw new VerifierNetworkError(target, `cannot fetch: ${scrub(describeError(e))}`, { cause: e });
    }
    if (res.status !== 200) {
      const detail = await readErrorDetail(res);
      throw new VerifierNetworkError(target, `http ${res.status}${detail === "" ? "" : `: ${detail}`}`);
    }
    try {
      return { bytes: await readBodyWithin(res, maxBytes, what), label: target };
    } catch (e) {
      if (!(e instanceof AnswerTooLargeError))
        throw new VerifierNetworkError(target, `cannot read the body: ${scrub(describeError(e))}`, {
          cause: e,
        });
      throw e.declared === null ? new VerifierInputError("too_large", "$", e.message) : tooLarge(e.declared);
    }
  }
  const target = `file ${source}`;
  const readError = (e: unknown): VerifierInputError | VerifierNetworkError => {
    const code = (e as { code?: unknown }).code;
    // a path that names no file is a usage mistake (exit 2); a file that cannot be read is I/O (exit 3)
    if (code === "ENOENT" || code === "ENOTDIR")
      return new VerifierInputError("no_such_file", target, `no such file (the ${what})`);
    if (code === "EISDIR")
      return new VerifierInputError("not_a_file", target, `is a directory, not a file (the ${what})`);
    return new VerifierNetworkError(target, describeError(e), { cause: e });
  };
  // A regular file is measured before it is read (a 2 GiB file is refused unread); it and a FIFO (a
  // pipe: `<(curl ...)`, `mkfifo`) are then streamed with the limit enforced on the bytes read, as a
  // URL is: a stat size says nothing of a pipe or a /proc file (0), nor of a file that grows. A device
  // (/dev/zero, /dev/urandom, a terminal) or a socket is refused unread: it is no document.
  const st = await stat(source).catch((e: unknown) => {
    throw readError(e);
  });
  if (!st.isFile() && !st.isFIFO()) {
    const kind = fileKind(st);
    const hint = st.isDirectory() ? "" : "; give a file, a pipe or - for standard input";
    throw new VerifierInputError("not_a_file", target, `is ${kind}, not a file (the ${what}${hint})`);
  }
  if (st.isFile() && st.size > maxBytes) throw tooLarge(st.size);
  let bytes: Uint8Array;
  try {
    const stream = st.isFIFO()
      ? openFifo(source, options.signal)
      : createReadStream(source, { highWaterMark: 1 << 20 });
    bytes = await readStreamWithin(
      stream,
      maxBytes,
      () =>
        new VerifierInputError(
          "too_large",
          "$",
          `the ${what} is more than the limit of ${maxBytes} bytes (refused while reading, at the limit)`,
        ),
    );
  } catch (e) {
    if (e instanceof VerifierInputError) throw e;
    throw readError(e);
  }
  return { bytes, label: target };
}

/**
 * A FIFO (`mkfifo`, `<(curl ...)`, `/dev/stdin` when it is a pipe) read through a pipe handle that the event
 * loop polls, never by a thread-pool thread blocked in `open()` or `read()`: nothing else could end such a
 * thread, and the process waited for it after the deadline was printed, `process.exit` included (probe19
 * B-F7: no writer yet; probe21 B-F1: a writer that holds the FIFO open and writes nothing, or half a
 * pack). The FIFO is opened with `O_NONBLOCK` (returns at once, writer or not; on Linux the handle reads
 * nothing, and no end, until a writer has come and gone) and `signal` (the verification's deadline)
 * destroys the stream, closing the descriptor, whatever the writer does.
 * @throws the `open()` error (ENOENT, EACCES, ...), for the caller's `readError`
 */
function openFifo(path: string, signal: AbortSignal | undefined): Readable {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  let socket: Socket;
  try {
    socket = new Socket({ fd, readable: true, writable: false });
  } catch (e) {
    closeSync(fd);
    throw e;
  }
  return signal === undefined ? socket : addAbortSignal(signal, socket);
}

/**
 * All the bytes of a stream, at most `max`: once more have arrived the stream is destroyed (the rest is
 * never read) and `tooLarge()` is thrown.
 */
async function readStreamWithin(
  stream: Readable,
  max: number,
  tooLarge: () => VerifierInputError,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      total += chunk.byteLength;
      if (total > max) throw tooLarge();
      chunks.push(chunk);
    }
  } finally {
    stream.destroy();
  }
  return concat(chunks, total);
}

/** How many bytes of an error answer's body are read to find its reason (the rest is discarded). */
export const MAX_ERROR_BODY_BYTES = 8192;

/**
 * The machine-readable reason and message of a non-200 answer, as
 * `reason: message`, or `""` when the body says nothing usable.
 *
 * Reads at most {@link MAX_ERROR_BODY_BYTES} bytes and trusts the body for
 * nothing but this text: it must be JSON shaped like the evidence door's
 * `{"error":{"code","reason","message"}}` (a top-level `reason`/`message`, or an
 * `error` string, are also accepted); the reason must look like an identifier,
 * and the message is shown through {@link printable} (control characters removed, cut to 300
 * characters). Never throws for a body that is unreadable or not JSON.
 */
export async function readErrorDetail(res: Response): Promise<string> {
  let text: string;
  try {
    text = await readBounded(res, MAX_ERROR_BODY_BYTES);
  } catch (e) {
    // the connection failed or timed out while the error body was read: the status says enough
    if (e instanceof TypeError || e instanceof DOMException) return "";
    throw e;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    if (e instanceof SyntaxError) return ""; // not (complete) JSON: the status says enough
    throw e;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return "";
  const top = parsed as Record<string, unknown>;
  const inner =
    typeof top.error === "object" && top.error !== null && !Array.isArray(top.error)
      ? (top.error as Record<string, unknown>)
      : top;
  const reason = identifier(inner.reason) ?? identifier(inner.code) ?? identifier(top.error);
  const message = typeof inner.message === "string" ? printable(inner.message) : "";
  if (reason !== undefined && message !== "") return `${reason}: ${message}`;
  return reason ?? message;
}

/** `v` when it is a short identifier-like string (`withheld_live_contest`), else undefined. */
function identifier(v: unknown): string | undefined {
  return typeof v === "string" && /^[A-Za-z0-9_.-]{1,64}$/.test(v) ? v : undefined;
}

/** The first `max` bytes of a response body as text; the rest of the body is cancelled, not read. */
async function readBounded(res: Response, max: number): Promise<string> {
  if (res.body === null) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (total < max) {
      const { done, value } = await reader.read();
      if (done) break;
      const take = value.subarray(0, max - total);
      chunks.push(take);
      total += take.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return new TextDecoder("utf-8", { fatal: false }).decode(concat(chunks, total));
}
