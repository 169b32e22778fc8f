/**
 * Limits of the edge: a token-bucket rate limit per account (all the keys of one account share its
 * bucket) or per client address for anonymous callers, answering 429 with `Retry-After`; a bucket of
 * account creations per client address group (an IPv6 /64, an IPv4 address; REST `POST /accounts`
 * and the MCP `register` tool take from the same one), one per client network (an IPv4 /24, an IPv6
 * /48) and one for all addresses together
 * ({@link AccountCreationLimiter}); request body limits (413; a dataset body over the ordinary limit needs a key) and a
 * bucket of dataset bytes per caller (validating 60 MiB of rows costs seconds of CPU); a handler time
 * limit (503). The client address is the
 * socket's remote address: forwarding headers (`X-Forwarded-For`, `Forwarded`, ...) are never read.
 */
import type { Context, MiddlewareHandler } from "hono";
import { timeout } from "hono/timeout";
import type { IncomingMessage } from "node:http";
import { isIP, isIPv4, isIPv6 } from "node:net";
import type { AppEnv } from "../env.js";
import { mcpBodyLimits, SMALL_BODY } from "../body-limits.js";
import { MCP_PATH } from "../mcp/paths.js";
import { EdgeError } from "../errors.js";
import { answerByteLength } from "../http.js";

/** The limits of a server (defaults in {@link DEFAULT_LIMITS}). */
export interface Limits {
  /** Largest request body in bytes (datasets: {@link Limits.datasetBodyBytes}). */
  bodyBytes: number;
  /** Largest body of `POST /datasets` and `/datasets/validate`, in bytes. */
  datasetBodyBytes: number;
  /**
   * Bytes of dataset bodies the whole process may hold at once (being read, waiting for the check
   * worker, in it), all callers together: past it a dataset body is 503 `server_busy` with
   * `Retry-After`, before it is read (probe13 A3: 12 bodies of 60 MB from 6 free accounts took the
   * server to 1.4 GB). At least {@link Limits.datasetBodyBytes}.
   */
  datasetBytesInFlight: number;
  /**
   * Bytes of other request bodies over 64 KiB (answers, keyed MCP calls: up to {@link Limits.bodyBytes}
   * each) the whole process may hold at once, a quarter of it per client network: past either a body is
   * 503 `server_busy` before it is read (probe13 C7: 50 held 4 MB submissions took 200 MB, unbounded).
   */
  bodyBytesInFlight: number;
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
  /**
   * Accounts one client address may create at once (REST `POST /accounts` and MCP `register`); IPv6
   * addresses count by their /64 ({@link addressGroupOf}).
   */
  accountBurst: number;
  /** Account creations per second an address regains. */
  accountPerSecond: number;
  /**
   * Accounts one client network may create at once: an IPv4 /24, an IPv6 /48 ({@link networkGroupOf}).
   * Below {@link Limits.accountGlobalBurst}, so rotating the addresses of one network cannot empty
   * the budget of all addresses (probe10 R10).
   */
  accountNetworkBurst: number;
  /** Account creations per second a network regains (below {@link Limits.accountGlobalPerSecond}). */
  accountNetworkPerSecond: number;
  /**
   * Accounts all addresses together may create at once: rotating addresses (a /64 holds 2^64 of
   * them, a host many loopback or IPv4 addresses) cannot mint accounts without bound.
   */
  accountGlobalBurst: number;
  /** Account creations per second all addresses together regain. */
  accountGlobalPerSecond: number;
  /**
   * Dataset bytes (`POST /datasets` and `/datasets/validate` bodies, by `Content-Length`) a caller
   * (account, or address without a key) may send at once; at least {@link Limits.datasetBodyBytes}.
   */
  datasetBytesBurst: number;
  /** Dataset bytes per second a caller regains. */
  datasetBytesPerSecond: number;
  /**
   * The most bytes the JSON-RPC answers of one MCP request may total, the errors replacing answers
   * included (the first answer is always sent whole; later ones past the limit are JSON-RPC errors
   * naming it; `AnswerBudget` in `mcp/endpoint.ts`).
   */
  mcpAnswerBytes: number;
  /**
   * An answer takes one more token of the caller's request bucket per full `answerBytesPerToken`
   * bytes of its body ({@link chargeAnswerBytes}): large answers to small requests (a 10,000-row board
   * page, every run's task scores, a run start's tasks) count by their size; a write's are owed.
   */
  answerBytesPerToken: number;
}

