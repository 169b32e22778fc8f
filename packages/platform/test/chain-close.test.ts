/**
 * probe33 A-F2: a benchmark bound to an on-chain bounty closes at the bounty's `closes_at` by the wall
 * clock OR the chain's clock, whichever reaches it first. The platform judged it by its own clock alone,
 * so with the chain ahead (a local node moved forward, a server clock behind Base's blocks) a run started
 * after the on-chain close was accepted, ranked and paid the whole pool. Here the chain is moved past
 * `closes_at` while the platform clock stays before it.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ChainGateway } from "../src/chain.js";
import { PlatformError } from "../src/errors.js";
import { runBenchmark } from "../src/runner.js";
import {
  cities,
  latestBlockTime,
  lockPrize,
  openOnChainClock,
  promptAgent,
  rejection,
  useDevChain,
} from "./helpers.js";

const devChain = useDevChain();

afterEach(() => {
  vi.restoreAllMocks();
});

/** A published benchmark with a prize closing `closesIn` seconds after the chain's clock. */
async function lockedBenchmark(accountIndex: number, tag: string, closesIn: number) {
  const dc = devChain();
  const { platform, chainNow, clock } = await openOnChainClock(dc, accountIndex);
  const ds = await platform.createDataset(cities(6, tag));
  const { slug } = await platform.publish(ds.dataset_id, {
    title: `Close ${tag}`,
    prompt_template: "What is the answer for {payload.city} #{payload.index}?",
    grader_type: "exact",
  });
  const { closesAt } = await lockPrize(platform, dc, slug, chainNow, {
    pool: 2_000_000n,
    author: accountIndex + 1,
    payoutRule: "winner_take_all",
    closesIn,
  });
  return { dc, platform, clock, slug, closesAt };
}

