/**
 * probe10 R1: when its RPC fails, the indexer's log names the RPC's origin only, never the
 * provider key in the URL's path, query or userinfo. Ponder is started (PGlite, `--log-level info`,
 * Ponder's default; `warn` is the demo's and prints the same error lines) against an RPC that
 * answers 500 to everything and against a closed port, each URL carrying keys.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startIndexer } from "../testing/startIndexer.js";

const SECRETS = ["LOGPATHKEY11", "LOGQKEY11", "LOGUSER11", "LOGPASS11", "LOGFRAG11"];

let broken: Server;
let brokenPort: number;
let closedPort: number;

beforeAll(async () => {
  broken = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end("upstream broke");
    });
  });
  await new Promise<void>((resolve) => broken.listen(0, "127.0.0.1", resolve));
  brokenPort = (broken.address() as AddressInfo).port;
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

afterAll(() => {
  broken.closeAllConnections();
  broken.close();
});

/** Ponder's output against `rpcUrl`, once it has logged 3 failed requests (at most `ms`). */
async function logAgainst(rpcUrl: string, ms: number): Promise<string> {
  let out = "";
  const ix = await startIndexer({
    chain: {
      chainId: 8453,
      rpcUrl,
      startBlock: 3,
      contracts: {
        benchmarkBounty: "0x7D29D45ceC1704e2811b50fd785E403737e005dd",
        anchorRegistry: "0xF646ce19E9F80a7927058CE47Bc7c8B7c00aB0B8",
      },
    },
    wait: "none",
    logLevel: "info",
    log: (text: string) => (out += text),
  } as unknown as Parameters<typeof startIndexer>[0]);
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && out.split("HTTP request failed").length <= 3) {
    await new Promise((r) => setTimeout(r, 200));
  }
  await ix.stop();
  return out;
}

describe("the indexer's log when the RPC fails", () => {
  it("names the RPC's origin, never the key in its path, query or userinfo", async () => {
    const [onError, onClosed] = await Promise.all([
      logAgainst(
        `http://LOGUSER11:LOGPASS11@127.0.0.1:${brokenPort}/v3/LOGPATHKEY11/?apikey=LOGQKEY11#LOGFRAG11`,
        60_000,
      ),
      logAgainst(`http://127.0.0.1:${closedPort}/v3/LOGPATHKEY11/?apikey=LOGQKEY11`, 60_000),
    ]);
    // Ponder did log the failures, with the origin.
    expect(onError).toContain("HTTP request failed");
    expect(onError).toContain(`URL: http://127.0.0.1:${brokenPort}\n`);
    expect(onClosed).toContain("HTTP request failed");
    expect(onClosed).toContain(`URL: http://127.0.0.1:${closedPort}\n`);
    for (const s of SECRETS) {
      expect(onError, s).not.toContain(s);
      expect(onClosed, s).not.toContain(s);
    }
  });
});

describe("the indexer given a ws:// or wss:// RPC URL (probe11 O2)", () => {
  it("refuses to start, naming the variable and never the URL (Ponder would log the WebSocket whole)", async () => {
    let out = "";
    const ix = await startIndexer({
      chain: {
        chainId: 8453,
        rpcUrl: `ws://LOGUSER11:LOGPASS11@127.0.0.1:${closedPort}/v3/LOGPATHKEY11/?apikey=LOGQKEY11#LOGFRAG11`,
        startBlock: 3,
        contracts: {
          benchmarkBounty: "0x7D29D45ceC1704e2811b50fd785E403737e005dd",
          anchorRegistry: "0xF646ce19E9F80a7927058CE47Bc7c8B7c00aB0B8",
        },
      },
      wait: "none",
      logLevel: "warn",
      log: (text: string) => (out += text),
    } as unknown as Parameters<typeof startIndexer>[0]);
    const code = await Promise.race([ix.exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 60_000))]);
    await ix.stop();
    expect(code, out).not.toBe("timeout");
    expect(code, out).not.toBe(0);
    expect(out).toContain("PONDER_RPC_URL_8453: must be an http:// or https:// URL");
    expect(out).not.toContain("_url");
    for (const s of SECRETS) expect(out, s).not.toContain(s);
  });
});
