/**
 * probe10 R3 follow-up: an RPC URL with userinfo (`http://user:pw@host/path`) reaches the node through
 * the platform's chain client, the userinfo sent as an `Authorization: Basic` header (fetch refuses a
 * URL that carries credentials), and a failure names the RPC by its origin only.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChainGateway, rpcTransportUrl } from "../src/chain.js";
import { PlatformError } from "../src/errors.js";

let rpc: Server;
let host: string;
const seen: { url: string; auth: string | undefined }[] = [];

beforeAll(async () => {
  rpc = createServer((req, res) => {
    seen.push({ url: req.url ?? "", auth: req.headers.authorization });
    let body = "";
    req.setEncoding("utf8").on("data", (d: string) => (body += d));
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      if (req.headers.authorization !== `Basic ${Buffer.from("ru:r p@ss").toString("base64")}`) {
        res.statusCode = 401;
        res.end('{"error":"unauthorized"}');
        return;
      }
      const answer = (m: { id: number }) => ({ jsonrpc: "2.0", id: m.id, result: "0x7a69" });
      const parsed = JSON.parse(body) as { id: number } | { id: number }[];
      res.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(answer) : answer(parsed)));
    });
  });
  await new Promise<void>((resolve) => rpc.listen(0, "127.0.0.1", resolve));
  host = `127.0.0.1:${(rpc.address() as AddressInfo).port}`;
});

afterAll(() => {
  rpc.closeAllConnections();
  rpc.close();
});

const gateway = (rpcUrl: string): ChainGateway =>
  ChainGateway.connect({
    rpcUrl,
    chainId: 31337,
    contracts: {
      benchmarkBounty: "0x1000000000000000000000000000000000000001",
      anchorRegistry: "0x2000000000000000000000000000000000000002",
    },
    privateKey: `0x${"11".repeat(32)}`,
  });

describe("an RPC URL with userinfo (Basic auth)", () => {
  it("rpcTransportUrl strips the userinfo into a header and keeps the path and query", () => {
    expect(rpcTransportUrl("https://a%20b:c%40d@h:1/v3/K?apikey=Q")).toEqual({
      url: "https://h:1/v3/K?apikey=Q",
      headers: { authorization: `Basic ${Buffer.from("a b:c@d").toString("base64")}` },
    });
    expect(rpcTransportUrl("https://h/v3/K")).toEqual({ url: "https://h/v3/K", headers: {} });
  });

  it("the chain client answers eth_chainId", async () => {
    seen.length = 0;
    const g = gateway(`http://ru:r%20p%40ss@${host}/v3/RPCKEY?apikey=Q`);
    await expect(g.publicClient.getChainId()).resolves.toBe(31337);
    expect(seen[0]?.url).toBe("/v3/RPCKEY?apikey=Q");
  });

  it("a refusal names the RPC by its origin only", async () => {
    const g = gateway(`http://ru:WRONGPW@${host}/v3/RPCKEY?apikey=RPCQ`);
    const e = await g.unminedCount().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PlatformError);
    expect((e as PlatformError).code).toBe("chain_error");
    expect(JSON.stringify({ m: (e as Error).message, d: (e as PlatformError).details })).not.toMatch(
      /WRONGPW|RPCKEY|RPCQ/,
    );
  });
});
