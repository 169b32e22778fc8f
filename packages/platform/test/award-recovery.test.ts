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
import { startLossyRpcProxy, type LossyRpcProxy } from "@bench-bounty/devchain/stubs";
import type { Hash, Hex } from "viem";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { verifyPack } from "@bench-bounty/verifier";
import type { FaultHooks } from "../src/context.js";
import type { PlatformError } from "../src/errors.js";
import { awardLock } from "../src/award/state.js";
import { AWARD_ANSWER_GRACE_MS } from "../src/award.js";
import { DOOR_WAIT_MS } from "../src/award/door.js";
import { STOP_CHECK_MS, type ChainConfig } from "../src/chain.js";
import { delayingProxy } from "./rpc-proxy.js";
import {
  chainClock,
  chainConfig,
  crashOnce,
  freshStoreLocation,
  bountyCredit,
  holdLockInChild,
  awardedTxs,
  openAt,
  publishLockAndRun,
  useDevChain,
} from "./helpers.js";

const devChain = useDevChain();
const POOL = 4_000_000n;
/**
 * How long `award` waits for its transaction before answering pending (short: the tests wait on purpose;
 * 1,500 ms was too short on a loaded machine once the award read every ranked anchor on-chain before its
 * send, probe30 C-F10: "not ready to send by its deadline").
 */
const AWARD_WAIT_MS = 4000;

const rpc = (dc: DevChain, method: string, params: unknown[] = []) =>
  dc.publicClient.request({ method: method as never, params: params as never });

/** Where the store lives, so a "restarted" platform opens the same one. */
/**
 * A benchmark ready to award: published (anchored), a pool locked by its author, one agent (with a
 * withdrawal address) run and finalized, the chain clock past the close. The platform signs as
 * `account` (each test its own, so their nonces never mix).
 */
async function readyToAward(
  dc: DevChain,
  account: number,
  tag: string,
  faults: FaultHooks,
  rpcUrl?: string,
  log?: (line: string) => void,
) {
  const { now: chainNow, clock } = await chainClock(dc);
  const where = await freshStoreLocation();
  const chain: ChainConfig = {
    ...chainConfig(dc, account),
    awardWaitMs: AWARD_WAIT_MS,
    ...(rpcUrl ? { rpcUrl } : {}),
    ...(log ? { log } : {}),
  };
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
  return { platform, open, offChain, where, slug, bountyId, winner, fromBlock, closesAt, clock };
}

/**
 * The awarder key (account 4) awards `bountyId` outside the platform to `winners` with ranking digest
 * `digest`, and waits for it to be mined.
 */
async function awardOutside(
  dc: DevChain,
  bountyId: bigint,
  winners: readonly string[],
  digest: Hex,
): Promise<{ tx: Hash; blockNumber: bigint }> {
  const tx = await dc.wallet(4).writeContract({
    address: dc.contracts.benchmarkBounty,
    abi: benchmarkBountyAbi,
    functionName: "award",
    args: [bountyId, winners as Hex[], digest],
  });
  const mined = await dc.publicClient.waitForTransactionReceipt({ hash: tx });
  return { tx, blockNumber: mined.blockNumber };
}

/** The platform account's anchor calls (to the AnchorRegistry) waiting in the node's pool. */
async function pooledAnchors(dc: DevChain): Promise<Hash[]> {
  const block = await dc.publicClient.getBlock({ blockTag: "pending", includeTransactions: true });
  return block.transactions
    .filter((t) => t.to?.toLowerCase() === dc.contracts.anchorRegistry.toLowerCase())
    .map((t) => t.hash);
}

/** The platform account's award calls waiting in the node's pool. */
async function pooledAwards(dc: DevChain): Promise<Hash[]> {
  const block = await dc.publicClient.getBlock({ blockTag: "pending", includeTransactions: true });
  return block.transactions
    .filter((t) => t.to?.toLowerCase() === dc.contracts.benchmarkBounty.toLowerCase())
    .map((t) => t.hash);
}

/** Sets the ETH balance (wei) of `address` on the devchain. */
async function setBalance(dc: DevChain, address: string, wei: bigint): Promise<void> {
  await rpc(dc, "hardhat_setBalance", [address, `0x${wei.toString(16)}`]);
}

async function withAutomine<T>(dc: DevChain, on: boolean, fn: () => Promise<T>): Promise<T> {
  await rpc(dc, "evm_setAutomine", [on]);
  try {
    return await fn();
  } finally {
    await rpc(dc, "evm_setAutomine", [true]);
  }
}

/** The send whose answer a lossy proxy loses. */
const SEND = "eth_sendRawTransaction";

/** Runs `fn` on an award made ready ({@link readyToAward}) behind a lossy RPC proxy (none lost until `fn` says so), then closes both. */
async function behindLosingProxy(
  seed: number,
  label: string,
  fn: (
    r: Awaited<ReturnType<typeof readyToAward>>,
    proxy: LossyRpcProxy,
    dc: ReturnType<typeof devChain>,
  ) => Promise<void>,
): Promise<void> {
  const dc = devChain();
  const proxy = await startLossyRpcProxy(dc.rpcUrl);
  try {
    const r = await readyToAward(dc, seed, label, {}, proxy.url);
    await fn(r, proxy, dc);
    await r.platform.close();
  } finally {
    await proxy.close();
  }
}

