/**
 * probe16 A-F3: with a slow chain RPC an award answers by its one deadline (`answerBy`) whatever step
 * it is in: before sending, 503-shaped `server_busy` with nothing sent (the late work never sends);
 * after sending, `award_pending` (a rerun adopts the transaction, never a second send). The RPC here is
 * a delaying proxy in front of the devchain (as the probe's `rpc-proxy.mjs`).
 */
import type { DevChain } from "@bench-bounty/devchain";
import { describe, expect, it } from "vitest";
import { awardLock } from "../src/award/state.js";
import { awardedTxs, publishLockAndRun, useDevChain } from "./helpers.js";
import { platformBehindProxy, useClosers } from "./rpc-proxy.js";

const devChain = useDevChain();

const closers = useClosers();

/** A benchmark ready to award (as award-recovery.test.ts), its platform on the chain through a delaying proxy. */
async function readyBehindProxy(dc: DevChain, account: number, tag: string) {
  const { proxy, platform, clock, chainNow } = await platformBehindProxy(dc, account, closers, {
    awardWaitMs: 600_000,
  });
  const { slug, bountyId } = await publishLockAndRun(platform, dc, {
    chainNow,
    clock,
    account,
    tag,
    title: `Deadline ${tag}`,
  });
  const fromBlock = await dc.publicClient.getBlockNumber();
  return { platform, proxy, slug, bountyId, fromBlock };
}

/** Waits until the award's lock is free (the late work, if any, has ended). */
async function lockFree(r: Awaited<ReturnType<typeof readyBehindProxy>>): Promise<void> {
  await r.platform.ctx.store.withLock(awardLock(r.slug), async () => undefined, { waitMs: 120_000 });
}

describe("an award answers by its deadline on a slow chain (probe16 A-F3)", () => {
  it("past the deadline before sending: server_busy, and the late work never sends; a rerun awards", async () => {
    const dc = devChain();
    const r = await readyBehindProxy(dc, 1, "before-send");
    r.proxy.delay.ms = 400; // each RPC answer takes 400 ms: the chain reads before sending outlast the deadline
    const e = await r.platform.real
      .award(r.platform.op, r.slug, { answerBy: Date.now() + 300 })
      .catch((x: unknown) => x);
    expect(e).toMatchObject({ code: "server_busy", details: { retry_after_seconds: 5 } });
    expect((e as Error).message).toMatch(/nothing was sent/);
    await lockFree(r);
    expect(await awardedTxs(dc, r.bountyId, r.fromBlock)).toEqual([]);
    r.proxy.delay.ms = 0;
    const done = await r.platform.award(r.slug);
    expect(await awardedTxs(dc, r.bountyId, r.fromBlock)).toEqual([done.award_tx]);
  });

  it("the deadline passing during the reads the send needs: server_busy, and the late work never sends (probe19 A-F2)", async () => {
    const dc = devChain();
    const r = await readyBehindProxy(dc, 9, "pre-send-reads");
    const platformAccount = dc.accounts[9]!.address;
    const nonce = () => dc.publicClient.getTransactionCount({ address: platformAccount });
    const before = await nonce();
    // the gas estimate (the last read before signing) answers after the deadline
    r.proxy.delay.byMethod = { eth_estimateGas: 8_000 };
    const e = await r.platform.real
      .award(r.platform.op, r.slug, { answerBy: Date.now() + 4_000 })
      .catch((x: unknown) => x);
    expect(e).toMatchObject({ code: "server_busy", details: { retry_after_seconds: 5 } });
    expect((e as Error).message).toMatch(/nothing was sent/);
    await lockFree(r); // the late work has ended: it got its estimate after the deadline
    expect(await nonce()).toBe(before);
    expect(await awardedTxs(dc, r.bountyId, r.fromBlock)).toEqual([]);
    r.proxy.delay.byMethod = {};
    const done = await r.platform.award(r.slug);
    expect(await awardedTxs(dc, r.bountyId, r.fromBlock)).toEqual([done.award_tx]);
  });

  it("past the deadline after sending: award_pending, and a rerun adopts the one transaction", async () => {
    const dc = devChain();
    const r = await readyBehindProxy(dc, 5, "after-send");
    r.proxy.holdAfterNextSend(); // the chain answers until the award is sent, then not at all
    const e = await r.platform.real
      .award(r.platform.op, r.slug, { answerBy: Date.now() + 20_000 })
      .catch((x: unknown) => x);
    expect(e).toMatchObject({ code: "award_pending" });
    expect((e as Error).message).toMatch(/run award again/);
    // answered by its deadline while the chain still held its reads (the chain's own wait is 600 s)
    expect(r.proxy.held()).toBeGreaterThan(0);
    // the door, too, answers from the store within DOOR_WAIT_MS while the chain's reads are held
    const door = await r.platform.real.awardEvidence(r.slug);
    expect(door).toMatchObject({ kind: "unavailable", reason: "award_pending" });
    expect(door.kind === "unavailable" && door.message).toMatch(/the chain answered too slowly/);
    expect(r.proxy.held()).toBeGreaterThan(0);
    r.proxy.release();
    await lockFree(r);
    const done = await r.platform.award(r.slug);
    expect(await awardedTxs(dc, r.bountyId, r.fromBlock)).toEqual([done.award_tx]);
  });
});
