/**
 * probe39 C-F2, live: the RPC freezes for 45 s (a proxy holding every request, as `kill -STOP` of the
 * node did) while the indexer follows the devchain at a 200 ms polling interval; then two blocks are
 * mined. Before the fix Ponder's rate limiter had taken the 10 s timeouts for rate limiting and sat at
 * 3-3.47 requests/s ("Unable to find available JSON-RPC provider" without end): 40 s later the indexer
 * was still 2 blocks behind. Now it is at the head within seconds.
 */
import { startDevChain, type DevChain } from "@bench-bounty/devchain";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, expect, it } from "vitest";
import { startIndexer, rpcBlockNumber, type RunningIndexer } from "../testing/startIndexer.js";

let dc: DevChain | undefined;
let ix: RunningIndexer | undefined;
let proxy: Server | undefined;
afterAll(async () => {
  await ix?.stop();
  proxy?.closeAllConnections();
  proxy?.close();
  await dc?.stop();
});

it("the indexer follows the chain again right after a 45 s RPC stall", async () => {
  dc = await startDevChain();
  let stalled = false;
  let release: () => void = () => {};
  let released = Promise.resolve();
  proxy = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", async () => {
      if (stalled) await released;
      try {
        const r = await fetch(dc!.rpcUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        });
        const text = await r.text();
        res.writeHead(r.status, { "content-type": "application/json" });
        res.end(text);
      } catch {
        res.destroy(); // the node stopped (test end): the indexer sees a failed request
      }
    });
  });
  await new Promise<void>((r) => proxy!.listen(0, "127.0.0.1", r));
  const port = (proxy.address() as AddressInfo).port;
  ix = await startIndexer({ chain: { ...dc, rpcUrl: `http://127.0.0.1:${port}` } });
  const mine = () => dc!.publicClient.request({ method: "evm_mine" } as never);
  await mine();
  released = new Promise((r) => (release = r));
  stalled = true;
  await new Promise((r) => setTimeout(r, 45_000));
  stalled = false;
  release();
  await mine();
  await mine();
  const head = await rpcBlockNumber(dc.rpcUrl);
  const t0 = Date.now();
  let n: number | null = null;
  while (Date.now() - t0 < 40_000) {
    n = await ix.indexedBlock().catch(() => null);
    if (n !== null && n >= head) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  expect(
    n,
    `indexed ${n} of ${head} 40 s after the stall; last output:\n${ix.output().slice(-2000)}`,
  ).toBeGreaterThanOrEqual(head);
}, 300_000);
