/**
 * Limits of the edge: a per-key (or per-address for anonymous callers) token-bucket rate limit
 * answering 429 with `Retry-After`, a request body limit (413) and a handler time limit (503).
 */
import type { MiddlewareHandler } from "hono";
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
}

export const DEFAULT_LIMITS: Limits = {
  bodyBytes: 4 * 1024 * 1024,
  datasetBodyBytes: 64 * 1024 * 1024,
  rateBurst: 600,
  ratePerSecond: 100,
  handlerTimeoutMs: 60_000,
  relayBurst: 5,
  relayPerSecond: 0.1,
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

  /** Takes one token; returns 0 when allowed, else the seconds to wait (>= 1). */
  take(who: string): number {
    const t = this.now();
    const b = this.buckets.get(who) ?? { tokens: this.burst, at: t };
    b.tokens = Math.min(this.burst, b.tokens + ((t - b.at) / 1000) * this.perSecond);
    b.at = t;
    this.buckets.set(who, b);
    if (this.buckets.size > 100_000) this.sweep(t);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.perSecond));
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

/** 429 `rate_limited` with `Retry-After` once the caller's bucket is empty. */
export function rateLimit(limiter: RateLimiter): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const who = c.var.apiKey !== null ? `key:${c.var.apiKey}` : `ip:${addressOf(c.env)}`;
    const wait = limiter.take(who);
    if (wait > 0)
      throw new EdgeError(
        "rate_limited",
        `too many requests: retry in ${wait} s`,
        { retry_after_seconds: wait },
        {
          "retry-after": String(wait),
        },
      );
    return next();
  };
}

/** 413 `body_too_large` past `maxBytes` (checked while streaming, and on Content-Length). */
export function limitBody(maxBytes: number): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new EdgeError("body_too_large", `request body over ${maxBytes} bytes`, { limit_bytes: maxBytes });
    },
  });
}

/** 503 `request_timeout` when a handler runs longer than `ms`. */
export function limitTime(ms: number): MiddlewareHandler<AppEnv> {
  return timeout(
    ms,
    () =>
      new EdgeError("request_timeout", `the request took longer than ${ms} ms`, { limit_ms: ms }) as never,
  );
}
