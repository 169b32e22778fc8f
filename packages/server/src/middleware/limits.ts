/**
 * Limits of the edge: a token-bucket rate limit per account (all the keys of one account share its
 * bucket) or per client address for anonymous callers, answering 429 with `Retry-After`; a bucket of
 * account creations per client address (REST `POST /accounts` and the MCP `register` tool take from
 * the same one); request body limits (413; a dataset body over the ordinary limit needs a key) and a
 * bucket of dataset bytes per caller (validating 60 MiB of rows costs seconds of CPU); a handler time
 * limit (503). The client address is the
 * socket's remote address: forwarding headers (`X-Forwarded-For`, `Forwarded`, ...) are never read.
 */
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { timeout } from "hono/timeout";
import type { IncomingMessage } from "node:http";
import type { AppEnv } from "../env.js";
import { EdgeError } from "../errors.js";

/** The limits of a server (defaults in {@link DEFAULT_LIMITS}). */
export interface Limits {
  /** Largest request body in bytes (datasets: {@link Limits.datasetBodyBytes}). */
  bodyBytes: number;
  /** Largest body of `POST /datasets` and `/datasets/validate`, in bytes. */
  datasetBodyBytes: number;
  /** Requests a key may burst. */
  rateBurst: number;
  /** Requests per second a key regains. */
  ratePerSecond: number;
  /** Longest a handler may take, in ms (then 503 `request_timeout`). */
  handlerTimeoutMs: number;
  /** Relayed claims a key may burst (each accepted one spends the operator's gas). */
  relayBurst: number;
  /** Relayed claims per second a key regains. */
  relayPerSecond: number;
  /** Accounts one client address may create at once (REST `POST /accounts` and MCP `register`). */
  accountBurst: number;
  /** Account creations per second an address regains. */
  accountPerSecond: number;
  /**
   * Dataset bytes (`POST /datasets` and `/datasets/validate` bodies, by `Content-Length`) a caller
   * (account, or address without a key) may send at once; at least {@link Limits.datasetBodyBytes}.
   */
  datasetBytesBurst: number;
  /** Dataset bytes per second a caller regains. */
  datasetBytesPerSecond: number;
}

export const DEFAULT_LIMITS: Limits = {
  bodyBytes: 4 * 1024 * 1024,
  datasetBodyBytes: 64 * 1024 * 1024,
  rateBurst: 600,
  ratePerSecond: 100,
  handlerTimeoutMs: 60_000,
  relayBurst: 5,
  relayPerSecond: 0.1,
  accountBurst: 20,
  accountPerSecond: 1 / 30,
  datasetBytesBurst: 128 * 1024 * 1024,
  datasetBytesPerSecond: 1024 * 1024,
};

interface Bucket {
  tokens: number;
  at: number;
}

/** A token bucket per caller. `now` in ms (injectable for tests). */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Tokens a bucket holds when full (the most one {@link RateLimiter.take} may ask for). */
  get capacity(): number {
    return this.burst;
  }

  /**
   * Takes `n` tokens (all or none); returns 0 when allowed, else the seconds to wait (>= 1) until
   * `n` tokens are there. `n` over {@link RateLimiter.capacity} never passes (the caller refuses it).
   */
  take(who: string, n = 1): number {
    const t = this.now();
    const b = this.buckets.get(who) ?? { tokens: this.burst, at: t };
    b.tokens = Math.min(this.burst, b.tokens + ((t - b.at) / 1000) * this.perSecond);
    b.at = t;
    this.buckets.set(who, b);
    if (this.buckets.size > 100_000) this.sweep(t);
    if (b.tokens >= n) {
      b.tokens -= n;
      return 0;
    }
    return Math.max(1, Math.ceil((n - b.tokens) / this.perSecond));
  }

  /** Forgets full buckets (bounded memory under many callers). */
  private sweep(t: number): void {
    for (const [k, b] of this.buckets)
      if (b.tokens + ((t - b.at) / 1000) * this.perSecond >= this.burst) this.buckets.delete(k);
  }
}

/**
 * The caller's address from the app's environment (`@hono/node-server` puts the node request there):
 * the bucket of an anonymous caller. Not served by it (`app.request` in tests): one shared bucket.
 */
export function addressOf(env: unknown): string {
  type Bindings = { incoming?: IncomingMessage; server?: Bindings } | undefined;
  const incoming = ((env as Bindings)?.server ?? (env as Bindings))?.incoming;
  if (incoming === undefined) return "local";
  return incoming.socket.remoteAddress ?? "unknown";
}

