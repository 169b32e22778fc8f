/**
 * probe35 C-F2: a stranger watching the mempool front-ran the platform's `anchor(receipt_hash, receipt)`
 * with `anchor(receipt_hash, pack)` (a higher tip, mined first in the same block): the registry keeps the
 * first anchoring, the receipt was recorded squatted, and the award was refused `anchor_squatted` for
 * good, so the honest winner lost the prize to one cheap transaction. A receipt anchored first with
 * another kind is now anchored evidence (SPEC 9 asks only that it be anchored by the award block): the
 * run says anchored, the award is paid, and the pack's `receipt_anchors` is verified, naming the squat.
 */
import { ANCHOR_KINDS, anchorRegistryAbi } from "@bench-bounty/contracts";
import type { DevChain } from "@bench-bounty/devchain";
import { verifyPack } from "@bench-bounty/verifier";
import { decodeFunctionData, encodeFunctionData, type Hash, type Hex } from "viem";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import type { ChainConfig } from "../src/chain.js";
import { runBenchmark } from "../src/runner.js";
import { anchorOf } from "../src/runs.js";
import {
  bountyCredit,
  chainClock,
  chainConfig,
  cities,
  freshStoreLocation,
  lockPrize,
  manualClock,
  openAt,
  useDevChain,
  type Harness,
} from "./helpers.js";

const devChain = useDevChain();

async function rpc(dc: DevChain, method: string, params: unknown[] = []): Promise<unknown> {
  return dc.publicClient.request({ method: method as never, params: params as never });
}

/**
 * Waits for the platform's anchor transaction in the node's pool (automine off), then sends, from dev
 * account 19, `anchor(digest, pack)` of its first digest with ten times its tip, and mines one block:
 * the stranger's transaction is mined first, the platform's reverts.
 */
