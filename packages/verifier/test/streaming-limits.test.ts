/**
 * Every size limit is enforced while streaming (issue 13 item 6): a server that
 * streams a chunked body forever (no content-length) is refused at the limit, the
 * rest is never read, and memory stays bounded. Covered: a pack URL, a JWKS URL,
 * an execute response URL, an RPC answer and an indexer answer.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  VerifierInputError,
  VerifierNetworkError,
  readPack,
  verifyComputeReceipt,
  verifyIndexer,
  verifyOffline,
  verifyOnchain,
  verifyPack,
} from "../src/index.js";
import { packTree } from "./helpers.js";

const CHUNK = Buffer.alloc(64 * 1024, 0x20); // 64 KiB of spaces: valid JSON white space, forever
const MiB = 1024 * 1024;

let server: Server;
let base: string;
/** Bytes the server wrote per request path (until the client went away). */
const sent = new Map<string, number>();

/** Write chunks until the client closes the connection (or 2 GiB, whichever comes first). */
function streamForever(path: string, res: ServerResponse, prefix: string): void {
  res.writeHead(200, { "content-type": "application/json" }); // chunked: no content-length
  let total = 0;
  res.write(prefix);
  const pump = (): void => {
    while (total < 2 * 1024 * MiB) {
      total += CHUNK.byteLength;
      sent.set(path, total);
      if (!res.write(CHUNK)) {
        res.once("drain", pump);
        return;
      }
    }
    res.end();
  };
  res.on("close", () => sent.set(path, total));
  pump();
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] as string;
    if (path.startsWith("/drip")) {
      // headers at once, then one byte every 100 ms, never the end (issue 13 re-probe F5)
      req.resume();
      res.writeHead(200, { "content-type": "application/json" });
      res.write(path === "/drip-rpc" ? '{"jsonrpc":"2.0","id":1,"result":"0x1"' : "{");
      const t = setInterval(() => res.write(" "), 100);
      res.on("close", () => clearInterval(t));
    } else if (path === "/rpc") {
      // a JSON-RPC answer that never ends (a batch or a single call alike)
      req.resume();
      req.on("end", () => streamForever(path, res, '{"jsonrpc":"2.0","id":1,"result":"0x1"'));
    } else streamForever(path, res, "{");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** Run `read`, expecting a refusal; returns the error, the server's bytes sent and the heap growth. */
async function refused(
  path: string,
  read: () => Promise<unknown>,
): Promise<{ error: Error; sent: number; heap: number }> {
  globalThis.gc?.();
  const before = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  let error: Error | null = null;
  try {
    await read();
  } catch (e) {
    error = e as Error;
  }
  const after = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  // the server notices the closed connection shortly after the client cancels
  await new Promise((r) => setTimeout(r, 200));
  expect(error, "refused").not.toBeNull();
  return { error: error!, sent: sent.get(path) ?? 0, heap: after - before };
}