export const DEFAULT_LIMITS: Limits = {
  bodyBytes: 4 * 1024 * 1024,
  datasetBodyBytes: 64 * 1024 * 1024,
  datasetBytesInFlight: 256 * 1024 * 1024,
  bodyBytesInFlight: 128 * 1024 * 1024,
  rateBurst: 600,
  ratePerSecond: 100,
  handlerTimeoutMs: 60_000,
  relayBurst: 5,
  relayPerSecond: 0.1,
  accountBurst: 20,
  accountPerSecond: 1 / 30,
  accountNetworkBurst: 60,
  accountNetworkPerSecond: 1 / 30,
  accountGlobalBurst: 300,
  accountGlobalPerSecond: 0.2,
  datasetBytesBurst: 128 * 1024 * 1024,
  datasetBytesPerSecond: 1024 * 1024,
  mcpAnswerBytes: 256 * 1024,
  answerBytesPerToken: 64 * 1024,
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
    const wait = this.waitFor(who, n);
    if (wait === 0) this.refilled(who).tokens -= n;
    return wait;
  }

  /**
   * Takes `n` tokens whether they are there or not: what is missing is owed (the bucket goes below
   * zero, at most one capacity), and every request is refused until the bucket has refilled. The
   * charge of an answer that is sent whatever the bucket holds (a write's: {@link chargeWriteAnswer}).
   */
  owe(who: string, n: number): void {
    const b = this.refilled(who);
    b.tokens = Math.max(-this.burst, b.tokens - n);
  }

  /** Seconds to wait (0: none) until `n` tokens are in `who`'s bucket, taking none ({@link RateLimiter.take}'s answer). */
  waitFor(who: string, n: number): number {
    const b = this.refilled(who);
    return b.tokens >= n ? 0 : Math.max(1, Math.ceil((n - b.tokens) / this.perSecond));
  }

  /** Seconds until `who`'s bucket owes nothing (0: it owes nothing now; else at least 1). */
  owing(who: string): number {
    const b = this.refilled(who);
    return b.tokens >= 0 ? 0 : Math.max(1, Math.ceil(-b.tokens / this.perSecond));
  }

  /** `who`'s bucket, refilled to now. */
  private refilled(who: string): Bucket {
    const t = this.now();
    const b = this.buckets.get(who) ?? { tokens: this.burst, at: t };
    b.tokens = Math.min(this.burst, b.tokens + ((t - b.at) / 1000) * this.perSecond);
    b.at = t;
    if (this.buckets.size >= 100_000) this.sweep(t); // before the set: a full `b` swept would lose what is taken
    this.buckets.set(who, b);
    return b;
  }

  /** Gives back `n` tokens taken from `who`'s bucket (a request refused by another bucket after this one). */
  refund(who: string, n = 1): void {
    const b = this.buckets.get(who);
    if (b) b.tokens = Math.min(this.burst, b.tokens + n);
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
 * a key, else its client address group (`ip:<IPv4>` or `ip6:<prefix>::/64`, {@link addressGroupOf}).
 */
export function bucketOf(c: Context<AppEnv>): string {
  return c.var.principal ? `acct:${c.var.principal.account_id}` : addressGroupOf(addressOf(c.env));
}

/**
 * Takes `n` tokens of `who`'s bucket.
 * @param limit the limit's name, served in `details.limit` (e.g. `accounts_per_address`)
 * @throws EdgeError `rate_limited` (429, `Retry-After` in seconds) when they are not there.
 */
export function takeOrRefuse(
  limiter: RateLimiter,
  who: string,
  n = 1,
  what = "requests",
  limit?: string,
): void {
  const wait = limiter.take(who, n);
  if (wait > 0) throw rateLimited(wait, what, limit);
}

/** The 429 `rate_limited` refusal: wait `wait` seconds; `limit` names the limit in `details.limit`. */
function rateLimited(wait: number, what: string, limit?: string): EdgeError {
  return new EdgeError(
    "rate_limited",
    `too many ${what}: retry in ${wait} s`,
    { ...(limit !== undefined ? { limit } : {}), retry_after_seconds: wait },
    { "retry-after": String(wait) },
  );
}

/** The 16 bits groups of an IPv6 address (zone dropped, an embedded IPv4 as two groups), or null. */
function ipv6Groups(address: string): number[] | null {
  const bare = address.split("%")[0]!.toLowerCase();
  if (!isIPv6(bare)) return null;
  let text = bare;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split(".").map(Number) as [number, number, number, number];
    text = text.slice(0, -v4[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(":").map((g) => parseInt(g, 16)) : []);
  const h = part(head);
  const t = part(tail);
  return tail === undefined ? h : [...h, ...Array<number>(8 - h.length - t.length).fill(0), ...t];
}

/**
 * The account-creation bucket of a client address: an IPv4 address as it is (an IPv4-mapped IPv6
 * address `::ffff:a.b.c.d` as its IPv4 address), an IPv6 address by its /64 (one subscriber's
 * allocation: a host picks any address in it). Anything else (`local` in tests) as it is.
 */
export function addressGroupOf(address: string): string {
  if (isIPv4(address)) return `ip:${address}`;
  const g = ipv6Groups(address);
  if (g === null) return `ip:${address}`;
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff)
    return `ip:${g[6]! >> 8}.${g[6]! & 0xff}.${g[7]! >> 8}.${g[7]! & 0xff}`;
  return `ip6:${g
    .slice(0, 4)
    .map((x) => x.toString(16))
    .join(":")}::/64`;
}

/**
 * The account-creation network of a client address: an IPv4 /24 (`net:a.b.c.0/24`; an IPv4-mapped
 * IPv6 address as its IPv4 address), an IPv6 /48 (`net6:<prefix>::/48`, a site's allocation). Anything
 * else (`local` in tests) as it is.
 */
export function networkGroupOf(address: string): string {
  const group = addressGroupOf(address);
  if (group.startsWith("ip:")) {
    const v4 = group.slice(3);
    if (!isIPv4(v4)) return `net:${v4}`;
    return `net:${v4.split(".").slice(0, 3).join(".")}.0/24`;
  }
  const g = ipv6Groups(address)!;
  return `net6:${g
    .slice(0, 3)
    .map((x) => x.toString(16))
    .join(":")}::/48`;
}

/**
 * The client network of a request as the platform records it on an account it creates
 * (`createAccount`'s `network`: the accounts of one network share a part of each all-accounts budget,
 * probe30 A-F7): {@link networkGroupOf} its socket's address; undefined for a request without a socket
 * address that is an IP (in-process requests of tests and embedders).
 */
export function clientNetworkOf(env: unknown): string | undefined {
  const address = addressOf(env);
  return isIP(address) === 0 ? undefined : networkGroupOf(address);
}

/**
 * Account creation (REST `POST /accounts`, MCP `register`): a bucket per client address group
 * ({@link addressGroupOf}), one per client network ({@link networkGroupOf}) and one for all addresses,
 * taken all-or-none. An attacker with many networks can still empty the bucket of all addresses.
 */
export class AccountCreationLimiter {
  private readonly perAddress: RateLimiter;
  private readonly perNetwork: RateLimiter;
  private readonly global: RateLimiter;
  constructor(limits: Limits, now: () => number = Date.now) {
    this.perAddress = new RateLimiter(limits.accountBurst, limits.accountPerSecond, now);
    this.perNetwork = new RateLimiter(limits.accountNetworkBurst, limits.accountNetworkPerSecond, now);
    this.global = new RateLimiter(limits.accountGlobalBurst, limits.accountGlobalPerSecond, now);
  }

  /** The most creations one request may ask for (more could never pass). */
  get capacity(): number {
    return Math.min(this.perAddress.capacity, this.perNetwork.capacity, this.global.capacity);
  }

  /**
   * Takes `n` creations for the client `address` from the three buckets, or none.
   * @throws EdgeError `rate_limited` (429, `Retry-After`) with `details.limit` `accounts_per_address`,
   *   `accounts_per_network` or `accounts_all_addresses`
   */
  take(address: string, n = 1): void {
    const group = addressGroupOf(address);
    const network = networkGroupOf(address);
    takeOrRefuse(this.perAddress, group, n, "accounts created from this address", "accounts_per_address");
    const netWait = this.perNetwork.take(network, n);
    if (netWait > 0) {
      this.perAddress.refund(group, n);
      throw rateLimited(netWait, "accounts created from this network", "accounts_per_network");
    }
    const wait = this.global.take("all", n);
    if (wait === 0) return;
    this.perAddress.refund(group, n);
    this.perNetwork.refund(network, n);
    throw rateLimited(wait, "accounts created (all addresses together)", "accounts_all_addresses");
  }
}

/** 429 `rate_limited` with `Retry-After` once the caller's bucket ({@link bucketOf}) is empty. */
export function rateLimit(limiter: RateLimiter): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    takeOrRefuse(limiter, bucketOf(c));
    return next();
  };
}

