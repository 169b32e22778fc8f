/**
 * Stand-ins for remote services in tests: a JSON-RPC node behind HTTP Basic auth (a hosted provider's
 * `https://user:pw@host/v3/<key>` URL). Imported as `@bench-bounty/devchain/stubs` (Node built-ins only).
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
