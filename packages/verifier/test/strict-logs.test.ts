/**
 * probe35 B-F6: the verifier verified what the independent check fails: an `Awarded` log whose data is not
 * whole 32-byte words or that carries a topic beyond the event's (viem's decodeEventLog tolerates both; a
 * chain never emits them), and anchor transactions whose receipts have status 0. Both now read strictly.
 */
import { ANCHOR_KINDS, anchorRegistryAbi, benchmarkBountyAbi } from "@bench-bounty/contracts";
import { encodeAbiParameters, encodeEventTopics, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { commitmentAnchorFacts, packAnchorFacts } from "../src/onchain/anchors.js";
import type { ChainWalk } from "../src/onchain/context.js";
import { exactEventLog } from "../src/onchain/logs.js";

const ROOT = `0x${"12".repeat(32)}` as Hex;
const W = `0x${"ab".repeat(20)}` as Hex;

function awardedLog(): { data: Hex; topics: Hex[] } {
  const event = benchmarkBountyAbi.find((x) => x.type === "event" && x.name === "Awarded")!;
  const inputs = (event as unknown as { inputs: { name: string; type: string; indexed?: boolean }[] }).inputs;
  const values: Record<string, unknown> = {
    bountyId: 1n,
    testSetRoot: ROOT,
    winners: [W],
    amounts: [5n],
    authorRemainder: 0n,
    rankingDigest: ROOT,
  };
  const topics = encodeEventTopics({
    abi: benchmarkBountyAbi,
    eventName: "Awarded",
    args: { bountyId: 1n, testSetRoot: ROOT },
  } as never) as Hex[];
  const plain = inputs.filter((i) => i.indexed !== true);
  const data = encodeAbiParameters(plain as never, plain.map((i) => values[i.name]) as never);
  return { data, topics };
}

describe("an event log is read strictly (probe35 B-F6)", () => {
  it("the true Awarded log decodes", () => {
    expect(exactEventLog(benchmarkBountyAbi, awardedLog())?.eventName).toBe("Awarded");
  });

  it("data not whole 32-byte words is not the event", () => {
    const log = awardedLog();
    expect(
      exactEventLog(benchmarkBountyAbi, { ...log, data: `${log.data}${"00".repeat(7)}` as Hex }),
    ).toBeNull();
  });

  it("a topic beyond the event's is not the event", () => {
    const log = awardedLog();
    expect(
      exactEventLog(benchmarkBountyAbi, { ...log, topics: [...log.topics, `0x${"00".repeat(32)}` as Hex] }),
    ).toBeNull();
  });

  it("a commitment anchor transaction with status 0 fails commitment_anchor", async () => {
    const registry = `0x${"cc".repeat(20)}` as Hex;
    const tx = `0x${"2b".repeat(32)}` as Hex;
    const anchored = {
      address: registry,
      data: "0x" as Hex,
      topics: encodeEventTopics({
        abi: anchorRegistryAbi,
        eventName: "Anchored",
        args: { digest: ROOT, kind: ANCHOR_KINDS.commitment, anchorer: W },
      } as never) as Hex[],
    };
    const walk = {
      view: {
        benchmark: {
          commit_root: ROOT,
          award_block: 24,
          commitment_anchor: { registry_address: registry, anchor_block: 5, tx_hash: tx },
        },
      },
      derived: { receiptHashes: [] },
      root: ROOT,
      chainId: 31337,
      givenReceiptHashes: [],
      codeProblem: async () => null,
      anchorOf: async () => ({ anchorer: W, blockNumber: 5n, kind: ANCHOR_KINDS.commitment }),
      receiptOf: async () => ({ status: "reverted", blockNumber: 5n, logs: [anchored] }),
    } as unknown as ChainWalk;
    const facts = await commitmentAnchorFacts(walk);
    expect(facts.commitment_anchor.state).toBe("failed");
    expect(facts.commitment_anchor.reasons.join("; ")).toContain(
      `$.benchmark.commitment_anchor.tx_hash ${tx} reverted (receipt status 0)`,
    );
    // the same receipt with status success verifies
    const ok = await commitmentAnchorFacts({
      ...walk,
      receiptOf: async () => ({ status: "success", blockNumber: 5n, logs: [anchored] }),
    } as unknown as ChainWalk);
    expect(ok.commitment_anchor.state).toBe("verified");
    // an Anchored log with a topic beyond the event's, or data that is not whole words, is no Anchored log
    for (const odd of [
      { ...anchored, topics: [...anchored.topics, `0x${"00".repeat(32)}` as Hex] },
      { ...anchored, data: `0x${"00".repeat(7)}` as Hex },
    ]) {
      const f = await commitmentAnchorFacts({
        ...walk,
        receiptOf: async () => ({ status: "success", blockNumber: 5n, logs: [odd] }),
      } as unknown as ChainWalk);
      expect(f.commitment_anchor.reasons.join("; ")).toContain(`${tx} emitted no Anchored(`);
    }
  });
});

describe("an unanchored pack's pack_anchor says what no anchor binds (probe35 C-F4)", () => {
  it("pack_anchor null and the pack hash not anchored: unverified, naming the title and grader_types", async () => {
    const registry = `0x${"cc".repeat(20)}` as Hex;
    const walk = {
      view: {
        pack_anchor: null,
        benchmark: { commitment_anchor: { registry_address: registry, anchor_block: 5, tx_hash: ROOT } },
      },
      derived: { packHash: ROOT },
      codeProblem: async () => null,
      anchorOf: async () => ({ anchorer: W, blockNumber: 0n, kind: ANCHOR_KINDS.pack }),
    } as unknown as ChainWalk;
    const { pack_anchor } = await packAnchorFacts(walk);
    expect(pack_anchor.state).toBe("unverified");
    expect(pack_anchor.reasons[0]).toContain(
      "the pack's own text (benchmark.title, grader_types) is bound by no anchor",
    );
  });
});
