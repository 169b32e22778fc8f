/**
 * probe19 A-F7: every anonymous read of a benchmark with a bounty (the detail's prize check, the evidence
 * door before an award) made one `getBounty` eth_call at the operator's RPC, and a slow RPC held the
 * detail 9.5 s. The chain's view of a bounty for reads is now shared by concurrent readers, reused for
 * `BOUNTY_READ_TTL_MS`, and waited for at most `BOUNTY_READ_WAIT_MS`: past it the read answers from the
 * store, saying the prize was not checked. The RPC here is a counting, delaying proxy in front of the
 * devchain.
 */
import type { DevChain } from "@bench-bounty/devchain";
import { describe, expect, it } from "vitest";
import { citiesDataset } from "../src/testing.js";
import { BOUNTY_READ_TTL_MS, BOUNTY_READ_WAIT_MS } from "../src/bounty-read.js";
import { lockPrize, useDevChain } from "./helpers.js";
import { platformBehindProxy, useClosers } from "./rpc-proxy.js";

const devChain = useDevChain();

const closers = useClosers();

/** A published benchmark with a 4 USDC prize locked and attached, its platform on the chain through a proxy. */
async function lockedBehindProxy(dc: DevChain, account: number, tag: string) {
  const { proxy, platform, clock, chainNow } = await platformBehindProxy(dc, account, closers);
  const ds = await platform.createDataset(citiesDataset(4, tag));
  const { slug } = await platform.publish(ds.dataset_id, {
    title: `Reads ${tag}`,
    prompt_template: "What is the answer for {payload.city} #{payload.index}?",
    grader_type: "exact",
  });
  await lockPrize(platform, dc, slug, chainNow, {
    pool: 4_000_000n,
    author: account + 1,
    payoutRule: "winner_take_all",
  });
  const locked = `Prize: 4 USDC, locked at ${dc.contracts.benchmarkBounty.toLowerCase()}`;
  /** The eth_calls the proxy received since the last call of this function. */
  let seen = proxy.calls.eth_call ?? 0;
  const ethCallsSince = () => {
    const now = proxy.calls.eth_call ?? 0;
    const made = now - seen;
    seen = now;
    return made;
  };
  return { platform, proxy, clock, slug, locked, ethCallsSince };
}

describe("a read's on-chain view of a bounty is shared and short-lived (probe19 A-F7)", () => {
  it("concurrent details and door reads make one getBounty; again within the TTL none; past it one", async () => {
    const r = await lockedBehindProxy(devChain(), 1, "shared");
    r.ethCallsSince();
    const [details, doors] = await Promise.all([
      Promise.all(Array.from({ length: 8 }, () => r.platform.real.benchmarkDetail(r.slug))),
      Promise.all(Array.from({ length: 8 }, () => r.platform.real.awardEvidence(r.slug))),
    ]);
    for (const d of details)
      expect(d).toMatchObject({
        prize: r.locked,
        prize_verified: true,
        prize_checked_on_chain: true,
        bounty_status: "funded",
      });
    for (const door of doors) expect(door).toMatchObject({ reason: "withheld_live_contest" });
    expect(r.ethCallsSince()).toBe(1);

    r.clock.advance(BOUNTY_READ_TTL_MS - 1);
    expect(await r.platform.real.benchmarkDetail(r.slug)).toMatchObject({ prize: r.locked });
    expect(await r.platform.real.awardEvidence(r.slug)).toMatchObject({ reason: "withheld_live_contest" });
    expect(r.ethCallsSince()).toBe(0);

    r.clock.advance(1);
    expect(await r.platform.real.benchmarkDetail(r.slug)).toMatchObject({ prize: r.locked });
    expect(r.ethCallsSince()).toBe(1);
  }, 120_000);

  it("a slow RPC: the detail answers from the store by the bound, the prize marked unchecked, the door bounty_status_unknown (probe39 C-F1); the late answer serves the next read", async () => {
    const r = await lockedBehindProxy(devChain(), 4, "slow");
    r.clock.advance(BOUNTY_READ_TTL_MS); // what lockPrize's reads left is stale
    r.ethCallsSince();
    r.proxy.delay.byMethod = { eth_call: BOUNTY_READ_WAIT_MS + 4_000 };
    const [detail, door] = await Promise.all([
      r.platform.real.benchmarkDetail(r.slug),
      r.platform.real.awardEvidence(r.slug),
    ]);
    expect(detail).toMatchObject({
      prize: "Prize: 4 USDC",
      prize_verified: false,
      prize_checked_on_chain: false,
      bounty_status: "funded", // the store's recorded status
    });
    // the bounty's status not read in time: it cannot be told (never "live until" from the recorded
    // status: the chain may say Awarded, probe39 C-F1)
    expect(door).toMatchObject({ reason: "bounty_status_unknown", details: { retry_after_seconds: 5 } });
    // answered while the one getBounty was still at the RPC
    expect(r.proxy.unanswered()).toBe(1);
    expect(r.ethCallsSince()).toBe(1);
    while (r.proxy.unanswered() > 0) await new Promise((ok) => setTimeout(ok, 100));
    r.proxy.delay.byMethod = {};
    expect(await r.platform.real.benchmarkDetail(r.slug)).toMatchObject({
      prize: r.locked,
      prize_checked_on_chain: true,
    });
    expect(r.ethCallsSince()).toBe(0);
  }, 120_000);

  it("an unreachable RPC: the detail answers from the store, unchecked, the door bounty_status_unknown (probe39 C-F1); a bounty recorded awarded is not read again", async () => {
    const r = await lockedBehindProxy(devChain(), 7, "down");
    r.clock.advance(BOUNTY_READ_TTL_MS);
    await r.proxy.close(); // the RPC refuses connections: getBounty fails with chain_error
    expect(await r.platform.real.benchmarkDetail(r.slug)).toMatchObject({
      prize: "Prize: 4 USDC",
      prize_verified: false,
      prize_checked_on_chain: false,
      bounty_status: "funded",
    });
    // the door cannot tell the bounty's status (probe39 C-F1)
    expect(await r.platform.real.awardEvidence(r.slug)).toMatchObject({ reason: "bounty_status_unknown" });

    const other = await lockedBehindProxy(devChain(), 10, "final");
    const b = (await other.platform.real.getBenchmark(other.slug)).bounty!;
    await other.platform.ctx.store.benchmarks.setBounty(other.slug, { ...b, status: "awarded" });
    other.clock.advance(BOUNTY_READ_TTL_MS);
    other.ethCallsSince();
    expect(await other.platform.real.benchmarkDetail(other.slug)).toMatchObject({
      prize: "Prize: 4 USDC",
      prize_checked_on_chain: false,
      bounty_status: "awarded",
    });
    expect(other.ethCallsSince()).toBe(0);
  }, 120_000);
});
