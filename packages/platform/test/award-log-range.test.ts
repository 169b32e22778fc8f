/**
 * probe28 C-F7 / C-F8: hosted Base RPCs refuse an `eth_getLogs` over more than 10,000 blocks (error
 * -32005). The award's search for its own `Awarded` log (`findOwnAward`: after every send, first thing in
 * every rerun, and the door's recovery after a crash) asked for every block from the commitment's anchor to
 * the head at once: on a contest longer than ~5.7 h of Base blocks the award paid the winners and then
 * answered 500 (`internal error`, viem's error with the RPC's URL in serve's log), reruns stayed stuck,
 * and after a crash the door answered 500 and `serve` could not start. The search now runs newest first
 * in windows of at most 10,000 blocks, halving a window the RPC refuses.
 */
import type { DevChain } from "@bench-bounty/devchain";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import type { ChainConfig } from "../src/chain.js";
import {
  awardedTxs,
  bountyCredit,
  chainClock,
  chainConfig,
  crashOnce,
  freshStoreLocation,
  openAt,
  publishLockAndRun,
  useDevChain,
} from "./helpers.js";

const devChain = useDevChain();

const rpc = (dc: DevChain, method: string, params: unknown[] = []) =>
  dc.publicClient.request({ method, params } as never);

/**
 * A JSON-RPC proxy to `target` that refuses, as hosted RPCs do, an `eth_getLogs` spanning more than
 * `maxRange` blocks (a missing `toBlock` is the head); `refused` counts the refusals.
 */
async function rangeCappedRpc(target: string, maxRange: number) {
  const state = { refused: 0, logQueries: 0 };
  const head = async (): Promise<number> => {
    const r = await fetch(target, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
    });
    return Number(((await r.json()) as { result: string }).result);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      const call = JSON.parse(body) as {
        id: number;
        method: string;
        params: { fromBlock?: string; toBlock?: string }[];
      };
      void (async () => {
        if (call.method === "eth_getLogs") {
          state.logQueries++;
          const q = call.params[0]!;
          const to = q.toBlock === undefined || q.toBlock === "latest" ? await head() : Number(q.toBlock);
          const from = q.fromBlock === undefined ? to : Number(q.fromBlock);
          if (to - from + 1 > maxRange) {
            state.refused++;
            return void res.writeHead(200, { "content-type": "application/json" }).end(
              JSON.stringify({
                jsonrpc: "2.0",
                id: call.id,
                error: { code: -32005, message: `query exceeds max block range ${maxRange}` },
              }),
            );
          }
        }
        const answer = await fetch(target, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        });
        res.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
      })();
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, state, close: () => new Promise((ok) => server.close(ok)) };
}

/** A benchmark ready to award through `rpcUrl`, its commitment anchored 12,000 blocks before the close. */
async function longContest(dc: DevChain, account: number, tag: string, rpcUrl: string, crash = false) {
  const { now: chainNow, clock } = await chainClock(dc);
  const where = await freshStoreLocation();
  const chain: ChainConfig = { ...chainConfig(dc, account), awardWaitMs: 5_000, rpcUrl };
  const open = (faults = {}) => openAt({ ...where, clock: clock.now, chain, faults });
  const platform = await open(crash ? crashOnce("awardAfterSend") : {});
  const r = await publishLockAndRun(platform, dc, { chainNow, clock, account, tag, title: `Long ${tag}` });
  // 12,000 blocks of one second each (publishLockAndRun left the clock past the close already)
  await rpc(dc, "hardhat_mine", ["0x2ee0", "0x0"]);
  return { ...r, platform, open, fromBlock: 0n };
}

describe("the award's search for its Awarded log on an RPC that caps eth_getLogs ranges (probe28 C-F7, C-F8)", () => {
  it("award pays once and is recorded; the search stays within the cap (halving what it refuses)", async () => {
    const dc = devChain();
    const proxy = await rangeCappedRpc(dc.rpcUrl, 2_000);
    try {
      const r = await longContest(dc, 12, "capped", proxy.url);
      const done = await r.platform.award(r.slug);
      expect(done.award_tx).toMatch(/^0x[0-9a-f]{64}$/);
      expect(await awardedTxs(dc, r.bountyId, r.fromBlock)).toEqual([done.award_tx]);
      expect(await bountyCredit(dc, r.bountyId, r.winner)).toBe(4_000_000n);
      expect(await r.platform.ctx.store.awards.get(r.slug)).toMatchObject({ award_tx: done.award_tx });
      expect(proxy.state.refused).toBeGreaterThan(0); // 10,000 then 5,000 then 2,500 were refused
      const door = await r.platform.awardEvidence(r.slug);
      expect(door.kind).toBe("pack");
      await r.platform.close();
    } finally {
      await proxy.close();
    }
  });

  it("killed after the send: reopened on the capped RPC, the door adopts the mined award and serves its pack", async () => {
    const dc = devChain();
    const proxy = await rangeCappedRpc(dc.rpcUrl, 10_000);
    try {
      const r = await longContest(dc, 14, "capped-crash", proxy.url, true);
      await expect(r.platform.award(r.slug)).rejects.toThrow(/injected crash at awardAfterSend/);
      await r.platform.close();
      const [sent] = await awardedTxs(dc, r.bountyId, r.fromBlock);
      expect(sent).toBeDefined();
      const healed = await r.open();
      const door = await healed.awardEvidence(r.slug);
      expect(door.kind).toBe("pack");
      expect(await healed.ctx.store.awards.get(r.slug)).toMatchObject({ award_tx: sent });
      await healed.close();
    } finally {
      await proxy.close();
    }
  });
});
