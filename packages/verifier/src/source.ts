/**
 * Reading the bytes of a pack (or a receipt, a JWKS) from a file, standard
 * input, an http(s) URL or memory. The bytes are returned as served: the pack
 * hash is recomputed from what was read, whatever its key order and white
 * space.
 *
 * @packageDocumentation
 */
import { readFile } from "node:fs/promises";
import { VerifierInputError, VerifierNetworkError, describeError } from "./errors.js";

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
}

/** Default size limit of one document: 512 MiB (a 100 000-task pack with three winners is ~150 MB). */
export const DEFAULT_MAX_DOCUMENT_BYTES = 512 * 1024 * 1024;

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
 * @throws VerifierInputError `too_large` when the document exceeds `maxBytes`
 * @throws VerifierNetworkError when the file, standard input or URL cannot be read
 *   (including an http status other than 200; the door's machine-readable reason is quoted)
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
    try {
      for await (const chunk of options.stdin ?? process.stdin) {
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
    const target = `url ${source}`;
    let res: Response;
    try {
      res = await fetch(source, {
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      });
    } catch (e) {
      throw new VerifierNetworkError(target, `cannot fetch: ${describeError(e)}`, { cause: e });
    }
    if (res.status !== 200) {
      let detail = "";
      try {
        const body = (await res.text()).slice(0, 500);
        const parsed = JSON.parse(body) as { reason?: unknown; error?: unknown };
        const reason = parsed.reason ?? parsed.error;
        if (typeof reason === "string") detail = ` (reason: ${reason})`;
      } catch {
        // not a JSON body: the status says enough
      }
      throw new VerifierNetworkError(target, `http ${res.status}${detail}`);
    }
    const declared = Number(res.headers.get("content-length") ?? "NaN");
    if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(declared);
    let buf: ArrayBuffer;
    try {
      buf = await res.arrayBuffer();
    } catch (e) {
      throw new VerifierNetworkError(target, `cannot read the body: ${describeError(e)}`, { cause: e });
    }
    if (buf.byteLength > maxBytes) throw tooLarge(buf.byteLength);
    return { bytes: new Uint8Array(buf), label: target };
  }
  const target = `file ${source}`;
  let bytes: Uint8Array;
  try {
    bytes = await readFile(source);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    const msg = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : describeError(e);
    throw new VerifierNetworkError(target, msg, { cause: e });
  }
  if (bytes.byteLength > maxBytes) throw tooLarge(bytes.byteLength);
  return { bytes, label: target };
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.byteLength;
  }
  return out;
}
