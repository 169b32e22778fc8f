/**
 * Response helpers of the edge: JSON bodies are canonical JSON (SPEC 2), so big integers and exact
 * decimals keep their value on the wire.
 */
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

/** A JSON response with `status`. */
export function sendJson(c: Context, value: unknown, status = 200, headers: Record<string, string> = {}) {
  return c.body(jsonText(value), status as ContentfulStatusCode, {
    ...headers,
    "content-type": "application/json; charset=utf-8",
  });
}

const frozenText = new WeakMap<object, string>();

/**
 * A JSON response for a value the domain hands out as an immutable cached object (the leaderboard:
 * the platform returns the same object until the board changes). Its text is serialised once per
 * object; never use this for an object that may change after it was sent.
 */
export function sendCachedJson(c: Context, value: object) {
  let text = frozenText.get(value);
  if (text === undefined) frozenText.set(value, (text = jsonText(value)));
  return c.body(text, 200, { "content-type": "application/json; charset=utf-8" });
}

/** The wire form of an error response. */
export function sendError(c: Context, r: ErrorResponse) {
  return sendJson(c, r.body, r.status, r.headers);
}