describe("award whose send answer is lost (probe16 B-F12)", () => {
  it("the node got it, its answer was lost: award looks for it by its hash and adopts it, one Awarded event", async () => {
    await behindLosingProxy(10, "lost-answer", async (r, proxy, dc) => {
      proxy.rules.lose = [SEND];
      const done = await r.platform.award(r.slug);
      expect(await awardedTxs(dc, r.bountyId, r.fromBlock)).toEqual([done.award_tx]);
      expect(await bountyCredit(dc, r.bountyId, r.winner)).toBe(POOL);
    });
  });

  it("the RPC answers the forwarded send with a JSON-RPC error object (-32000 connection reset): award looks it up by its hash and adopts it, confirmed, the log says adopted, never 'award failed' (probe39 B-F4)", async () => {
    const dc = devChain();
    const proxy = await startLossyRpcProxy(dc.rpcUrl);
    const logged: string[] = [];
    try {
      const r = await readyToAward(dc, 15, "error-object", {}, proxy.url, (line) => logged.push(line));
      proxy.rules.errorOn = [SEND];
      const done = await r.platform.award(r.slug);
      expect(proxy.lost()).toBeGreaterThan(0); // the award, and the pack's anchor after it
      expect(await awardedTxs(dc, r.bountyId, r.fromBlock)).toEqual([done.award_tx]);
      expect(await bountyCredit(dc, r.bountyId, r.winner)).toBe(POOL);
      const line = logged.find((l) => l.includes(done.award_tx));
      expect(line).toMatch(
        /award: the answer to its send was lost \(.*-32000 "connection reset"\); transaction 0x[0-9a-f]{64} found (mined|pending): adopted/,
      );
      expect(logged.join("\n")).not.toContain("award failed");
      await r.platform.close();
    } finally {
      await proxy.close();
    }
  });

  it("the RPC went away right after the send: award answers award_pending naming the transaction; a rerun adopts it", async () => {
    await behindLosingProxy(13, "lost-and-down", async (r, proxy, dc) => {
      Object.assign(proxy.rules, { lose: [SEND], downAfterLoss: true });
      const e = await r.platform.award(r.slug).catch((x: unknown) => x);
      // answered as an award under way (its transaction recorded as sent), not a bare failure
      expect(e).toMatchObject({ code: "award_pending" });
      const [sent] = await awardedTxs(dc, r.bountyId, r.fromBlock);
      expect(sent).toBeDefined();
      expect((e as PlatformError).details.tx_hash).toBe(sent);
      expect((e as Error).message).toContain(`transaction ${sent}`);
      expect((e as Error).message).toMatch(/run award again .*adopts the transaction/);
      // why it answers now: the RPC failed (probe32 A-F3), not a deadline
      expect((e as Error).message).toContain("the chain RPC failed after the send:");
      proxy.reset();
      const done = await r.platform.award(r.slug);
      expect(done.award_tx).toBe(sent);
      expect(await awardedTxs(dc, r.bountyId, r.fromBlock)).toEqual([sent]);
    });
  });

  it("the RPC answers no receipt for the mined award: award_pending names the RPC's failure, never a deadline that did not pass; a rerun adopts it (probe32 A-F3)", async () => {
    await behindLosingProxy(11, "receiptless", async (r, proxy, dc) => {
      proxy.rules.blindAfterSend = true;
      const e = await r.platform.award(r.slug).catch((x: unknown) => x);
      expect(e).toMatchObject({ code: "award_pending", details: { call: "wait for award" } });
      const [sent] = await awardedTxs(dc, r.bountyId, r.fromBlock);
      expect((e as PlatformError).details.tx_hash).toBe(sent);
      const message = (e as Error).message;
      expect(message).toContain(`transaction ${sent}`);
      expect(message).toContain("the chain RPC failed after the send: wait for award failed:");
      expect(message).toMatch(/receipt .*could not be found/i);
      expect(message).not.toContain("did not answer in time");
      proxy.reset();
      const done = await r.platform.award(r.slug);
      expect(done.award_tx).toBe(sent);
      expect(await awardedTxs(dc, r.bountyId, r.fromBlock)).toEqual([sent]);
    });
  });

  it("the bounty awarded between the simulation and the gas estimate: the contract's refusal, never award_pending; a rerun adopts the award (probe19 A-F9)", async () => {
    await behindLosingProxy(10, "awarded-meanwhile", async (r, proxy, dc) => {
      // another process sends this very award (the same signer, winners and digest) and it is mined
      // after this call's simulation, before its gas estimate (as the probe's CLI beside serve)
      let raced: Hash | undefined;
      proxy.rules.before = async (call) => {
        if (raced !== undefined || call.method !== "eth_estimateGas") return;
        const tx = call.params[0] as { to?: Hex; data?: Hex; input?: Hex };
        if (tx.to?.toLowerCase() !== dc.contracts.benchmarkBounty.toLowerCase()) return;
        raced = await dc.wallet(10).sendTransaction({ to: tx.to, data: tx.data ?? tx.input! });
        await dc.publicClient.waitForTransactionReceipt({ hash: raced });
      };
      const e = await r.platform.award(r.slug).catch((x: unknown) => x);
      expect(raced).toBeDefined();
      // the contract's answer (not a failure of the RPC, not "its transaction is being sent")
      expect(e).toMatchObject({ code: "chain_error" });
      expect((e as Error).message).toBe("award reverted: BountyNotFunded");
      expect((e as PlatformError).details.call).toBeUndefined();
      expect(await awardedTxs(dc, r.bountyId, r.fromBlock)).toEqual([raced]); // this call sent nothing
      proxy.rules.before = undefined;
      const done = await r.platform.award(r.slug);
      expect(done.award_tx).toBe(raced);
    });
  });
});

