/**
 * Anonymous leaderboard reads answered before the middleware chain (issue 15 item 12: the edge at
 * >= 0.5x a bare handler serving the same bytes). A `GET /api/v1/benchmarks/:slug/leaderboard` that
 * sends no key, with no query or only `offset` / `limit` digits, needs none of the chain: no key to
 * authenticate, no body to limit, and the platform answers it from its cached board after one indexed
 * read of the board's version (so several `serve` processes on one database never serve a stale
 * board). It takes a token of the caller's address bucket of the same rate limiter the chain uses
 * before it reads the board (an empty bucket costs no read; a read it hands to the app, a refusal,
 * takes a second token there), and answers
 * the same bytes and headers as the route (`ETag`, 304 on `If-None-Match`, the read CORS headers).
 *
 * Anything else — a key, another query, HEAD, a refusal of the platform (unknown benchmark, a bad
 * page), an empty bucket — falls through to the app, which answers it (its 404/422/429 and its
 * logging of unexpected errors) exactly as before. Who may see which board stays the platform's rule
 * (SPEC 6.1, `buyer_only`): this asks it as the anonymous viewer the route would have.
 */
import type { IncomingMessage } from "node:http";
import { BOARD_PAGE_SIZE, PlatformError } from "@bench-bounty/platform";
import type { Domain } from "./domain.js";
import { etagMatches, frozenBodyOf, JSON_TYPE, KEY_VARY, notModifiedHeaders } from "./http.js";
import { addressGroupOf, addressOf, answerTokens, type RateLimiter } from "./middleware/limits.js";
import { CANONICAL_WHOLE } from "./query.js";

/** The leaderboard's URL (as the node server builds it: absolute, normalised), slug and query. */
const LEADERBOARD_URL =
  /^https?:\/\/[^/?#]+\/api\/v1\/benchmarks\/([A-Za-z0-9._-]+)\/leaderboard(?:\?([^#]*))?$/;
/** A query the fast path reads as the route does: `offset` and `limit`, each at most once, canonical digits. */
const PAGE_PARAM = new RegExp(`^(offset|limit)=(${CANONICAL_WHOLE})$`);

/** The CORS and caching headers of an anonymous read (what the app's `setReadCors` sets). */
const READ_CORS = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "ETag,Retry-After",
  vary: KEY_VARY,
} as const;

/** The page a query names, or null when the route must read it (another parameter, a repeat, no digits). */
function pageOf(query: string | undefined): { offset: number; limit: number } | null {
  const page = { offset: 0, limit: BOARD_PAGE_SIZE };
  if (query === undefined || query === "") return page;
  const seen = new Set<string>();
  for (const part of query.split("&")) {
    const m = PAGE_PARAM.exec(part);
    if (!m || seen.has(m[1]!)) return null;
    seen.add(m[1]!);
    page[m[1] as "offset" | "limit"] = Number(m[2]);
  }
  return page;
}

/** A request header, from the node request when there is one (no web `Headers` object is built). */
function headerOf(req: Request, incoming: IncomingMessage | undefined, name: string): string | undefined {
  if (incoming === undefined) return req.headers.get(name) ?? undefined;
  const v = incoming.headers[name];
  return Array.isArray(v) ? v.join(", ") : v;
}

/**
 * The fast path: a function of the app's `fetch` arguments that answers an anonymous leaderboard read,
 * or returns null for the app to answer.
 */
export function publicReads(
  domain: Domain,
  limiter: RateLimiter,
  log: (e: unknown) => void,
  answerBytesPerToken: number,
): (req: Request, env: unknown) => Promise<Response | null> {
  return async (req, env) => {
    if (req.method !== "GET") return null;
    const m = LEADERBOARD_URL.exec(req.url);
    if (!m) return null;
    const incoming = (env as { incoming?: IncomingMessage } | undefined)?.incoming;
    if (headerOf(req, incoming, "x-api-key") !== undefined) return null;
    if (headerOf(req, incoming, "authorization") !== undefined) return null;
    const page = pageOf(m[2]);
    if (page === null) return null;
    // The token first: an empty bucket costs no board read (the chain's rate limit answers its 429).
    const bucket = addressGroupOf(addressOf(env));
    if (limiter.take(bucket) > 0) return null;
    let board: unknown;
    try {
      board = await domain.leaderboard(null, m[1]!, undefined, page);
    } catch (e) {
      // The app asks again and answers the refusal with its status; an unexpected error is logged here
      // too, as the app's answer to its second try may hide it.
      if (!(e instanceof PlatformError)) log(e);
      return null;
    }
    const { bytes, etag } = frozenBodyOf(board as object);
    if (etagMatches(headerOf(req, incoming, "if-none-match"), etag))
      return new Response(null, { status: 304, headers: notModifiedHeaders(etag, JSON_TYPE, READ_CORS) });
    // A large page takes more tokens, as the app's chargeAnswerBytes does (the app answers the 429).
    const extra = answerTokens(limiter, bytes.byteLength, answerBytesPerToken);
    if (extra > 0 && limiter.take(bucket, extra) > 0) return null;
    return new Response(bytes, { status: 200, headers: { "content-type": JSON_TYPE, etag, ...READ_CORS } });
  };
}