describe("the close by the chain's clock (probe33 A-F2)", () => {
  it("the chain past closes_at, the wall clock before it: closed to starts and answers, shown closed, the final board", async () => {
    const { dc, platform, clock, slug, closesAt } = await lockedBenchmark(1, "chain-ahead", 600);
    try {
      const started = await platform.startRun(slug, "early");
      await platform.submit(started.run.id, [
        { ordinal: started.tasks[0]!.ordinal, answer_text: promptAgent(started.tasks[0]!.prompt) },
      ]);
      expect((await platform.real.benchmarkDetail(slug)).open).toBe(true);
      await dc.increaseTime(700); // the chain's clock past closes_at
      expect(clock.now()).toBeLessThan(closesAt * 1000); // the platform's still before it
      clock.advance(6_000); // past the shared chain reads' 5 s (platform clock): a read sees the new block
      const detail = await platform.real.benchmarkDetail(slug);
      expect(detail).toMatchObject({ open: false, read_only: true, status: "published" });
      const listed = (await platform.real.benchmarkList()).rows.find((r) => r.item.slug === slug)!;
      expect(listed.item.open).toBe(false);
      expect(await platform.isOpen(slug)).toBe(false);
      // a new run is refused naming the close and both clocks
      const late = await rejection(platform.startRun(slug, "late"));
      expect(late.code).toBe("benchmark_closed");
      expect(late.message).toContain(`closes_at ${closesAt}`);
      expect(late.message).toContain("chain's clock");
      expect(late.details).toMatchObject({ slug, closes_at: closesAt, closed_by: "chain_clock" });
      expect(late.details.chain_time as number).toBeGreaterThanOrEqual(closesAt);
      expect(await platform.listRuns(slug, "late")).toEqual([]);
      // a run left in progress takes no more answers
      const answer = await rejection(
        platform.submit(started.run.id, [
          { ordinal: started.tasks[1]!.ordinal, answer_text: promptAgent(started.tasks[1]!.prompt) },
        ]),
      );
      expect(answer).toMatchObject({
        code: "benchmark_closed",
        details: { rule: "benchmark_closed", slug, closes_at: closesAt, closed_by: "chain_clock" },
      });
      // its finalize grades what it answered before the close, as after any close: credits revealed
      const f = await platform.finalize(started.run.id);
      expect(f.counts.answered).toBe(1);
      expect(f.rank_accuracy).toBeDefined();
      // the receipt: public credits; private ones null for good (receipts are served once closed, and the
      // award may never come: probe36 C-F2)
      const receiptTasks = (await platform.getRun(started.run.id)).receipt!.tasks;
      expect(receiptTasks.every((t) => (t.visibility === "private") === (t.credit === null))).toBe(true);
      // the leaderboard is the final one, the door no longer says the contest is live
      expect(await platform.leaderboard(slug)).toMatchObject({ board: "final" });
      const door = await platform.awardEvidence(slug);
      expect(door).toMatchObject({ kind: "unavailable", reason: "not_awarded" });
    } finally {
      await platform.close();
    }
  }, 120_000);

  it("a chain clock that goes back below closes_at after a read saw it past (a reorg, a lagging RPC node) reopens nothing (probe35 A-F2)", async () => {
    const { dc, platform, clock, slug, closesAt } = await lockedBenchmark(5, "chain-back", 600);
    try {
      const first = await platform.startRun(slug, "first");
      await platform.submit(first.run.id, [
        { ordinal: first.tasks[0]!.ordinal, answer_text: promptAgent(first.tasks[0]!.prompt) },
      ]);
      await platform.finalize(first.run.id);
      const second = await platform.startRun(slug, "second");
      // open: the private credits are withheld from everyone but the author, the board is live
      expect((await rejection(platform.real.taskScores(null, slug))).code).toBe("task_scores_withheld");
      expect(await platform.leaderboard(slug)).toMatchObject({ board: "public" });
      await dc.increaseTime(700); // the chain's clock past closes_at
      clock.advance(6_000); // past the shared chain reads' 5 s: a read sees the new block
      // a read judges it closed and reveals the private credits
      expect((await platform.real.taskScores(null, slug)).open).toBe(false);
      expect(await platform.leaderboard(slug)).toMatchObject({ board: "final" });
      // the chain's next block time goes back below closes_at (the crossing reorganised away, or the
      // next RPC node a block behind): a later answer or start is still refused, nothing stored
      vi.spyOn(ChainGateway.prototype, "pendingTimestamp").mockResolvedValue(BigInt(closesAt - 100));
      const answer = await rejection(
        platform.submit(second.run.id, [
          { ordinal: second.tasks[0]!.ordinal, answer_text: promptAgent(second.tasks[0]!.prompt) },
        ]),
      );
      expect(answer).toMatchObject({ code: "benchmark_closed", details: { closed_by: "chain_clock" } });
      expect(answer.details.chain_time as number).toBeGreaterThanOrEqual(closesAt);
      expect((await platform.runAnswers(second.run.id)).size).toBe(0);
      expect((await rejection(platform.startRun(slug, "late"))).code).toBe("benchmark_closed");
      expect(await platform.listRuns(slug, "late")).toEqual([]);
      // reads past the shared read's 5 s, served the lower block time, still say closed
      clock.advance(6_000);
      expect((await platform.real.benchmarkDetail(slug)).open).toBe(false);
      expect(await platform.leaderboard(slug)).toMatchObject({ board: "final" });
    } finally {
      await platform.close();
    }
  }, 120_000);

  // e36's note on probe36 A-F4: two processes with the chain on one store, this one's RPC lagging behind
  // the other's; the other saw the close (and revealed the private credits), so this one must take nothing
  it("a write takes the store's close mark another process with the chain raised past closes_at", async () => {
    const { platform, slug, closesAt } = await lockedBenchmark(7, "chain-mark", 600);
    try {
      const first = await platform.startRun(slug, "first");
      const store = platform.real.ctx.store;
      const chainId = platform.real.ctx.chain!.config.chainId;
      // a mark below closes_at closes nothing
      await store.anchors.raiseCloseChainTime(chainId, BigInt(closesAt - 100));
      await platform.submit(first.run.id, [
        { ordinal: first.tasks[0]!.ordinal, answer_text: promptAgent(first.tasks[0]!.prompt) },
      ]);
      // the other process's mark: its chain read a block past closes_at; this process's chain is before it
      await store.anchors.raiseCloseChainTime(chainId, BigInt(closesAt + 3));
      const answer = await rejection(
        platform.submit(first.run.id, [
          { ordinal: first.tasks[1]!.ordinal, answer_text: promptAgent(first.tasks[1]!.prompt) },
        ]),
      );
      expect(answer).toMatchObject({
        code: "benchmark_closed",
        details: { closed_by: "chain_clock", chain_time: closesAt + 3 },
      });
      expect((await platform.runAnswers(first.run.id)).size).toBe(1);
      expect((await rejection(platform.startRun(slug, "late"))).code).toBe("benchmark_closed");
      expect(await platform.listRuns(slug, "late")).toEqual([]);
    } finally {
      await platform.close();
    }
  }, 120_000);

  it("a start whose chain-clock read fails is refused chain_error naming the close, nothing stored", async () => {
    const { platform, slug, closesAt } = await lockedBenchmark(3, "chain-down", 600);
    try {
      const spy = vi
        .spyOn(ChainGateway.prototype, "pendingTimestamp")
        .mockRejectedValue(new PlatformError("chain_error", "read the pending block failed: down", {}));
      const e = await rejection(platform.startRun(slug, "blind"));
      expect(e.code).toBe("chain_error");
      expect(e.message).toContain(`closes_at ${closesAt}`);
      expect(e.details).toMatchObject({ slug, closes_at: closesAt });
      expect(await platform.listRuns(slug, "blind")).toEqual([]);
      spy.mockRestore();
      expect((await platform.startRun(slug, "blind")).run.attempt).toBe(1);
    } finally {
      await platform.close();
    }
  }, 120_000);
  // probe39 A-F1: the close was judged by the latest block's time; on an idle node (automine, a quiet chain)
  // that block is minutes old, so answers were taken and a run ranked after the award route (judging by
  // the next block's time, where an award lands) already called the contest closed. Last in this file:
  // it leaves the node idle past the close (a block is mined at its end).
  it("on an idle node, the next block past closes_at and the latest block before it: starts and answers refused, the finalize and the reads those of a closed benchmark", async () => {
    const { dc, platform, clock, slug, closesAt } = await lockedBenchmark(9, "chain-idle", 600);
    /** The node idle for `seconds`: its clock moves, no block is mined (the latest block grows old). */
    const idle = (seconds: number) =>
      dc.publicClient.request({ method: "evm_increaseTime" as never, params: [seconds] as never });
    const pendingTime = async () =>
      Number((await dc.publicClient.getBlock({ blockTag: "pending" })).timestamp);
    try {
      const started = await platform.startRun(slug, "early");
      await platform.submit(started.run.id, [
        { ordinal: started.tasks[0]!.ordinal, answer_text: promptAgent(started.tasks[0]!.prompt) },
      ]);
      // idle, the next block still before the close: a run and its answers are taken as before
      await idle(300);
      expect(await pendingTime()).toBeLessThan(closesAt);
      const second = await platform.startRun(slug, "second");
      await platform.submit(started.run.id, [
        { ordinal: started.tasks[1]!.ordinal, answer_text: promptAgent(started.tasks[1]!.prompt) },
      ]);
      expect((await platform.real.benchmarkDetail(slug)).open).toBe(true);
      // idle past the close: the next block (where an award sent now lands) is past closes_at, the latest
      // block (no block mined) and the platform's clock before it
      await idle(400);
      const next = await pendingTime();
      expect(next).toBeGreaterThanOrEqual(closesAt);
      expect(await latestBlockTime(dc)).toBeLessThan(closesAt);
      expect(clock.now()).toBeLessThan(closesAt * 1000);
      const late = await rejection(platform.startRun(slug, "late"));
      expect(late).toMatchObject({
        code: "benchmark_closed",
        details: { slug, closes_at: closesAt, closed_by: "chain_clock" },
      });
      expect(late.message).toContain("next block's time");
      expect(late.details.chain_time as number).toBeGreaterThanOrEqual(next);
      expect(await platform.listRuns(slug, "late")).toEqual([]);
      const answer = await rejection(
        platform.submit(started.run.id, [
          { ordinal: started.tasks[2]!.ordinal, answer_text: promptAgent(started.tasks[2]!.prompt) },
        ]),
      );
      expect(answer).toMatchObject({
        code: "benchmark_closed",
        details: { rule: "benchmark_closed", slug, closes_at: closesAt, closed_by: "chain_clock" },
      });
      expect((await platform.runAnswers(started.run.id)).size).toBe(2);
      expect(await latestBlockTime(dc)).toBeLessThan(closesAt); // still idle: nothing above mined a block
      // the finalize is a closed benchmark's: the answers before the close graded, public credits revealed
      const f = await platform.finalize(started.run.id);
      expect(f.counts.answered).toBe(2);
      expect(f.rank_accuracy).toBeDefined();
      const receiptTasks = (await platform.getRun(started.run.id)).receipt!.tasks;
      expect(receiptTasks.some((t) => t.visibility === "public" && t.credit !== null)).toBe(true);
      // the reads (past the shared reads' 5 s) say closed too
      clock.advance(6_000);
      expect((await platform.real.benchmarkDetail(slug)).open).toBe(false);
      expect(await platform.leaderboard(slug)).toMatchObject({ board: "final" });
      expect((await rejection(platform.submit(second.run.id, []))).code).toBe("benchmark_closed");
    } finally {
      await platform.close();
      await dc.mine(); // the node no longer idle for what comes after
    }
  }, 120_000);
  // probe39 A-F1, the prober's walk: a runner whose node goes idle past the close mid-run stops at the
  // refused submit and finalizes what it answered before (`closed`, the CLI's `closed_during_run`)
  it("a runner overtaken by the close on an idle node: the submit after it refused, the run finalized with the answers before it", async () => {
    const { dc, platform, clock, slug, closesAt } = await lockedBenchmark(11, "chain-idle-runner", 600);
    try {
      let asked = 0;
      let latestAtIdle = 0;
      const r = await runBenchmark(await platform.backend("runner"), slug, "runner", {
        kind: "function",
        name: "idling-agent",
        answer: async (task) => {
          // before the third answer the node idles past the close: no block mined
          if (asked++ === 2) {
            await dc.publicClient.request({ method: "evm_increaseTime" as never, params: [700] as never });
            latestAtIdle = await latestBlockTime(dc);
          }
          return promptAgent(task.prompt);
        },
      });
      // the refused submit came with the latest block before the close (the receipt's anchor mined one after)
      expect(latestAtIdle).toBeGreaterThan(0);
      expect(latestAtIdle).toBeLessThan(closesAt);
      expect(clock.now()).toBeLessThan(closesAt * 1000);
      expect(asked).toBe(3);
      expect(r.closed).toMatchObject({
        answered: 2,
        details: { rule: "benchmark_closed", closed_by: "chain_clock", closes_at: closesAt },
      });
      expect(r.finalized).toMatchObject({ status: "finalized", counts: { answered: 2 } });
      expect((await platform.runAnswers(r.run_id)).size).toBe(2);
    } finally {
      await platform.close();
      await dc.mine(); // the node no longer idle for what comes after
    }
  }, 120_000);
});
