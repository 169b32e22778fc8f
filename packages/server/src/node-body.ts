/**
 * The request body straight from Node's `IncomingMessage` when `@hono/node-server` serves the app:
 * reading `c.req.arrayBuffer()` there makes the adapter build a web `Request` with an `AbortSignal`
 * and a web stream over the node stream, per request (bench:api: the largest cost of a POST at the
 * edge after the platform's own work). Anything else (`app.request` in tests, the web wrapper's
 * forwarded request) reads the web body stream. Either way the bytes are counted as they come: the
 * read stops at the request's limit ({@link BodyBudget}, set by the app's body-limit middleware, and
 * the route's own), a body without a declared length reserves its bytes in flight as they come, and a client closing mid-body is `request_aborted`, never an unexpected error.
 * A body nobody reads (a GET's or HEAD's, or any route's that takes none, or one refused before it
 * is read) is bounded too: {@link closeOnUnreadBody} closes the connection after the answer (probe38 A-N2).
 */
import type { IncomingMessage } from "node:http";
import type { Context } from "hono";
import type { AppEnv } from "./env.js";
import { EdgeError } from "./errors.js";

/**
 * What the body of one request may take, set by the app's body-limit middleware (`limitBodies`) on
 * every request but GET and HEAD, and read by {@link bodyBytes}. A body nobody reads (GET, HEAD, a
 * route that takes none) is bounded by {@link closeOnUnreadBody} instead.
 */
export interface BodyBudget {
  /** The most bytes of the body for this route and caller (the app's limits; a route may have a lower one). */
  limitBytes: number;
  /** The 413 of this request's limit (`details.limit_bytes`, and its hint): thrown when a body passes it. */
  tooLarge(): never;
  /**
   * Called with the bytes read so far after each chunk: a body without a declared length reserves its
   * bytes in flight as they come (throws EdgeError 503 `server_busy` when they are not there, 429 when a
   * dataset body's bytes are not in the caller's bucket).
   */
  grew(size: number): void;
}

/** The refusal of a body read past `limitBytes` (the budget's own when it has that limit). */
function overLimit(limitBytes: number, budget: BodyBudget | undefined): never {
  if (budget !== undefined && budget.limitBytes === limitBytes) budget.tooLarge();
  throw new EdgeError("body_too_large", `request body over ${limitBytes} bytes for this route`, {
    limit_bytes: limitBytes,
  });
}

/** The client closed the connection mid-body: its mistake (or choice), not a server fault to log. */
function aborted(): EdgeError {
  return new EdgeError("request_aborted", "the client closed the connection before its body was sent");
}

/** Whether a read error is the client closing its connection. */
const isAbort = (e: unknown): boolean =>
  (e as NodeJS.ErrnoException | null)?.code === "ECONNRESET" || (e as Error | null)?.message === "aborted";

/** The node request of `env` when nobody has started reading its body, else undefined. */
function unreadIncoming(env: unknown): IncomingMessage | undefined {
  const incoming = (env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming === undefined) return undefined;
  // `readableFlowing` stays null until something reads the stream (a web stream over it sets it).
  if (incoming.readableFlowing !== null || incoming.readableEnded) return undefined;
  return incoming;
}

/**
 * Reads a node request's body, each chunk counted by `onBytes` (which throws past the limit): then the
 * read stops, the stream paused, not destroyed, so the refusal still reaches the client (it says
 * `Connection: close`: the rest is never read).
 */
function readIncoming(incoming: IncomingMessage, onBytes: (size: number) => void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (settle: () => void) => {
      incoming.off("data", onData);
      incoming.off("end", onEnd);
      incoming.off("error", onError);
      incoming.off("close", onClose);
      settle();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      try {
        onBytes(size);
      } catch (e) {
        incoming.pause();
        finish(() => reject(e));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish(() => resolve(Buffer.concat(chunks)));
    const onError = (e: unknown) => finish(() => reject(isAbort(e) ? aborted() : e));
    const onClose = () => finish(() => reject(aborted())); // closed before its end
    incoming.on("data", onData);
    incoming.on("end", onEnd);
    incoming.on("error", onError);
    incoming.on("close", onClose);
  });
}

/** Reads a web body stream, counted by `onBytes` as {@link readIncoming} (the reader is released, not cancelled, past the limit). */
async function readStream(
  body: ReadableStream<Uint8Array>,
  onBytes: (size: number) => void,
): Promise<Buffer> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      onBytes(size);
      chunks.push(value);
    }
  } catch (e) {
    if (isAbort(e)) throw aborted();
    throw e;
  } finally {
    reader.releaseLock();
  }
  return Buffer.concat(chunks);
}

