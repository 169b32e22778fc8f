/**
 * Stand-ins for remote services in tests: a JSON-RPC node behind HTTP Basic auth (a hosted provider's
 * `https://user:pw@host/v3/<key>` URL) and a proxy that loses the node's answers (a send the node took
 * whose answer never came back). Imported as `@bench-bounty/devchain/stubs` (Node built-ins only).
 * @packageDocumentation
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A running {@link startBasicAuthRpcStub}. */
export interface RpcStub {
  /** `127.0.0.1:PORT`. */
  readonly host: string;
  /** Each request's path and query, and its `Authorization` header, in arrival order. */
  readonly seen: { url: string; auth: string | undefined }[];
  /** Stops listening and drops open connections. */
  close(): void;
}

/**
 * Starts a JSON-RPC node on loopback that answers every call (single or batch) with `result`
 * (`eth_chainId` of 31337 by default) when the request carries `Authorization: Basic` for
 * `user`:`password`, and 401 otherwise.
 */
export async function startBasicAuthRpcStub(
  user: string,
  password: string,
  result = "0x7a69",
): Promise<RpcStub> {
  const expected = `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
  const seen: RpcStub["seen"] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? "", auth: req.headers.authorization });
    let body = "";
    req.setEncoding("utf8").on("data", (d: string) => (body += d));
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      if (req.headers.authorization !== expected) {
        res.statusCode = 401;
        res.end('{"error":"unauthorized"}');
        return;
      }
      const answer = (m: { id: number }) => ({ jsonrpc: "2.0", id: m.id, result });
      const parsed = JSON.parse(body) as { id: number } | { id: number }[];
      res.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(answer) : answer(parsed)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    host: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** One JSON-RPC call as a {@link startLossyRpcProxy} sees it (the first call of a batch). */
export interface RpcCall {
  readonly method: string;
  readonly params: unknown[];
}

/** What a {@link startLossyRpcProxy} does to the requests it gets; a test may change it while it runs. */
export interface LossyRpcRules {
  /** Methods forwarded to the node whose answers are replaced by a 502 with an empty body (lost after the node took them). */
  lose: string[];
  /** Methods answered by a 502 without being forwarded (lost before the node saw them). */
  drop: string[];
  /**
   * Methods forwarded to the node whose answers are replaced by a JSON-RPC error object,
   * `{"code":-32000,"message":"connection reset"}` (a gateway whose upstream leg failed after forwarding).
   */
  errorOn: string[];
  /** After the first lost answer, every later request is answered 502 (the RPC went away right after the send). */
  downAfterLoss: boolean;
  /**
   * After the next `eth_sendRawTransaction`, every `eth_getTransactionReceipt` is answered `null` (an RPC
   * whose receipt index lags while the transaction is mined).
   */
  blindAfterSend: boolean;
  /** Runs before each request is forwarded (to change the chain under the caller's feet). */
  before?: ((call: RpcCall) => Promise<void>) | undefined;
}

/** A running {@link startLossyRpcProxy}. */
export interface LossyRpcProxy {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** The rules in force (changeable). */
  readonly rules: LossyRpcRules;
  /** Requests forwarded to the node, by method. */
  readonly seen: Map<string, number>;
  /** How many answers were lost (by {@link LossyRpcRules.lose} or {@link LossyRpcRules.errorOn}). */
  lost(): number;
  /** Forwards everything again: empties the rules and ends the down and blind states. */
  reset(): void;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

const NO_LOSS = (): LossyRpcRules => ({
  lose: [],
  drop: [],
  errorOn: [],
  downAfterLoss: false,
  blindAfterSend: false,
});

/** The first call of a JSON-RPC body (single or batch); an unreadable body is method `""`. */
function firstCall(body: string): RpcCall & { id?: unknown } {
  try {
    const parsed = JSON.parse(body) as Partial<RpcCall> | Partial<RpcCall>[];
    const call = (Array.isArray(parsed) ? parsed[0] : parsed) ?? {};
    return { ...call, method: call.method ?? "", params: call.params ?? [] };
  } catch {
    return { method: "", params: [] };
  }
}

/**
 * Starts a JSON-RPC proxy on loopback in front of `target` that loses answers by `rules`
 * ({@link LossyRpcRules}, none by default): the node gets a call whose answer the caller never sees.
 * A request the node cannot be reached for is answered 502.
 */
export async function startLossyRpcProxy(
  target: string,
  rules: Partial<LossyRpcRules> = {},
): Promise<LossyRpcProxy> {
  const state = Object.assign(NO_LOSS(), rules);
  const seen = new Map<string, number>();
  let lost = 0;
  let down = false;
  let blind = false;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const call = firstCall(body.toString());
      if (down || state.drop.includes(call.method)) return void res.writeHead(502).end();
      if (blind && call.method === "eth_getTransactionReceipt")
        return void res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", id: call.id, result: null }));
      seen.set(call.method, (seen.get(call.method) ?? 0) + 1);
      void (state.before?.(call) ?? Promise.resolve())
        .then(() => fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body }))
        .then(async (answer) => {
          const bytes = Buffer.from(await answer.arrayBuffer());
          if (state.blindAfterSend && call.method === "eth_sendRawTransaction") blind = true;
          if (state.lose.includes(call.method)) {
            lost++;
            down = state.downAfterLoss;
            return void res.writeHead(502).end();
          }
          if (state.errorOn.includes(call.method)) {
            lost++;
            const error = { code: -32000, message: "connection reset" };
            return void res
              .writeHead(200, { "content-type": "application/json" })
              .end(JSON.stringify({ jsonrpc: "2.0", id: call.id, error }));
          }
          res.writeHead(answer.status, { "content-type": "application/json" }).end(bytes);
        })
        .catch(() => void res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    rules: state,
    seen,
    lost: () => lost,
    reset: () => {
      Object.assign(state, NO_LOSS(), { before: undefined });
      down = blind = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
