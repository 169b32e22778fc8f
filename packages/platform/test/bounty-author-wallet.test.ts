/**
 * probe34 C-F1: an agent of a second account whose withdrawal address is the bounty's on-chain author
 * (the wallet that locked the prize) pays the author: SPEC 7.2 "author agents rank but take no money".
 * The run start refuses it, setting that address on an agent with runs there is refused, and the award
 * ranks such an agent's rows as author agents (a bounty attached after the runs).
 */
import { parseEvidencePack } from "@bench-bounty/evidence";
import { verifyPack } from "@bench-bounty/verifier";
import { describe, expect, it } from "vitest";
import { runBenchmark, type AgentSpec } from "../src/runner.js";
import { chainClock, chainConfig, cities, lockPrize, openTemp, useDevChain } from "./helpers.js";

const devChain = useDevChain();

/** An in-process agent: `ms` of the manual clock per task, wrong on the run's first `wrong` tasks. */
function agent(clock: { advance: (ms: number) => void }, ms: number, wrong = 0): AgentSpec {
  return {
    kind: "function",
    name: `agent-${ms}-${wrong}`,
    answer: (task) => {
      clock.advance(ms);
      return task.ordinal < wrong ? "wrong" : `answer-${/#(\d+)/.exec(task.prompt)![1]}`;
    },
  };
}

describe("the bounty author's wallet takes no prize through another account's agent (probe34 C-F1)", () => {
  it("a start is refused, the address is refused on an agent with runs there, and the award ranks such rows as author agents", async () => {
    const dc = devChain();
    const { now, clock } = await chainClock(dc);
    const platform = await openTemp({ clock: clock.now, chain: chainConfig(dc, 0) });
    try {
      const ds = await platform.createDataset(cities(10, "author-wallet"));
      const { slug } = await platform.publish(ds.dataset_id, {
        title: "Author wallet",
        prompt_template: "What is the answer for {payload.city} #{payload.index}?",
        grader_type: "exact",
        time_budget_seconds: 600,
        max_attempts: 2,
      });
      const authorWallet = dc.accounts[1]!.address.toLowerCase();
      // before any bounty: "sunny" (its own account) pays the future author's wallet and runs best
      await platform.registerAgent("sunny", { withdrawal_address: authorWallet });
      await platform.registerAgent("cloudy", { withdrawal_address: dc.accounts[2]!.address });
      await runBenchmark(await platform.backend("sunny"), slug, "sunny", agent(clock, 100));
      await runBenchmark(await platform.backend("cloudy"), slug, "cloudy", agent(clock, 500, 1));
      // the prize is locked by that wallet (threshold 0, winner takes all)
      const { closesAt } = await lockPrize(platform, dc, slug, now, {
        pool: 3_000_000n,
        author: 1,
        thresholdBps: 0,
        payoutRule: "winner_take_all",
      });

      // (1) a new start of sunny is refused, naming the field and the reason
      await expect(platform.startRun(slug, "sunny")).rejects.toMatchObject({
        code: "invalid_withdrawal_address",
        details: { field: "withdrawal_address", reason: "bounty_author", agent_id: "sunny" },
      });
      // so is a third account's new agent given that address, and it is left unregistered
      await platform.registerAgent("rainy", { withdrawal_address: authorWallet });
      await expect(platform.startRun(slug, "rainy")).rejects.toMatchObject({
        code: "invalid_withdrawal_address",
        details: { reason: "bounty_author", agent_id: "rainy" },
      });
      // (1b) the author's wallet cannot be set on an agent that has runs on the author's prize benchmark
      await expect(
        platform.registerAgent("cloudy", { withdrawal_address: authorWallet }),
      ).rejects.toMatchObject({
        code: "invalid_withdrawal_address",
        details: { field: "withdrawal_address", reason: "bounty_author", agent_id: "cloudy", slug },
      });
      expect((await platform.getAgent("cloudy"))!.withdrawal_address).toBe(
        dc.accounts[2]!.address.toLowerCase(),
      );

      // (2) the award: sunny ranks first as an author agent and takes nothing; cloudy is paid
      await dc.increaseTime(3700);
      clock.set((closesAt + 200) * 1000);
      const result = await platform.award(slug);
      expect(result.winners.map((w) => [w.agent_id, w.withdrawal_address])).toEqual([
        ["cloudy", dc.accounts[2]!.address.toLowerCase()],
      ]);
      const stored = await platform.awardEvidence(slug);
      if (stored.kind !== "pack") throw new Error(`no pack: ${stored.reason}`);
      const pack = parseEvidencePack(stored.bytes);
      expect(pack.benchmark.author).toBe(authorWallet);
      expect(pack.rank_derivation.rows.map((r) => [r.agent_id, r.is_author_agent])).toEqual([
        ["sunny", true],
        ["cloudy", false],
      ]);
      const report = await verifyPack({ source: stored.bytes });
      expect(report.policy_unmet).toEqual([]);
      expect(report.facts.selection.state).toBe("verified");
    } finally {
      await platform.close();
    }
  }, 180_000);
});
