/**
 * Reading an http answer's body within a limit: the one bounded read of the verifier, the platform's
 * chain clients, the indexer's RPC transport and `@bench-bounty/client` (no dependency, no Node API:
 * browser-safe, exported as `@bench-bounty/evidence/body` and re-exported as `@bench-bounty/verifier/body`).
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

/**
 * An http answer that did not arrive in full (headers and body) within its deadline:
 * a server that sends its headers and then drips the body is cut off here.
 */
export class AnswerTimeoutError extends Error {
  /** The deadline, milliseconds from the request's start. */
  readonly deadlineMs: number;

  constructor(what: string, deadlineMs: number) {
    super(`the ${what} did not arrive in full within ${deadlineMs} ms (headers and body)`);
    this.name = "AnswerTimeoutError";
    this.deadlineMs = deadlineMs;
  }

  /** The {@link AnswerTimeoutError} in `e` or its chain of causes (viem wraps what `fetch` throws). */
  static find(e: unknown): AnswerTimeoutError | undefined {
    for (let c = e, depth = 0; c !== undefined && c !== null && depth < 8; depth++) {
      if (c instanceof AnswerTimeoutError) return c;
      c = (c as { cause?: unknown }).cause;
    }
    return undefined;
  }
}

/** The bounds of one http exchange ({@link fetchWithin}, {@link boundedFetch}). */
export interface ExchangeBounds {
  /** What the answer is, for messages (`"RPC answer"`, `"pack"`). */
  what: string;
  /** Milliseconds from the request's start to the body's last byte, headers and body together. */
  timeoutMs: number;
  /**
   * The body's limit, bytes ({@link AnswerTooLargeError} past it). Leave it out when the caller
   * reads the body with {@link readBodyWithin} (its own limit, per status).
   */
  maxBytes?: number;
  /** Aborts the exchange too, body included (a total deadline); the body errors with its reason. */
  signal?: AbortSignal;
}

/**
 * One `fetch` bounded from its start to the last byte of its body: the answer is returned once its
 * headers arrive, with a body that errors with {@link AnswerTimeoutError} when the whole exchange has
 * not ended `timeoutMs` after the request started (a server that sends its headers and then drips the
 * body one byte at a time is cut off at the timeout like one that never answers), with
 * {@link AnswerTooLargeError} past `maxBytes` (a declared `content-length` over it is refused before
 * the body is read), and with `signal`'s reason when it aborts. At any of these the connection is
 * cancelled, the rest never read.
 *
 * The deadline is a timer that holds the body's reader itself (cleared at the last byte, or when the
 * caller cancels the body): never `AbortSignal.timeout`, which fetch holds only weakly once the headers
 * have arrived, so that a garbage collection while the body is read lost the timeout (probe27 B-F6:
 * about half the runs waited for the total deadline).
 * @param input what `fetchFn` takes (a URL)
 * @param init `fetch`'s options; its `signal`, if any, aborts the exchange as `bounds.signal` does
 * @param fetchFn the `fetch` to bound (default the global one)
 * @throws AnswerTimeoutError when the headers themselves are late; `bounds.signal`'s reason when it
 *   aborted first; {@link AnswerTooLargeError} for a declared length over `maxBytes`; what `fetchFn`
 *   throws otherwise
 */
export async function fetchWithin(
  input: string | URL | Request,
  init: RequestInit | undefined,
  bounds: ExchangeBounds,
  fetchFn: typeof fetch = fetch,
): Promise<Response> {
  const { what, timeoutMs, maxBytes } = bounds;
  const stops = [bounds.signal, init?.signal ?? undefined].filter((s): s is AbortSignal => s !== undefined);
  const already = stops.find((s) => s.aborted);
  if (already !== undefined) throw already.reason;
  const request = new AbortController();
  /** The body's reader once the headers are in (the timer holds it: see above). */
  const held: { reader?: ReadableStreamDefaultReader<Uint8Array> } = {};
  let out: ReadableStreamDefaultController<Uint8Array> | undefined;
  let ended = false;
  /** The exchange is over (the last byte, a refusal, the caller's cancel): no timer, no listeners. */
  const end = (): void => {
    ended = true;
    clearTimeout(timer);
    for (const s of stops) s.removeEventListener("abort", onStop);
  };
  /** Cut the exchange off with `reason`: the request aborted, the body cancelled and errored. */
  const cut = (reason: unknown): void => {
    if (ended) return;
    end();
    request.abort(reason);
    if (held.reader !== undefined) void held.reader.cancel(reason).catch(() => undefined);
    if (out !== undefined) out.error(reason);
  };
  const timer = setTimeout(() => cut(new AnswerTimeoutError(what, timeoutMs)), timeoutMs);
  // a Node timer need not keep a process alive (the socket does while the body is read); browsers have no unref
  (timer as { unref?: () => void }).unref?.();
  function onStop(this: AbortSignal): void {
    cut(this.reason);
  }
  for (const s of stops) s.addEventListener("abort", onStop, { once: true });

  let res: Response;
  try {
    res = await fetchFn(input, { ...init, signal: request.signal });
  } catch (e) {
    const reason: unknown = request.signal.aborted ? request.signal.reason : undefined;
    end();
    throw reason ?? e;
  }
  if (res.body === null) {
    end();
    return res;
  }
  const declared = Number(res.headers.get("content-length") ?? "NaN");
  if (maxBytes !== undefined && Number.isFinite(declared) && declared > maxBytes) {
    end();
    await res.body.cancel().catch(() => undefined);
    throw new AnswerTooLargeError(what, maxBytes, declared);
  }
  const source = res.body.getReader();
  held.reader = source;
  let total = 0;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      out = controller;
    },
    async pull(controller) {
      let chunk: Awaited<ReturnType<typeof source.read>>;
      try {
        chunk = await source.read();
      } catch (e) {
        if (ended) return; // cut: the body has errored with the reason already
        end();
        throw e;
      }
      if (ended) return; // cut while this read waited (a cancelled reader reads "done")
      if (chunk.done) {
        end();
        controller.close();
        return;
      }
      total += chunk.value.byteLength;
      if (maxBytes !== undefined && total > maxBytes) {
        cut(new AnswerTooLargeError(what, maxBytes, null));
        return;
      }
      controller.enqueue(chunk.value);
    },
    cancel(reason) {
      end();
      return source.cancel(reason);
    },
  });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/**
 * A `fetch` whose every exchange is bounded by {@link fetchWithin} (for clients that read the body
 * themselves: viem's `http` transport takes it as `fetchFn`; viem's own `timeout` stops at the headers).
 * @param fetchFn the `fetch` to bound (default the global one)
 */
export function boundedFetch(bounds: ExchangeBounds, fetchFn: typeof fetch = fetch): typeof fetch {
  return (input, init) => fetchWithin(input, init, bounds, fetchFn);
}