/** 429 once the client address (or all of them) has created its accounts (REST `POST /accounts`): {@link AccountCreationLimiter}. */
export function limitAccountCreation(limiter: AccountCreationLimiter): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method === "POST") limiter.take(addressOf(c.env));
    return next();
  };
}

/**
 * The extra tokens an answer of `bytes` takes: one per full `bytesPerToken` bytes (the request's own
 * token covers the first), at most the bucket's capacity less that token (an answer from a full
 * bucket always passes).
 */
export function answerTokens(limiter: RateLimiter, bytes: number, bytesPerToken: number): number {
  return Math.max(0, Math.min(Math.floor(bytes / bytesPerToken), limiter.capacity - 1));
}

/**
 * Charges an answer to the caller's request bucket by its size ({@link answerTokens}). A GET's 200:
 * 429 `rate_limited` with `Retry-After` and `details.limit: "answer_bytes"` instead of the body when
 * the tokens are not there (the bucket keeps them). A write's 2xx (any other method: a started run's
 * tasks, probe10 R12) is sent whole, its write having committed, and its tokens are owed
 * ({@link chargeWriteAnswer}): the caller's next requests are refused (429) before they reach a
 * handler until the bucket has refilled. A HEAD is charged as its GET. 304s and refusals are not charged.
 * A handler about to build a large read answer asks `c.var.admitAnswer` first (a lower bound of its bytes):
 * refused then, before the build, with the same 429.
 */
