/**
 * Crash variants of the award not covered by award.test.ts and the server's award-faults.test.ts
 * (issue 13 item 7, re-probed): the award transaction left PENDING (the devchain with automine off)
 * when the process dies before and after `markSent`; a sent transaction DROPPED from the pool
 * (`hardhat_dropTransaction`), and one that REVERTS. Each "crash" is the fault hook throwing at its
 * step; the "restart" opens a new platform on the same store (directory or PostgreSQL schema).
 *
 * After the restart the door and `award` say "pending" for a pending transaction (never "reverted:
 * unknown", never a second send); a dropped one is sent again with the same nonce (the dropped copy
 * can never be mined) and the transaction carrying the one `Awarded` event is recorded; a revert is
 * reported with the contract's reason, nothing paid, and the next `award` refuses by simulation
 * (nothing sent). On SQLite and PostgreSQL (`BB_TEST_ENGINE=postgres`).
 */
import { benchmarkBountyAbi } from "@bench-bounty/contracts";
import type { DevChain } from "@bench-bounty/devchain";
import type { Hash } from "viem";
import { describe, expect, it } from "vitest";
import type { ChainConfig } from "../src/chain.js";
import type { FaultHooks } from "../src/context.js";
import { awardLock } from "../src/award/state.js";
import {
  chainClock,
  chainConfig,
  crashOnce,
  freshStoreLocation,
  bountyCredit,
  openAt,
  publishLockAndRun,
  useDevChain,
} from "./helpers.js";

const devChain = useDevChain();
const POOL = 4_000_000n;
/** How long `award` waits for its transaction before answering pending (short: the tests wait on purpose). */
const AWARD_WAIT_MS = 1500;

const rpc = (dc: DevChain, method: string, params: unknown[] = []) =>
  dc.publicClient.request({ method: method as never, params: params as never });

/** Where the store lives, so a "restarted" platform opens the same one. */
/**
 * A benchmark ready to award: published (anchored), a pool locked by its author, one agent (with a
 * withdrawal address) run and finalized, the chain clock past the close. The platform signs as
 * `account` (each test its own, so their nonces never mix).
 */
async function readyToAward(dc: DevChain, account: number, tag: string, faults: FaultHooks) {
  const { now: chainNow, clock } = await chainClock(dc);
  const where = await freshStoreLocation();
  const chain: ChainConfig = { ...chainConfig(dc, account), awardWaitMs: AWARD_WAIT_MS };
  const open = (f: FaultHooks = {}, publicBaseUrl?: string) =>
    openAt({ ...where, clock: clock.now, chain, faults: f, ...(publicBaseUrl ? { publicBaseUrl } : {}) });
  const platform = await open(faults);
  const { slug, bountyId, winner, closesAt } = await publishLockAndRun(platform, dc, {
    chainNow,
    clock,
    account,
    tag,
    title: `Recovery ${tag}`,
  });
  expect(await platform.real.pendingAnchors(slug)).toEqual([]); // the award sends nothing but itself
  const fromBlock = await dc.publicClient.getBlockNumber();
  // the same store without a chain (a read-only mirror, or the CLI without --rpc-url)
  const offChain = () => openAt({ ...where, clock: clock.now });
  return { platform, open, offChain, slug, bountyId, winner, fromBlock, closesAt };
}

/** The platform account's award calls waiting in the node's pool. */
async function pooledAwards(dc: DevChain): Promise<Hash[]> {
  const block = await dc.publicClient.getBlock({ blockTag: "pending", includeTransactions: true });
  return block.transactions
    .filter((t) => t.to?.toLowerCase() === dc.contracts.benchmarkBounty.toLowerCase())
    .map((t) => t.hash);
}

/** Every `Awarded` event of the bounty since `fromBlock`, by transaction. */
async function awardedTxs(dc: DevChain, bountyId: bigint, fromBlock: bigint): Promise<Hash[]> {
  const logs = await dc.publicClient.getContractEvents({
    address: dc.contracts.benchmarkBounty,
    abi: benchmarkBountyAbi,
    eventName: "Awarded",
    args: { bountyId },
    fromBlock,
  });
  return logs.map((l) => l.transactionHash);
}