describe("the platform account's nonce taken by another process sharing its key (probe29 C-F11)", () => {
  it("the node refuses the award's nonce: answered server_busy naming the cause and that nothing was sent, never award_pending; a rerun awards once", async () => {
    await behindLosingProxy(14, "nonce-taken", async (r, proxy, dc) => {
      // another process signing with the same key (outside this store: its lock cannot order it) sends
      // a transaction of that nonce, mined, between this award's nonce read and its send
      let taken: Hash | undefined;
      proxy.rules.before = async (call) => {
        if (taken !== undefined || call.method !== "eth_sendRawTransaction") return;
        const me = dc.accounts[14]!.address;
        taken = await dc.wallet(14).sendTransaction({ to: me, value: 0n });
        await dc.publicClient.waitForTransactionReceipt({ hash: taken });
      };
      const e = await r.platform.award(r.slug).catch((x: unknown) => x);
      expect(taken, `the award's send was reached: ${String(e)}`).toBeDefined();
      expect(e).toMatchObject({
        code: "server_busy",
        details: { reason: "nonce_taken", address: dc.accounts[14]!.address.toLowerCase() },
      });
      expect((e as Error).message).toMatch(
        /^award was not sent: the node refused its nonce \(nonce too low\): the platform account 0x[0-9a-f]{40}'s nonce was taken by another transaction .*nothing was sent: run it again$/,
      );
      expect(await awardedTxs(dc, r.bountyId, r.fromBlock)).toEqual([]); // nothing sent
      proxy.rules.before = undefined;
      const done = await r.platform.award(r.slug);
      expect(await awardedTxs(dc, r.bountyId, r.fromBlock)).toEqual([done.award_tx]);
      expect(await bountyCredit(dc, r.bountyId, r.winner)).toBe(POOL);
    });
  });
  it("two platforms on one store with one key send at the same moment: their sends take the store's lock in turn, every one mined with its own nonce", async () => {
    const dc = devChain();
    const where = await freshStoreLocation();
    const { clock } = await chainClock(dc);
    // two processes' gateways (each with its own turns of writes) signing with the same key (account 19)
    const a = await openAt({ ...where, clock: clock.now, chain: chainConfig(dc, 19) });
    const other = await openAt({ ...where, clock: clock.now, chain: chainConfig(dc, 19) });
    try {
      const digests = Array.from(
        { length: 8 },
        (_, i) => `0x${(0xabc00000 + i).toString(16).padStart(64, "0")}` as Hex,
      );
      const sent = await Promise.allSettled(
        digests.map((d, i) => (i % 2 === 0 ? a : other).real.ctx.chain!.anchor(d, "receipt")),
      );
      const refused = sent.filter((x) => x.status === "rejected").map((x) => String(x.reason));
      expect(refused).toEqual([]);
      const txs = sent.map((x) => (x as PromiseFulfilledResult<{ tx_hash: string }>).value.tx_hash as Hash);
      const nonces = await Promise.all(
        txs.map(async (hash) => (await dc.publicClient.getTransaction({ hash })).nonce),
      );
      expect(new Set(nonces).size).toBe(8);
    } finally {
      await a.close();
      await other.close();
    }
  });
});

