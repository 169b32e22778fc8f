/**
 * probe35 B-F8: `indexer_agreement` was `verified` while the indexer's `awardDeadline` ("0"),
 * `awardedLogIndex` (201), `claimedTotal` (null) and a winner's `claimTx` ("abc", in `GET /bounties/:id` and
 * `GET /awards`) were wrong or of the wrong type. Each is now compared with what the chain and the answer
 * tell (getBounty's award deadline, the Awarded log's index, the sum of the credits' claimed amounts, the
 * claim transaction's receipt), and a value of the wrong type is a disagreement even without the chain.
 */
import { ANCHOR_KINDS, BountyStatus, type BountyRecord } from "@bench-bounty/contracts";
import type { Hex } from "viem";
import { beforeEach, describe, expect, it } from "vitest";
import { verifyIndexer } from "../src/indexer/index.js";
import type { OfflineDerived } from "../src/offline/index.js";
import type { ChainObservation, ClaimedLog } from "../src/onchain/context.js";
import { AMOUNT, POOL, WINNER, benchmark, view } from "./fixtures/one-winner-view.js";
import { found, useStubIndexer } from "./helpers.js";

const RECEIPT = "0x" + "ab".repeat(32);
const derived = {
  rankingDigest: null,
  receiptHashes: [RECEIPT],
  packHash: null,
} as unknown as OfflineDerived;

/** The winner's claim transaction (mined, one Claimed log of bounty 7 for the winner). */
const CLAIM_TX = "0x" + "c1".repeat(32);
/** A mined transaction without a Claimed log of the winner. */
const OTHER_TX = "0x" + "c2".repeat(32);
/** The award deadline of getBounty (unix seconds). */
const AWARD_DEADLINE = benchmark.closes_at + 86_400;
/** The Awarded log's index in award_tx's receipt. */
const LOG_INDEX = 3;

/** A winner record as the indexer states it: claimed by CLAIM_TX. */
function winner(): Record<string, unknown> {
  return {
    place: 1,
    account: WINNER,
    amount: String(AMOUNT),
    claimedAmount: String(AMOUNT),
    outstanding: "0",
    claimTx: CLAIM_TX,
  };
}

/** The award as both routes state it. */
function award(): Record<string, unknown> {
  return {
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
    awardedLogIndex: LOG_INDEX,
    awardedTx: benchmark.award_tx,
  };
}

/** The credit records of bounty 7: the winner's (claimed) and the author's remainder (not claimed). */
function credits(): Record<string, unknown>[] {
  const credit = (
    account: string,
    places: number[],
    fromPlaces: bigint,
    fromRemainder: bigint,
    claimed: bigint,
  ) => ({
    bountyId: "7",
    account,
    token: benchmark.token,
    credited: String(fromPlaces + fromRemainder),
    fromPlaces: String(fromPlaces),
    fromRemainder: String(fromRemainder),
    places,
    claimed: String(claimed),
    outstanding: String(fromPlaces + fromRemainder - claimed),
  });
  return [credit(WINNER, [1], AMOUNT, 0n, AMOUNT), credit(benchmark.author, [], 0n, POOL - AMOUNT, 0n)];
}

/** Changes the test makes to the honest answers: `bounty`, `winner`, `awardsWinner` members, and `credits`. */
let lie: {
  bounty?: Record<string, unknown>;
  winner?: Record<string, unknown>;
  awardsWinner?: Record<string, unknown>;
  awards?: Record<string, unknown>;
};

/** The indexer's head (`GET /status`), or none (404). */
let statusHead: number | null = null;

/** The receipt's first anchoring (its kind on chain and at the indexer; the indexer's kind name when it lies). */
let receiptAnchor: { kind: "receipt" | "pack"; indexerKindName?: string } = { kind: "receipt" };

/** The stub indexer's body for `url` (null: 404): the pack's award, with `lie` and `receiptAnchor` applied. */
function indexerBody(url: URL): unknown {
  if (url.pathname === "/bounties/7")
    return {
      bounty: {
        ...award(),
        id: "7",
        status: "Awarded",
        leafCount: "12",
        closesAt: String(benchmark.closes_at),
        awardDeadline: String(AWARD_DEADLINE),
        thresholdBps: 0,
        splitsBps: [10000],
        claimedTotal: String(AMOUNT),
        ...lie.bounty,
      },
      winners: [
        { ...winner(), bountyId: "7", token: benchmark.token, awardedLogIndex: LOG_INDEX, ...lie.winner },
      ],
      credits: credits(),
      claims: [],
      reclaim: null,
      anomalies: [],
    };
  if (url.pathname === "/awards")
    return {
      items: [{ ...award(), ...lie.awards, winners: [{ ...winner(), ...lie.awardsWinner }] }],
      nextCursor: null,
    };
  if (url.pathname === `/accounts/${WINNER}/credits`)
    return { account: WINNER, totals: [], credits: [credits()[0]], nextCursor: null };
  if (url.pathname === "/status" && statusHead !== null)
    return { base: { id: 8453, block: { number: statusHead, timestamp: 0 } } };
  if (url.pathname === `/anchors/${RECEIPT}`)
    return {
      digest: RECEIPT,
      kindName: receiptAnchor.indexerKindName ?? receiptAnchor.kind,
      kind: ANCHOR_KINDS[receiptAnchor.kind],
      blockNumber: "4000",
      txHash: "0x" + "77".repeat(32),
      anchorer: benchmark.awarder,
    };
  return null;
}

