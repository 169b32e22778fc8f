/**
 * Response helpers of the edge: JSON bodies are canonical JSON (SPEC 2), so big integers and exact
 * decimals keep their value on the wire.
 */
import { createHash } from "node:crypto";
import { canonicalJsonString, isEvidenceError } from "@bench-bounty/evidence";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ErrorResponse } from "./errors.js";

/** Serialises a value: canonical JSON, or `JSON.stringify` (bigints as strings) for non-JSON values. */
export function jsonText(value: unknown): string {
  try {
    return canonicalJsonString(value);
  } catch (e) {
    // EvidenceError: not a canonical-JSON value (a float without its lexeme, undefined): plain JSON.
    if (!isEvidenceError(e)) throw e;
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
  }
}

/** The byte length of each answer {@link sendJson} made, by response: {@link answerByteLength}. */
const answerSizes = new WeakMap<Response, number>();

/**
 * The byte length of `res`'s body when {@link sendJson} made it (the bytes are encoded once, there), else
 * undefined: what the answer-bytes charge counts without copying and reading the body again (probe26
 * A-F3: a 240 MB run's tasks were encoded and copied twice more to be counted).
 */
export function answerByteLength(res: Response): number | undefined {
  return answerSizes.get(res);
}

/**
 * A JSON response with `status`: its UTF-8 bytes, encoded once here (the Node adapter declares their
 * `Content-Length`, a HEAD's included), their length kept for {@link answerByteLength}.
 */
export function sendJson(c: Context, value: unknown, status = 200, headers: Record<string, string> = {}) {
  const bytes = Buffer.from(jsonText(value), "utf8");
  const res = c.body(bytes as Uint8Array<ArrayBuffer>, status as ContentfulStatusCode, {
    ...headers,
    "content-type": JSON_TYPE,
  });
  answerSizes.set(res, bytes.byteLength);
  return res;
}

/**
 * The `Vary` of every read under `/api/*` (probe24 A-F1): an answer may depend on the caller's key
 * (the author's view of an open benchmark, SPEC 6.1), so a cache keys a stored read on both key
 * headers; an answer to a request that carried a key is also `Cache-Control: private`.
 */
export const KEY_VARY = "Authorization, X-API-Key";

/** The wire form of an immutable cached value: its canonical JSON bytes and their ETag. */
export interface FrozenBody {
  bytes: Uint8Array<ArrayBuffer>;
  /** A strong ETag: the first 128 bits of the bytes' SHA-256, base64url (the same in every process). */
  etag: string;
}

const frozenBodies = new WeakMap<object, FrozenBody>();

/**
 * The bytes and ETag of a value the domain hands out as an immutable cached object (the leaderboard:
 * the platform returns the same object until the board changes), serialised and hashed once per
 * object. Never use this for an object that may change after it was sent.
 */
export function frozenBodyOf(value: object): FrozenBody {
  let body = frozenBodies.get(value);
  if (body === undefined) {
    const bytes = new Uint8Array(Buffer.from(jsonText(value), "utf8"));
    const etag = `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 22)}"`;
    frozenBodies.set(value, (body = { bytes, etag }));
  }
  return body;
}

/** True when an `If-None-Match` header value names `etag` (or is `*`). Weak validators compare equal. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const strip = (t: string) => t.trim().replace(/^W\//, "");
  return header.split(",").some((t) => t.trim() === "*" || strip(t) === etag);
}

/** The content type of every JSON body of the edge. */
export const JSON_TYPE = "application/json; charset=utf-8";

/**
 * The headers of a 304 Not Modified for a cached representation: its `ETag` and the `Content-Type`
 * its 200 carries (plus `headers`). A 304 without one is sent as `text/plain; charset=UTF-8` by the
 * node adapter, and a cache revalidating with it updates its stored 200's headers from it (RFC 9111
 * 4.3.4), serving JSON as text afterwards (probe D1-F4).
 * @param contentType the 200's Content-Type, e.g. {@link JSON_TYPE}
 */
export function notModifiedHeaders(
  etag: string,
  contentType: string,
  headers: Record<string, string> = {},
): Record<string, string> {
  return { ...headers, etag, "content-type": contentType };
}

/**
 * A JSON response whose `etag` is known without serialising it (a hash-bound value: a receipt's ETag
 * is its `receipt_hash`): 304 without a body when `If-None-Match` names it, else the JSON with it.
 */
export function sendTaggedJson(c: Context, value: unknown, etag: string) {
  if (etagMatches(c.req.header("if-none-match"), etag))
    return c.body(null, 304, notModifiedHeaders(etag, JSON_TYPE));
  return sendJson(c, value, 200, { etag });
}

/**
 * A JSON response for an immutable cached value ({@link frozenBodyOf}) with its `ETag`: 304 without a
 * body (with the 200's Content-Type, {@link notModifiedHeaders}) when the request's `If-None-Match` names it.
 */
export function sendCachedJson(c: Context, value: object) {
  const { bytes, etag } = frozenBodyOf(value);
  if (etagMatches(c.req.header("if-none-match"), etag))
    return c.body(null, 304, notModifiedHeaders(etag, JSON_TYPE));
  return c.body(bytes, 200, { "content-type": JSON_TYPE, etag });
}

/** The wire form of an error response. */
export function sendError(c: Context, r: ErrorResponse) {
  return sendJson(c, r.body, r.status, r.headers);
}
