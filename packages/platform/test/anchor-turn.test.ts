/**
 * probe34 A-F1: an anchor transaction of the platform account that the node never mines (dropped from
 * its pool: a restart, an eviction, a replaced or underpriced transaction) kept the chain gateway's one
 * write turn for viem's 180 s, so every later write of the process (a relayed claim, the award, every
 * other anchor) waited behind it though the chain answered at once. Now the anchoring's wait, inside the
 * turn, lets a dropped transaction go as soon as the node says it does not know it (its digests stay
 * pending and the next call sends them anew), and a known pending one at `ChainConfig.anchorWaitMs`
 * (remembered and adopted by the next call, never sent twice).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Address, Hash } from "viem";
import { ChainGateway } from "../src/chain.js";
import {
  chainClock,
  chainConfig,
  cities,
  freshStoreLocation,
  openAt,
  promptAgent,
  rejection,
  useDevChain,
  type Harness,
} from "./helpers.js";
import type { PlatformOptions } from "../src/platform.js";

const devChain = useDevChain();

async function rpc(method: string, params: unknown[]): Promise<unknown> {
  return devChain().publicClient.request({ method: method as never, params: params as never });
}

/** The platform account's transactions to the AnchorRegistry waiting in the node's pool. */
async function pooledAnchors(from: string): Promise<Hash[]> {
  const dc = devChain();
  const block = await dc.publicClient.getBlock({ blockTag: "pending", includeTransactions: true });
  return block.transactions
    .filter(
      (t) =>
        t.from.toLowerCase() === from.toLowerCase() &&
        t.to?.toLowerCase() === dc.contracts.anchorRegistry.toLowerCase(),
    )
    .map((t) => t.hash);
}

/** The platform account's nonce counting its transactions in the pool. */
function pendingNonce(address: string): Promise<number> {
  return devChain().publicClient.getTransactionCount({ address: address as Address, blockTag: "pending" });
}

afterEach(async () => {
  vi.restoreAllMocks();
  await rpc("evm_setAutomine", [true]);
});

/** A platform on the devchain's clock, sending as account 1, with `more` options. */
async function open(more: Partial<PlatformOptions> = {}, anchorWaitMs?: number): Promise<Harness> {
  const dc = devChain();
  const { clock } = await chainClock(dc);
  return openAt({
    ...(await freshStoreLocation()),
    clock: clock.now,
    chain: { ...chainConfig(dc, 1), ...(anchorWaitMs === undefined ? {} : { anchorWaitMs }) },
    ...more,
  });
}

/** Publishes a benchmark (anchors mined) and starts and answers a run of `agent`. */
async function publishAndPlay(platform: Harness, tag: string): Promise<string> {
  const ds = await platform.createDataset(cities(4, tag));
  const published = await platform.real.publish(platform.op, ds.dataset_id, {
    title: `Turn ${tag}`,
    prompt_template: "What is the answer for {payload.city} #{payload.index}?",
    grader_type: "exact",
  });
  return published.slug;
}

async function answeredRun(platform: Harness, slug: string, agent: string): Promise<string> {
  const s = await platform.startRun(slug, agent);
  await platform.submit(
    s.run.id,
    s.tasks.map((t) => ({ ordinal: t.ordinal, answer_text: promptAgent(t.prompt) })),
  );
  return s.run.id;
}

