/**
 * Reorgs shallower than the store's confirmation depth never leave a published pack that fails the
 * default verifier's on-chain policy (probe30 C-F8, C-F10; `evm_snapshot` / `evm_revert` drop the
 * blocks after the snapshot, the transactions in them gone):
 * - C-F10: the commitment's and a ranked receipt's anchors dropped after the store recorded them: the
 *   award reads the AnchorRegistry before it is sent and anchors them again, so the pack verifies;
 * - C-F8: with `awardConfirmations` 3, the pack is stored only once its anchor has 3 confirmations
 *   (until then `pack_pending`, the door too); a reorg that drops the anchor before then gets it sent
 *   anew, and the pack stored then verifies.
 * On SQLite and PostgreSQL.
 */
import type { DevChain } from "@bench-bounty/devchain";
import { verifyPack } from "@bench-bounty/verifier";
import type { Hex } from "viem";
import { describe, expect, it } from "vitest";
import { anchorRegistryAbi } from "@bench-bounty/contracts";
import { citiesDataset } from "../src/testing.js";
import { runBenchmark } from "../src/runner.js";
import { chainClock, chainConfig, freshStoreLocation, lockPrize, openAt, useDevChain } from "./helpers.js";

const devChain = useDevChain();

/** `anchorOf(digest)` block on the devchain's registry (0: not anchored). */
async function anchorBlock(dc: DevChain, digest: Hex): Promise<bigint> {
  const [, block] = await dc.publicClient.readContract({
    address: dc.contracts.anchorRegistry,
    abi: anchorRegistryAbi,
    functionName: "anchorOf",
    args: [digest],
  });
  return BigInt(block);
}

/** The failed facts of the pack's on-chain verification, and whether the on-chain policy is met. */
async function verdict(
  dc: DevChain,
  bytes: Uint8Array,
): Promise<{ failed: [string, unknown][]; met: boolean }> {
  const report = await verifyPack({ source: bytes, rpcUrl: dc.rpcUrl, policy: "onchain" });
  return {
    failed: Object.entries(report.facts).filter(([, f]) => f.state === "failed"),
    met: report.policy_met,
  };
}

/** A published benchmark with a prize, its platform on account `account`, `awardConfirmations` set when given. */
async function published(dc: DevChain, account: number, tag: string, awardConfirmations?: number) {
  const { now, clock } = await chainClock(dc);
  const h = await openAt({
    ...(await freshStoreLocation()),
    chain: { ...chainConfig(dc, account), ...(awardConfirmations ? { awardConfirmations } : {}) },
    clock: () => clock.now(),
  });
  const ds = await h.createDataset(citiesDataset(4, tag));
  const beforePublish = await dc.snapshot();
  const { slug } = await h.publish(ds.dataset_id, {
    title: `Reorg ${tag}`,
    prompt_template: "What is the answer for {payload.city} #{payload.index}?",
    grader_type: "exact",
    time_budget_seconds: 600,
  });
  return { h, clock, now, slug, beforePublish };
}

/** Runs agent alice on `slug` with every answer right, its withdrawal address `winner`. */
async function runAlice(h: Awaited<ReturnType<typeof published>>, winner: Hex): Promise<Hex> {
  await h.h.registerAgent("alice", { withdrawal_address: winner });
  await runBenchmark(await h.h.backend("alice"), h.slug, "alice", {
    kind: "function",
    name: "right",
    answer: (task) => {
      h.clock.advance(1000);
      return `answer-${/#(\d+)/.exec(task.prompt)![1]}`;
    },
  });
  const [run] = await h.h.listRuns(h.slug);
  return h.h.storedReceiptHash(run!.run_id);
}

describe("anchors a reorg dropped (probe30 C-F10, C-F8)", () => {
  it("the commitment's and a ranked receipt's anchors dropped by a 1-block reorg are anchored again before the award is sent: the pack passes the on-chain policy", async () => {
    const dc = devChain();
    const p = await published(dc, 1, "reorg-anchors");
    const root = await p.h.storedCommitRoot(p.slug);
    expect(await anchorBlock(dc, root)).toBeGreaterThan(0n);
    await dc.revert(p.beforePublish); // the commitment's anchor dropped; the store says anchored
    expect(await anchorBlock(dc, root)).toBe(0n);
    const { closesAt } = await lockPrize(p.h, dc, p.slug, p.now, {
      pool: 4_000_000n,
      author: 2,
      payoutRule: "winner_take_all",
    });
    const beforeRun = await dc.snapshot();
    const receipt = await runAlice(p, dc.accounts[3]!.address.toLowerCase() as Hex);
    expect(await anchorBlock(dc, receipt)).toBeGreaterThan(0n);
    await dc.revert(beforeRun); // the receipt's anchor dropped too
    expect(await anchorBlock(dc, receipt)).toBe(0n);
    await dc.increaseTime(3700);
    p.clock.set((closesAt + 200) * 1000);
    const done = await p.h.award(p.slug);
    // anchored again, before the award's block
    for (const d of [root, receipt]) {
      const block = await anchorBlock(dc, d);
      expect(block, d).toBeGreaterThan(0n);
      expect(block, d).toBeLessThan(BigInt(done.award_block));
    }
    const door = await p.h.awardEvidence(p.slug);
    expect(door.kind).toBe("pack");
    expect(await verdict(dc, (door as { bytes: Uint8Array }).bytes)).toEqual({ failed: [], met: true });
    await p.h.close();
  });

  it("with awardConfirmations 3 the pack is stored only once its anchor has 3 confirmations (pack_pending before, the door too); a 1-block reorg dropping the anchor gets it sent anew, and the pack verifies", async () => {
    const dc = devChain();
    const p = await published(dc, 5, "reorg-pack", 3);
    const { closesAt } = await lockPrize(p.h, dc, p.slug, p.now, {
      pool: 4_000_000n,
      author: 6,
      payoutRule: "winner_take_all",
    });
    await runAlice(p, dc.accounts[7]!.address.toLowerCase() as Hex);
    await dc.increaseTime(3700);
    p.clock.set((closesAt + 200) * 1000);
    await expect(p.h.award(p.slug)).rejects.toMatchObject({ code: "award_pending" });
    await dc.mine(2);
    const beforeAnchor = await dc.snapshot();
    // the award is recorded (3 confirmations); the pack's anchor is mined with 1 of 3: nothing stored
    await expect(p.h.award(p.slug)).rejects.toMatchObject({
      code: "pack_pending",
      details: { confirmations: 1, confirmations_required: 3, awarded: true },
    });
    expect(await p.h.ctx.store.packs.get(p.slug)).toBeFalsy();
    expect(await p.h.awardEvidence(p.slug)).toMatchObject({ kind: "unavailable", reason: "pack_pending" });
    await dc.revert(beforeAnchor); // the pack's anchor dropped
    await dc.mine(4);
    await expect(p.h.award(p.slug)).rejects.toMatchObject({
      code: "pack_pending",
      details: { confirmations: 1 },
    });
    await dc.mine(2);
    const done = await p.h.award(p.slug);
    expect(done.pack_anchor).not.toBeNull();
    const door = await p.h.awardEvidence(p.slug);
    expect(door.kind).toBe("pack");
    expect(await verdict(dc, (door as { bytes: Uint8Array }).bytes)).toEqual({ failed: [], met: true });
    await p.h.close();
  });
});
