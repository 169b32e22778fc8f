/**
 * probe39 C-F2: after a ~40 s RPC stall the indexer never followed the chain again. Ponder 0.16's
 * rate limiter took each request's `TimeoutError` for rate limiting (RPC deactivated, request rate
 * cut 5% a time, down to 3/s) and the rate stayed stuck under 3.5/s, below the 5 polls/s of a
 * 200 ms polling interval. Here Ponder's own RPC client (`createRpc`, its dist, as `ponder start`
 * builds it for a transport) is driven through `redactedHttpTransport` with a short stall (timeout
 * 40 ms instead of Ponder's 10 s, so a stall of 6 s stands for one of 40 s): the stall must not be taken
 * for rate limiting, and the requests after it must run at full rate.
 */
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import type { Transport } from "viem";
import { redactedHttpTransport } from "../../lib/rpcTransport";

type Rpc = { request: (body: { method: string; params?: unknown[] }) => Promise<unknown> };
type CreateRpc = (args: { common: unknown; chain: unknown }) => Rpc;

// Ponder exports only its package entry: its RPC client is read from its dist by path.
const ponderRpc = fileURLToPath(new URL("../../node_modules/ponder/dist/esm/rpc/index.js", import.meta.url));

it("a stall of the RPC is retried, not taken for rate limiting: full rate right after it", async () => {
  const { createRpc } = (await import(/* @vite-ignore */ ponderRpc)) as { createRpc: CreateRpc };
  const messages: string[] = [];
  const log = (o: { msg: string }) => void messages.push(o.msg);
  const common = {
    logger: { warn: log, debug: log, trace: () => {}, info: log, error: log },
    metrics: {
      ponder_rpc_request_duration: { observe: () => {} },
      ponder_rpc_request_error_total: { inc: () => {} },
    },
    shutdown: { add: () => {} },
  };

  let stalled = true;
  const fetchFn = (_input: string, init?: RequestInit): Promise<Response> => {
    const { id } = JSON.parse(String(init?.body)) as { id: number };
    const answer = () =>
      new Response(JSON.stringify({ jsonrpc: "2.0", id, result: "0x10" }), {
        headers: { "content-type": "application/json" },
      });
    if (!stalled) return Promise.resolve(answer());
    // A frozen RPC: no answer until the request is given up.
    return new Promise((_resolve, reject) => {
      init?.signal?.addEventListener("abort", () => reject(new Error("aborted")));
    });
  };
  const transport = redactedHttpTransport("http://127.0.0.1:9/rpc/KEY", fetchFn);
  const rpc = createRpc({
    common,
    chain: {
      name: "base",
      id: 8453,
      pollingInterval: 200,
      // Ponder gives a transport `timeout: 10_000`: 40 ms here, for a 6 s stall instead of 40 s.
      rpc: ((options: Parameters<Transport>[0]) => transport({ ...options, timeout: 40 })) as Transport,
    },
  });

  // Polling during the stall, as Ponder's realtime sync does (one `latest` read per interval).
  const during: Promise<unknown>[] = [];
  const poll = setInterval(() => during.push(rpc.request({ method: "eth_blockNumber" })), 100);
  await new Promise((r) => setTimeout(r, 6_000));
  clearInterval(poll);
  stalled = false;
  await Promise.all(during);

  expect(messages).not.toContain("JSON-RPC provider rate limited");
  expect(messages).not.toContain("All JSON-RPC providers are inactive");

  // After the stall: 60 requests at Ponder's initial 20 per second take about 3 s; at the
  // 3-3.5 per second the old transport left it, about 18 s.
  const start = Date.now();
  await Promise.all(Array.from({ length: 60 }, () => rpc.request({ method: "eth_blockNumber" })));
  expect(Date.now() - start).toBeLessThan(6_000);
}, 180_000);
