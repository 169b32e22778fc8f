/**
 * probe33 B-F15: the indexer read its RPC's answers without a size limit (an RPC answering without
 * end grew it to 6.1 GB in 90 s). Every exchange of its transport is bounded by `INDEXER_RPC_LIMITS`:
 * cut off at the size limit while streaming, and at the deadline when the body drips.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createPublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INDEXER_RPC_LIMITS, redactedHttpTransport, rpcFetch } from "../lib/rpcTransport";
import { rpcCall } from "../lib/syncGuardRun";

let endless: Server;
let url: string;

beforeAll(async () => {
  endless = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"jsonrpc":"2.0","id":1,"result":"');
    const chunk = "x".repeat(64 * 1024);
    const pump = (): void => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once("drain", pump);
    };
    pump();
  });
  await new Promise<void>((resolve) => endless.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(endless.address() as AddressInfo).port}/v3/BOUNDSKEY`;
});

afterAll(() => {
  endless.closeAllConnections();
  endless.close();
});

const SMALL = { ...INDEXER_RPC_LIMITS, maxBytes: 1024 * 1024, timeoutMs: 20_000 };

describe("the indexer's RPC answers are bounded (INDEXER_RPC_LIMITS)", () => {
  it("the limits are the platform's: 64 MiB and a deadline for the whole exchange", () => {
    expect(INDEXER_RPC_LIMITS.maxBytes).toBe(64 * 1024 * 1024);
    expect(INDEXER_RPC_LIMITS.timeoutMs).toBeGreaterThan(0);
  });

  it("an endless answer is cut off at the size limit while streaming", async () => {
    const res = await rpcFetch(url, undefined, SMALL)({ method: "POST", body: "{}" });
    await expect(res.text()).rejects.toThrow(/more than the limit of 1048576 bytes/);
  });

  it("Ponder's transport: the request fails naming the limit, not the URL's key", async () => {
    const client = createPublicClient({ transport: redactedHttpTransport(url, undefined, SMALL) });
    const e = await client.getChainId().then(
      () => null,
      (err: unknown) => err as Error,
    );
    expect(e).not.toBeNull();
    expect(`${e!.message} ${String((e as { cause?: unknown }).cause)}`).toMatch(/more than the limit/);
    expect(e!.message).not.toContain("BOUNDSKEY");
  });

  it("a body dripping past the deadline is cut off at it", async () => {
    const res = await rpcFetch(url, undefined, { ...SMALL, maxBytes: undefined, timeoutMs: 300 })({
      method: "POST",
      body: "{}",
    });
    const t0 = Date.now();
    await expect(res.arrayBuffer()).rejects.toThrow(/300 ms/);
    expect(Date.now() - t0).toBeLessThan(10_000);
  });

  it("the start-up check's call names its method and the limit (64 MiB read, then refused)", async () => {
    await expect(rpcCall(url, "eth_chainId", [], 60_000)).rejects.toThrow(
      /^eth_chainId: .*more than the limit of 67108864 bytes/,
    );
  });
});