// probe32 A-F6: a store whose test set did not rebuild the committed root (decimal gold crossing the dataset
// worker) answered every award with a bare 500 `internal_error`
describe("a store whose test set no longer rebuilds the committed root (probe32 A-F6)", () => {
  it("award is refused award_not_allowed (pack_unmintable, the JSON path), nothing sent", async () => {
    const dc = devChain();
    const r = await readyToAward(dc, 12, "unmintable", {});
    // one task's gold changed behind the commitment: its leaf no longer hashes to the committed one
    await sql`UPDATE tasks SET gold_json = ${'{"value":"changed"}'} WHERE slug = ${r.slug} AND ordinal = 0`.execute(
      r.platform.ctx.store.db,
    );
    await r.platform.close();
    const again = await r.open(); // the test set read afresh (a process's tasks are cached)
    const e = (await again.award(r.slug).catch((x: unknown) => x)) as PlatformError;
    expect(e).toMatchObject({ code: "award_not_allowed", details: { reason: "pack_unmintable" } });
    expect(e.message).toMatch(
      /^the award's evidence pack cannot be minted from this store: .*; the award is not sent/,
    );
    expect(typeof e.details.path).toBe("string");
    expect(await awardedTxs(dc, r.bountyId, r.fromBlock)).toEqual([]);
    expect(await pooledAwards(dc)).toEqual([]);
    await again.close();
  });
});

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

  it("killed with the award pending; mined after the restart while the pack's anchor is pending: the door says the award is confirmed and its pack being minted, never 'the chain answered too slowly' (probe28 C-F9)", async () => {
    const dc = devChain();
    const r = await readyToAward(dc, 17, "door-reached", crashOnce("awardAfterSend"));
    await withAutomine(dc, false, async () => {
      await expect(r.platform.award(r.slug)).rejects.toThrow(/injected crash at awardAfterSend/);
      await r.platform.close();
      const healed = await r.open();
      const sent = (await healed.ctx.store.awards.get(r.slug))!.award_tx as Hash;
      await rpc(dc, "evm_mine"); // the award is mined; the pack's anchor, sent by the door, will wait
      const door = await healed.awardEvidence(r.slug);
      expect(door).toMatchObject({
        kind: "unavailable",
        reason: "pack_pending",
        message: `the award is confirmed (transaction ${sent}); its pack is being minted: ask again in a moment`,
      });
      expect((await healed.ctx.store.awards.get(r.slug))!.status).toBe("confirmed");
      await rpc(dc, "evm_mine"); // the pack's anchor is mined
      await healed.close();
    });
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
      // the wait is told as it begins, with the transaction found (probe32 C-F3: the CLI printed nothing)
      const waits: [string, boolean, number][] = [];
      const onWaiting = (tx: string, adopted: boolean, until: number) => waits.push([tx, adopted, until]);
      await expect(healed.award(r.slug, { onWaiting })).rejects.toMatchObject({ code: "award_pending" });
      expect(Date.now() - t0).toBeLessThan(AWARD_WAIT_MS + 10_000); // bounded, not viem's 180 s
      expect(waits).toEqual([[sent, true, expect.any(Number)]]);
      expect(waits[0]![2]).toBeGreaterThan(t0);
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
    // the dropped copy is not waited for (the node says it does not know it): it is forgotten and the
    // same call sends anew, well within its deadline (probe26 C-F9: it waited the whole deadline, then
    // answered server_busy "the chain answered too slowly", and only the next call sent)
    const t0 = Date.now();
    const told: [string, boolean, string][] = [];
    const letGo: string[] = [];
    const done = await again.award(r.slug, {
      onWaiting: (tx, adopted, _until, what) => told.push([tx, adopted, what]),
      onLetGo: (tx) => letGo.push(tx),
    });
    expect(Date.now() - t0).toBeLessThan(AWARD_WAIT_MS);
    // the dropped copy was looked for (adopted), then the new send waited for (probe32 C-F3), then the
    // pack's anchor (probe33 C-F1)
    expect(told).toEqual([
      [sent, true, "award"],
      [done.award_tx, false, "award"],
      [done.pack_anchor!.tx_hash, false, "pack_anchor"],
    ]);
    // the dropped copy's letting go is told before the new send (probe40 C-N1: the log showed two award
    // transactions, each "never sent twice")
    expect(letGo).toEqual([sent]);
    // sent anew with the dropped copy's nonce (the same call signed again: here even the same hash)
    const events = await awardedTxs(dc, r.bountyId, r.fromBlock);
    expect(events).toEqual([done.award_tx]); // one Awarded event, and it is the recorded transaction
    const resent = await dc.publicClient.getTransaction({ hash: done.award_tx as Hash });
    expect(resent.nonce).toBe(nonce); // the dropped copy's nonce is spent: it can never be mined
    expect(await bountyCredit(dc, r.bountyId, r.winner)).toBe(POOL);
    expect(await again.ctx.store.awards.get(r.slug)).toMatchObject({ award_tx: done.award_tx });
    await again.close();
  });

  it("a sent transaction that reverts past the deadline: award and door say the reason and that no award can be sent any more (probe28 C-F5), nothing is paid, the next award sends nothing", async () => {
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
    expect((door as { message: string }).message).toMatch(
      new RegExp(
        `^the award transaction ${sent} reverted: nothing was paid, and no award can be sent any more: the award deadline \\d+ has passed`,
      ),
    );
    expect((door as { message: string }).message).not.toMatch(/next award/);
    const e = await healed.award(r.slug).catch((x: unknown) => x);
    // the window is closed: a refusal (409), not a chain failure, and never "run award again"
    expect(e).toMatchObject({
      code: "award_not_allowed",
      details: {
        tx_hash: sent,
        revert: expect.stringMatching(/^AwardAfterDeadline/),
        award_deadline: expect.any(Number),
      },
    });
    expect((e as Error).message).toMatch(
      new RegExp(
        `the award transaction ${sent} reverted: AwardAfterDeadline\\(\\d+, \\d+\\); nothing was paid, and no award can be sent any more: the award deadline \\d+ has passed`,
      ),
    );
    expect((e as Error).message).not.toMatch(/run award again/);
    expect((await healed.ctx.store.awards.get(r.slug))!.status).toBe("prepared"); // forgotten
    const before = await dc.publicClient.getBlockNumber();
    // the chain's clock is past the award deadline: refused before anything is sent (probe26 C-F4)
    await expect(healed.award(r.slug)).rejects.toMatchObject({
      code: "award_not_allowed",
      message: expect.stringMatching(/the award deadline \d+ has passed/),
    });
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
    // the places as mined, with their amounts, for a relayed claim's no_credit reason (probe29 C-F4); any case
    expect(await moved.real.awardedPlaces(r.slug, r.winner.toUpperCase().replace("0X", "0x"))).toEqual([
      { place: 1, amount_base_units: POOL.toString() },
    ]);
    expect(await moved.real.awardedPlaces(r.slug, "0x00000000000000000000000000000000000a11ce")).toEqual([]);
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
    // another process holds the award's lock (the CLI's award beside a serve, probe19 A-F9: on SQLite
    // the lock held only within the process, and both took the award's steps): this one answers
    // award_in_progress within its wait, nothing sent
    const cli = await holdLockInChild(r.where, awardLock(r.slug));
    const beside = await second.award(r.slug).catch((x: unknown) => x);
    expect(beside).toMatchObject({ code: "award_in_progress", details: { slug: r.slug } });
    expect(await pooledAwards(dc)).toEqual([]);
    await cli.release();
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
    // a store opened without a chain cannot mint it, and never says it is being minted (probe25 B-F6)
    const chainless = await r.offChain();
    const told = await chainless.awardEvidence(r.slug);
    expect(told).toMatchObject({ kind: "unavailable", reason: "pack_pending" });
    expect((told as { message: string }).message).toBe(
      `the award is confirmed and its pack is not minted yet: a process with the chain and the platform account's key mints it (a running serve, or award ${r.slug})`,
    );
    await chainless.close();
    await hold();
    expect(await second.awardEvidence(r.slug)).toMatchObject({ kind: "unavailable", reason: "pack_pending" });
    release();
    // the lock let go: the door mints and serves the pack (a door answer is bounded by DOOR_WAIT_MS, so on
    // a loaded machine the mint may outlast one answer, pack_pending, and be served by the next)
    let door = await second.awardEvidence(r.slug);
    for (let ask = 1; ask < 3 && door.kind !== "pack"; ask++) {
      expect(door).toMatchObject({ kind: "unavailable", reason: "pack_pending" });
      door = await second.awardEvidence(r.slug);
    }
    expect(door.kind).toBe("pack");
    expect((await awardedTxs(dc, r.bountyId, r.fromBlock)).length).toBe(1);
    await second.close();
    await r.platform.close();
  });
});

