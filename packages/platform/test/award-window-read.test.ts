/**
 * probe29 C-F5: once the chain's clock is past a bounty's award deadline with no award made, no award can
 * come any more (the contract refuses it) and the author may reclaim. The evidence door said "the contest
 * is closed but not awarded yet" and the detail "Prize: 4 USDC, locked at ...". Both now read the chain's
 * clock (shared, `chainTimeForRead`) and say it with the award's own rule (`awardWindowPassed`). On SQLite
 * and PostgreSQL.
 */
import { benchmarkBountyAbi } from "@bench-bounty/contracts";
import { describe, expect, it } from "vitest";
import { getBenchmark } from "../src/publish.js";
import { gaosTaskScores } from "../src/task-scores.js";
import { openOnChainClock, publishLockAndRun, useDevChain, type Harness } from "./helpers.js";

const devChain = useDevChain();

/**
 * probe36 C-F2: what an anonymous reader learns of private tasks' credit on a closed benchmark that is
 * not awarded: nothing (every private credit null, none in the GAOS taskScores), public credits served.
 */
async function expectPrivateCreditsWithheld(platform: Harness, slug: string, when: string): Promise<void> {
  const page = await platform.real.taskScores(null, slug);
  expect(page, when).toMatchObject({ stage: "closed", private_credits: "withheld" });
  expect(page.runs.length, when).toBeGreaterThan(0);
  for (const run of page.runs) {
    const priv = run.tasks.filter((t) => t.visibility === "private");
    expect(priv.length, when).toBeGreaterThan(0);
    expect(
      priv.every((t) => t.credit === null),
      when,
    ).toBe(true);
    expect(
      run.tasks.filter((t) => t.visibility === "public").every((t) => t.credit !== null),
      when,
    ).toBe(true);
    const gaos = gaosTaskScores(run);
    for (const t of priv) expect(gaos[String(t.bank_ordinal)], when).toBeUndefined();
  }
}

describe("a funded bounty past its award deadline, never awarded (probe29 C-F5)", () => {
  it("the door says no award can come any more, the detail's prize is no longer 'locked'", async () => {
    const dc = devChain();
    const { platform, chainNow, clock } = await openOnChainClock(dc, 1);
    const { slug } = await publishLockAndRun(platform, dc, {
      chainNow,
      clock,
      account: 1,
      tag: "window",
      title: "Window",
    });
    // within the award window: not awarded yet, the prize locked
    expect(await platform.awardEvidence(slug)).toMatchObject({
      kind: "unavailable",
      reason: "not_awarded",
      message: "the contest is closed but not awarded yet",
    });
    await expectPrivateCreditsWithheld(platform, slug, "within the award window");
    const within = await platform.real.benchmarkDetail(slug);
    expect(within).toMatchObject({ prize_verified: true, bounty_status: "funded", prize_note: null });
    expect(within.prize).toMatch(/^Prize: 4 USDC, locked at 0x/);
    const deadline = (await getBenchmark(platform.ctx, slug)).bounty!.award_deadline;
    // the latest block at the award deadline itself: every block to come, where an award would land, is
    // past it (probe31 C-F5: the door said "not awarded yet" for that second)
    await dc.publicClient.request({
      method: "evm_setNextBlockTimestamp" as never,
      params: [deadline] as never,
    });
    await dc.publicClient.request({ method: "evm_mine" as never, params: [] as never });
    clock.advance(10_000); // past the shared reads' 5 s (platform clock)
    const lastSecond = `the award deadline ${deadline} is the latest block's time: every block to come is past it; the author may reclaim`;
    expect(await platform.awardEvidence(slug)).toMatchObject({
      kind: "unavailable",
      reason: "not_awarded",
      message: `the contest is closed and no award can come any more: ${lastSecond}`,
    });
    await expect(platform.award(slug)).rejects.toMatchObject({
      code: "award_not_allowed",
      message: lastSecond,
    });
    // the chain's clock one second past the award deadline: the contract refuses every award from now on
    await dc.publicClient.request({
      method: "evm_setNextBlockTimestamp" as never,
      params: [deadline + 1] as never,
    });
    await dc.publicClient.request({ method: "evm_mine" as never, params: [] as never });
    clock.advance(10_000); // past the shared reads' 5 s (platform clock)
    const said = `the award deadline ${deadline} has passed (chain clock ${deadline + 1}); the author may reclaim`;
    expect(await platform.awardEvidence(slug)).toMatchObject({
      kind: "unavailable",
      reason: "not_awarded",
      message: `the contest is closed and no award can come any more: ${said}`,
    });
    await expectPrivateCreditsWithheld(platform, slug, "past the award deadline");
    const past = await platform.real.benchmarkDetail(slug);
    expect(past).toMatchObject({
      prize: "Prize: 4 USDC",
      prize_verified: false,
      prize_checked_on_chain: true,
      bounty_status: "funded",
      prize_note: `no award can come any more: ${said}`,
    });
    // the award's own refusal is the same rule's words
    await expect(platform.award(slug)).rejects.toMatchObject({ code: "award_not_allowed", message: said });
    // the author (account 2) reclaims: the detail says why no award comes (probe33 C-F6: prize_note was null then)
    const hash = await dc.wallet(2).writeContract({
      address: dc.contracts.benchmarkBounty,
      abi: benchmarkBountyAbi,
      functionName: "reclaim",
      args: [BigInt((await getBenchmark(platform.ctx, slug)).bounty!.bounty_id), dc.accounts[2]!.address],
    });
    await dc.publicClient.waitForTransactionReceipt({ hash });
    clock.advance(10_000);
    expect(await platform.real.benchmarkDetail(slug)).toMatchObject({
      prize_verified: false,
      prize_checked_on_chain: true,
      bounty_status: "reclaimed",
      prize_note: "the author reclaimed the pool: no award can come",
    });
    expect(await platform.awardEvidence(slug)).toMatchObject({ reason: "reclaimed_never_reveals" });
    await expectPrivateCreditsWithheld(platform, slug, "reclaimed");
    // recorded (final on-chain): the list, which never reads the chain, no longer says funded
    const listed = (await platform.real.benchmarkList()).rows.find((r) => r.item.slug === slug)?.item;
    expect(listed).toMatchObject({ bounty_status: "reclaimed", prize_checked_on_chain: false });
    await platform.close();
  });
});
