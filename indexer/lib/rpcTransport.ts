/**
 * The viem transport Ponder reads the chain through (probe10 R1). Given the RPC URL as a string,
 * Ponder builds its own HTTP client, and every failed request is logged with viem's
 * `HttpRequestError`, whose message and `url` field carry the whole URL: the provider key in its
 * path (`/v3/KEY`) or query (`?apikey=KEY`) ended up in the indexer's log at `warn` and `info`.
 *
 * This transport is viem's `http()` built on the RPC's **origin** (scheme, host, port), so every
 * error viem makes (`HttpRequestError`, `TimeoutError`, `RpcRequestError`) names the origin only;
 * its `fetchFn` sends each request to the real URL instead. A userinfo part (`user:pass@`), which
 * `fetch` refuses inside a URL, becomes an `Authorization: Basic` header. Errors of `fetch` itself
 * (connection refused, DNS) name the host and port, never the path or query.
 */
import { boundedFetch, type ExchangeBounds } from "@bench-bounty/evidence/body";
import { http, type Transport } from "viem";

/**
 * The bounds of every JSON-RPC exchange of the indexer (Ponder's requests and its own start-up
 * checks), read through the verifier's `boundedFetch`: an answer is cut off past `maxBytes` (64 MiB,
 * the verifier's and the platform's limit) or when its last byte has not come `timeoutMs` after the
 * request started, headers and body together (probe33 B-F15: an RPC answering without end grew the
 * indexer to 6.1 GB in 90 s). Ponder retries a failed request as it does any RPC error.
 */
export const INDEXER_RPC_LIMITS: ExchangeBounds = {
  what: "RPC answer",
  timeoutMs: 60_000,
  maxBytes: 64 * 1024 * 1024,
};

/** Scheme, host and port of `url`: what may appear in logs and errors. */
export function rpcOrigin(url: string): string {
  return new URL(url).origin;
}

/** `url` without its userinfo and fragment, and the `Authorization` header its userinfo stands for. */
function splitCredentials(url: string): { target: string; authorization: string | undefined } {
  const u = new URL(url);
  u.hash = "";
  if (u.username === "" && u.password === "") return { target: u.href, authorization: undefined };
  const user = decodeURIComponent(u.username);
  const pass = decodeURIComponent(u.password);
  u.username = "";
  u.password = "";
  return {
    target: u.href,
    authorization: `Basic ${Buffer.from(`${user}:${pass}`, "utf8").toString("base64")}`,
  };
}

/**
 * A `fetch` that sends to `rpcUrl` (without its fragment; userinfo as `Authorization: Basic`), each
 * exchange bounded by `limits` ({@link INDEXER_RPC_LIMITS}: an answer past them errors with the
 * verifier's `AnswerTooLargeError` / `AnswerTimeoutError`): for Ponder's transport and the indexer's
 * own JSON-RPC calls (`lib/syncGuardRun.ts`), whose errors then name no URL.
 */
export function rpcFetch(
  rpcUrl: string,
  fetchFn: (input: string, init?: RequestInit) => Promise<Response> = (input, init) => fetch(input, init),
  limits: ExchangeBounds = INDEXER_RPC_LIMITS,
): (init: RequestInit) => Promise<Response> {
  const { target, authorization } = splitCredentials(rpcUrl);
  const bounded = boundedFetch(limits, fetchFn as typeof fetch);
  return (init) => {
    const headers = new Headers(init.headers);
    if (authorization !== undefined) headers.set("authorization", authorization);
    return bounded(target, { ...init, headers });
  };
}

/**
 * A viem HTTP transport for `rpcUrl` whose errors (and so Ponder's log lines) show only
 * `rpcOrigin(rpcUrl)`, each answer bounded by `limits` ({@link rpcFetch}). `fetchFn` is for tests
 * (default: the global `fetch`).
 */
export function redactedHttpTransport(
  rpcUrl: string,
  fetchFn: (input: string, init?: RequestInit) => Promise<Response> = (input, init) => fetch(input, init),
  limits: ExchangeBounds = INDEXER_RPC_LIMITS,
): Transport {
  const send = rpcFetch(rpcUrl, fetchFn, limits);
  return http(rpcOrigin(rpcUrl), {
    fetchFn: (_input, init) => {
      // viem passes its init with a `url` member (the origin): drop it, send to the real URL.
      const { url: _origin, ...rest } = (init ?? {}) as RequestInit & { url?: string };
      return send(rest);
    },
  });
}