const indexerBase = useStubIndexer((url) => found(indexerBody(url)));

beforeEach(() => {
  lie = {};
  statusHead = null;
  receiptAnchor = { kind: "receipt" };
});

/** The receipts read through `readClaims`, by transaction. */
let receiptsRead: string[];

/** The pack's own chain: getBounty, the Awarded log at LOG_INDEX, CLAIM_TX's Claimed log of the winner. */
function packChain(): ChainObservation {
  receiptsRead = [];
  const claimed: Record<string, ClaimedLog[]> = {
    [CLAIM_TX]: [{ account: WINNER, to: WINNER, amount: AMOUNT }],
    [OTHER_TX]: [{ account: benchmark.author, to: benchmark.author, amount: POOL - AMOUNT }],
  };
  return {
    chainId: 8453,
    bounty: {
      author: benchmark.author,
      awarder: benchmark.awarder,
      token: benchmark.token,
      pool: POOL,
      testSetRoot: benchmark.commit_root,
      leafCount: 12,
      closesAt: BigInt(benchmark.closes_at),
      awardDeadline: BigInt(AWARD_DEADLINE),
      thresholdBps: 0,
      status: BountyStatus.Awarded,
      splitsBps: [10000],
    } as unknown as BountyRecord,
    awarded: {
      winners: [WINNER],
      amounts: [AMOUNT],
      authorRemainder: POOL - AMOUNT,
      rankingDigest: benchmark.ranking_digest,
      blockNumber: 5000n,
      txHash: benchmark.award_tx,
      logIndex: LOG_INDEX,
    },
    anchors: new Map([
      [RECEIPT, { anchorer: benchmark.awarder, blockNumber: 4000n, kind: ANCHOR_KINDS[receiptAnchor.kind] }],
    ]),
    readClaims: (tx: Hex) => {
      receiptsRead.push(tx);
      return Promise.resolve(claimed[tx] ?? null);
    },
  };
}

const B = "GET /bounties/7";
const AWARDS = `GET /awards?winner=${WINNER}&bounty=7`;

