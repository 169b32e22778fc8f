/**
 * Impossible events: the real contracts never emit them, so this test replaces
 * the code at the BenchmarkBounty and AnchorRegistry addresses of a devchain
 * (`hardhat_setCode`) with a tiny log emitter and feeds the indexer events out
 * of ladder order. Each must be logged loudly, recorded in `anomaly`, and not
 * applied; the valid ones around them must be applied.
 */
import { ANCHOR_KINDS, anchorRegistryAbi, benchmarkBountyAbi } from "@bench-bounty/contracts";
import { startDevChain, type DevChain } from "@bench-bounty/devchain";
import {
  concatHex,
  encodeAbiParameters,
  encodeEventTopics,
  type Abi,
  type AbiEvent,
  type Address,
  type Hex,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startIndexer, type RunningIndexer } from "../testing/startIndexer.js";
import { getJson } from "./helpers/compare";
import { digestOf } from "./helpers/driver";
import { emitterCode } from "./helpers/emitter";

describe("impossible events are logged loudly and not applied", () => {
  let dc: DevChain;
  let ix: RunningIndexer;
  let emitted = 0;
  const author = "0x00000000000000000000000000000000000000a1" as Address;
  const winner = "0x00000000000000000000000000000000000000b1" as Address;
  const to = "0x00000000000000000000000000000000000000c1" as Address;
  const token = "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913" as Address;

  async function emit(
    address: Address,
    abi: Abi,
    eventName: string,
    args: Record<string, unknown>,
  ): Promise<void> {
    const item = abi.find((x) => x.type === "event" && x.name === eventName) as AbiEvent;
    const indexed = item.inputs.filter((i) => i.indexed);
    const topics = encodeEventTopics({
      abi: [item],
      eventName,
      args: Object.fromEntries(indexed.map((i) => [i.name!, args[i.name!]])),
    } as never) as Hex[];
    const plain = item.inputs.filter((i) => !i.indexed);
    const data = encodeAbiParameters(
      plain,
      plain.map((i) => args[i.name!]),
    );
    await dc.publicClient.request({
      method: "hardhat_setCode",
      params: [address, emitterCode(topics.length as 3 | 4)],
    } as never);
    const hash = await dc
      .wallet(0)
      .sendTransaction({ to: address, data: concatHex([...topics, data]), gas: 200_000n });
    const r = await dc.publicClient.waitForTransactionReceipt({ hash });
    expect(r.logs.length).toBe(1);
    emitted++;
  }
  const bounty = (eventName: string, args: Record<string, unknown>) =>
    emit(dc.contracts.benchmarkBounty, benchmarkBountyAbi as Abi, eventName, args);
  const registry = (eventName: string, args: Record<string, unknown>) =>
    emit(dc.contracts.anchorRegistry, anchorRegistryAbi as Abi, eventName, args);

  beforeAll(async () => {
    dc = await startDevChain();
    const genuine = await Promise.all(
      [dc.contracts.benchmarkBounty, dc.contracts.anchorRegistry].map(
        async (address) => [address, await dc.publicClient.getCode({ address })] as const,
      ),
    );
    const created = {
      bountyId: 77n,
      author,
      token,
      awarder: author,
      testSetRoot: digestOf("root77"),
      leafCount: 5,
      pool: 1000n,
      closesAt: 10n,
      awardDeadline: 20n,
      thresholdBps: 0,
      splitsBps: [10000],
    };
    await bounty("BountyFunded", { bountyId: 77n, funder: author, amount: 1000n }); // unknown bounty
    await bounty("BountyCreated", created); // applied: Pending
    await bounty("BountyCreated", { ...created, author: winner }); // same id again
    await bounty("Awarded", {
      bountyId: 77n,
      testSetRoot: created.testSetRoot,
      winners: [winner],
      amounts: [1000n],
      authorRemainder: 0n,
      rankingDigest: digestOf("rank77"),
    }); // Pending -> Awarded skips Funded
    await bounty("Claimed", { bountyId: 77n, account: winner, to, amount: 1000n }); // nothing awarded
    await bounty("BountyFunded", { bountyId: 77n, funder: author, amount: 999n }); // not the pool
    await bounty("BountyFunded", { bountyId: 77n, funder: author, amount: 1000n }); // applied: Funded
    await bounty("Reclaimed", { bountyId: 77n, author, to, amount: 5n }); // not the pool
    await registry("Anchored", { digest: digestOf("d1"), kind: ANCHOR_KINDS.pack, anchorer: author }); // applied
    await registry("Anchored", { digest: digestOf("d1"), kind: ANCHOR_KINDS.receipt, anchorer: winner }); // second anchoring
    await registry("Anchored", { digest: digestOf("d2"), kind: digestOf("another kind"), anchorer: winner }); // applied, unknown kind
    // the indexer starts only on the protocol's code (probe17 B-F9): the logs above stay in the chain
    for (const [address, code] of genuine)
      await dc.publicClient.request({ method: "hardhat_setCode", params: [address, code] } as never);
    ix = await startIndexer({ chain: dc });
  });

  afterAll(async () => {
    await ix?.stop();
    await dc?.stop();
  });

  it("records each impossible event in /anomalies, in chain order, and logs it", async () => {
    expect(emitted).toBe(11);
    const { body } = await getJson(ix.url, "/anomalies");
    const items = body.items as { eventName: string; bountyId: string | null; message: string }[];
    expect(items.map((a) => a.eventName)).toEqual([
      "BountyFunded",
      "BountyCreated",
      "Awarded",
      "Claimed",
      "BountyFunded",
      "Reclaimed",
      "Anchored",
    ]);
    expect(items[2]!.message).toMatch(/Awarded on a bounty in status Pending/);
    expect(items[4]!.message).toMatch(/differs from the pool/);
    expect(ix.output()).toContain("IMPOSSIBLE EVENT NOT APPLIED: Awarded bounty 77");
  });

  it("applies the valid events only", async () => {
    const { status, body } = await getJson(ix.url, "/bounties/77");
    expect(status).toBe(200);
    expect(body.bounty).toMatchObject({
      author,
      status: "Funded",
      fundedAmount: "1000",
      rankingDigest: null,
      claimedTotal: "0",
    });
    expect(body.winners).toEqual([]);
    expect(body.credits).toEqual([]);
    expect((body.claims as { applied: boolean }[]).map((c) => c.applied)).toEqual([false]);
    expect(body.reclaim).toBeNull();
    expect((body.anomalies as unknown[]).length).toBe(6);
    expect((await getJson(ix.url, `/accounts/${winner}/credits`)).body).toMatchObject({
      credits: [],
      totals: [],
    });
    expect((await getJson(ix.url, `/anchors/${digestOf("d1")}`)).body).toMatchObject({
      anchorer: author,
      kindName: "pack",
    });
    expect((await getJson(ix.url, `/anchors/${digestOf("d2")}`)).body).toMatchObject({ kindName: "unknown" });
  });

  // This indexer is on PGlite without INDEXER_UNSAFE_SQL_ON_PGLITE (issue 13 re-probe 6, O2).
  it("a PGlite indexer does not serve SQL over HTTP by default: 501 not_served, REST still served", async () => {
    const sql = encodeURIComponent(JSON.stringify({ json: { sql: "SELECT id FROM bounty", params: [] } }));
    const r = await getJson(ix.url, `/sql/db?sql=${sql}`);
    expect(r.status).toBe(501);
    expect(r.body).toMatchObject({ error: { code: "not_served" } });
    expect((await getJson(ix.url, "/bounties")).status).toBe(200);
  });
});