/**
 * The bucket of a caller: its account (`acct:<id>`, shared by every key of the account) when it sent
 * a key, else its client address (`ip:<address>`, {@link addressOf}).
 */
export function bucketOf(c: Context<AppEnv>): string {
  return c.var.principal ? `acct:${c.var.principal.account_id}` : `ip:${addressOf(c.env)}`;
}

/**
 * Takes `n` tokens of `who`'s bucket.
 * @throws EdgeError `rate_limited` (429, `Retry-After` in seconds) when they are not there.
 */
export function takeOrRefuse(limiter: RateLimiter, who: string, n = 1, what = "requests"): void {
  const wait = limiter.take(who, n);
  if (wait > 0)
    throw new EdgeError(
      "rate_limited",
      `too many ${what}: retry in ${wait} s`,
      { retry_after_seconds: wait },
      { "retry-after": String(wait) },
    );
}

/** 429 `rate_limited` with `Retry-After` once the caller's bucket ({@link bucketOf}) is empty. */
export function rateLimit(limiter: RateLimiter): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    takeOrRefuse(limiter, bucketOf(c));
    return next();
  };
}

/** 429 once the client address has created its {@link Limits.accountBurst} accounts (REST `POST /accounts`). */
export function limitAccountCreation(limiter: RateLimiter): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method === "POST")
      takeOrRefuse(limiter, `ip:${addressOf(c.env)}`, 1, "accounts created from this address");
    return next();
  };
}

/**
 * 413 `body_too_large` past `maxBytes` (checked while streaming, and on Content-Length); `hint` is
 * added to the message.
 */
export function limitBody(maxBytes: number, hint = ""): MiddlewareHandler<AppEnv> {
  const tooLarge = () => {
    throw new EdgeError("body_too_large", `request body over ${maxBytes} bytes${hint}`, {
      limit_bytes: maxBytes,
    });
  };
  const streamed = bodyLimit({ maxSize: maxBytes, onError: tooLarge });
  // A declared length without Transfer-Encoding is checked from the headers, as Hono's limit does,
  // without asking for the body (which would build a web Request: node-body.ts).
  return (c, next) => {
    const declared = c.req.header("content-length");
    if (declared === undefined || c.req.header("transfer-encoding") !== undefined) return streamed(c, next);
    return parseInt(declared, 10) > maxBytes ? tooLarge() : next();
  };
}

/** The paths whose bodies are datasets (the large limit, the dataset-bytes bucket). */
const DATASET_PATH = /^\/api\/v1\/datasets(\/validate)?$/;

/**
 * The body limits of every request but GET and HEAD (they carry none): {@link Limits.bodyBytes}, and
 * on the dataset paths {@link Limits.datasetBodyBytes} for a caller with a key (anonymous: the
 * ordinary limit, the 413 saying a key lifts it). A dataset body then takes its `Content-Length` in
 * bytes (the limit when it declares none) from the caller's bucket of `datasetBytes` ({@link bucketOf}):
 * 429 with `Retry-After` when they are not there.
 */
export function limitBodies(limits: Limits, datasetBytes: RateLimiter): MiddlewareHandler<AppEnv> {
  const small = limitBody(limits.bodyBytes);
  const keyless = limitBody(
    limits.bodyBytes,
    ` (a dataset body of up to ${limits.datasetBodyBytes} bytes needs an API key)`,
  );
  const large = limitBody(limits.datasetBodyBytes);
  return async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    if (!DATASET_PATH.test(c.req.path)) return small(c, next);
    const [limit, limitOf] =
      c.var.principal === null ? [keyless, limits.bodyBytes] : [large, limits.datasetBodyBytes];
    return limit(c, () => {
      const declared = Number(c.req.header("content-length") ?? "NaN");
      const bytes = Number.isSafeInteger(declared) && declared <= limitOf ? declared : limitOf;
      takeOrRefuse(datasetBytes, bucketOf(c), bytes, "dataset bytes from this caller");
      return next();
    });
  };
}

/** 503 `request_timeout` when a handler runs longer than `ms`. */
export function limitTime(ms: number): MiddlewareHandler<AppEnv> {
  return timeout(
    ms,
    () =>
      new EdgeError("request_timeout", `the request took longer than ${ms} ms`, { limit_ms: ms }) as never,
  );
}