async function withAutomine<T>(dc: DevChain, on: boolean, fn: () => Promise<T>): Promise<T> {
  await rpc(dc, "evm_setAutomine", [on]);
  try {
    return await fn();
  } finally {
    await rpc(dc, "evm_setAutomine", [true]);
  }
}

describe("award crash variants: pending, dropped, reverted (issue 13 item 7 re-probe)", () => {
  it("killed before markSent with the transaction pending: the door and award say pending, nothing is sent twice, the award is adopted once mined", async () => {
    const dc = devChain();
    const r = await readyToAward(dc, 10, "pending-before", crashOnce("awardBeforeMarkSent"));
    await rpc(dc, "evm_setAutomine", [false]);
    try {
      await expect(r.platform.award(r.slug)).rejects.toThrow(/injected crash at awardBeforeMarkSent/);
      await r.platform.close();
      const [inFlight] = await pooledAwards(dc);
      expect(inFlight).toBeDefined();

      const healed = await r.open();
      expect((await healed.ctx.store.awards.get(r.slug))!.status).toBe("prepared"); // the store never saw it
      expect(await healed.real.awardState(r.slug)).toEqual({
        state: "pending",
        tx_hash: inFlight,
        block: null,
      });
      const door = await healed.awardEvidence(r.slug);
      expect(door).toMatchObject({ kind: "unavailable", reason: "award_pending" });
      expect((door as { message: string }).message).toContain(inFlight);
      const e = await healed.award(r.slug).catch((x: unknown) => x);
      expect(e).toMatchObject({ code: "award_pending" });
      expect((e as Error).message).toContain(`the award transaction ${inFlight} is pending`);
      expect((e as Error).message).not.toMatch(/reverted/);
      expect(await pooledAwards(dc)).toEqual([inFlight]); // adopted, not sent again
      expect(await healed.ctx.store.awards.get(r.slug)).toMatchObject({ status: "sent", award_tx: inFlight });

      await rpc(dc, "evm_setAutomine", [true]);
      await dc.mine();
      const done = await healed.award(r.slug);
      expect(done.award_tx).toBe(inFlight);
      expect(await awardedTxs(dc, r.bountyId, r.fromBlock)).toEqual([inFlight]);
      expect(await bountyCredit(dc, r.bountyId, r.winner)).toBe(POOL);
      expect((await healed.awardEvidence(r.slug)).kind).toBe("pack");
      await healed.close();
    } finally {
      await rpc(dc, "evm_setAutomine", [true]);
    }
  });

  it("unmined transactions of the platform account that are not the award: award refuses and sends nothing", async () => {
    const dc = devChain();
    const r = await readyToAward(dc, 13, "foreign-unmined", {});
    await withAutomine(dc, false, async () => {
      // a transaction of the platform's own account, in flight, that this store knows nothing of
      const other = await dc.wallet(13).sendTransaction({ to: dc.accounts[19]!.address, value: 1n });
      const e = await r.platform.award(r.slug).catch((x: unknown) => x);
      expect(e).toMatchObject({ code: "award_pending" });
      expect((e as Error).message).toMatch(/has 1 transaction\(s\) sent but not mined.*nothing is sent/);
      expect(await pooledAwards(dc)).toEqual([]);
      await rpc(dc, "hardhat_dropTransaction", [other]);
    });
    const done = await r.platform.award(r.slug);
    expect(await awardedTxs(dc, r.bountyId, r.fromBlock)).toEqual([done.award_tx]);
    await r.platform.close();
  });

  it("killed after markSent with the transaction pending, then the transaction dropped: pending first, then sent anew with its nonce, one Awarded event, the mined transaction recorded", async () => {
    const dc = devChain();
    const r = await readyToAward(dc, 4, "pending-after", crashOnce("awardAfterSend"));
    let sent = "0x" as Hash;
    await withAutomine(dc, false, async () => {
      await expect(r.platform.award(r.slug)).rejects.toThrow(/injected crash at awardAfterSend/);
      await r.platform.close();
      const healed = await r.open();
      const row = (await healed.ctx.store.awards.get(r.slug))!;
      expect(row.status).toBe("sent");
      sent = row.award_tx as Hash;
      expect(await pooledAwards(dc)).toEqual([sent]);
      const door = await healed.awardEvidence(r.slug);
      expect(door).toMatchObject({ kind: "unavailable", reason: "award_pending" });
      // without a chain the store's sent award is pending too, never "not awarded yet" (probe14 D3-F9)
      const mirror = await r.offChain();
      expect(await mirror.awardEvidence(r.slug)).toMatchObject({
        kind: "unavailable",
        reason: "award_pending",
        message: expect.stringContaining(`an award transaction ${sent} was sent`),
      });
      await mirror.close();
      const t0 = Date.now();
      await expect(healed.award(r.slug)).rejects.toMatchObject({ code: "award_pending" });
      expect(Date.now() - t0).toBeLessThan(AWARD_WAIT_MS + 10_000); // bounded, not viem's 180 s
      expect(await pooledAwards(dc)).toEqual([sent]);
      await healed.close();
    });
    const nonce = (await dc.publicClient.getTransaction({ hash: sent })).nonce;
    await withAutomine(dc, false, async () => {
      expect(await rpc(dc, "hardhat_dropTransaction", [sent])).toBe(true);
    });
    // the node no longer knows it: dropped
    const again = await r.open();
    expect(await again.real.awardState(r.slug)).toMatchObject({ state: "dropped", tx_hash: sent });
    expect(await again.awardEvidence(r.slug)).toMatchObject({ kind: "unavailable", reason: "not_awarded" });
    // the wait for the dropped copy takes the call's whole deadline: it is forgotten, and the call is
    // refused before sending anew, nothing sent (probe16 A-F3: never a send past the deadline)
    await expect(again.award(r.slug)).rejects.toMatchObject({ code: "server_busy" });
    expect(await awardedTxs(dc, r.bountyId, r.fromBlock)).toEqual([]);
    const done = await again.award(r.slug);
    // sent anew with the dropped copy's nonce (the same call signed again: here even the same hash)
    const events = await awardedTxs(dc, r.bountyId, r.fromBlock);
    expect(events).toEqual([done.award_tx]); // one Awarded event, and it is the recorded transaction
    const resent = await dc.publicClient.getTransaction({ hash: done.award_tx as Hash });
    expect(resent.nonce).toBe(nonce); // the dropped copy's nonce is spent: it can never be mined
    expect(await bountyCredit(dc, r.bountyId, r.winner)).toBe(POOL);
    expect(await again.ctx.store.awards.get(r.slug)).toMatchObject({ award_tx: done.award_tx });
    await again.close();
  });

  it("a sent transaction that reverts: award reports the contract's reason, nothing is paid, the next award sends nothing", async () => {
    const dc = devChain();
    const r = await readyToAward(dc, 7, "reverted", crashOnce("awardAfterSend"));
    let sent = "0x" as Hash;
    await withAutomine(dc, false, async () => {
      await expect(r.platform.award(r.slug)).rejects.toThrow(/injected crash at awardAfterSend/);
      await r.platform.close();
      [sent] = (await pooledAwards(dc)) as [Hash];
      // the award deadline passes before the transaction is mined: it reverts on-chain
      await rpc(dc, "evm_setNextBlockTimestamp", [r.closesAt + 86_400 + 60]);
      await rpc(dc, "evm_mine");
    });
    expect((await dc.publicClient.getTransactionReceipt({ hash: sent })).status).toBe("reverted");
    const healed = await r.open();
    expect(await healed.real.awardState(r.slug)).toMatchObject({ state: "reverted", tx_hash: sent });
    const door = await healed.awardEvidence(r.slug);
    expect(door).toMatchObject({ kind: "unavailable", reason: "not_awarded" });
    expect((door as { message: string }).message).toContain(`${sent} reverted`);
    const e = await healed.award(r.slug).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: "chain_error" });
    expect((e as Error).message).toMatch(
      new RegExp(
        `the award transaction ${sent} reverted: AwardAfterDeadline\\(\\d+, \\d+\\); nothing was paid`,
      ),
    );
    expect((await healed.ctx.store.awards.get(r.slug))!.status).toBe("prepared"); // forgotten
    const before = await dc.publicClient.getBlockNumber();
    await expect(healed.award(r.slug)).rejects.toThrow(/award reverted: AwardAfterDeadline/); // by simulation
    expect(await dc.publicClient.getBlockNumber()).toBe(before); // nothing sent
    expect(await awardedTxs(dc, r.bountyId, r.fromBlock)).toEqual([]);
    expect(await bountyCredit(dc, r.bountyId, r.winner)).toBe(0n);
    await healed.close();
  });

  it("killed before the pack is minted, restarted on another public URL: the pack carries the prepared receipt URLs, so its ranking digest is the one on-chain", async () => {
    const dc = devChain();
    const r = await readyToAward(dc, 16, "moved", crashOnce("awardBeforeMint"));
    await expect(r.platform.award(r.slug)).rejects.toThrow(/injected crash at awardBeforeMint/);
    const prepared = (await r.platform.ctx.store.awards.get(r.slug))!;
    await r.platform.close();
    // serve without --public-url takes the address it listens on: a restart may be on another port
    const moved = await r.open({}, "http://127.0.0.1:9999");
    const done = await moved.award(r.slug);
    expect(done.ranking_digest).toBe(prepared.ranking_digest);
    const door = await moved.awardEvidence(r.slug);
    expect(door.kind).toBe("pack");
    const pack = JSON.parse(new TextDecoder().decode((door as { bytes: Uint8Array }).bytes));
    expect(pack.benchmark.ranking_digest).toBe(prepared.ranking_digest);
    const urls = pack.rank_derivation.rows.map((row: { receipt_url: string }) => row.receipt_url);
    expect(urls).toHaveLength(1);
    expect(urls[0]).toMatch(/^http:\/\/127\.0\.0\.1:8787\/api\/v1\/benchmarks\//);
    // the board of today links receipts at today's address
    const board = await moved.leaderboard(r.slug);
    expect(JSON.stringify(board)).toContain("http://127.0.0.1:9999/api/v1/benchmarks/");
    expect(await awardedTxs(dc, r.bountyId, r.fromBlock)).toEqual([done.award_tx]);
    await moved.close();
  });

  it("an award or a door request never waits on another award's lock past its bound (probe14 D3-F7)", async () => {
    const dc = devChain();
    const r = await readyToAward(dc, 1, "in-progress", crashOnce("awardBeforeMint"));
    const second = await r.open();
    let release!: () => void;
    const hold = (): Promise<void> => {
      let entered!: () => void;
      const inside = new Promise<void>((ok) => (entered = ok));
      void r.platform.ctx.store.withLock(awardLock(r.slug), async () => {
        entered();
        await new Promise<void>((done) => (release = done));
      });
      return inside;
    };
    // another award (another serve on the store) holds the lock: this one answers within its wait
    await hold();
    const busy = await second.award(r.slug).catch((x: unknown) => x);
    expect(busy).toMatchObject({ code: "award_in_progress", details: { slug: r.slug } });
    expect((busy as Error).message).toMatch(/another award of .* is in progress .* run award again/);
    expect(await pooledAwards(dc)).toEqual([]);
    expect(await awardedTxs(dc, r.bountyId, r.fromBlock)).toEqual([]);
    release();

    // confirmed, pack not minted (the crash); while an award holds the lock the door answers pack_pending
    await expect(r.platform.award(r.slug)).rejects.toThrow(/injected crash at awardBeforeMint/);
    await hold();
    expect(await second.awardEvidence(r.slug)).toMatchObject({ kind: "unavailable", reason: "pack_pending" });
    release();
    expect((await second.awardEvidence(r.slug)).kind).toBe("pack");
    expect((await awardedTxs(dc, r.bountyId, r.fromBlock)).length).toBe(1);
    await second.close();
    await r.platform.close();
  });
});