export function chargeAnswerBytes(limiter: RateLimiter, bytesPerToken: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const reads = c.req.method === "GET" || c.req.method === "HEAD";
    c.set("admitAnswer", (minBytes: number) => {
      if (!reads) return;
      const wait = limiter.waitFor(bucketOf(c), answerTokens(limiter, minBytes, bytesPerToken));
      if (wait > 0) throw rateLimited(wait, "answer bytes for this caller", "answer_bytes");
    });
    await next();
    // a HEAD runs its GET's handler (the same answer built, its body dropped): it costs the same
    // (probe16 A-F10: HEADs were never charged, and one account's loop stalled everyone)
    const method = c.req.method === "HEAD" ? "GET" : c.req.method;
    const status = c.res.status;
    if (c.res.body === null && c.res.headers.get("content-length") === null) return;
    if (method === "GET" ? status !== 200 : status < 200 || status > 299) return;
    // the length `sendJson` encoded, else a declared one, else the body read from a copy
    const declared = answerByteLength(c.res) ?? Number(c.res.headers.get("content-length") ?? "NaN");
    const bytes = Number.isSafeInteger(declared)
      ? declared
      : c.res.body === null
        ? 0
        : (await c.res.clone().arrayBuffer()).byteLength;
    if (method !== "GET") return chargeWriteAnswer(limiter, bucketOf(c), bytes, bytesPerToken);
    try {
      chargeAnswer(limiter, bucketOf(c), bytes, bytesPerToken);
    } catch (e) {
      // the 429 replaces this answer, and Hono copies the replaced answer's headers onto it: those that
      // describe the refused body are dropped (the door's Content-Length on a 156-byte 429 would break
      // the connection, probe26 A-F2; its ETag and immutable Cache-Control would let a cache keep the 429)
      for (const h of REFUSED_BODY_HEADERS) c.res.headers.delete(h);
      throw e;
    }
  };
}

/** The headers of an answer that describe its body: not carried over to the 429 that replaces it. */
const REFUSED_BODY_HEADERS = ["content-length", "etag", "cache-control", "last-modified"] as const;

/**
 * Charges the answer of a write that has run (REST: a POST's 2xx; MCP: a write tool's answer) like a
 * read's ({@link answerTokens}), but never refuses it: the tokens not there are owed
 * ({@link RateLimiter.owe}), so that the next request waits until they are paid back. A run start
 * serving every task of a large benchmark costs what `GET /runs/:id/tasks` of the same bytes costs.
 */
