/**
 * A JSON-RPC proxy in front of the devchain for tests of a slow or watched chain RPC (as the probes'
 * `rpc-proxy.mjs`): it delays, holds and counts the requests it forwards.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { DevChain } from "@bench-bounty/devchain";
import { parseTransaction, type Address, type Hex } from "viem";
import { afterEach } from "vitest";
import type { ChainConfig } from "../src/chain.js";
import { chainClock, chainConfig, freshStoreLocation, openAt } from "./helpers.js";

/**
 * A JSON-RPC proxy to `target` that delays each request by `delay.ms` (a method of `delay.byMethod` by its
 * own), and, with `delay.holdAfterSend`, holds every request that comes after a transaction to `watched`
 * was sent until `release()` (changeable while it runs). `calls` counts the requests received by method;
 * `unanswered()` is how many were received and not yet answered.
 */
export async function delayingProxy(target: string, watched: Address) {
  const delay = { ms: 0, holdAfterSend: false, sent: false, byMethod: {} as Record<string, number> };
  const calls: Record<string, number> = {};
  let open = 0;
  const held: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      open++;
      const answer = (status: number, bytes?: Buffer) => {
        open--;
        res.writeHead(status, { "content-type": "application/json" });
        res.end(bytes);
      };
      const forward = () =>
        fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body })
          .then(async (r) => answer(r.status, Buffer.from(await r.arrayBuffer())))
          .catch(() => answer(502));
      const call = JSON.parse(body.toString()) as { method?: string; params?: Hex[] };
      const method = call.method ?? "";
      calls[method] = (calls[method] ?? 0) + 1;
      if (delay.sent && delay.holdAfterSend) held.push(() => void forward());
      else setTimeout(() => void forward(), delay.byMethod[method] ?? delay.ms);
      if (
        method === "eth_sendRawTransaction" &&
        parseTransaction(call.params![0]!).to?.toLowerCase() === watched.toLowerCase()
      )
        delay.sent = true;
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  /** From now on, hold what comes after the next transaction to `watched`. */
  const holdAfterNextSend = () => Object.assign(delay, { holdAfterSend: true, sent: false });
  const release = () => {
    delay.holdAfterSend = false;
    for (const go of held.splice(0)) go();
  };
  const close = () => {
    release();
    return new Promise<void>((ok) => server.close(() => ok()));
  };
  return {
    url,
    delay,
    calls,
    unanswered: () => open,
    holdAfterNextSend,
    held: () => held.length,
    release,
    close,
  };
}

/**
 * What to close after each test of the file (registers the `afterEach` that closes them, in order):
 * push a proxy's or a platform's `close`.
 */
export function useClosers(): (() => Promise<void>)[] {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of closers.splice(0)) await c();
  });
  return closers;
}

/**
 * A platform on a fresh store, on `dc` as `dc.accounts[account]` through a {@link delayingProxy}, with a
 * manual clock at the chain's time (`chain` adds to its chain settings); both are closed by `closers`.
 */
export async function platformBehindProxy(
  dc: DevChain,
  account: number,
  closers: (() => Promise<void>)[],
  chain: Partial<ChainConfig> = {},
) {
  const proxy = await delayingProxy(dc.rpcUrl, dc.contracts.benchmarkBounty);
  closers.push(proxy.close);
  const { now: chainNow, clock } = await chainClock(dc);
  const platform = await openAt({
    ...(await freshStoreLocation()),
    clock: clock.now,
    chain: { ...chainConfig(dc, account), rpcUrl: proxy.url, ...chain },
  });
  closers.push(() => platform.close());
  return { proxy, platform, clock, chainNow };
}