describe("size limits are enforced while streaming", () => {
  it("a pack URL streaming forever is refused at --max-bytes (bad input, exit 2), unbuffered", async () => {
    const r = await refused("/pack", () =>
      verifyPack({ source: `${base}/pack`, limits: { maxBytes: 4 * MiB } }),
    );
    expect(r.error).toBeInstanceOf(VerifierInputError);
    expect(r.error.message).toBe(
      "$: the pack is more than the limit of 4194304 bytes (refused while streaming, at the limit)",
    );
    // refused at the limit: the server got to write little more than the limit (socket buffers)
    expect(r.sent).toBeLessThan(4 * MiB + 8 * MiB);
    expect(r.heap).toBeLessThan(64 * MiB);
  });

  it("a JWKS URL streaming forever is refused at 1 MiB", async () => {
    const r = await refused("/jwks", () =>
      verifyComputeReceipt({ execute: executeResponse(), jwks: `${base}/jwks` }),
    );
    expect(r.error.message).toBe(
      "$: the JWKS is more than the limit of 1048576 bytes (refused while streaming, at the limit)",
    );
    expect(r.sent).toBeLessThan(1 * MiB + 8 * MiB);
  });

  it("an execute response URL streaming forever is refused at 64 MiB", async () => {
    const r = await refused("/execute", () =>
      verifyComputeReceipt({ execute: `${base}/execute`, jwks: { keys: [] } }),
    );
    expect(r.error.message).toBe(
      "$: the execute response is more than the limit of 67108864 bytes (refused while streaming, at the limit)",
    );
    expect(r.sent).toBeLessThan(64 * MiB + 8 * MiB);
    expect(r.heap).toBeLessThan(64 * MiB + 48 * MiB);
  });

  it("an RPC answer streaming forever is a network error at the limit (exit 3)", async () => {
    const view = readPack(packTree("small"));
    const { derived } = verifyOffline(view);
    const r = await refused("/rpc", () =>
      verifyOnchain(view, derived, { rpcUrl: `${base}/rpc`, maxAnswerBytes: 2 * MiB }),
    );
    expect(r.error).toBeInstanceOf(VerifierNetworkError);
    expect(r.error.message).toBe(
      `rpc ${base}: eth_chainId: the RPC answer is more than the limit of 2097152 bytes (refused while streaming, at the limit)`,
    );
    // one retry (viem retryCount 1): at most two answers cut at the limit
    expect(r.sent).toBeLessThan(2 * (2 * MiB + 8 * MiB));
    expect(r.heap).toBeLessThan(64 * MiB);
  });

  it("an indexer answer streaming forever is a network error at the limit (exit 3)", async () => {
    const view = readPack(packTree("small"));
    const { derived } = verifyOffline(view);
    const r = await refused(`/bounties/${view.benchmark.bounty_id}`, () =>
      verifyIndexer(view, derived, null, { indexerUrl: base, maxAnswerBytes: 2 * MiB }),
    );
    expect(r.error).toBeInstanceOf(VerifierNetworkError);
    expect(r.error.message).toBe(
      `indexer ${base}: GET /bounties/${view.benchmark.bounty_id}: the indexer answer is more than the limit of 2097152 bytes (refused while streaming, at the limit)`,
    );
    expect(r.sent).toBeLessThan(2 * MiB + 8 * MiB);
  });
});

describe("time limits cover the body, not only the headers", () => {
  /** Run `read`, expecting a refusal; returns the error and the time it took. */
  async function timed(read: () => Promise<unknown>): Promise<{ error: Error; ms: number }> {
    const t0 = Date.now();
    let error: Error | null = null;
    try {
      await read();
    } catch (e) {
      error = e as Error;
    }
    expect(error, "refused").not.toBeNull();
    return { error: error!, ms: Date.now() - t0 };
  }

  it("an RPC that sends its headers and drips the body is given up after about twice the timeout (exit 3)", async () => {
    const view = readPack(packTree("small"));
    const { derived } = verifyOffline(view);
    const r = await timed(() => verifyOnchain(view, derived, { rpcUrl: `${base}/drip-rpc`, timeoutMs: 700 }));
    expect(r.error).toBeInstanceOf(VerifierNetworkError);
    expect(r.error.message).toBe(
      `rpc ${base}: eth_chainId: the RPC answer did not arrive in full within 700 ms (headers and body)`,
    );
    // two attempts (viem retries once) of 700 ms each, plus viem's retry delay; it used to hang
    expect(r.ms).toBeGreaterThanOrEqual(1_400);
    expect(r.ms).toBeLessThan(6_000);
  });

  it("an indexer and a pack URL dripping their bodies end at the timeout too", async () => {
    const view = readPack(packTree("small"));
    const { derived } = verifyOffline(view);
    const ix = await timed(() =>
      verifyIndexer(view, derived, null, { indexerUrl: `${base}/drip-ix`, timeoutMs: 700 }),
    );
    expect(ix.error).toBeInstanceOf(VerifierNetworkError);
    expect(ix.ms).toBeLessThan(4_000);
    const pack = await timed(() => verifyPack({ source: `${base}/drip-pack`, timeoutMs: 700 }));
    expect(pack.error).toBeInstanceOf(VerifierNetworkError);
    expect(pack.ms).toBeLessThan(4_000);
  });
});

/** A syntactically complete execute response (its JWS is never checked: the JWKS read fails first). */
function executeResponse(): Uint8Array {
  const b64 = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString("base64url");
  const jws = `${b64({ alg: "ES256", kid: "k1" })}.${b64({ total_usdc: "1" })}.${b64("sig")}`;
  return new TextEncoder().encode(JSON.stringify({ invocation_id: "inv-1", receipt_jws: jws }));
}
