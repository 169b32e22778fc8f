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
import { HttpRequestError, TimeoutError, http, type Transport } from "viem";
import { UndecodableLogError, undecodableLogCheck, type WatchedContract } from "./logCheck";

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
 *
 * A request that times out (viem's `TimeoutError`, after the `timeout` Ponder gives the transport:
 * 10 s) is rethrown as {@link rpcStallError}, an `HttpRequestError` without a status (probe39
 * C-F2). Ponder 0.16's adaptive rate limiter takes a `TimeoutError` (like a 429) for rate limiting:
 * each one deactivated the RPC and cut its request rate by 5%, down to 3 per second within a ~40 s
 * stall, and the rate never climbed back past 3.47 (its raise needs each second's count at 90% of
 * a fractional limit that only whole requests can reach), so the 5 polls per second of a 200 ms
 * interval queued up for good and the indexer stopped following the chain. An `HttpRequestError`
 * is retried by Ponder the same way (up to 9 times, 125 ms doubling) without touching the rate.
 *
 * An `eth_getLogs` answer holding a log of a `watched` contract whose topic0 names one of its events but
 * whose topics or data do not decode with that event's ABI (`lib/logCheck.ts`; Ponder would drop it with
 * a debug line, probe39 B-F6) is refused: one `console.error` line per such log
 * (`[bench-bounty indexer] UNDECODABLE LOG NOT INDEXED: ...`) and an {@link UndecodableLogError} to
 * Ponder, which retries the request and then stops the sync with it.
 */
export function redactedHttpTransport(
  rpcUrl: string,
  fetchFn: (input: string, init?: RequestInit) => Promise<Response> = (input, init) => fetch(input, init),
  limits: ExchangeBounds = INDEXER_RPC_LIMITS,
  watched: readonly WatchedContract[] = [],
): Transport {
  const send = rpcFetch(rpcUrl, fetchFn, limits);
  const origin = rpcOrigin(rpcUrl);
  const checkLogs = undecodableLogCheck(watched);
  const told = new Set<string>();
  const inner = http(origin, {
    fetchFn: (_input, init) => {
      // viem passes its init with a `url` member (the origin): drop it, send to the real URL.
      const { url: _origin, ...rest } = (init ?? {}) as RequestInit & { url?: string };
      return send(rest);
    },
  });
  return (options) => {
    const client = inner(options);
    type Request = typeof client.request;
    const request = (async (args: Parameters<Request>[0], requestOptions?: Parameters<Request>[1]) => {
      let result: unknown;
      try {
        result = await client.request(args, requestOptions);
      } catch (e) {
        if (e instanceof TimeoutError) throw rpcStallError(origin, e);
        throw e;
      }
      const problem = (args as { method?: unknown }).method === "eth_getLogs" ? checkLogs(result) : null;
      if (problem !== null) {
        if (!told.has(problem)) {
          told.add(problem);
          console.error(`[bench-bounty indexer] UNDECODABLE LOG NOT INDEXED: ${problem} (a broken or lying RPC?)`);
        }
        throw new UndecodableLogError(`the RPC's eth_getLogs answer is refused: ${problem}`);
      }
      return result;
    }) as Request;
    return { ...client, request };
  };
}

/**
 * What {@link redactedHttpTransport} throws for a request the RPC did not answer in time: an
 * `HttpRequestError` naming `origin` only, no status, `timedOut` set, `cause` the viem
 * `TimeoutError` (whose `url` is the origin too).
 */
export function rpcStallError(origin: string, cause: TimeoutError): HttpRequestError & { timedOut: true } {
  const error = new HttpRequestError({
    url: origin,
    details: "the RPC did not answer in time (a stall, retried; not taken for rate limiting)",
    cause,
  }) as HttpRequestError & { timedOut: true };
  error.timedOut = true;
  return error;
}