describe("indexer_agreement compares the award deadline, the log index, the claimed total and the claim transactions (probe35 B-F8)", () => {
  it("an honest indexer of the pack's chain: verified, each claim transaction's receipt read once", async () => {
    const f = await verifyIndexer(view, derived, packChain(), { indexerUrl: indexerBase() });
    expect(f).toEqual({
      state: "verified",
      reasons: [
        "the indexer agrees on bounty 7, its award (1 winners), credits and 1 anchors (pack and chain)",
      ],
    });
    expect(receiptsRead).toEqual([CLAIM_TX]);
  });

  it.each<[string, typeof lie, string]>([
    [
      "awardDeadline 0",
      { bounty: { awardDeadline: "0" } },
      `${B}: bounty.awardDeadline is 0, getBounty says ${AWARD_DEADLINE}`,
    ],
    [
      "awardDeadline null",
      { bounty: { awardDeadline: null } },
      `${B}: bounty.awardDeadline is null, getBounty says ${AWARD_DEADLINE}`,
    ],
    [
      "awardedLogIndex 201",
      { bounty: { awardedLogIndex: 201 } },
      `${B}: bounty.awardedLogIndex is 201, award_tx's receipt says ${LOG_INDEX}`,
    ],
    [
      "a winner's awardedLogIndex",
      { winner: { awardedLogIndex: 9 } },
      `${B}: winners[0].awardedLogIndex is 9, award_tx's receipt says ${LOG_INDEX}`,
    ],
    [
      "/awards awardedLogIndex",
      { awards: { awardedLogIndex: 201 } },
      `${AWARDS}: items[0].awardedLogIndex is 201, award_tx's receipt says ${LOG_INDEX}`,
    ],
    [
      "claimedTotal null",
      { bounty: { claimedTotal: null } },
      `${B}: bounty.claimedTotal is null, not an amount (base units)`,
    ],
    [
      "claimedTotal 0",
      { bounty: { claimedTotal: "0" } },
      `${B}: bounty.claimedTotal is 0, the sum of its credits[].claimed is ${AMOUNT}`,
    ],
    [
      "claimTx abc",
      { winner: { claimTx: "abc" } },
      `${B}: winners[0].claimTx is abc, not null or a transaction hash (0x and 64 hex digits)`,
    ],
    [
      "/awards claimTx abc",
      { awardsWinner: { claimTx: "abc" } },
      `${AWARDS}: items[0].winners[0].claimTx is abc, not null or a transaction hash (0x and 64 hex digits)`,
    ],
    [
      "claimTx of another account's claim",
      { winner: { claimTx: OTHER_TX } },
      `${B}: winners[0].claimTx is ${OTHER_TX}, its receipt holds no Claimed log of bounty 7 for ${WINNER}`,
    ],
    [
      "claimTx not mined",
      { awardsWinner: { claimTx: "0x" + "c3".repeat(32) } },
      `${AWARDS}: items[0].winners[0].claimTx is 0x${"c3".repeat(32)}, the chain has no such mined transaction`,
    ],
  ])("%s: failed, naming the member and both values", async (_name, change, reason) => {
    lie = change;
    const f = await verifyIndexer(view, derived, packChain(), { indexerUrl: indexerBase() });
    expect(f.state).toBe("failed");
    expect(f.reasons).toContain(reason);
  });

  it.each<[string, typeof lie, string]>([
    [
      "awardDeadline null",
      { bounty: { awardDeadline: null } },
      `${B}: bounty.awardDeadline is null, not a time (unix seconds)`,
    ],
    [
      "awardedLogIndex x",
      { bounty: { awardedLogIndex: "x" } },
      `${B}: bounty.awardedLogIndex is x, not a log index (a non-negative integer)`,
    ],
    [
      "claimedTotal null",
      { bounty: { claimedTotal: null } },
      `${B}: bounty.claimedTotal is null, not an amount (base units)`,
    ],
    [
      "claimedTotal above the pool",
      { bounty: { claimedTotal: String(POOL + 1n) } },
      `${B}: bounty.claimedTotal is ${POOL + 1n}, more than the pool ${POOL}`,
    ],
    [
      "claimTx abc",
      { winner: { claimTx: "abc" } },
      `${B}: winners[0].claimTx is abc, not null or a transaction hash (0x and 64 hex digits)`,
    ],
  ])("without the chain, %s: failed (a wrong type is never agreement)", async (_name, change, reason) => {
    lie = change;
    const f = await verifyIndexer(view, derived, null, { indexerUrl: indexerBase() });
    expect(f.state).toBe("failed");
    expect(f.reasons).toContain(reason);
  });

  it("without the chain, an honest indexer: verified (pack only)", async () => {
    const f = await verifyIndexer(view, derived, null, { indexerUrl: indexerBase() });
    expect(f.state).toBe("verified");
  });
});

describe("a receipt anchored first by someone with another kind (probe35 C-F2, V-F6)", () => {
  it("is its anchor at the indexer too: verified when the indexer states the chain's kind", async () => {
    receiptAnchor = { kind: "pack" };
    const f = await verifyIndexer(view, derived, packChain(), { indexerUrl: indexerBase() });
    expect(f.state, f.reasons.join("\n")).toBe("verified");
  });

  it("an indexer whose kind name does not match its kind still disagrees", async () => {
    receiptAnchor = { kind: "pack", indexerKindName: "receipt" };
    const f = await verifyIndexer(view, derived, packChain(), { indexerUrl: indexerBase() });
    expect(f.state).toBe("failed");
    expect(f.reasons.join("\n")).toContain(
      `GET /anchors/${RECEIPT}: kind is ${ANCHOR_KINDS.pack}, the pack says`,
    );
  });
});

describe("a claimTx the RPC has not mined (g35's note)", () => {
  /** The pack's chain with the credits read at block 6000 (the winner's claimed, the author's not). */
  const atBlock6000 = (): ChainObservation => ({
    ...packChain(),
    readCredits: () =>
      Promise.resolve({
        block: 6000n,
        of: new Map([
          [WINNER, 0n],
          [benchmark.author, POOL - AMOUNT],
        ]),
      }),
  });
  const lateClaim = { awardsWinner: { claimTx: "0x" + "c3".repeat(32) } };

  it("the indexer has read past the RPC's block: unverified, naming both blocks", async () => {
    lie = lateClaim;
    statusHead = 6100;
    const f = await verifyIndexer(view, derived, atBlock6000(), { indexerUrl: indexerBase() });
    expect(f.state).toBe("unverified");
    expect(f.reasons).toContain(
      `${AWARDS}: items[0].winners[0].claimTx is 0x${"c3".repeat(32)}, not mined at the RPC (block 6000 when read), and the indexer has indexed up to block 6100: a claim after block 6000 is not a disagreement`,
    );
  });

  it("the indexer has read nothing past it: failed", async () => {
    lie = lateClaim;
    statusHead = 6000;
    const f = await verifyIndexer(view, derived, atBlock6000(), { indexerUrl: indexerBase() });
    expect(f.state).toBe("failed");
    expect(f.reasons).toContain(
      `${AWARDS}: items[0].winners[0].claimTx is 0x${"c3".repeat(32)}, the chain has no such mined transaction`,
    );
  });
});
