/**
 * Probe (issue 13 item 7, new variant): a crash AFTER the award transaction is sent but BEFORE the store
 * records it as `sent` (the window between chain.sendAward returning and awards.markSent). The store row
 * stays `prepared`, the chain says Awarded. Expected: the door reads the chain and does not say
 * "not awarded yet". Run (copies into the platform's test dir, runs, removes):
 *   cp probe/award-crash-before-marksent.test.ts packages/platform/test/zz-probe.test.ts && \
 *   (cd packages/platform && npx vitest run test/zz-probe.test.ts --project sqlite); rm packages/platform/test/zz-probe.test.ts
 */
import { benchmarkBountyAbi } from "@bench-bounty/contracts";
import { expect, it } from "vitest";
import { runBenchmark, type AgentSpec } from "../src/runner.js";
import { chainConfig, cities, latestBlockTime, manualClock, openTemp, useDevChain } from "./helpers.js";

const devChain = useDevChain();

it("door after a crash between send and markSent", async () => {
  const dc = devChain();
  const chainNow = await latestBlockTime(dc);
  const clock = manualClock(chainNow * 1000);
  const platform = await openTemp({ clock: clock.now, chain: chainConfig(dc, 0) });
  const ds = await platform.createDataset(cities(10));
  const { slug } = await platform.publish(ds.dataset_id, {
    title: "Cities",
    prompt_template: "Q {payload.city} #{payload.index}",
    grader_type: "exact",
    time_budget_seconds: 600,
  });
  const author = dc.accounts[1]!;
  await dc.mintUsdc(author.address, 10_000_000n);
  const closesAt = chainNow + 3600;
  const bounty = await platform.lockBounty(slug, {
    authorPrivateKey: author.privateKey,
    pool: 10_000_000n,
    closesAt,
    awardDeadline: closesAt + 86400,
    thresholdBps: 5000,
    payoutRule: "top_n_split",
  });
  await platform.registerAgent("alice", { withdrawal_address: dc.accounts[2]!.address.toLowerCase() });
  const good: AgentSpec = { kind: "function", name: "good", answer: (t) => `answer-${/#(\d+)/.exec(t.prompt)![1]}` };
  await runBenchmark(await platform.backend("alice"), slug, "alice", good);
  await dc.increaseTime(3700);
  clock.set((closesAt + 200) * 1000);
  // the crash: the process dies right after the award transaction was sent, before markSent
  const store = (platform as any).ctx.store;
  const original = store.awards.markSent.bind(store.awards);
  store.awards.markSent = async () => {
    throw new Error("injected crash after sendAward, before markSent");
  };
  const e = await platform.award(slug).catch((x: unknown) => x);
  console.log("award:", String((e as Error)?.message ?? e));
  store.awards.markSent = original;
  const onchain = await dc.publicClient.readContract({
    address: dc.contracts.benchmarkBounty,
    abi: benchmarkBountyAbi,
    functionName: "statusOf",
    args: [BigInt(bounty.bounty_id)],
  });
  const door = await platform.awardEvidence(slug);
  console.log("chain statusOf:", onchain, "door:", JSON.stringify({ ...door, bytes: undefined }));
  expect(onchain).toBe(3); // Awarded
  expect((door as any).reason).not.toBe("not_awarded");
}, 180_000);
