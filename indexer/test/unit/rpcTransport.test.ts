/**
 * probe10 R1: the indexer's RPC errors (logged by Ponder at warn/info) must never carry the RPC
 * URL's path, query or userinfo (a provider key), only its origin. `redactedHttpTransport` is
 * what ponder.config.ts gives Ponder; `test/rpcLog.test.ts` checks Ponder's real log output.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redactedHttpTransport, rpcOrigin } from "../../lib/rpcTransport";

const SECRETS = ["PATHKEY11", "QKEY11", "USERX11", "PASSX11", "FRAG11"];

let server: Server;
let port: number;
let seen: IncomingMessage[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req);
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      if (req.url?.startsWith("/fail")) {
        res.writeHead(500, { "content-type": "text/plain" });
        res.end("upstream broke");
        return;
      }
      if (req.url?.startsWith("/rpcerr")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            jsonrpc: "2.0",
            id: JSON.parse(body).id,
            error: { code: -32000, message: "nope" },
          }),
        );
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: JSON.parse(body).id, result: "0x2105" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

function request(url: string) {
  return redactedHttpTransport(url)({ retryCount: 0, timeout: 2_000 }).request({
    method: "eth_chainId",
  }) as Promise<unknown>;
}

/** Everything a logger could print of `e`: message, fields, cause chain, stack. */
function everything(e: unknown): string {
  return [String(e), inspect(e, { depth: 10, showHidden: true }), JSON.stringify(e)].join("\n");
}

async function failure(url: string): Promise<string> {
  try {
    await request(url);
  } catch (e) {
    return everything(e);
  }
  throw new Error(`${url} did not fail`);
}

describe("redactedHttpTransport", () => {
  it("sends requests to the whole URL (path, query, userinfo as Basic auth)", async () => {
    seen = [];
    const result = await request(
      `http://USERX11:PASSX11@127.0.0.1:${port}/v3/PATHKEY11/?apikey=QKEY11&x=1#FRAG11`,
    );
    expect(result).toBe("0x2105");
    expect(seen[0]!.url).toBe("/v3/PATHKEY11/?apikey=QKEY11&x=1");
    expect(seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from("USERX11:PASSX11").toString("base64")}`);
    seen = [];
    expect(await request(`http://127.0.0.1:${port}/v3/PATHKEY11`)).toBe("0x2105");
    expect(seen[0]!.headers.authorization).toBeUndefined();
  });

  it("names only the origin when the RPC is down", async () => {
    const text = await failure("http://USERX11:PASSX11@127.0.0.1:1/v3/PATHKEY11/?apikey=QKEY11#FRAG11");
    expect(text).toContain("HTTP request failed");
    expect(text).toContain("http://127.0.0.1:1");
    for (const s of SECRETS) expect(text).not.toContain(s);
  });

  it("names only the origin on an HTTP error status and on a JSON-RPC error", async () => {
    for (const route of ["fail", "rpcerr"]) {
      const text = await failure(`http://127.0.0.1:${port}/${route}/PATHKEY11?apikey=QKEY11`);
      expect(text).toContain(`http://127.0.0.1:${port}`);
      for (const s of SECRETS) expect(text, route).not.toContain(s);
    }
  });

  it("rpcOrigin keeps scheme, host and port only", () => {
    expect(rpcOrigin("https://u:p@rpc.example:8443/v3/K?apikey=Q#F")).toBe("https://rpc.example:8443");
  });
});