export function chargeWriteAnswer(
  limiter: RateLimiter,
  who: string,
  bytes: number,
  bytesPerToken: number,
): void {
  const extra = answerTokens(limiter, bytes, bytesPerToken);
  if (extra > 0) limiter.owe(who, extra);
}

/**
 * 429 `rate_limited` (`Retry-After`, `details.limit: "answer_bytes"`) while `who`'s bucket owes the
 * tokens of a write's answer ({@link chargeWriteAnswer}): an MCP write call of a batch whose earlier
 * write emptied the bucket is not run (REST's next request is refused by {@link rateLimit}).
 */
export function refuseWhileOwing(limiter: RateLimiter, who: string): void {
  const wait = limiter.owing(who);
  if (wait > 0) throw rateLimited(wait, "answer bytes for this caller", "answer_bytes");
}

/**
 * Takes the {@link answerTokens} of an answer of `bytes` from `who`'s request bucket: the one charge of
 * REST answers ({@link chargeAnswerBytes}) and MCP answers (each JSON-RPC answer of a batch).
 * @throws EdgeError `rate_limited` (429, `Retry-After`, `details.limit: "answer_bytes"`) when they are not there.
 */
export function chargeAnswer(limiter: RateLimiter, who: string, bytes: number, bytesPerToken: number): void {
  const extra = answerTokens(limiter, bytes, bytesPerToken);
  if (extra > 0) takeOrRefuse(limiter, who, extra, "answer bytes for this caller", "answer_bytes");
}

/**
 * The 413 `body_too_large` of a body over `maxBytes` (`details.limit_bytes`; `hint` is added to the
 * message), with `Connection: close`: the rest of the body is never read, so the connection cannot
 * carry another request.
 */
function bodyTooLarge(maxBytes: number, hint = ""): () => never {
  return () => {
    throw new EdgeError(
      "body_too_large",
      `request body over ${maxBytes} bytes${hint}`,
      { limit_bytes: maxBytes },
      { connection: "close" },
    );
  };
}

/** The paths whose bodies are datasets (the large limit, the dataset-bytes bucket). */
const DATASET_PATH = /^\/api\/v1\/datasets(\/validate)?$/;

/**
 * The body limits of every request but GET and HEAD (no route reads theirs: a body they carry, as
 * any body nobody reads, is bounded by `closeOnUnreadBody` in `node-body.ts`, probe38 A-N2): the most
 * bytes of its body (the `BodyBudget` every body read honours while streaming, `node-body.ts`),
 * checked from a declared `Content-Length` before anything is read, and the bytes it holds in flight.
 * - The limit: {@link Limits.bodyBytes}; on the dataset paths {@link Limits.datasetBodyBytes} for a
 *   caller with a key (anonymous: the ordinary limit, the 413 saying a key lifts it); on the MCP
 *   endpoints the caller's ({@link mcpBodyLimits}: 64 KiB without a key), refused there as JSON-RPC
 *   (the endpoint checks the declared length), never here (probe D1-F2).
 * - A dataset body takes its `Content-Length` in bytes from the caller's bucket of `datasetBytes`
 *   ({@link bucketOf}): 429 with `Retry-After` when they are not there; and reserves as many of the
 *   dataset bytes in flight.
 * - Another body over 64 KiB reserves its declared length of the body bytes in flight.
 * - A body without a declared length (chunked) reserves as it streams, in 1 MiB steps: a dataset body
 *   from its first byte (and takes each step from the caller's bucket), another once past 64 KiB. A
 *   trickle holds about what it has sent, not its limit (probe D1-F7: 32 anonymous trickling `/mcp`
 *   requests held the whole budget; D1-F19: four one-byte dataset trickles held the dataset budget).
 */
