/**
 * probe28 C-F2: `indexer_agreement` compared the indexer with the chain only through the `Awarded` log.
 * Verified against another chain (the same CREATE2 addresses, its bounty of the same id Funded with
 * another root, no Awarded log, no anchors), an indexer stating the pack's award was `verified` while
 * every chain fact failed. The indexer's bounty is now compared with `getBounty` as read (status, root,
 * leaf count, parties, token, close time, threshold, splits), an Awarded indexer bounty with the chain's
 * Awarded log, and an indexer anchor with `anchorOf`.
 */
import { ANCHOR_KINDS, BountyStatus, type BountyRecord } from "@bench-bounty/contracts";
import { describe, expect, it } from "vitest";
import { verifyIndexer } from "../src/indexer/index.js";
import type { OfflineDerived } from "../src/offline/index.js";
import type { ChainObservation } from "../src/onchain/context.js";
import type { PackView } from "../src/pack.js";
import { AMOUNT, POOL, WINNER, benchmark, view } from "./fixtures/one-winner-view.js";
import { found, useStubIndexer } from "./helpers.js";

const RECEIPT = "0x" + "ab".repeat(32);
const derived = {
  rankingDigest: null,
  receiptHashes: [RECEIPT],
  packHash: null,
} as unknown as OfflineDerived;

/** The indexer's award, as the pack states it. */
const award = {
  bountyId: "7",
  token: benchmark.token,
  author: benchmark.author,
  awarder: benchmark.awarder,
  pool: String(POOL),
  testSetRoot: benchmark.commit_root,
  rankingDigest: benchmark.ranking_digest,
  authorRemainder: String(POOL - AMOUNT),
  paidToWinners: String(AMOUNT),
  winnerCount: 1,
  awardedBlock: "5000",
  awardedTx: benchmark.award_tx,
  winners: [{ place: 1, account: WINNER, amount: String(AMOUNT) }],
};

/** The stub indexer's body for `url` (null: 404): the pack's award as the chain holds it. */
function indexerBody(url: URL): unknown {
  if (url.pathname === "/bounties/7")
    return {
      bounty: {
        ...award,
        id: "7",
        status: "Awarded",
        leafCount: "12",
        closesAt: String(benchmark.closes_at),
        thresholdBps: 0,
        splitsBps: [10000],
      },
      winners: award.winners,
    };
  if (url.pathname === "/awards") return { items: [award], nextCursor: null };
  if (url.pathname === `/accounts/${WINNER}/credits`)
    return {
      account: WINNER,
      totals: [],
      credits: [
        {
          bountyId: "7",
          account: WINNER,
          token: benchmark.token,
          credited: String(AMOUNT),
          fromPlaces: String(AMOUNT),
          fromRemainder: "0",
          places: [1],
        },
      ],
      nextCursor: null,
    };
  if (url.pathname === `/anchors/${RECEIPT}`)
    return {
      digest: RECEIPT,
      kindName: "receipt",
      kind: ANCHOR_KINDS.receipt,
      blockNumber: "4000",
      txHash: "0x" + "77".repeat(32),
      anchorer: benchmark.awarder,
    };
  return null;
}

/** Every route the stub indexer was asked (path and query). */
const asked: string[] = [];

const indexerBase = useStubIndexer((url) => {
  asked.push(url.pathname + url.search);
  return found(indexerBody(url));
});

/** `getBounty(7)` as the pack's chain holds it (Awarded, the pack's terms), with `over` replacing fields. */
function record(over: Partial<Record<keyof BountyRecord, unknown>> = {}): BountyRecord {
  return {
    author: benchmark.author,
    awarder: benchmark.awarder,
    token: benchmark.token,
    pool: POOL,
    testSetRoot: benchmark.commit_root,
    leafCount: 12,
    closesAt: BigInt(benchmark.closes_at),
    awardDeadline: BigInt(benchmark.closes_at + 86_400),
    thresholdBps: 0,
    status: BountyStatus.Awarded,
    splitsBps: [10000],
    ...over,
  } as unknown as BountyRecord;
}

/** The pack's own chain: Awarded, its Awarded log, the receipt anchored at block 4000. */
function packChain(): ChainObservation {
  return {
    chainId: 8453,
    bounty: record(),
    awarded: {
      winners: [WINNER],
      amounts: [AMOUNT],
      authorRemainder: POOL - AMOUNT,
      rankingDigest: benchmark.ranking_digest,
      blockNumber: 5000n,
      txHash: benchmark.award_tx,
      logIndex: 3,
    },
    anchors: new Map([
      [RECEIPT, { anchorer: benchmark.awarder, blockNumber: 4000n, kind: ANCHOR_KINDS.receipt }],
    ]),
  };
}