async function frontRunNextAnchor(
  dc: DevChain,
): Promise<{ digest: Hex; platformTx: Hash; strangerTx: Hash }> {
  for (let i = 0; i < 600; i++) {
    const block = await dc.publicClient.getBlock({ blockTag: "pending", includeTransactions: true });
    const t = block.transactions.find(
      (x) => x.to?.toLowerCase() === dc.contracts.anchorRegistry.toLowerCase(),
    );
    if (t !== undefined) {
      const call = decodeFunctionData({ abi: anchorRegistryAbi, data: t.input });
      const digest = (call.functionName === "anchor" ? call.args[0] : (call.args[0] as Hex[])[0]) as Hex;
      const tip = (t.maxPriorityFeePerGas ?? t.gasPrice ?? 1_000_000_000n) * 10n;
      // sent as is (a simulation against the pending block would see the platform's anchor first)
      const strangerTx = await dc.wallet(19).sendTransaction({
        to: dc.contracts.anchorRegistry,
        data: encodeFunctionData({
          abi: anchorRegistryAbi,
          functionName: "anchor",
          args: [digest, ANCHOR_KINDS.pack],
        }),
        gas: 200_000n,
        maxPriorityFeePerGas: tip,
        maxFeePerGas: (t.maxFeePerGas ?? t.gasPrice ?? 0n) * 10n + tip,
      });
      await rpc(dc, "evm_mine");
      return { digest, platformTx: t.hash, strangerTx };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("no anchor transaction reached the pool");
}

/**
 * Publishes a 4-task cities benchmark, locks a 4 USDC winner-take-all prize on it (author: dev account 9)
 * and runs `alice` (every answer right; her withdrawal address dev account 10, `winner`).
 */
async function lockedWithAWinner(
  platform: Harness,
  dc: DevChain,
  chainNow: number,
  clock: ReturnType<typeof manualClock>,
  tag: string,
): Promise<{ slug: string; bounty: { bounty_id: string }; closesAt: number; winner: Hex }> {
  const ds = await platform.createDataset(cities(4, tag));
  const { slug } = await platform.publish(ds.dataset_id, {
    title: `Receipt squat ${tag}`,
    prompt_template: "What is the answer for {payload.city} #{payload.index}?",
    grader_type: "exact",
    time_budget_seconds: 600,
  });
  const { bounty, closesAt } = await lockPrize(platform, dc, slug, chainNow, {
    pool: 4_000_000n,
    author: 9,
    payoutRule: "winner_take_all",
  });
  const winner = dc.accounts[10]!.address.toLowerCase() as Hex;
  await platform.registerAgent("alice", { withdrawal_address: winner });
  await runBenchmark(await platform.backend("alice"), slug, "alice", {
    kind: "function",
    name: "right",
    answer: (task) => {
      clock.advance(1000);
      return `answer-${/#(\d+)/.exec(task.prompt)![1]}`;
    },
  });
  return { slug, bounty, closesAt, winner };
}

/** Runs `agentId` (a withdrawal address of its own) answering every task wrong; its run id. */
async function runWrong(
  platform: Harness,
  slug: string,
  agentId: string,
  clock: ReturnType<typeof manualClock>,
): Promise<string> {
  await platform.registerAgent(agentId, { withdrawal_address: "0x" + "11".repeat(20) });
  const done = await runBenchmark(await platform.backend(agentId), slug, agentId, {
    kind: "function",
    name: "wrong",
    answer: () => {
      clock.advance(1000);
      return "no idea";
    },
  });
  return done.finalized!.run_id;
}

/**
 * A store that batches receipt anchors (never flushed by itself) with alice's and bob's runs of a locked
 * benchmark finalized: their two receipt anchors pending.
 */
async function twoReceiptsPending(
  dc: DevChain,
  tag: string,
): Promise<{ platform: Harness; slug: string; pending: { digest: string }[] }> {
  const { now: chainNow, clock } = await chainClock(dc);
  const platform = await openAt({
    ...(await freshStoreLocation()),
    clock: clock.now,
    chain: chainConfig(dc, 8),
    anchorBatching: { flushMs: 3_600_000, revealWaitMs: 0 },
  });
  const { slug } = await lockedWithAWinner(platform, dc, chainNow, clock, tag);
  await runWrong(platform, slug, "bob", clock);
  const pending = (await platform.real.pendingAnchors(slug)).filter((a) => a.kind === "receipt");
  expect(pending.length).toBe(2);
  return { platform, slug, pending };
}

describe("a stranger front-runs a receipt's anchor with another kind (probe35 C-F2)", () => {
  it("the receipt is anchored by that anchoring, the award is paid, and receipt_anchors verifies naming the squat", async () => {
    const dc = devChain();
    const { now: chainNow, clock } = await chainClock(dc);
    const lines: string[] = [];
    const chain: ChainConfig = { ...chainConfig(dc, 8), log: (l) => lines.push(l) };
    const platform = await openAt({ ...(await freshStoreLocation()), clock: clock.now, chain });
    try {
      const { slug, bounty, closesAt, winner } = await lockedWithAWinner(platform, dc, chainNow, clock, "rs");
      // bob's receipt anchor is front-run from the pool
      await rpc(dc, "evm_setAutomine", [false]);
      let fr: Awaited<ReturnType<typeof frontRunNextAnchor>>;
      let bobRun: string;
      try {
        const watcher = frontRunNextAnchor(dc);
        const run = runWrong(platform, slug, "bob", clock);
        fr = await watcher;
        bobRun = await run;
      } finally {
        await rpc(dc, "evm_setAutomine", [true]);
      }
      const stranger = dc.accounts[19]!.address.toLowerCase();
      const mined = await dc.publicClient.waitForTransactionReceipt({ hash: fr.strangerTx });
      const reverted = await dc.publicClient.waitForTransactionReceipt({ hash: fr.platformTx });
      expect(reverted.blockNumber).toBe(mined.blockNumber);
      expect(reverted.transactionIndex).toBeGreaterThan(mined.transactionIndex);
      expect(reverted.status).toBe("reverted");
      expect(await platform.storedReceiptHash(bobRun)).toBe(fr.digest);

      // anchored by the stranger's anchoring: shown, not squatted
      const view = await platform.real.getRun(platform.op, bobRun);
      expect(view).toMatchObject({ receipt_hash: fr.digest, receipt_anchor_status: "anchored" });
      expect(await platform.real.squattedAnchors(slug)).toEqual([]);
      expect(lines.join("\n")).toContain(
        `receipt ${fr.digest} was anchored first by ${stranger} in block ${mined.blockNumber} with kind pack`,
      );

      await dc.increaseTime(3700);
      clock.set((closesAt + 200) * 1000);
      const done = await platform.award(slug);
      expect(done.award_tx).toMatch(/^0x/);
      expect(await bountyCredit(dc, bounty.bounty_id, winner)).toBe(4_000_000n);
      const door = await platform.awardEvidence(slug);
      expect(door.kind).toBe("pack");
      const bytes = (door as { bytes: Uint8Array }).bytes;
      const report = await verifyPack({ source: bytes, rpcUrl: dc.rpcUrl, policy: "onchain" });
      expect(report.facts.receipt_anchors.state).toBe("verified");
      expect(report.facts.receipt_anchors.reasons.join(" ")).toContain(
        `receipt ${fr.digest} anchored in block ${mined.blockNumber} with kind pack by ${stranger}`,
      );
      expect(Object.entries(report.facts).filter(([, f]) => f.state === "failed")).toEqual([]);
      expect(report.policy_met).toBe(true);
    } finally {
      await platform.close();
    }
  });
  it("a receipt squat a store recorded before is cleared (migration 0016) and the award adopts that anchoring", async () => {
    const dc = devChain();
    const { now: chainNow, clock } = await chainClock(dc);
    const where = await freshStoreLocation();
    const open = () =>
      openAt({
        ...where,
        clock: clock.now,
        chain: chainConfig(dc, 8),
        anchorBatching: { flushMs: 3_600_000, revealWaitMs: 0 },
      });
    let platform = await open();
    try {
      const { slug, bounty, closesAt, winner } = await lockedWithAWinner(
        platform,
        dc,
        chainNow,
        clock,
        "old",
      );
      await platform.real.flushAnchors(); // alice's receipt
      const run = await runWrong(platform, slug, "bob", clock);
      const hash = await platform.storedReceiptHash(run);
      // a stranger anchors bob's pending receipt first, with kind pack
      const tx = await dc.wallet(19).writeContract({
        address: dc.contracts.anchorRegistry,
        abi: anchorRegistryAbi,
        functionName: "anchor",
        args: [hash, ANCHOR_KINDS.pack],
      });
      const block = Number((await dc.publicClient.waitForTransactionReceipt({ hash: tx })).blockNumber);
      // what an older build recorded: the receipt squatted (pending, never sent again); 0016 not run
      const stranger = dc.accounts[19]!.address.toLowerCase() as Hex;
      await platform.ctx.store.anchors.markSquatted(hash, {
        kind: ANCHOR_KINDS.pack,
        kind_name: "pack",
        anchorer: stranger,
        anchor_block: block,
      });
      await sql`DELETE FROM kysely_migration WHERE name = '0016_receipt_squats_adopted'`.execute(
        platform.ctx.store.db,
      );
      await platform.close();
      platform = await open();
      expect(await platform.real.squattedAnchors(slug)).toEqual([]);
      await dc.increaseTime(3700);
      clock.set((closesAt + 200) * 1000);
      await platform.award(slug);
      expect(await bountyCredit(dc, bounty.bounty_id, winner)).toBe(4_000_000n);
      expect(await platform.real.getRun(platform.op, run)).toMatchObject({
        receipt_hash: hash,
        receipt_anchor_status: "anchored",
      });
      expect(await anchorOf(platform.ctx, hash)).toMatchObject({ tx_hash: tx, anchor_block: block });
    } finally {
      await platform.close();
    }
  });

  it("a batch's anchorMany front-run for one of its digests reverts: the gateway takes that one's anchoring and sends the rest again, never a bare 'reverted' (probe35 C-N1)", async () => {
    const dc = devChain();
    const { platform, slug, pending } = await twoReceiptsPending(dc, "batch");
    try {
      await rpc(dc, "evm_setAutomine", [false]);
      let fr: Awaited<ReturnType<typeof frontRunNextAnchor>>;
      let anchoring: Promise<unknown>;
      try {
        const watcher = frontRunNextAnchor(dc);
        anchoring = platform.real.anchorPendingReceipts(slug);
        fr = await watcher;
      } finally {
        await rpc(dc, "evm_setAutomine", [true]);
      }
      // the retry may have reached the pool before automine was back: mine until the anchoring answers
      let settled = false;
      const done = anchoring.then(
        (v) => ((settled = true), v),
        (e: unknown) => ((settled = true), e),
      );
      while (!settled) {
        await rpc(dc, "evm_mine");
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(await done).not.toBeInstanceOf(Error);
      expect((await dc.publicClient.getTransactionReceipt({ hash: fr.platformTx })).status).toBe("reverted");
      expect(await platform.real.pendingAnchors(slug)).toEqual([]);
      const evidence = await Promise.all(pending.map((a) => anchorOf(platform.ctx, a.digest)));
      const byStranger = evidence.filter((e) => e?.tx_hash === fr.strangerTx);
      const resent = evidence.filter((e) => e !== null && e.tx_hash !== fr.strangerTx);
      expect(byStranger.length).toBe(1);
      expect(resent.length).toBe(1);
      expect(resent[0]!.tx_hash).not.toBe(fr.platformTx);
    } finally {
      await platform.close();
    }
  });

  it("a stranger's anchoring still in the pool makes the send's gas estimate revert: the gateway waits for it, takes it and sends the rest, never 'reverted' (probe35 V-F3)", async () => {
    const dc = devChain();
    const { platform, slug, pending } = await twoReceiptsPending(dc, "pool");
    try {
      const squatted = pending[0]!.digest as Hex;
      await rpc(dc, "evm_setAutomine", [false]);
      let strangerTx: Hash;
      let anchoring: Promise<unknown>;
      try {
        // the stranger's anchoring waits in the pool, unmined, before the platform sends
        strangerTx = await dc.wallet(19).sendTransaction({
          to: dc.contracts.anchorRegistry,
          data: encodeFunctionData({
            abi: anchorRegistryAbi,
            functionName: "anchor",
            args: [squatted, ANCHOR_KINDS.pack],
          }),
          gas: 200_000n,
        });
        anchoring = platform.real.anchorPendingReceipts(slug).then(
          (v) => v,
          (e: unknown) => e,
        );
        // the platform's send is refused at its gas estimate; the stranger's is mined a moment later
        await new Promise((r) => setTimeout(r, 1_500));
        await rpc(dc, "evm_mine");
      } finally {
        await rpc(dc, "evm_setAutomine", [true]);
      }
      const result = await anchoring;
      expect(result).not.toBeInstanceOf(Error);
      expect(await platform.real.pendingAnchors(slug)).toEqual([]);
      expect(await anchorOf(platform.ctx, squatted)).toMatchObject({ tx_hash: strangerTx });
      const other = await anchorOf(platform.ctx, pending[1]!.digest as Hex);
      expect(other).not.toBeNull();
      expect(other!.tx_hash).not.toBe(strangerTx);
    } finally {
      await platform.close();
    }
  });
});
