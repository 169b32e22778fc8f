/**
 * Bounds the query work (`/sql/db`, `POST /graphql`) the indexer does at once (probe10 R4: 16
 * concurrent `/sql/db` requests, each planned for 1-2 s before being refused, stalled every
 * other answer of the indexer for 10 s). At most `maxActive` run at a time; up to `maxQueued`
 * more wait their turn in arrival order; beyond that a request is refused at once: 503
 * `server_busy` (`maxQueuedQueries`). One client (an IPv4 address, or an IPv6 /64) may have at
 * most `maxPerClient` requests running or waiting: beyond that 429 `too_many_requests`
 * (`maxQueriesPerClient`), so one client cannot fill the queue for everyone. Both answers carry
 * `Retry-After: 1`.
 */
import type { Context } from "hono";
import type { IncomingMessage } from "node:http";
import { isIPv6 } from "node:net";
import { QUERY_LIMITS } from "./limits";

/** A request refused by the gate; `limit` is the name in `QUERY_LIMITS.load`. */
export class GateRefused extends Error {
  constructor(
    readonly code: "server_busy" | "too_many_requests",
    readonly limit: "maxQueuedQueries" | "maxQueriesPerClient",
    readonly max: number,
    message: string,
  ) {
    super(message);
    this.name = "GateRefused";
  }
  get status(): 429 | 503 {
    return this.code === "too_many_requests" ? 429 : 503;
  }
}

export class WorkGate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly perClient = new Map<string, number>();

  constructor(
    readonly maxActive: number,
    readonly maxQueued: number,
    readonly maxPerClient: number,
  ) {}

  /** Requests running now, and waiting. */
  load(): { active: number; queued: number } {
    return { active: this.active, queued: this.waiting.length };
  }

  /**
   * Runs `work` when a slot is free.
   * @throws GateRefused before `work` starts, when the client or the queue is full.
   */
  async run<T>(client: string, work: () => Promise<T>): Promise<T> {
    const mine = this.perClient.get(client) ?? 0;
    if (mine >= this.maxPerClient) {
      throw new GateRefused(
        "too_many_requests",
        "maxQueriesPerClient",
        this.maxPerClient,
        `this client already has ${mine} queries running or waiting (at most ${this.maxPerClient}); retry when one has answered`,
      );
    }
    if (this.active >= this.maxActive && this.waiting.length >= this.maxQueued) {
      throw new GateRefused(
        "server_busy",
        "maxQueuedQueries",
        this.maxQueued,
        `the indexer is busy: ${this.active} queries running and ${this.waiting.length} waiting (at most ${this.maxQueued}); retry shortly`,
      );
    }
    this.perClient.set(client, mine + 1);
    try {
      if (this.active < this.maxActive) this.active++;
      else await new Promise<void>((resolve) => this.waiting.push(resolve)); // the slot is handed over
      try {
        return await work();
      } finally {
        const next = this.waiting.shift();
        if (next !== undefined) next();
        else this.active--;
      }
    } finally {
      const left = (this.perClient.get(client) ?? 1) - 1;
      if (left === 0) this.perClient.delete(client);
      else this.perClient.set(client, left);
    }
  }
}

/** The one gate of `/sql/db` and `POST /graphql` (`QUERY_LIMITS.load`). */
export const QUERY_GATE = new WorkGate(
  QUERY_LIMITS.load.maxActiveQueries,
  QUERY_LIMITS.load.maxQueuedQueries,
  QUERY_LIMITS.load.maxQueriesPerClient,
);

/** The client a request counts against: its IPv4 address, or the /64 of its IPv6 address. */
export function clientKey(address: string | undefined): string {
  if (address === undefined || address === "") return "unknown";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head = "", tail = ""] = address.toLowerCase().split("%")[0]!.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === "" ? [] : tail.split(":");
  const groups = address.includes("::")
    ? [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** The peer address of a request served by `@hono/node-server` (Ponder's server). */
export function peerAddress(c: Context): string | undefined {
  const env = c.env as { incoming?: IncomingMessage } | undefined;
  return env?.incoming?.socket?.remoteAddress;
}

/**
 * Runs `work` through `gate` for the request's client; a refusal is answered by `refused`
 * (the endpoint's error shape) with `Retry-After: 1` and the gate's status.
 */
export async function gated(
  c: Context,
  gate: WorkGate,
  work: () => Promise<Response>,
  refused: (e: GateRefused) => Response,
): Promise<Response> {
  try {
    return await gate.run(clientKey(peerAddress(c)), work);
  } catch (e) {
    if (!(e instanceof GateRefused)) throw e;
    const res = refused(e);
    res.headers.set("Retry-After", "1");
    return res;
  }
}