/**
 * The body's bytes, read once (and kept as Hono's cached `arrayBuffer`, so a later
 * `c.req.arrayBuffer()` sees the same bytes), counted as they come.
 * @param routeLimitBytes the route's own limit, when lower than the app's ({@link BodyBudget.limitBytes})
 * @throws EdgeError 413 `body_too_large` naming `limit_bytes` (with `Connection: close`: the rest is
 *   not read) once the body passes the lower of the two limits, declared or not
 * @throws EdgeError 503 `server_busy` when a body without a declared length grows past the bytes in
 *   flight there are ({@link BodyBudget.grew})
 * @throws EdgeError 400 `request_aborted` when the client closes the connection mid-body
 */
export async function bodyBytes(c: Context<AppEnv>, routeLimitBytes = Infinity): Promise<Uint8Array> {
  const cache = c.req.bodyCache as { arrayBuffer?: Promise<ArrayBuffer> };
  if (cache.arrayBuffer !== undefined) return new Uint8Array(await cache.arrayBuffer);
  const budget = c.var.bodyBudget;
  const limitBytes = Math.min(routeLimitBytes, budget?.limitBytes ?? Infinity);
  const onBytes = (size: number) => {
    try {
      if (size > limitBytes) overLimit(limitBytes, budget);
      budget?.grew(size);
    } catch (e) {
      // the rest of the body is not read: the connection cannot carry another request
      if (!(e instanceof EdgeError)) throw e;
      throw new EdgeError(e.code, e.message, e.details, { ...e.headers, connection: "close" });
    }
  };
  const incoming = unreadIncoming(c.env);
  const read = (async () => {
    const all =
      incoming !== undefined
        ? await readIncoming(incoming, onBytes)
        : c.req.raw.body === null
          ? Buffer.alloc(0)
          : await readStream(c.req.raw.body, onBytes);
    return all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer;
  })();
  // Hono keeps the promise of each read body there (its type says the value).
  cache.arrayBuffer = read;
  return new Uint8Array(await read);
}

/**
 * The most bytes of a request body nobody read that the connection may still drain after its answer
 * (16 KiB, Node's buffer of one request): Node reads and drops an unread body so the connection can
 * carry the next request, whatever its size, until the 60 s request deadline.
 */
export const UNREAD_BODY_BYTES = 16 * 1024;

/**
 * Whether the answer to a node request must close its connection because its body was not read and
 * may be large: it is not all in (Node has not parsed its end) and it declares a `Content-Length` over
 * {@link UNREAD_BODY_BYTES} or is chunked (no declared length: it may stream any amount). A body a
 * handler read whole, or a small one, leaves the connection open.
 */
function unreadBodyTooLarge(incoming: IncomingMessage): boolean {
  if (incoming.complete) return false;
  if (incoming.headers["transfer-encoding"] !== undefined) return true;
  const declared = Number(incoming.headers["content-length"] ?? "0");
  return !(declared <= UNREAD_BODY_BYTES); // NaN (Node refuses a malformed one first) closes too
}

/**
 * The answer to a request, saying `Connection: close` when its body was not read and may be large
 * ({@link unreadBodyTooLarge}: a GET or HEAD with a body, a route that takes none, a refusal before the
 * body was read): Node then closes the socket once the answer is written instead of reading and
 * dropping the rest of the body (probe38 A-N2: a GET declaring 1 GB was answered at once and its
 * 400 MiB then drained for 4 s; a one-byte-a-second trickle held the socket 60 s). Node stops reading
 * an unread body from the socket once its 16 KiB buffer is full, so at most about that much is read.
 * One rule for every method and route, the anonymous fast path's answers included (`app.ts` calls it
 * on every answer of the node server); a request not served by Node (`app.request`) is answered as is.
 * @param env the request's env (`{ incoming }` under `@hono/node-server`)
 * @param res the answer built for it
 * @returns `res`, with `Connection: close` when it must close (a copy when its headers are immutable)
 */
export function closeOnUnreadBody(env: unknown, res: Response): Response {
  const incoming = (env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming === undefined || !unreadBodyTooLarge(incoming)) return res;
  try {
    res.headers.set("connection", "close");
    return res;
  } catch (e) {
    // a Response whose headers are immutable (Response.redirect, a fetched one): answered as a copy
    if (!(e instanceof TypeError)) throw e;
    const headers = new Headers(res.headers);
    headers.set("connection", "close");
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  }
}