// probe33 C-F1/C-F2/C-F3: the pack's anchor (sent by the award, or by a call killed while it waited) was
// waited for with viem's default 180 s, past the call's deadline, in silence, and its end was answered as a
// failure of "the chain RPC" (CLI award), as `award_pending` "under way" for a mined, paid award (the
// deadline's answer), and held the CLI's `evidence` for 3 minutes after it answered
describe("the pack's anchor left pending in the node's pool (probe33 C-F1, C-F2, C-F3)", () => {
  it("award waits for it by its deadline, says what it waits for and answers pack_pending naming it (the award paid, never award_pending nor 'the chain RPC'); the next calls adopt it by their own deadlines", async () => {
    const dc = devChain();
    const logged: string[] = [];
    const r = await readyToAward(dc, 5, "anchor-pending", {}, undefined, (line) => logged.push(line));
    let pending = "0x" as Hash; // the pack's anchor transaction left in the pool
    await withAutomine(dc, false, async () => {
      const waits: [string, boolean, number, string][] = [];
      const t0 = Date.now();
      const e = await r.platform
        .award(r.slug, {
          onWaiting: (tx, adopted, until, what) => {
            waits.push([tx, adopted, until, what]);
            // the first wait is the award's: it is mined; the pack's anchor, sent next, will wait
            if (waits.length === 1) void rpc(dc, "evm_mine");
          },
        })
        .catch((x: unknown) => x);
      const took = Date.now() - t0;
      const [awardTx] = await awardedTxs(dc, r.bountyId, r.fromBlock);
      [pending] = (await pooledAnchors(dc)) as [Hash];
      // the award is mined and recorded: pack_pending naming both transactions, never "the chain RPC"
      // failed, never award_pending "under way"
      expect(e).toMatchObject({
        code: "pack_pending",
        details: { slug: r.slug, award_tx: awardTx, awarded: true, tx_hash: pending },
      });
      expect((e as Error).message).toMatch(
        new RegExp(
          `^the award of ${r.slug} is confirmed \\(transaction ${awardTx}, block \\d+\\): the prize is paid; its evidence pack is not minted yet: its anchor transaction ${pending} \\(sent\\) is not mined yet`,
        ),
      );
      expect((e as Error).message).not.toMatch(/chain RPC|did not answer in time/);
      expect(logged.filter((l) => /chain RPC/.test(l))).toEqual([]);
      expect(await pooledAnchors(dc)).toEqual([pending]);
      expect(took).toBeLessThan(AWARD_WAIT_MS + AWARD_ANSWER_GRACE_MS + 1_000);
      // told what it waits for: the award, then the pack's anchor, both by the call's one deadline
      expect(waits).toEqual([
        [awardTx, false, expect.any(Number), "award"],
        [pending, false, waits[0]![2], "pack_anchor"],
      ]);
      expect(waits[0]![2]).toBeLessThan(t0 + AWARD_WAIT_MS + 100);
      expect((await r.platform.ctx.store.awards.get(r.slug))!.status).toBe("confirmed");
      const closing = Date.now();
      await r.platform.close(); // its work ended with its answer: nothing left to wait for
      expect(Date.now() - closing).toBeLessThan(2_000);

      // the next call (the first one killed while it waited) adopts the pending anchor, says so, and
      // answers by its own deadline; a second call beside it (the CLI beside serve) too, never past it
      const next = await r.open();
      const beside = await r.open();
      // which of the two takes the award lock first is the race's (CI41: `beside` did, on PostgreSQL)
      const calls = [next, beside].map((p) => {
        const told: [string, boolean, string][] = [];
        const answer = p
          .award(r.slug, { onWaiting: (tx, adopted, _until, what) => told.push([tx, adopted, what]) })
          .catch((x: unknown) => x);
        return { told, answer };
      });
      const t1 = Date.now();
      const answers = await Promise.all(calls.map((c) => c.answer));
      expect(Date.now() - t1).toBeLessThan(AWARD_WAIT_MS + AWARD_ANSWER_GRACE_MS + 1_000);
      for (const a of answers)
        expect((a as PlatformError).code).toMatch(/^(award_in_progress|pack_pending)$/);
      // the one that took the lock was told it adopts the pending anchor, and answered naming it
      const adopter = calls.findIndex((c) => c.told.length > 0);
      expect(adopter).toBeGreaterThanOrEqual(0);
      for (const c of calls)
        expect(c.told).toEqual(c.told.length === 0 ? [] : [[pending, true, "pack_anchor"]]);
      const again = answers[adopter];
      expect(again).toMatchObject({ code: "pack_pending", details: { award_tx: awardTx, tx_hash: pending } });
      expect((again as Error).message).toContain(
        `its anchor transaction ${pending} (sent before, found waiting in the node's pool) is not mined yet`,
      );
      expect(await pooledAnchors(dc)).toEqual([pending]); // never sent twice
      await beside.close();
      await next.close();
      expect(logged.filter((l) => /chain RPC/.test(l))).toEqual([]);
      await rpc(dc, "evm_mine"); // the anchor is mined
    });
    // once mined, the next award stores the pack with that anchor: nothing was sent twice
    const healed = await r.open();
    const done = await healed.award(r.slug);
    expect(done.pack_anchor?.tx_hash).toBe(pending);
    expect(await awardedTxs(dc, r.bountyId, r.fromBlock)).toEqual([done.award_tx]);
    expect((await healed.awardEvidence(r.slug)).kind).toBe("pack");
    await healed.close();
  });

  it("the deadline passing while a confirmed award's pack is minted: pack_pending naming the award (the prize paid), never award_pending 'under way'", async () => {
    const dc = devChain();
    let slow = true;
    const r = await readyToAward(dc, 5, "pack-late", {
      // the pack's minting outlasts the call's deadline (a large pack, a slow store)
      packBeforeAnchor: () =>
        slow ? new Promise((ok) => setTimeout(ok, AWARD_WAIT_MS + AWARD_ANSWER_GRACE_MS + 500)) : undefined,
    });
    const e = await r.platform.award(r.slug).catch((x: unknown) => x);
    const [awardTx] = await awardedTxs(dc, r.bountyId, r.fromBlock);
    expect(e).toMatchObject({
      code: "pack_pending",
      details: { slug: r.slug, award_tx: awardTx, award_block: expect.any(Number), awarded: true },
    });
    expect((e as Error).message).toMatch(
      new RegExp(
        `^the award of ${r.slug} is confirmed \\(transaction ${awardTx}, block \\d+\\): the prize is paid; its evidence pack is not minted yet: it was still being minted at this call's deadline`,
      ),
    );
    expect((e as Error).message).not.toMatch(/under way|did not answer in time/);
    slow = false;
    await r.platform.close(); // the late mint ends (and stores the pack)
    const again = await r.open();
    const done = await again.award(r.slug);
    expect(done.award_tx).toBe(awardTx);
    expect(await awardedTxs(dc, r.bountyId, r.fromBlock)).toEqual([awardTx]);
    await again.close();
  });

  it("the door's mint waits for the anchor by the door's deadline and ends with the process: nothing reads the chain after close (the CLI's evidence exited 3 minutes after its answer)", async () => {
    const dc = devChain();
    // every request the platform makes goes through the proxy: counted (what runs after a close)
    const proxy = await startLossyRpcProxy(dc.rpcUrl);
    let requests = 0;
    proxy.rules.before = () => {
      requests++;
      return Promise.resolve();
    };
    try {
      const r = await readyToAward(dc, 5, "door-anchor", crashOnce("awardBeforeMint"), proxy.url);
      // confirmed, its pack not minted (the process died)
      await expect(r.platform.award(r.slug)).rejects.toThrow(/injected crash at awardBeforeMint/);
      await r.platform.close();
      const [awardTx] = await awardedTxs(dc, r.bountyId, r.fromBlock);
      await withAutomine(dc, false, async () => {
        const door = await r.open();
        const t0 = Date.now();
        // the door mints the pack and sends its anchor, which stays in the pool
        expect(await door.awardEvidence(r.slug)).toMatchObject({
          kind: "unavailable",
          reason: "pack_pending",
          message: expect.stringContaining(`the award is confirmed (transaction ${awardTx})`),
        });
        expect(Date.now() - t0).toBeLessThan(DOOR_WAIT_MS + 1_500);
        const [anchorTx] = (await pooledAnchors(dc)) as [Hash];
        expect(anchorTx).toBeDefined();
        const closing = Date.now();
        await door.close(); // stops the mint left running (its anchor wait) and waits for it
        expect(Date.now() - closing).toBeLessThan(STOP_CHECK_MS + 1_500);
        const after = requests;
        await new Promise((ok) => setTimeout(ok, 5_000)); // past viem's 4 s polling of a receipt
        expect(requests).toBe(after);
        // the next read adopts the pending anchor (never sends it again) and answers by its deadline
        const reread = await r.open();
        const t1 = Date.now();
        expect(await reread.awardEvidence(r.slug)).toMatchObject({
          kind: "unavailable",
          reason: "pack_pending",
        });
        expect(Date.now() - t1).toBeLessThan(DOOR_WAIT_MS + 1_500);
        await reread.close();
        expect(await pooledAnchors(dc)).toEqual([anchorTx]);
        await rpc(dc, "evm_mine"); // the anchor is mined
      });
      const served = await r.open();
      expect((await served.awardEvidence(r.slug)).kind).toBe("pack");
      await served.close();
    } finally {
      await proxy.close();
    }
  });
});