describe("indexer_agreement compares the indexer with the chain as read (probe28 C-F2)", () => {
  it("the pack's own chain and an indexer of it: verified against pack and chain", async () => {
    const f = await verifyIndexer(view, derived, packChain(), { indexerUrl: indexerBase() });
    expect(f).toEqual({
      state: "verified",
      reasons: [
        "the indexer agrees on bounty 7, its award (1 winners), credits and 1 anchors (pack and chain)",
      ],
    });
  });

  it("another chain (bounty 7 Funded, another root and terms, no Awarded log, nothing anchored): failed, naming each field", async () => {
    const other: ChainObservation = {
      chainId: 8453,
      bounty: record({
        status: BountyStatus.Funded,
        testSetRoot: "0x" + "b2".repeat(32),
        leafCount: 8,
        thresholdBps: 5000,
        splitsBps: [6000, 4000],
      }),
      awarded: null,
      anchors: new Map([
        [RECEIPT, { anchorer: "0x" + "00".repeat(20), blockNumber: 0n, kind: "0x" + "00".repeat(32) }],
      ]),
    };
    const f = await verifyIndexer(view, derived, other, { indexerUrl: indexerBase() });
    expect(f.state).toBe("failed");
    expect(f.reasons).toEqual(
      expect.arrayContaining([
        "GET /bounties/7: bounty.status is awarded, getBounty says funded",
        `GET /bounties/7: bounty.testSetRoot is ${benchmark.commit_root}, getBounty says 0x${"b2".repeat(32)}`,
        "GET /bounties/7: bounty.leafCount is 12, getBounty says 8",
        "GET /bounties/7: bounty.thresholdBps is 0, getBounty says 5000",
        "GET /bounties/7: bounty.splitsBps is [10000], getBounty says [6000,4000]",
        `GET /bounties/7: the indexer says bounty 7 is Awarded (awardedTx ${benchmark.award_tx}), the chain shows no Awarded log of it in $.benchmark.award_tx`,
        `GET /anchors/${RECEIPT}: the indexer has a receipt anchor in block 4000, anchorOf says the digest is not anchored`,
      ]),
    );
  });
});

/**
 * probe36 B-F3: an address or digest of the pack that is not one was put into `creditOf` (viem refused it:
 * "cannot read rpc", exit 3) or an indexer route (`GET /anchors/0`: "check the indexer URL", exit 2). It keys
 * no read: the fact fails naming its JSON path, whatever the indexer's head.
 */
describe("a pack's address or digest that is not one keys no read (probe36 B-F3)", () => {
  /** The pack's chain, its creditOf reads recorded (refused, as viem refuses, for a value that is no address). */
  function chainReading(accounts: string[][]): ChainObservation {
    return {
      ...packChain(),
      readCredits: (asked) => {
        accounts.push([...asked]);
        if (asked.some((a) => !/^0x[0-9a-f]{40}$/i.test(a)))
          return Promise.reject(new Error(`creditOf: Address is invalid (${asked.join(", ")})`));
        return Promise.resolve({ block: 6000n, of: new Map(asked.map((a) => [a, 0n])) });
      },
    };
  }

  it.each([
    [
      "a winner's withdrawal_address",
      { ...view, winners: [{ ...view.winners[0]!, withdrawal_address: "0x" }] },
      derived,
      "$.winners[0].withdrawal_address 0x is not an address (0x and 40 hex digits): GET /awards?winner=&bounty= and GET /accounts/:address/credits?bounty= not read",
      [benchmark.author],
    ],
    [
      "the author (its remainder's creditOf)",
      { ...view, benchmark: { ...benchmark, author: " 1" } },
      derived,
      '$.benchmark.author " 1" is not an address (0x and 40 hex digits): creditOf(7, author) not read',
      [WINNER],
    ],
    [
      "a receipt_hash",
      {
        ...view,
        winners: [{ ...view.winners[0]!, path: "$.winners[0]", receipt_hash: "\uff11" }],
        rank_derivation: { ...view.rank_derivation, rows: [] },
      },
      { ...derived, receiptHashes: ["\uff11"] },
      '$.winners[0].receipt_hash "\uff11" is not a bytes32 (0x and 64 hex digits): GET /anchors/:digest (its receipt anchor) not read',
      [WINNER, benchmark.author],
    ],
    [
      "the commit_root",
      {
        ...view,
        benchmark: {
          ...benchmark,
          commit_root: "NaN",
          commitment_anchor: {
            registry_address: "0x" + "88".repeat(20),
            anchor_block: 10,
            tx_hash: "0x" + "12".repeat(32),
          },
        },
      },
      derived,
      "$.benchmark.commit_root NaN is not a bytes32 (0x and 64 hex digits): GET /anchors/:digest (its commitment anchor) not read",
      [WINNER, benchmark.author],
    ],
  ] as [string, PackView, OfflineDerived, string, string[]][])(
    "%s: failed naming its JSON path, never sent to the indexer or creditOf",
    async (_what, bad, badDerived, reason, credited) => {
      asked.length = 0;
      const calls: string[][] = [];
      const f = await verifyIndexer(bad, badDerived, chainReading(calls), { indexerUrl: indexerBase() });
      expect(f.state).toBe("failed");
      expect(f.reasons[0]).toBe(reason);
      expect(calls).toEqual([credited]);
      // every route asked is keyed by an address or a bytes32 (or the bounty's id)
      expect(
        asked.filter(
          (r) =>
            !/^\/(status|bounties\/7|anchors\/0x[0-9a-f]{64}|awards\?winner=0x[0-9a-f]{40}&bounty=7|accounts\/0x[0-9a-f]{40}\/credits\?bounty=7)$/.test(
              r,
            ),
        ),
      ).toEqual([]);
      expect(asked.length).toBeGreaterThan(0);
    },
  );
});