describe("a dropped anchor transaction does not hold the gateway's write turn (probe34 A-F1)", () => {
  it("immediate: the next finalize's anchor is sent and mined at once; the dropped receipt is anchored by the next anchor call", async () => {
    const platform = await open();
    try {
      expect(platform.ctx.receiptAnchoring).toBe("immediate");
      const me = platform.ctx.chain!.address;
      const slug = await publishAndPlay(platform, "turn-imm");
      const first = await answeredRun(platform, slug, "alice");
      await rpc("evm_setAutomine", [false]);
      const f1 = await platform.finalize(first, { revealBy: Date.now() + 1_000 });
      expect(f1).toMatchObject({ receipt_anchor_status: "pending" });
      for (let i = 0; i < 50 && (await pooledAnchors(me)).length === 0; i++)
        await new Promise((r) => setTimeout(r, 100));
      const [dropped] = await pooledAnchors(me);
      expect(dropped).toBeDefined();
      // the node forgets it (an eviction), and mines again at once
      expect(await rpc("hardhat_dropTransaction", [dropped])).toBe(true);
      await rpc("evm_setAutomine", [true]);
      const nonce = await pendingNonce(me);

      const second = await answeredRun(platform, slug, "bob");
      const t0 = Date.now();
      const f2 = await platform.finalize(second, { revealBy: t0 + 25_000 });
      // the turn came: its anchor was sent and mined (before: pending at the deadline, nothing sent)
      expect(f2).toMatchObject({ receipt_anchor_status: "anchored" });
      expect(Date.now() - t0).toBeLessThan(20_000);
      expect(await pendingNonce(me)).toBe(nonce + 1);

      // the dropped receipt stayed pending and is sent anew
      const owner = await platform.ownerOfRun(first);
      expect((await platform.real.getRun(owner, first)).receipt_anchor_status).toBe("pending");
      await platform.anchorPendingReceipts(slug);
      expect((await platform.real.getRun(owner, first)).receipt_anchor_status).toBe("anchored");
    } finally {
      await platform.close();
    }
  }, 120_000);

  it("batch: a flush whose anchorMany is dropped ends at once, dropped; the next flush anchors its digests", async () => {
    const platform = await open({ anchorBatching: { flushMs: 3_600_000, revealWaitMs: 0 } });
    try {
      const me = platform.ctx.chain!.address;
      const slug = await publishAndPlay(platform, "turn-batch");
      await platform.real.flushAnchors(); // the commitment
      const runs = [await answeredRun(platform, slug, "alice"), await answeredRun(platform, slug, "bob")];
      for (const r of runs) await platform.finalize(r);
      await rpc("evm_setAutomine", [false]);
      const flushing = platform.real.flushAnchors();
      let pooled: Hash[] = [];
      for (let i = 0; i < 50 && pooled.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
        pooled = await pooledAnchors(me);
      }
      expect(pooled).toHaveLength(1);
      expect(await rpc("hardhat_dropTransaction", [pooled[0]])).toBe(true);
      await rpc("evm_setAutomine", [true]);
      const t0 = Date.now();
      const e = await rejection(flushing);
      expect(Date.now() - t0).toBeLessThan(15_000);
      expect(e).toMatchObject({ code: "chain_error", details: { anchor_state: "dropped" } });
      expect(e.message).toMatch(/dropped by the node before it was mined/);
      // served while its digests are withheld: the transaction is named in the operator's log only (probe40 V-F5)
      expect(JSON.stringify({ m: e.message, d: e.details })).not.toContain(pooled[0]!.slice(2));
      expect(await platform.real.flushAnchors()).toBe(2);
      for (const r of runs) {
        const owner = await platform.ownerOfRun(r);
        expect((await platform.real.getRun(owner, r)).receipt_anchor_status).toBe("anchored");
      }
    } finally {
      await platform.close();
    }
  }, 120_000);

  it("a pending one is let go at anchorWaitMs and adopted by the next call, never sent twice, even unseen in the pool", async () => {
    const platform = await open({}, 3_000);
    try {
      const me = platform.ctx.chain!.address;
      const slug = await publishAndPlay(platform, "turn-stuck");
      const run = await answeredRun(platform, slug, "alice");
      await rpc("evm_setAutomine", [false]);
      // the receipt's immediate anchor is sent and let go at the bound (the finalize answered pending)
      await platform.finalize(run, { revealBy: Date.now() + 500 });
      // a node whose pending block does not show its pool: only the gateway's memory knows the transaction
      vi.spyOn(ChainGateway.prototype, "pendingTransactionsTo").mockResolvedValue(null);
      for (let i = 0; i < 50 && (await pooledAnchors(me)).length === 0; i++)
        await new Promise((r) => setTimeout(r, 100));
      const [sent] = await pooledAnchors(me);
      expect(sent).toBeDefined();
      const nonce = await pendingNonce(me);
      const t0 = Date.now();
      const e = await rejection(platform.anchorPendingReceipts(slug));
      expect(Date.now() - t0).toBeLessThan(10_000);
      expect(e).toMatchObject({ code: "chain_error", details: { anchor_state: "pending" } });
      expect(e.message).toMatch(/sent before/);
      expect(JSON.stringify({ m: e.message, d: e.details })).not.toContain(sent!.slice(2));
      expect(await pendingNonce(me)).toBe(nonce); // not sent again
      expect(await pooledAnchors(me)).toEqual([sent]);
      await rpc("evm_setAutomine", [true]);
      await rpc("evm_mine", []);
      const evs = await platform.anchorPendingReceipts(slug);
      expect(Object.values(evs).map((ev) => ev.tx_hash)).toEqual([sent]);
      const owner = await platform.ownerOfRun(run);
      expect((await platform.real.getRun(owner, run)).receipt_anchor_status).toBe("anchored");
    } finally {
      await platform.close();
    }
  }, 120_000);
});