// probe21 A-F11: the award pays the addresses frozen at preparation, but the pack read today's: a winner's
// address changed in between was paid the old one on-chain and named the new one in the pack (never verifies)
describe("a winner's withdrawal address changed under an award (probe21 A-F11)", () => {
  it("while the award is prepared or sent, not confirmed: the change is refused award_in_progress, nothing written", async () => {
    const dc = devChain();
    const r = await readyToAward(dc, 16, "addr-inflight", crashOnce("awardBeforeMarkSent"));
    await expect(r.platform.award(r.slug)).rejects.toThrow(/injected crash at awardBeforeMarkSent/);
    expect((await r.platform.ctx.store.awards.get(r.slug))!.status).toBe("prepared");
    const alice = await r.platform.principal("alice");
    const other = dc.accounts[19]!.address.toLowerCase();
    for (const change of [
      () => r.platform.real.setWithdrawalAddress(alice, "alice", other),
      () => r.platform.real.setAccountWithdrawalAddress(alice, other),
      () => r.platform.real.registerAgent(alice, "alice", { withdrawal_address: other }),
    ])
      expect(await change().catch((x: unknown) => x)).toMatchObject({
        code: "award_in_progress",
        details: { reason: "award_in_flight", slug: r.slug, agent_id: "alice", withdrawal_address: r.winner },
      });
    expect((await r.platform.ctx.store.agents.get("alice"))!.withdrawal_address).toBe(r.winner);
    // the same address again is no change: allowed
    await r.platform.real.setWithdrawalAddress(alice, "alice", r.winner);
    const done = await r.platform.award(r.slug);
    expect(done.winners.map((w) => w.withdrawal_address)).toEqual([r.winner]);
    // confirmed: the credit is the old address's on-chain; a change now is for later awards
    await r.platform.real.setWithdrawalAddress(alice, "alice", other);
    expect(await bountyCredit(dc, r.bountyId, r.winner)).toBe(POOL);
    await r.platform.close();
  });

  // probe24 C-F1: the lock held for good once the award could never be sent (prize reclaimed, awarded
  // elsewhere, the award deadline passed unsent); the chain says when it can still pay
  it("prepared, nothing sent (the platform account has no ETH): locked while it can be sent; past the award deadline, and once reclaimed, the change is allowed (probe24 C-F1)", async () => {
    const dc = devChain();
    const r = await readyToAward(dc, 7, "addr-noeth", {});
    const account = dc.accounts[7]!.address;
    await setBalance(dc, account, 0n);
    try {
      const e = await r.platform.award(r.slug).catch((x: unknown) => x);
      expect(e).toMatchObject({ code: "chain_error" });
      expect((e as Error).message).toMatch(/holds no ETH.*nothing was sent/);
      expect((await r.platform.ctx.store.awards.get(r.slug))!.status).toBe("prepared");
      const alice = await r.platform.principal("alice");
      const other = dc.accounts[19]!.address.toLowerCase();
      const third = dc.accounts[14]!.address.toLowerCase();
      // the bounty Funded, within its award deadline: the next award pays the frozen address
      expect(
        await r.platform.real.setWithdrawalAddress(alice, "alice", other).catch((x: unknown) => x),
      ).toMatchObject({
        code: "award_in_progress",
        details: { reason: "award_in_flight", slug: r.slug, withdrawal_address: r.winner },
      });
      expect((await r.platform.ctx.store.agents.get("alice"))!.withdrawal_address).toBe(r.winner);
      // past the award deadline the contract refuses any award: it can never be sent
      await dc.increaseTime(86_400 + 60);
      await r.platform.real.setWithdrawalAddress(alice, "alice", other);
      expect((await r.platform.ctx.store.agents.get("alice"))!.withdrawal_address).toBe(other);
      // the author reclaims: final on-chain, every way of changing the address is allowed
      await dc.wallet(8).writeContract({
        address: dc.contracts.benchmarkBounty,
        abi: benchmarkBountyAbi,
        functionName: "reclaim",
        args: [r.bountyId, dc.accounts[8]!.address],
      });
      await r.platform.real.setAccountWithdrawalAddress(alice, third);
      await r.platform.real.registerAgent(alice, "alice", { withdrawal_address: other });
      expect((await r.platform.ctx.store.agents.get("alice"))!.withdrawal_address).toBe(other);
      expect(await awardedTxs(dc, r.bountyId, r.fromBlock)).toEqual([]);
    } finally {
      await setBalance(dc, account, 10n ** 22n);
      await r.platform.close();
    }
  });

  // probe37 C-F2: the door's reason was `not_awarded` while the chain said Awarded
  it("prepared here, then the bounty awarded on-chain with another ranking digest: the change is allowed; the door answers 404 awarded_elsewhere naming the award's transaction and both digests (probe24 C-F1, C-F3, probe37 C-F2)", async () => {
    const dc = devChain();
    const r = await readyToAward(dc, 4, "addr-elsewhere", {});
    const account = dc.accounts[4]!.address;
    await setBalance(dc, account, 0n);
    await expect(r.platform.award(r.slug)).rejects.toThrow(/nothing was sent/);
    await setBalance(dc, account, 10n ** 22n);
    expect((await r.platform.ctx.store.awards.get(r.slug))!.status).toBe("prepared");
    const alice = await r.platform.principal("alice");
    const other = dc.accounts[19]!.address.toLowerCase();
    await expect(r.platform.real.setWithdrawalAddress(alice, "alice", other)).rejects.toMatchObject({
      code: "award_in_progress",
    });
    // the awarder key awards elsewhere (another digest): this store's award can never be sent
    const elsewhere = `0x${"ab".repeat(32)}` as Hex;
    const { tx, blockNumber } = await awardOutside(dc, r.bountyId, [dc.accounts[17]!.address], elsewhere);
    await r.platform.real.setWithdrawalAddress(alice, "alice", other);
    expect((await r.platform.ctx.store.agents.get("alice"))!.withdrawal_address).toBe(other);
    // the door: a 404 reason of its own, awarded (never `not_awarded`), not a 409 (C-F3); the
    // operator's award keeps its bounty_mismatch
    const prepared = (await r.platform.ctx.store.awards.get(r.slug))!.ranking_digest.toLowerCase();
    const door = await r.platform.awardEvidence(r.slug);
    expect(door).toEqual({
      kind: "unavailable",
      reason: "awarded_elsewhere",
      message: expect.stringMatching(/another ranking digest.*no pack/),
      details: {
        bounty_id: r.bountyId.toString(),
        award_tx: tx,
        award_block: Number(blockNumber),
        awarded_ranking_digest: elsewhere,
        prepared_ranking_digest: prepared,
      },
    });
    expect(await r.platform.real.awardEvidenceHead(r.slug)).toMatchObject({ reason: "awarded_elsewhere" });
    await expect(r.platform.award(r.slug)).rejects.toMatchObject({ code: "bounty_mismatch" });
    await r.platform.close();
  });

  // probe36 C-F4: the ranking digest does not cover the winners' addresses; a log with the prepared digest
  // that paid another address was adopted, and a pack naming the frozen address minted and anchored
  it("prepared here, then the bounty awarded outside the platform with the prepared digest to another address: award answers bounty_mismatch naming the log's winner, the door awarded_elsewhere, nothing minted, anchored or recorded (probe36 C-F4, probe37 C-F2)", async () => {
    const dc = devChain();
    const r = await readyToAward(dc, 4, "same-digest-elsewhere", {});
    const account = dc.accounts[4]!.address;
    await setBalance(dc, account, 0n);
    await expect(r.platform.award(r.slug)).rejects.toThrow(/nothing was sent/);
    await setBalance(dc, account, 10n ** 22n);
    const prepared = (await r.platform.ctx.store.awards.get(r.slug))!;
    expect(prepared.status).toBe("prepared");
    // the awarder key, outside the platform: the prepared ranking digest, another winner
    const other = dc.accounts[17]!.address.toLowerCase();
    const { tx } = await awardOutside(dc, r.bountyId, [other], prepared.ranking_digest as Hex);
    const nonce = await dc.publicClient.getTransactionCount({ address: account });
    // the door, first (it adopted and minted by itself): not this store's award
    const door = await r.platform.awardEvidence(r.slug);
    expect(door).toMatchObject({
      kind: "unavailable",
      reason: "awarded_elsewhere",
      details: {
        award_tx: tx,
        awarded_ranking_digest: prepared.ranking_digest.toLowerCase(),
        prepared_ranking_digest: prepared.ranking_digest.toLowerCase(),
      },
    });
    expect((door as { message: string }).message).toContain(other);
    expect((door as { message: string }).message).toMatch(/other payments.*no pack/);
    expect(await r.platform.real.awardEvidenceHead(r.slug)).toMatchObject({ reason: "awarded_elsewhere" });
    // the operator's award: 409 bounty_mismatch naming the log's winner and its transaction
    const e = (await r.platform.award(r.slug).catch((x: unknown) => x)) as PlatformError;
    expect(e).toMatchObject({
      code: "bounty_mismatch",
      details: {
        award_tx: tx,
        awarded_winners: [{ account: other }],
        ranking_digest: prepared.ranking_digest,
      },
    });
    expect(e.message).toContain(other);
    expect(e.message).toContain(tx);
    expect(e.message).toContain(r.winner.toLowerCase());
    // nothing advanced, minted, stored or sent (no pack anchor)
    const after = (await r.platform.ctx.store.awards.get(r.slug))!;
    expect(after).toMatchObject({ status: "prepared", award_tx: null });
    expect(await r.platform.ctx.store.packs.get(r.slug)).toBeFalsy();
    expect(await dc.publicClient.getTransactionCount({ address: account })).toBe(nonce);
    // this award can never pay: the winner's address is free again
    const alice = await r.platform.principal("alice");
    await r.platform.real.setWithdrawalAddress(alice, "alice", dc.accounts[19]!.address.toLowerCase());
    await r.platform.close();
  });

  // probe37 C-F2: a bounty Awarded on-chain with no award prepared in this store was answered `not_awarded`
  it("no award prepared here, the bounty awarded on-chain by the awarder key: the door answers awarded_elsewhere, never not_awarded (probe37 C-F2)", async () => {
    const dc = devChain();
    const r = await readyToAward(dc, 4, "none-prepared-elsewhere", {});
    await awardOutside(dc, r.bountyId, [r.winner], `0x${"cd".repeat(32)}`);
    expect(await r.platform.ctx.store.awards.get(r.slug)).toBeFalsy();
    const door = await r.platform.awardEvidence(r.slug);
    expect(door).toMatchObject({
      kind: "unavailable",
      reason: "awarded_elsewhere",
      message: expect.stringMatching(/is Awarded on-chain, but this store prepared no award/),
      details: { bounty_id: r.bountyId.toString(), prepared_ranking_digest: null },
    });
    await r.platform.close();
  });

  // probe39 C-F1: with the chain RPC too slow for the door's deadline, the recorded `funded` was taken for
  // the chain's status: `not_awarded` "closed but not awarded yet" (or, the wall clock lagging the chain's,
  // `withheld_live_contest` "live until") for a bounty Awarded on-chain
  it("no award prepared here, the bounty awarded on-chain, then a chain RPC slower than the door's deadline: bounty_status_unknown with retry_after_seconds, never not_awarded nor withheld_live_contest; the chain answering again, awarded_elsewhere (probe39 C-F1)", async () => {
    const dc = devChain();
    const proxy = await delayingProxy(dc.rpcUrl, dc.contracts.benchmarkBounty);
    try {
      const r = await readyToAward(dc, 4, "elsewhere-slow-rpc", {}, proxy.url);
      await awardOutside(dc, r.bountyId, [r.winner], `0x${"ce".repeat(32)}`);
      expect(await r.platform.ctx.store.awards.get(r.slug)).toBeFalsy();
      const unknown = {
        kind: "unavailable",
        reason: "bounty_status_unknown",
        message: expect.stringMatching(/could not be read from the chain just now.*ask again in a moment/),
        details: { bounty_id: r.bountyId.toString(), retry_after_seconds: 5 },
      };
      // the bounty's read (an eth_call) answers past the door's deadline; past the close by both clocks
      proxy.delay.byMethod.eth_call = DOOR_WAIT_MS + 3000;
      r.clock.advance(60_000); // no earlier read of the bounty reused
      let started = Date.now();
      expect(await r.platform.awardEvidence(r.slug)).toEqual(unknown);
      expect(Date.now() - started).toBeLessThan(DOOR_WAIT_MS + 2500);
      // the wall clock lagging the chain's (before closes_at) and every RPC call slow: not "live until"
      // (the first slow read ended first, and is not reused: an answer from the clock's future)
      await new Promise((ok) => setTimeout(ok, 4000));
      proxy.delay.ms = DOOR_WAIT_MS + 3000;
      r.clock.set((r.closesAt - 600) * 1000);
      started = Date.now();
      expect(await r.platform.awardEvidence(r.slug)).toEqual(unknown);
      expect(Date.now() - started).toBeLessThan(DOOR_WAIT_MS + 2500);
      // the chain answering in time again: the truth, Awarded elsewhere
      proxy.delay.ms = 0;
      proxy.delay.byMethod = {};
      r.clock.set((r.closesAt + 600) * 1000);
      await new Promise((ok) => setTimeout(ok, 4000)); // the slow reads in flight end
      r.clock.advance(60_000);
      expect(await r.platform.awardEvidence(r.slug)).toMatchObject({
        kind: "unavailable",
        reason: "awarded_elsewhere",
        details: { bounty_id: r.bountyId.toString(), prepared_ranking_digest: null },
      });
      await r.platform.close();
    } finally {
      await proxy.close();
    }
  });

  it("changed after the award is confirmed but before its pack is minted: the pack names the address paid, and verifies", async () => {
    const dc = devChain();
    const r = await readyToAward(dc, 1, "addr-mint", crashOnce("awardBeforeMint"));
    await expect(r.platform.award(r.slug)).rejects.toThrow(/injected crash at awardBeforeMint/);
    expect((await r.platform.ctx.store.awards.get(r.slug))!.status).toBe("confirmed");
    const other = dc.accounts[19]!.address.toLowerCase();
    await r.platform.real.setWithdrawalAddress(await r.platform.principal("alice"), "alice", other);
    await r.platform.award(r.slug);
    const door = await r.platform.awardEvidence(r.slug);
    if (door.kind !== "pack") throw new Error(`no pack: ${door.reason}`);
    const pack = JSON.parse(new TextDecoder().decode(door.bytes));
    expect(pack.winners.map((w: { withdrawal_address: string }) => w.withdrawal_address)).toEqual([r.winner]);
    expect(await bountyCredit(dc, r.bountyId, r.winner)).toBe(POOL);
    const report = await verifyPack({ source: door.bytes, rpcUrl: dc.rpcUrl, policy: "onchain" });
    expect(Object.entries(report.facts).filter(([, f]) => f.state === "failed")).toEqual([]);
    expect(report.policy_met).toBe(true);
    await r.platform.close();
  });

  it("an award confirmed whose pack cannot be anchored answers pack_pending with the award's transaction, never 'nothing was sent' (probe26 C-F11)", async () => {
    const dc = devChain();
    const r = await readyToAward(dc, 17, "pack-unpaid", crashOnce("awardBeforeMint"));
    // the award is sent and confirmed, then the process dies before the pack
    await expect(r.platform.award(r.slug)).rejects.toThrow(/injected crash at awardBeforeMint/);
    const [tx] = await awardedTxs(dc, r.bountyId, r.fromBlock);
    expect(tx).toBeDefined();
    // the platform account cannot pay for the pack's anchor: the rerun mints nothing, and says the prize is paid
    const operator = dc.accounts[17]!.address;
    await setBalance(dc, operator, 0n);
    try {
      const e = await r.platform.award(r.slug).catch((x: unknown) => x);
      expect(e).toMatchObject({
        code: "pack_pending",
        details: { slug: r.slug, award_tx: tx, awarded: true, cause: { code: "chain_error" } },
      });
      expect((e as Error).message).toMatch(
        /is confirmed \(transaction 0x[0-9a-f]{64}, block \d+\): the prize is paid/,
      );
      expect((e as Error).message).toMatch(/holds no ETH/);
    } finally {
      await setBalance(dc, operator, 10n ** 22n);
    }
    // once the account can pay, the same call mints the pack; the award was sent once
    const done = await r.platform.award(r.slug);
    expect(done.award_tx).toBe(tx);
    expect(done.pack_anchor).not.toBeNull();
    expect(await awardedTxs(dc, r.bountyId, r.fromBlock)).toEqual([tx]);
    await r.platform.close();
  });
});
