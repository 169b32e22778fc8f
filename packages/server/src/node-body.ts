/**
 * The request body straight from Node's `IncomingMessage` when `@hono/node-server` serves the app:
 * reading `c.req.arrayBuffer()` there makes the adapter build a web `Request` with an `AbortSignal`
 * and a web stream over the node stream, per request (bench:api: the largest cost of a POST at the
 * edge after the platform's own work). Anything else (`app.request` in tests, the web wrapper's
 * forwarded request, a body some middleware already started to read) reads through Hono as before.
 */
import type { IncomingMessage } from "node:http";
import type { Context } from "hono";
import { EdgeError } from "./errors.js";

/**
 * The node request of `env` when its body has a declared length (no Transfer-Encoding: the case the
 * body limit checks from the headers alone, `limitBody`) and nobody has started reading it, else
 * undefined. A chunked body is always read through Hono: its limit counts the bytes as they stream.
 */
function unreadIncoming(env: unknown): IncomingMessage | undefined {
  const incoming = (env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming === undefined) return undefined;
  const { headers } = incoming;
  if (headers["content-length"] === undefined || headers["transfer-encoding"] !== undefined) return undefined;
  // `readableFlowing` stays null until something reads the stream (a web stream over it sets it).
  if (incoming.readableFlowing !== null || incoming.readableEnded) return undefined;
  return incoming;
}

/**
 * The body's bytes, read once: from the node stream when it is unread (then also kept as Hono's
 * cached `arrayBuffer`, so a later `c.req.arrayBuffer()` sees the same bytes), else via Hono. The
 * size limits are the body-limit middleware's: a declared `Content-Length` (checked there) bounds
 * what Node's parser hands over; a chunked body is never read here.
 */
export async function bodyBytes(c: Context): Promise<Uint8Array> {
  const incoming = unreadIncoming(c.env);
  if (incoming === undefined) {
    try {
      return new Uint8Array(await c.req.arrayBuffer());
    } catch (e) {
      // a chunked body past the limit: Hono's body limit has answered 413 already, and the read that
      // it stopped is no server fault to log (it was logged as an unexpected error)
      if ((e as Error).name === "BodyLimitError")
        throw new EdgeError("body_too_large", "the body is larger than the limit of this route");
      throw e;
    }
  }
  const read = (async () => {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of incoming) chunks.push(chunk as Buffer);
    } catch (e) {
      // the client closed the connection mid-body: its mistake (or choice), not a server fault to log
      if ((e as NodeJS.ErrnoException).code === "ECONNRESET" || (e as Error).message === "aborted")
        throw new EdgeError("request_aborted", "the client closed the connection before its body was sent");
      throw e;
    }
    const all = Buffer.concat(chunks);
    return all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer;
  })();
  // Hono keeps the promise of each read body there (its type says the value).
  (c.req.bodyCache as { arrayBuffer?: Promise<ArrayBuffer> }).arrayBuffer = read;
  return new Uint8Array(await read);
}
