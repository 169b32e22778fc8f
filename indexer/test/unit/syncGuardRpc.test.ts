/** The sync-store guard's own RPC call is bounded in time, body included (same class as issue 13 re-probe F5). */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rpcBlockHash } from "../../lib/syncGuardRun";

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "application/json" });
    if (req.url === "/ok" || req.url === "/v3/GUARDPATH11?apikey=GUARDQ11") {
      res.end('{"jsonrpc":"2.0","id":1,"result":{"hash":"0xab"}}');
      return;
    }
    // headers at once, then one byte every 100 ms, never the end
    res.write('{"jsonrpc":"2.0","id":1,"result":');
    const t = setInterval(() => res.write(" "), 100);
    res.on("close", () => clearInterval(t));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe("rpcBlockHash", () => {
  it("reads a block hash", async () => {
    expect(await rpcBlockHash(`${base}/ok`, 5n, 2_000)).toBe("0xab");
  });

  it("gives up on an RPC that sends its headers and drips the body, at the deadline", async () => {
    const t = Date.now();
    await expect(rpcBlockHash(`${base}/drip`, 5n, 500)).rejects.toThrow(
      "eth_getBlockByNumber(5): the RPC did not answer in full within 500 ms",
    );
    expect(Date.now() - t).toBeLessThan(3_000);
  });

  it("reads through a URL with userinfo, and a failure names no part of the URL (probe10 R1)", async () => {
    const keyed =
      base.replace("http://", "http://GUARDUSER11:GUARDPASS11@") + "/v3/GUARDPATH11?apikey=GUARDQ11#F11";
    expect(await rpcBlockHash(keyed, 5n, 2_000)).toBe("0xab");
    const dead = "http://GUARDUSER11:GUARDPASS11@127.0.0.1:1/v3/GUARDPATH11?apikey=GUARDQ11";
    const e = await rpcBlockHash(dead, 5n, 2_000).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(Error);
    const text = `${String(e)} ${String((e as Error).cause)}`;
    expect(text).toContain("eth_getBlockByNumber(5)");
    for (const s of ["GUARDUSER11", "GUARDPASS11", "GUARDPATH11", "GUARDQ11"]) expect(text).not.toContain(s);
  });
});