export function limitBodies(limits: Limits, datasetBytes: RateLimiter): MiddlewareHandler<AppEnv> {
  const ordinary = bodyTooLarge(limits.bodyBytes);
  const keyless = bodyTooLarge(
    limits.bodyBytes,
    ` (a dataset body of up to ${limits.datasetBodyBytes} bytes needs an API key)`,
  );
  const large = bodyTooLarge(limits.datasetBodyBytes);
  const mcpAnonymousBytes = Math.min(mcpBodyLimits(false).bytes, limits.bodyBytes);
  const mcpAnonymous = bodyTooLarge(mcpAnonymousBytes);
  const datasetsInFlight = new BytesInFlight(
    Math.max(limits.datasetBytesInFlight, limits.datasetBodyBytes),
    limits.datasetBodyBytes,
    "dataset_bytes_in_flight",
  );
  const bodiesInFlight = new BytesInFlight(
    Math.max(limits.bodyBytesInFlight, limits.bodyBytes),
    Math.max(Math.floor(limits.bodyBytesInFlight / 4), limits.bodyBytes),
    "body_bytes_in_flight",
  );
  return async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    // a dataset body is a POST to a dataset path (another method is a 405 the router answers, unharmed:
    // probe13 C8); a request without a body reserves and is charged nothing
    const dataset = c.req.method === "POST" && DATASET_PATH.test(c.req.path);
    const mcp = MCP_PATH.test(c.req.path);
    const keyed = c.var.principal !== null;
    const [limitBytes, tooLarge] = dataset
      ? keyed
        ? [limits.datasetBodyBytes, large]
        : [limits.bodyBytes, keyless]
      : mcp && !keyed
        ? [mcpAnonymousBytes, mcpAnonymous]
        : [limits.bodyBytes, ordinary];
    // a declared length (without Transfer-Encoding: Node refuses both), else null: counted as it streams
    const header = c.req.header("content-length");
    const declared =
      c.req.header("transfer-encoding") !== undefined
        ? null
        : header === undefined
          ? 0
          : parseInt(header, 10);
    const network = networkGroupOf(addressOf(c.env));
    const releases: (() => void)[] = [];
    const inFlight = dataset ? datasetsInFlight : bodiesInFlight;
    // A body without a declared length reserves its bytes as they arrive, in steps of STREAM_STEP_BYTES
    // (a dataset one from its first byte, with as many from the caller's bucket; another past 64 KiB):
    // a trickle holds about what it sent, not its limit (probe D1-F7: anonymous /mcp trickles, D1-F19:
    // four dataset trickles of one byte held the whole dataset budget for 60 s each).
    const takeDatasetBytes = (n: number): void =>
      takeOrRefuse(datasetBytes, bucketOf(c), n, "dataset bytes from this caller", "dataset_bytes");
    c.set("chargeDatasetBytes", takeDatasetBytes);
    c.set("oweDatasetBytes", (n: number) => datasetBytes.owe(bucketOf(c), n));
    let reserved = dataset ? 0 : SMALL_BODY_BYTES;
    const grew = (size: number): void => {
      if (declared !== null || size <= reserved) return;
      const target = Math.min(limitBytes, Math.ceil(size / STREAM_STEP_BYTES) * STREAM_STEP_BYTES);
      const n = target - reserved;
      releases.push(inFlight.reserve(n, network));
      reserved = target;
      if (dataset) takeDatasetBytes(n);
    };
    c.set("bodyBudget", { limitBytes, tooLarge, grew });
    if (declared !== null && declared > limitBytes) {
      if (mcp) return next(); // the endpoint refuses it from the headers, as JSON-RPC
      tooLarge();
    }
    if (dataset && declared !== null) {
      if (declared === 0) return next();
      // the process's share first (nothing is taken from the caller's bucket when it is refused)
      return held(datasetsInFlight.reserve(declared, network), () => {
        takeDatasetBytes(declared);
        return next();
      });
    }
    if (declared !== null && declared > SMALL_BODY_BYTES)
      releases.push(bodiesInFlight.reserve(declared, network));
    try {
      await next();
    } finally {
      for (const release of releases) release();
    }
  };
}

/** A body without a declared length reserves its bytes in flight in steps of this many bytes (1 MiB). */
const STREAM_STEP_BYTES = 1024 * 1024;

/** Bodies up to this many bytes are not counted in flight: the small routes' own limit. */
const SMALL_BODY_BYTES = SMALL_BODY.bytes;

/** Runs `next` and then `release`s a reservation of {@link BytesInFlight}, whatever happens. */
async function held(release: () => void, next: () => Promise<void> | void): Promise<void> {
  try {
    await next();
  } finally {
    release();
  }
}

