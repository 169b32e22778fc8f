/**
 * The request body straight from Node's `IncomingMessage` when `@hono/node-server` serves the app:
 * reading `c.req.arrayBuffer()` there makes the adapter build a web `Request` with an `AbortSignal`
 * and a web stream over the node stream, per request (bench:api: the largest cost of a POST at the
 * edge after the platform's own work). Anything else (`app.request` in tests, the web wrapper's
 * forwarded request) reads the web body stream. Either way the bytes are counted as they come: the
 * read stops at the request's limit ({@link BodyBudget}, set by the app's body-limit middleware, and
 * the route's own), a body without a declared length reserves its bytes in flight as they come, and a client closing mid-body is `request_aborted`, never an unexpected error.
 */
import type { IncomingMessage } from "node:http";
import type { Context } from "hono";
import type { AppEnv } from "./env.js";
import { EdgeError } from "./errors.js";

/**
 * What the body of one request may take, set by the app's body-limit middleware (`limitBodies`) on
 * every request but GET and HEAD, and read by {@link bodyBytes}.
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
