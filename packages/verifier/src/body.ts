/**
 * Reading an http answer's body within a limit: the one bounded read of the verifier, the indexer
 * transport and `@bench-bounty/client` (no dependency, no Node API: browser-safe, exported as
 * `@bench-bounty/verifier/body`).
 * @packageDocumentation
 */

/**
 * An http answer longer than its limit, found while streaming it (the rest is
 * not read). `declared` is the `content-length` when that already said so.
 */
export class AnswerTooLargeError extends Error {
  /** The limit, bytes. */
  readonly limit: number;
  /** The declared `content-length` that exceeded the limit, or null when the stream itself did. */
  readonly declared: number | null;

  constructor(what: string, limit: number, declared: number | null) {
    super(
      declared === null
        ? `the ${what} is more than the limit of ${limit} bytes (refused while streaming, at the limit)`
        : `the ${what} is ${declared} bytes, more than the limit of ${limit} bytes`,
    );
    this.name = "AnswerTooLargeError";
    this.limit = limit;
    this.declared = declared;
  }

  /** The {@link AnswerTooLargeError} in `e` or its chain of causes (viem wraps what `fetch` throws). */
  static find(e: unknown): AnswerTooLargeError | undefined {
    for (let c = e, depth = 0; c !== undefined && c !== null && depth < 8; depth++) {
      if (c instanceof AnswerTooLargeError) return c;
      c = (c as { cause?: unknown }).cause;
    }
    return undefined;
  }
}

/**
 * Read a whole answer body, at most `max` bytes: a declared `content-length` over the
 * limit is refused before reading, and a streamed (chunked) body as soon as its bytes
 * pass the limit; the rest is cancelled, never buffered.
 * @throws AnswerTooLargeError over the limit; what the stream throws otherwise
 */
export async function readBodyWithin(res: Response, max: number, what: string): Promise<Uint8Array> {
  const declared = Number(res.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel().catch(() => undefined);
    throw new AnswerTooLargeError(what, max, declared);
  }
  if (res.body === null) return new Uint8Array(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      throw new AnswerTooLargeError(what, max, null);
    }
    chunks.push(value);
  }
  return concat(chunks, total);
}

/** `chunks` (whose byte lengths sum to `total`) as one array. */
export function concat(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.byteLength;
  }
  return out;
}