/**
 * The bytes of dataset bodies the process holds (read, queued for the check worker, in it): each body
 * reserves its declared length (the limit when it declares none) until its request ends, from the
 * process's capacity and from its client network's share ({@link networkGroupOf}: an IPv4 /24, an IPv6
 * /48), at most one body's limit: declared bodies that never arrive (one byte a second) from one
 * network, whatever its accounts, hold at most that share, not the whole process's (probe13 C2: two
 * free accounts' four trickling 64 MiB declarations refused every other caller's upload).
 */
export class BytesInFlight {
  private held = 0;
  private readonly byNetwork = new Map<string, number>();
  /**
   * @param capacity bytes all callers together may hold
   * @param perNetwork bytes one client network may hold
   */
  constructor(
    readonly capacity: number,
    readonly perNetwork: number,
    /** The name the refusals give (`details.limit`; the network's share adds `_per_network`). */
    readonly name: string = "dataset_bytes_in_flight",
  ) {}

  /**
   * Reserves `bytes` for a body from `network`. @returns the release (call it once, when the request ends)
   * @throws EdgeError `server_busy` (503, `Retry-After: 5`) when the reservation would pass the
   *   network's share (`details.limit: "<name>_per_network"`) or the capacity (`"<name>"`)
   */
  reserve(bytes: number, network: string): () => void {
    const mine = this.byNetwork.get(network) ?? 0;
    if (mine + bytes > this.perNetwork)
      throw busy(
        `your network holds ${mine} bytes of request bodies being sent or handled (at most ${this.perNetwork}, ${this.name}_per_network); send this one when they are done`,
        {
          limit: `${this.name}_per_network`,
          limit_bytes: this.perNetwork,
          held_bytes: mine,
          body_bytes: bytes,
        },
      );
    if (this.held + bytes > this.capacity)
      throw busy(
        `the server holds ${this.held} bytes of request bodies of all callers (at most ${this.capacity}, ${this.name}); send this one again in a few seconds`,
        {
          limit: this.name,
          limit_bytes: this.capacity,
          held_bytes: this.held,
          body_bytes: bytes,
        },
      );
    this.held += bytes;
    this.byNetwork.set(network, mine + bytes);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held -= bytes;
      const left = (this.byNetwork.get(network) ?? bytes) - bytes;
      if (left > 0) this.byNetwork.set(network, left);
      else this.byNetwork.delete(network);
    };
  }
}

/** The 503 of {@link BytesInFlight}. */
function busy(message: string, details: Record<string, unknown>): EdgeError {
  return new EdgeError("server_busy", message, details, { "retry-after": "5" });
}

/** Whether the request's body is still being received (Node's `IncomingMessage.complete` not yet set). */
function bodyStillComing(c: Context<AppEnv>): boolean {
  const incoming = (c.env as { incoming?: { complete?: boolean } } | undefined)?.incoming;
  return incoming !== undefined && incoming.complete === false;
}

/**
 * 503 `request_timeout` when a handler runs longer than `ms` (408 `request_body_timeout`, the connection
 * closed, when the request's body is still coming then) (on /mcp answered as a JSON-RPC error by
 * the app's error handler). Sets `revealBy`: the request's waits for an anchor batch end at half of
 * `ms`, all of them together, so that what they wait after (an MCP batch's other calls) fits the rest
 * (probe15 A-F9: each finalize of a batch waited its own reveal wait, past the limit); and `awardBy`,
 * three quarters of `ms`: an award's one deadline (probe16 A-F3); and `endsAt`, `ms` itself: the dataset
 * worker's job of the request is stopped then (probe30 B-F5).
 */
export function limitTime(ms: number): MiddlewareHandler<AppEnv> {
  const limit = timeout(
    ms,
    (c) =>
      (bodyStillComing(c)
        ? // the client's delay, not the service's (probe37 V-N4: a trickling body was a 503, its connection
          // kept alive with the rest of the declared body unread): 408, and the connection closed
          new EdgeError(
            "request_body_timeout",
            `the request's body was not all received within ${ms} ms`,
            { limit_ms: ms },
            { connection: "close" },
          )
        : new EdgeError("request_timeout", `the request took longer than ${ms} ms`, {
            limit_ms: ms,
          })) as never,
  );
  return async (c, next) => {
    const startedAt = Date.now();
    c.set("revealBy", startedAt + Math.floor(ms / 2));
    c.set("awardBy", startedAt + Math.floor((ms * 3) / 4));
    c.set("endsAt", startedAt + ms);
    return limit(c, next);
  };
}
