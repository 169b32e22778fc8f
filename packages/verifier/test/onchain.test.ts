/**
 * On-chain and indexer checks against a real award driven on the local Base
 * profile (`@bench-bounty/devchain`): commitment anchored, bounty created and
 * funded, receipts anchored, award() with the ranking digest, pack minted by the
 * evidence library and anchored, indexer started on the chain. The good pack
 * verifies under the `onchain` and `full` policies; a pack naming other winners
 * than the on-chain award, and a receipt swapped (and anchored) after the award,
 * are each caught by their fact.
 */
import {
  ANCHOR_KINDS,
  anchorRegistryAbi,
  anchorRegistryBytecode,
  benchmarkBountyAbi,
  benchmarkBountyBytecode,
  testUsdcAbi,
} from "@bench-bounty/contracts";
import { deploymentProblem, tokenProblem } from "@bench-bounty/contracts";
import { startDevChain, type DevChain } from "@bench-bounty/devchain";
import {
  buildRankDerivation,
  buildReceipt,
  canonicalJson,
  commitTestSet,
  composite,
  evidencePackBytes,
  grade,
  keccak256Hex,
  mintEvidencePack,
  parseJson,
  promptHash,
  rankAccuracy,
  receiptHash,
  revealedAnswers,
  scorePublic,
  withPackAnchor,
  type BuildReceiptInput,
  type EvidencePack,
  type JsonObject,
  type MintRun,
  type MintScoring,
  type RankDerivationResult,
  type TestSetCommitment,
  type TestSetRow,
} from "@bench-bounty/evidence";
import { startIndexer, type RunningIndexer } from "@bench-bounty/indexer/testing";
import { encodeErrorResult, toFunctionSelector, type Address, type Hash, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CompactSign, exportJWK, generateKeyPair } from "jose";
import {
  CHAIN_FACTS,
  FACT_NAMES,
  verifyComputeReceipt,
  verifyPack,
  VerifierNetworkError,
  type FactName,
  type VerificationReport,
} from "../src/index.js";
import {
  at,
  rehash,
  toBytes,
  runCliAsync,
  startJsonProxy,
  startRpcProxy,
  WholeAnswer,
  type RpcProxy,
} from "./helpers.js";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatReportTable } from "../src/format.js";
import { rpcClient } from "../src/onchain/index.js";
import { rpcReader } from "../src/onchain/context.js";
import { readBlockNumber, readChainId } from "../src/onchain/rpc-answers.js";

const runCli = runCliAsync;

/** What an error of the verifier's own code says (a property of a value of the wrong type read). */
const INTERNAL = /is not (iterable|a function)|Cannot read properties|Cannot convert/;

const salt = (s: string): string => keccak256Hex(s).slice(2);

const TEST_SET: TestSetRow[] = [
  {
    ordinal: 0,
    prompt: "Capital of France?",
    gold: { value: "Paris" },
    salt: salt("s0"),
    visibility: "private",
    grader_type: "exact",
  },
  {
    ordinal: 1,
    prompt: "2 + 2.5 = ?",
    gold: { value: "4.5", tolerance: "0.01" },
    salt: salt("s1"),
    visibility: "private",
    grader_type: "numeric",
  },
  {
    ordinal: 2,
    prompt: "Name the two USDC chains here.",
    gold: { terms: ["base", "sepolia"] },
    salt: salt("s2"),
    visibility: "private",
    grader_type: "contains_all",
  },
  {
    ordinal: 3,
    prompt: "City and count as JSON.",
    gold: { fields: { city: "Tokyo", count: 3 } },
    salt: salt("s3"),
    visibility: "private",
    grader_type: "json_fields",
  },
  {
    ordinal: 4,
    prompt: "Largest planet?",
    gold: { value: "Jupiter" },
    salt: salt("s4"),
    visibility: "public",
    grader_type: "exact",
  },
  {
    ordinal: 5,
    prompt: "Degrees in a right angle?",
    gold: { value: 90 },
    salt: salt("s5"),
    visibility: "public",
    grader_type: "numeric",
  },
];

const SCORING: MintScoring = {
  speed_weight: "0.2",
  cost_weight: "0",
  time_budget_seconds: 600,
  cost_budget_usdc: null,
  threshold_bps: 5000,
  payout_rule: "top_n_split",
};
const POOL = 100_000_000n; // 100 USDC

interface Agent {
  agent_id: string;
  author: boolean;
  answers: (string | null)[];
  wall: string;
  account: number;
}

const AGENTS: Agent[] = [
  {
    agent_id: "author-baseline",
    author: true,
    answers: ["Paris", "4.5", "Base and Sepolia", '{"city":"Tokyo","count":3}', "Jupiter", "90"],
    wall: "30.000",
    account: 3,
  },
  {
    agent_id: "agent-alpha",
    author: false,
    answers: ["paris", "4.505", "base, sepolia", '{"city":"TOKYO","count":4}', "Jupiter", "90"],
    wall: "120.000",
    account: 4,
  },
  {
    agent_id: "agent-beta",
    author: false,
    answers: ["Lyon", "4.5", "base sepolia", '{"city":"Tokyo"}', "jupiter", null],
    wall: "60.000",
    account: 5,
  },
  {
    agent_id: "agent-gamma",
    author: false,
    answers: ["Paris", "5", "mainnet", "not json", "Saturn", "91"],
    wall: "300.000",
    account: 6,
  },
];

let chain: DevChain;
let indexer: RunningIndexer | null = null;
let indexerError: string | null = null;
let pack: EvidencePack;
let packBytes: Uint8Array;

async function mined(hash: Hash): Promise<{ blockNumber: bigint; transactionHash: Hash }> {
  const r = await chain.publicClient.waitForTransactionReceipt({ hash });
  expect(r.status).toBe("success");
  return r;
}

async function anchor(
  digest: string,
  kind: Hex,
  account = 0,
): Promise<{ tx_hash: string; anchor_block: number }> {
  const hash = await chain.wallet(account).writeContract({
    address: chain.contracts.anchorRegistry,
    abi: anchorRegistryAbi,
    functionName: "anchor",
    args: [digest as Hex, kind],
  });
  const r = await mined(hash);
  return { tx_hash: r.transactionHash, anchor_block: Number(r.blockNumber) };
}

/** A bounty locked on the chain over a committed and anchored test set. */
interface LockedBounty {
  rows: TestSetRow[];
  commitment: TestSetCommitment;
  commitmentAnchor: { tx_hash: string; anchor_block: number };
  bountyId: bigint;
  /** unix seconds */
  closesAt: number;
  author: Address;
  awarder: Address;
}

/**
 * Publishes and locks a prize the way the platform does: commits `rows` and anchors the root
 * (author account 1), mints POOL to the author, approves it and calls createAndFund with the root
 * frozen in (awarder account 2, closing an hour after the latest block, 50/30/20 split).
 */
async function lockBounty(rows: TestSetRow[]): Promise<LockedBounty> {
  const author = chain.accounts[1]!.address;
  const awarder = chain.accounts[2]!.address;
  const commitment = commitTestSet(rows);
  const commitmentAnchor = await anchor(commitment.root, ANCHOR_KINDS.commitment, 1);
  await mined(await chain.mintUsdc(author, POOL));
  await mined(
    await chain.wallet(1).writeContract({
      address: chain.contracts.usdc,
      abi: testUsdcAbi,
      functionName: "approve",
      args: [chain.contracts.benchmarkBounty, POOL],
    }),
  );
  const closesAt = Number((await chain.publicClient.getBlock()).timestamp) + 3600;
  await mined(
    await chain.wallet(1).writeContract({
      address: chain.contracts.benchmarkBounty,
      abi: benchmarkBountyAbi,
      functionName: "createAndFund",
      args: [
        {
          token: chain.contracts.usdc,
          awarder,
          pool: POOL,
          testSetRoot: commitment.root as Hex,
          leafCount: rows.length,
          closesAt: BigInt(closesAt),
          awardDeadline: BigInt(closesAt + 86_400),
          thresholdBps: SCORING.threshold_bps,
          splitsBps: [5000, 3000, 2000],
        },
      ],
    }),
  );
  const bountyId = (await chain.publicClient.readContract({
    address: chain.contracts.benchmarkBounty,
    abi: benchmarkBountyAbi,
    functionName: "bountyCount",
  })) as bigint;
  return { rows, commitment, commitmentAnchor, bountyId, closesAt, author, awarder };
}

/** The awarder (account 2) calls award() with the derivation's winners and ranking digest (after closesAt). */
async function awardBounty(
  bountyId: bigint,
  derivation: RankDerivationResult,
): Promise<{ blockNumber: bigint; transactionHash: Hash }> {
  return mined(
    await chain.wallet(2).writeContract({
      address: chain.contracts.benchmarkBounty,
      abi: benchmarkBountyAbi,
      functionName: "award",
      args: [
        bountyId,
        derivation.winning_runs.map((r) => r.withdrawal_address as Address),
        derivation.ranking_digest as Hex,
      ],
    }),
  );
}

/** Mints the pack of an awarded bounty with the evidence library, then the awarder (account 2) anchors its hash. */
async function mintAnchoredPack(opts: {
  slug: string;
  title: string;
  bounty: LockedBounty;
  award: { blockNumber: bigint; transactionHash: Hash };
  runs: MintRun[];
}): Promise<EvidencePack> {
  const { bounty, award } = opts;
  const minted = mintEvidencePack({
    benchmark: {
      slug: opts.slug,
      title: opts.title,
      chain_id: chain.chainId,
      bounty_contract: chain.contracts.benchmarkBounty,
      bounty_id: bounty.bountyId,
      token: chain.contracts.usdc,
      author: bounty.author,
      awarder: bounty.awarder,
      pool_base_units: POOL,
      closes_at: bounty.closesAt,
      award_tx: award.transactionHash,
      award_block: Number(award.blockNumber),
      commitment_anchor: {
        registry_address: chain.contracts.anchorRegistry.toLowerCase(),
        ...bounty.commitmentAnchor,
      },
    },
    test_set: bounty.rows,
    scoring: SCORING,
    runs: opts.runs,
  });
  const packAnchor = await anchor(minted.pack_hash, ANCHOR_KINDS.pack, 2);
  return withPackAnchor(minted, { registry_address: chain.contracts.anchorRegistry, ...packAnchor });
}

function states(r: VerificationReport): Record<FactName, string> {
  return Object.fromEntries(FACT_NAMES.map((n) => [n, r.facts[n].state])) as Record<FactName, string>;
}

beforeAll(async () => {
  chain = await startDevChain();

  // 1. publish: commit the test set and anchor the root; 2. lock the prize: createAndFund with the root frozen in
  const bounty = await lockBounty(TEST_SET);

  // 3. runs: receipts built and anchored before the award
  const runs: MintRun[] = AGENTS.map((a, i) => {
    const tasks = TEST_SET.map((row) => ({
      bank_ordinal: row.ordinal,
      prompt_hash: promptHash(row.prompt),
      visibility: row.visibility,
      answer_text: a.answers[row.ordinal] ?? null,
    }));
    const graded = TEST_SET.map((row) => ({
      visibility: row.visibility,
      credit: grade(row.grader_type, row.gold, a.answers[row.ordinal] ?? null),
    }));
    const rank_accuracy = rankAccuracy(graded, true);
    const input: BuildReceiptInput = {
      run_id: `run-${a.agent_id}`,
      benchmark_slug: "onchain-verifier-test",
      commit_root: bounty.commitment.root,
      agent_id: a.agent_id,
      attempt: 1,
      started_at: `2026-11-30T0${i}:00:00.000Z`,
      finalized_at: `2026-11-30T0${i}:10:00.000Z`,
      wall_seconds: a.wall,
      queries_used: 0,
      usdc_spent: "0.000000",
      score_public: scorePublic(graded),
      score_composite: composite({ rank_accuracy, wall_seconds: a.wall, usdc_spent: "0.000000", ...SCORING }),
      answer_salt: salt(`answers-${a.agent_id}`),
      tasks,
    };
    return {
      agent_id: a.agent_id,
      is_author_agent: a.author,
      receipt: buildReceipt(input),
      receipt_url: `https://bench-bounty.example/runs/run-${a.agent_id}/receipt`,
      rank_accuracy,
      withdrawal_address: chain.accounts[a.account]!.address,
      answer_salt: input.answer_salt,
      answers: revealedAnswers(input),
    };
  });
  await mined(
    await chain.wallet(0).writeContract({
      address: chain.contracts.anchorRegistry,
      abi: anchorRegistryAbi,
      functionName: "anchorMany",
      args: [runs.map((r) => receiptHash(r.receipt) as Hex), ANCHOR_KINDS.receipt],
    }),
  );

  // 4. award after closesAt with the ranking digest of the derivation
  await chain.increaseTime(3700);
  const derivation = buildRankDerivation({ scoring: SCORING, pool_base_units: POOL, runs });
  const award = await awardBounty(bounty.bountyId, derivation);

  // 5. mint the pack and anchor its hash
  pack = await mintAnchoredPack({
    slug: "onchain-verifier-test",
    title: "Verifier on-chain test",
    bounty,
    award,
    runs,
  });
  packBytes = evidencePackBytes(pack);

  try {
    indexer = await startIndexer({ chain, timeoutMs: 150_000 });
  } catch (e) {
    indexerError = e instanceof Error ? e.message.split("\n")[0]! : String(e);
  }
}, 300_000);

afterAll(async () => {
  await indexer?.stop();
  await chain?.stop();
});

/**
 * Re-hashes the edited pack `tree`, anchors it with kind pack from `account` (naming that anchor as its
 * `pack_anchor`), and verifies it under `full` once the indexer has read that block (below it, probe29
 * C-F7 makes its disagreements unverified: CI31 failed when the indexer was one block behind).
 */
async function verifyForged(tree: JsonObject, account: number): Promise<VerificationReport> {
  rehash(tree);
  const forged = await anchor(tree.pack_hash as string, ANCHOR_KINDS.pack, account);
  tree.pack_anchor = { registry_address: chain.contracts.anchorRegistry.toLowerCase(), ...forged };
  await indexer?.waitForHead();
  return verifyPack({
    source: toBytes(tree),
    rpcUrl: chain.rpcUrl,
    indexerUrl: indexer?.url,
    policy: "full",
  });
}

describe("a real award on the local Base profile", () => {
  it("the minted pack names the winners the award paid, the author agent ranked but unpaid", () => {
    expect(pack.winners.map((w) => w.agent_id)).toEqual(["agent-alpha", "agent-beta"]);
    expect(pack.rank_derivation.rows[0]!.agent_id).toBe("author-baseline");
  });

  it("verifies every on-chain fact (policy onchain)", async () => {
    const r = await verifyPack({ source: packBytes, rpcUrl: chain.rpcUrl, policy: "onchain" });
    const s = states(r);
    for (const n of FACT_NAMES)
      expect({ n, state: s[n], reasons: r.facts[n].reasons }).toMatchObject({
        n,
        state: n === "indexer_agreement" ? "not-observed" : "verified",
      });
    expect(r.policy_met).toBe(true);
    expect(r.observed.rpc_chain_id).toBe(8453);
    expect(r.facts.award_log.reasons[0]).toMatch(/Awarded bounty \d+ to 2 winners/);
  });

  it("verifies the indexer's agreement (policy full)", async (ctx) => {
    if (indexer === null) ctx.skip(`indexer did not start: ${indexerError}`);
    await indexer!.waitForHead();
    const r = await verifyPack({
      source: packBytes,
      rpcUrl: chain.rpcUrl,
      indexerUrl: indexer!.url,
      policy: "full",
    });
    expect({
      state: r.facts.indexer_agreement.state,
      reasons: r.facts.indexer_agreement.reasons,
    }).toMatchObject({ state: "verified" });
    expect(r.policy_met).toBe(true);
  });

  // probe15 B-F13: the award history's amounts and places and an anchor record's own digest and kind were not compared
  it("catches an indexer whose award history or anchor records disagree with the pack (indexer_agreement)", async (ctx) => {
    if (indexer === null) ctx.skip(`indexer did not start: ${indexerError}`);
    await indexer!.waitForHead();
    const lies: [string, (path: string, body: any) => void, RegExp][] = [
      [
        "award history amount",
        (path, body) => {
          if (path.startsWith("/awards")) body.items[0].winners[0].amount = "12345678901234567890";
        },
        /GET \/awards\?winner=0x[0-9a-f]{40}&bounty=\d+: items\[0\]\.winners\[0\]\.amount is 12345678901234567890, the pack says \d+/,
      ],
      [
        "award history place",
        (path, body) => {
          if (path.startsWith("/awards")) body.items[0].winners[0].place = 7;
        },
        /GET \/awards\?winner=\S+: items\[0\]\.winners\[0\]\.place is 7, the pack says 1/,
      ],
      [
        "award history pool",
        (path, body) => {
          if (path.startsWith("/awards")) body.items[0].pool = "1";
        },
        /GET \/awards\?winner=\S+: items\[0\]\.pool is 1, the pack says 100000000/,
      ],
      [
        "anchor digest",
        (path, body) => {
          if (path.startsWith("/anchors/")) body.digest = "0x" + "ab".repeat(32);
        },
        /GET \/anchors\/0x[0-9a-f]{64}: digest is 0x(ab){32}, the pack says 0x[0-9a-f]{64}/,
      ],
      [
        "anchor kind",
        (path, body) => {
          if (path.startsWith("/anchors/")) body.kind = "0x" + "cd".repeat(32);
        },
        /GET \/anchors\/0x[0-9a-f]{64}: kind is 0x(cd){32}, the pack says 0x[0-9a-f]{64}/,
      ],
    ];
    for (const [what, rewrite, reason] of lies) {
      const proxy = await startJsonProxy(indexer!.url, rewrite);
      try {
        // without --rpc: the pack alone says what the indexer must serve
        const r = await verifyPack({ source: packBytes, indexerUrl: proxy.origin, policy: "offline" });
        expect({ what, state: r.facts.indexer_agreement.state }).toEqual({ what, state: "failed" });
        expect(r.facts.indexer_agreement.reasons.join("\n"), what).toMatch(reason);
      } finally {
        proxy.close();
      }
    }
  });

  it("catches a pack naming other winners than the on-chain award (award_log, indexer_agreement)", async () => {
    const tree = parseJson(packBytes) as JsonObject;
    at(tree, "winners", 1).withdrawal_address = chain.accounts[9]!.address.toLowerCase();
    // anchoring is permissionless: the forger anchors the forged pack too
    const r = await verifyForged(tree, 9);
    const breaks: FactName[] = indexer === null ? ["award_log"] : ["award_log", "indexer_agreement"];
    for (const n of FACT_NAMES)
      expect({ n, state: r.facts[n].state }).toEqual({
        n,
        state: breaks.includes(n)
          ? "failed"
          : indexer === null && n === "indexer_agreement"
            ? "not-observed"
            : // the forger's own anchor binds nothing (probe31 C-F1)
              n === "pack_anchor"
              ? "unverified"
              : "verified",
      });
    expect(r.facts.award_log.reasons.join("\n")).toMatch(
      /Awarded\.winners\[1\] is 0x[0-9a-f]{40}, \$\.winners\[1\]\.withdrawal_address is 0x/,
    );
    if (indexer !== null)
      expect(r.facts.indexer_agreement.reasons.join("\n")).toMatch(
        /GET \/bounties\/\d+: winners\[1\]\.account is 0x[0-9a-f]{40}, the pack says 0x/,
      );
    expect(r.policy_met).toBe(false);
  });

  it("catches a receipt swapped and anchored after the award (receipt_anchors, and award_log by the digest)", async () => {
    const tree = parseJson(packBytes) as JsonObject;
    const row = at(tree, "rank_derivation", "rows", 3);
    expect(row.is_author_agent).toBe(false);
    row.receipt.started_at = "2026-11-30T03:05:00.000Z";
    row.receipt_hash = receiptHash(row.receipt);
    await anchor(row.receipt_hash, ANCHOR_KINDS.receipt, 9);
    rehash(tree);
    const forged = await anchor(tree.pack_hash as string, ANCHOR_KINDS.pack, 9);
    tree.pack_anchor = { registry_address: chain.contracts.anchorRegistry.toLowerCase(), ...forged };
    const r = await verifyPack({ source: toBytes(tree), rpcUrl: chain.rpcUrl, policy: "onchain" });
    // off-chain, the swapped receipt is self-consistent: only the chain can tell
    for (const n of FACT_NAMES) {
      const want =
        n === "receipt_anchors" || n === "award_log"
          ? "failed"
          : n === "indexer_agreement"
            ? "not-observed"
            : n === "pack_anchor"
              ? "unverified"
              : "verified";
      expect({ n, state: r.facts[n].state }).toEqual({ n, state: want });
    }
    expect(r.facts.receipt_anchors.reasons[0]).toMatch(/anchored in block \d+, after the award block \d+/);
    // award() bound the original rank_derivation: the re-hashed digest is not the one on chain
    expect(r.facts.award_log.reasons.join("\n")).toMatch(
      /Awarded\.rankingDigest is 0x[0-9a-f]{64}, \$\.benchmark\.ranking_digest is 0x/,
    );
  });

  it("counts a receipt anchored first by someone with another kind at or before the award block, naming it (probe35 C-F2)", async () => {
    const tree = parseJson(packBytes) as JsonObject;
    const row = at(tree, "rank_derivation", "rows", 3);
    row.receipt.started_at = "2026-11-30T03:07:00.000Z";
    row.receipt_hash = receiptHash(row.receipt);
    // a stranger (account 7) front-ran the platform's receipt anchor with kind pack
    const squat = await anchor(row.receipt_hash, ANCHOR_KINDS.pack, 7);
    const stranger = chain.accounts[7]!.address.toLowerCase();
    at(tree, "benchmark").award_block = squat.anchor_block; // the award came after it
    rehash(tree);
    const r = await verifyPack({ source: toBytes(tree), rpcUrl: chain.rpcUrl, policy: "onchain" });
    expect(r.facts.receipt_anchors.state).toBe("verified");
    expect(r.facts.receipt_anchors.reasons.join("\n")).toContain(
      `receipt ${row.receipt_hash} anchored in block ${squat.anchor_block} with kind pack by ${stranger}`,
    );
    // anchored after the award block it still fails
    at(tree, "benchmark").award_block = squat.anchor_block - 1;
    rehash(tree);
    const late = await verifyPack({ source: toBytes(tree), rpcUrl: chain.rpcUrl, policy: "onchain" });
    expect(late.facts.receipt_anchors.state).toBe("failed");
    expect(late.facts.receipt_anchors.reasons.join("\n")).toMatch(/after the award block/);
  });

  it("--receipt: an anchored receipt the pack leaves out fails receipt_inclusion naming its anchor; an unanchored one is unverified (probe34 C-F2)", async () => {
    const tree = parseJson(packBytes) as JsonObject;
    const rows = at(tree, "rank_derivation", "rows") as JsonObject[];
    const winners = new Set((at(tree, "winners") as JsonObject[]).map((w) => w.run_id));
    const i = rows.findLastIndex((r) => !winners.has(r.run_id) && r.receipt !== undefined);
    expect(i).toBeGreaterThan(0);
    const [left] = rows.splice(i, 1);
    rows.forEach((r, k) => (r.rank = k + 1));
    rehash(tree);
    const receipt = left!.receipt as JsonObject;
    const forged = { ...receipt, started_at: "2026-11-30T03:06:07.000Z" }; // anchored by nobody
    const r = await verifyPack({
      source: toBytes(tree),
      rpcUrl: chain.rpcUrl,
      receipts: [toBytes(receipt)],
    });
    expect(r.facts.receipt_inclusion!.state).toBe("failed");
    expect(r.facts.receipt_inclusion!.reasons[0]).toMatch(
      /is not in \$\.rank_derivation\.rows: the award left this finalized run out .*; anchored with kind receipt in block \d+, at or before award_block \d+; the agent has no row$/,
    );
    expect(r.policy_unmet).toContain("receipt_inclusion");
    const u = await verifyPack({ source: toBytes(tree), rpcUrl: chain.rpcUrl, receipts: [toBytes(forged)] });
    expect(u.facts.receipt_inclusion!.state).toBe("unverified");
    expect(u.facts.receipt_inclusion!.reasons[0]).toMatch(
      /is not in \$\.rank_derivation\.rows, and it is not anchored: not shown to be a receipt the award had to rank/,
    );
    expect(u.policy_met).toBe(false);
    // the same left-out receipt anchored first by a stranger with another kind, at or before the award
    // block, counts as anchored, as in receipt_anchors (probe35 C-F2: the platform adopts that anchoring
    // and has to rank the run): failed, naming the kind (award_block moved past it for this case)
    const squat = await anchor(keccak256Hex(canonicalJson(forged)), ANCHOR_KINDS.pack, 7);
    at(tree, "benchmark").award_block = squat.anchor_block;
    rehash(tree);
    const s = await verifyPack({ source: toBytes(tree), rpcUrl: chain.rpcUrl, receipts: [toBytes(forged)] });
    expect(s.facts.receipt_inclusion!.state).toBe("failed");
    expect(s.facts.receipt_inclusion!.reasons[0]).toMatch(
      new RegExp(
        `; anchored with kind pack in block ${squat.anchor_block}, at or before award_block ${squat.anchor_block}`,
      ),
    );
  });

  it("a re-titled pack anchored with kind pack by a stranger: pack_anchor unverified naming the awarder, full not met (probe31 C-F1)", async () => {
    const tree = parseJson(packBytes) as JsonObject;
    at(tree, "benchmark").title = "OFFICIAL: award REVOKED - winners must re-claim at evil.example";
    // the registry is permissionless: a stranger (account 7) anchors the re-titled pack as a pack
    const r = await verifyForged(tree, 7);
    // the title is covered by no other digest: every other fact holds, the pack's anchor binds nothing
    for (const n of FACT_NAMES)
      expect({ n, state: r.facts[n].state }).toEqual({
        n,
        state:
          n === "pack_anchor"
            ? "unverified"
            : indexer === null && n === "indexer_agreement"
              ? "not-observed"
              : "verified",
      });
    const awarder = chain.accounts[2]!.address.toLowerCase();
    expect(r.facts.pack_anchor.reasons[0]).toContain(
      `was anchored with kind pack by ${chain.accounts[7]!.address.toLowerCase()}, not by the awarder getBounty(`,
    );
    expect(r.facts.pack_anchor.reasons[0]).toContain(awarder);
    expect(r.policy_met).toBe(false);
    // the genuine pack, anchored by the awarder, meets it
    const good = await verifyPack({ source: packBytes, rpcUrl: chain.rpcUrl, policy: "onchain" });
    expect(good.facts.pack_anchor).toMatchObject({ state: "verified" });
    expect(good.facts.pack_anchor.reasons[0]).toContain(`by the awarder ${awarder}`);
    // named by no pack_anchor, the stranger's anchor is found and still binds nothing
    delete tree.pack_anchor;
    tree.pack_anchor = null;
    const unnamed = await verifyPack({ source: toBytes(tree), rpcUrl: chain.rpcUrl, policy: "onchain" });
    expect(unnamed.facts.pack_anchor.state).toBe("unverified");
    expect(unnamed.facts.pack_anchor.reasons[0]).toContain("not by the awarder");
  });

  it("root_burned names rootBurned(author, root) and fails for a pack naming another author (SPEC 9 v1.1)", async () => {
    const good = await verifyPack({ source: packBytes, rpcUrl: chain.rpcUrl, policy: "onchain" });
    const author = (at(parseJson(packBytes) as JsonObject, "benchmark").author as string).toLowerCase();
    expect(good.facts.root_burned.state).toBe("verified");
    expect(good.facts.root_burned.reasons[0]).toContain(`is getBounty(`);
    expect(good.facts.root_burned.reasons[0]).toContain(author);

    const tree = parseJson(packBytes) as JsonObject;
    const other = "0x000000000000000000000000000000000000dead";
    at(tree, "benchmark").author = other;
    rehash(tree);
    const r = await verifyPack({ source: toBytes(tree), rpcUrl: chain.rpcUrl, policy: "onchain" });
    expect(r.facts.root_burned.state).toBe("failed");
    expect(r.facts.root_burned.reasons).toContain(
      `getBounty(${good.subject.bounty_id}).author is ${author}, $.benchmark.author is ${other}: the root would be burned for another author`,
    );
    expect(r.policy_unmet).toContain("root_burned");
    // the root is pinned and the award logged as before: only the author's facts fail
    expect(r.facts.onchain_root.state).toBe("verified");
    expect(r.facts.award_log.state).toBe("failed");
  });

  // probe14 D2-F26: a pack names its own contracts; one that answers the reads as it likes met the
  // onchain policy. Only the protocol's own runtime code counts.
  it("fails the chain facts of a contract that does not run the protocol's code", async () => {
    const tree = parseJson(packBytes) as JsonObject;
    at(tree, "benchmark").bounty_contract = chain.contracts.usdc;
    rehash(tree);
    const r = await verifyPack({ source: toBytes(tree), rpcUrl: chain.rpcUrl, policy: "onchain" });
    for (const n of ["onchain_root", "onchain_leaf_count", "root_burned", "award_log"] as const) {
      expect(r.facts[n].state, n).toBe("failed");
      expect(r.facts[n].reasons.join(" "), n).toMatch(
        /\$\.benchmark\.bounty_contract 0x[0-9a-f]{40} on chain 8453 does not run the BenchmarkBounty code of @bench-bounty\/contracts/,
      );
    }
    expect(r.facts.commitment_anchor.state).toBe("verified");
    expect(r.policy_met).toBe(false);
    // the registry too: the bounty contract named as the AnchorRegistry
    const t2 = parseJson(packBytes) as JsonObject;
    (at(t2, "benchmark").commitment_anchor as JsonObject).registry_address = chain.contracts.benchmarkBounty;
    rehash(t2);
    const r2 = await verifyPack({ source: toBytes(t2), rpcUrl: chain.rpcUrl, policy: "onchain" });
    for (const n of ["commitment_anchor", "receipt_anchors"] as const) {
      expect(r2.facts[n].state, n).toBe("failed");
      expect(r2.facts[n].reasons.join(" "), n).toMatch(
        /does not run the AnchorRegistry code of @bench-bounty\/contracts/,
      );
    }
    expect(r2.facts.onchain_root.state).toBe("verified");
  });

  // probe14 D2-F26, the rest: the code check cannot tell a genuine copy deployed elsewhere (its bounties
  // can hold any token); on a chain of SPEC 1.3 only the address book's contracts count
  it("fails the chain facts of a genuine copy of the contracts deployed at another address", async () => {
    const deploy = async (data: Hex) => {
      const hash = await chain.wallet(0).sendTransaction({ data });
      return (await chain.publicClient.waitForTransactionReceipt({ hash })).contractAddress!.toLowerCase();
    };
    const bountyCopy = await deploy(benchmarkBountyBytecode);
    const registryCopy = await deploy(anchorRegistryBytecode);
    expect(bountyCopy).not.toBe(chain.contracts.benchmarkBounty.toLowerCase());
    const tree = parseJson(packBytes) as JsonObject;
    at(tree, "benchmark").bounty_contract = bountyCopy;
    (at(tree, "benchmark").commitment_anchor as JsonObject).registry_address = registryCopy;
    rehash(tree);
    const r = await verifyPack({ source: toBytes(tree), rpcUrl: chain.rpcUrl, policy: "onchain" });
    for (const n of ["onchain_root", "onchain_leaf_count", "root_burned", "award_log"] as const) {
      expect(r.facts[n].state, n).toBe("failed");
      expect(r.facts[n].reasons.join(" "), n).toContain(
        `$.benchmark.bounty_contract ${bountyCopy} on chain 8453 is not the BenchmarkBounty of the address book (${chain.contracts.benchmarkBounty.toLowerCase()})`,
      );
    }
    expect(r.facts.commitment_anchor.state).toBe("failed");
    expect(r.facts.commitment_anchor.reasons.join(" ")).toContain(
      `${registryCopy} on chain 8453 is not the AnchorRegistry of the address book`,
    );
    expect(r.policy_met).toBe(false);
  });

  it("fails award_log for a bounty whose token is not the chain's USDC (SPEC 1.3)", () => {
    expect(tokenProblem(chain.contracts.usdc, "getBounty(1).token", 8453)).toBeNull();
    expect(tokenProblem("0x00000000000000000000000000000000000000aa", "getBounty(1).token", 8453)).toBe(
      `getBounty(1).token is 0x00000000000000000000000000000000000000aa, not the USDC of chain 8453 (${chain.contracts.usdc.toLowerCase()}, SPEC 1.3)`,
    );
    expect(tokenProblem("0x00000000000000000000000000000000000000aa", "t", 84532)).toMatch(
      /not the USDC of chain 84532/,
    );
    // a chain SPEC 1.3 does not name (a local node with another chain id) has no address book
    expect(tokenProblem("0x00000000000000000000000000000000000000aa", "t", 31337)).toBeNull();
    expect(
      deploymentProblem("BenchmarkBounty", "0x00000000000000000000000000000000000000aa", "w", 31337),
    ).toBeNull();
  });

  it("reports the wrong chain on every chain fact", async () => {
    const tree = parseJson(packBytes) as JsonObject;
    at(tree, "benchmark").chain_id = 84532;
    rehash(tree);
    const r = await verifyPack({ source: toBytes(tree), rpcUrl: chain.rpcUrl, policy: "onchain" });
    for (const n of CHAIN_FACTS)
      expect(r.facts[n]).toEqual({
        state: "failed",
        reasons: ["the RPC serves chain 8453, $.benchmark.chain_id is 84532"],
      });
  });
});

/** Runtime of a contract whose every call reverts with `Error(reason)` (deployed by its init code). */
function reverterInitCode(reason: string): Hex {
  const text = Buffer.from(reason, "utf8");
  const word = (n: number): Buffer => {
    const b = Buffer.alloc(32);
    b.writeUInt32BE(n, 28);
    return b;
  };
  const padded = Buffer.concat([text, Buffer.alloc((32 - (text.length % 32)) % 32)]);
  const data = Buffer.concat([Buffer.from("08c379a0", "hex"), word(32), word(text.length), padded]);
  const h2 = (n: number): string => n.toString(16).padStart(4, "0");
  // CODECOPY the revert data after this 15-byte prologue into memory 0, then REVERT(0, len)
  const runtime = Buffer.concat([
    Buffer.from(`61${h2(data.length)}61000f60003961${h2(data.length)}6000fd`, "hex"),
    data,
  ]);
  // the init code returns the runtime the same way
  const init = Buffer.concat([
    Buffer.from(`61${h2(runtime.length)}61000f60003961${h2(runtime.length)}6000f3`, "hex"),
    runtime,
  ]);
  return `0x${init.toString("hex")}`;
}

/** The probe's revert text: erase the line, a green verdict of its own, then conceal the rest. */
const FORGED_REVERT =
  "\r\u001b[2K\u001b[1A\u001b[2K\u001b[32mall facts verified\u001b[0m\npolicy onchain: MET\n\u001b[8m";

describe("a pack naming a contract that reverts (probe D2-F9)", () => {
  let reverter: Address;
  beforeAll(async () => {
    const hash = await chain.wallet(0).sendTransaction({ data: reverterInitCode(FORGED_REVERT) });
    const r = await chain.publicClient.waitForTransactionReceipt({ hash });
    reverter = r.contractAddress!;
  });

  it("as bounty_contract: its chain facts fail (not its code), the reason without escapes", async () => {
    const tree = parseJson(packBytes) as JsonObject;
    at(tree, "benchmark").bounty_contract = reverter.toLowerCase();
    rehash(tree);
    const r = await verifyPack({ source: toBytes(tree), rpcUrl: chain.rpcUrl, policy: "onchain" });
    for (const n of ["onchain_root", "onchain_leaf_count", "root_burned", "award_log"] as const) {
      expect(r.facts[n].state).toBe("failed");
      // the code check comes first (probe14 D2-F26): the forged contract's revert text is never read
      expect(r.facts[n].reasons.join("\n")).toMatch(
        new RegExp(
          `\\$\\.benchmark\\.bounty_contract ${reverter.toLowerCase()} on chain 8453 does not run the BenchmarkBounty code`,
        ),
      );
      for (const reason of r.facts[n].reasons) expect(reason).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    }
    // the registry is the real one: its facts stand
    expect(r.facts.commitment_anchor.state).toBe("verified");
    expect(r.policy_met).toBe(false);
    const table = formatReportTable(r, { verbose: true });
    expect(table).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(table).toMatch(/\npolicy onchain: NOT MET \(/);
  });

  it("as the commitment's and the pack's registry: the anchor facts fail, the bounty's stand", async () => {
    const tree = parseJson(packBytes) as JsonObject;
    at(tree, "benchmark", "commitment_anchor").registry_address = reverter.toLowerCase();
    at(tree, "pack_anchor").registry_address = reverter.toLowerCase();
    rehash(tree);
    const r = await verifyPack({ source: toBytes(tree), rpcUrl: chain.rpcUrl, policy: "onchain" });
    for (const n of ["commitment_anchor", "receipt_anchors", "pack_anchor"] as const) {
      expect(r.facts[n].state).toBe("failed");
      expect(r.facts[n].reasons.join("\n")).toMatch(
        /does not run the AnchorRegistry code of @bench-bounty\/contracts/,
      );
      for (const reason of r.facts[n].reasons) expect(reason).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    }
    expect(r.facts.onchain_root.state).toBe("verified");
    expect(r.facts.award_log.state).toBe("verified");
  });

  it("the CLI exits 1 (policy not met), not 3 (cannot read the RPC), and prints no escape", async () => {
    const tree = parseJson(packBytes) as JsonObject;
    at(tree, "benchmark").bounty_contract = reverter.toLowerCase();
    rehash(tree);
    const file = join(mkdtempSync(join(tmpdir(), "verify-rev-")), "pack.json");
    writeFileSync(file, toBytes(tree));
    const r = await runCli(["verify", file, "--rpc", chain.rpcUrl, "--policy", "onchain"]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toBe("");
    expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(r.stdout).toMatch(/\npolicy onchain: NOT MET \(onchain_root is failed/);
    expect(r.stdout).not.toMatch(/^policy onchain: MET$/m);
  });
});

/** Wrong-shape JSON-RPC results (probe15 B-F6): scalars, hex of the wrong length, arrays, objects, broken receipts. */
const RPC_SHAPES: readonly unknown[] = [
  null,
  "0x",
  "0x0",
  `0x${"f".repeat(200)}`,
  5,
  -1,
  true,
  [],
  [null],
  {},
  "zz",
  `0x${"1".repeat(64)}`,
  { logs: "x" },
  { status: "0x1", logs: [{}] },
  { status: "0x1", logs: [{ topics: "x", data: 5 }] },
  { status: "0x1", blockNumber: "0xffffffffffffffffffff", logs: [] },
];

describe("an RPC answering results of the wrong shape (probe15 B-F6)", () => {
  let proxy: RpcProxy;
  beforeAll(async () => {
    proxy = await startRpcProxy(chain.rpcUrl, RPC_SHAPES);
  });
  afterAll(() => proxy.close());

  for (const method of ["eth_chainId", "eth_call", "eth_getTransactionReceipt", "eth_getCode"])
    it(`${method}: every shape is a report or an RPC that cannot be read naming the call, never an internal error`, async () => {
      const outcomes: string[] = [];
      for (let k = 0; k < RPC_SHAPES.length; k++) {
        const shape = JSON.stringify(RPC_SHAPES[k]);
        try {
          const r = await verifyPack({
            source: packBytes,
            rpcUrl: `${proxy.origin}/${method}/${k}`,
            policy: "onchain",
            timeoutMs: 5000,
          });
          outcomes.push(`${shape}: report, award_log ${r.facts.award_log.state}`);
        } catch (e) {
          const message = e instanceof Error ? e.message : String(e);
          const named = method === "eth_call" ? /: \w+\([^)]*\): / : new RegExp(`: ${method}: `);
          outcomes.push(
            e instanceof VerifierNetworkError && named.test(message) && !INTERNAL.test(message)
              ? `${shape}: cannot read the RPC`
              : `${shape}: ${(e as Error).name} ${message}`,
          );
        }
      }
      expect(outcomes.filter((o) => !/: (report, award_log \S+|cannot read the RPC)$/.test(o))).toEqual([]);
    });

  it("the CLI exits 3 naming eth_getTransactionReceipt and what it answered, not 4", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "verify-shape-")), "pack.json");
    writeFileSync(file, packBytes);
    const k = RPC_SHAPES.indexOf("0x");
    const r = await runCli(["verify", file, "--rpc", `${proxy.origin}/eth_getTransactionReceipt/${k}`]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      /^verify: cannot read rpc http:\/\/127\.0\.0\.1:\d+: eth_getTransactionReceipt: the answer is not a transaction receipt/m,
    );
  });
});

/** probe36 V-F7's answers: neither `result` nor `error`, a null result, `"error": null` alone, `"0x"`, another id. */
const ENVELOPES: readonly unknown[] = [
  new WholeAnswer(({ result: _, ...rest }) => rest),
  null,
  new WholeAnswer(({ result: _, ...rest }) => ({ ...rest, error: null })),
  "0x",
  new WholeAnswer((m) => ({ ...m, id: "other" })),
];
const [NO_RESULT, NULL_RESULT, NULL_ERROR, EMPTY_DATA, OTHER_ID] = [0, 1, 2, 3, 4];

/**
 * probe36 V-F7: an `eth_call` answer with neither `result` nor `error`, or with a `null` result, was read as
 * the contract's "returned no data: not the protocol's contract" (seven facts failed, exit 1), where a
 * malformed receipt answer is exit 3; an answer with another `id` was taken for any method. Each is an RPC
 * that cannot be read (exit 3) naming the call; a real `"0x"` stays the contract's answer (a failed fact).
 */
describe("an RPC answer that is no JSON-RPC answer to its call (probe36 V-F7)", () => {
  let proxy: RpcProxy;
  beforeAll(async () => {
    proxy = await startRpcProxy(chain.rpcUrl, ENVELOPES);
  });
  afterAll(() => proxy.close());

  const readWith = (method: string, k: number) =>
    verifyPack({
      source: packBytes,
      rpcUrl: `${proxy.origin}/${method}/${k}`,
      policy: "onchain",
      timeoutMs: 5000,
    });

  it.each([
    [
      "neither result nor error",
      NO_RESULT,
      /\(\$\[\d+\]: has neither "result" nor "error" \(JSON-RPC 2\.0 requires one of them\)\)/,
    ],
    ["a null result", NULL_RESULT, /\(\$\[\d+\]\.result: is null: an eth_call answers hex data/],
    ["a null error and no result", NULL_ERROR, /\(\$\[\d+\]: has no "result" and its "error" is null/],
  ])(
    "eth_call answered with %s: cannot read the RPC, naming the call and eth_call",
    async (_what, k, said) => {
      const e = await readWith("eth_call", k).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(VerifierNetworkError);
      const message = (e as Error).message;
      expect(message).toMatch(
        /^rpc http:\/\/127\.0\.0\.1:\d+: \w+\([^)]*\): the answer is not a JSON-RPC answer to eth_call /,
      );
      expect(message).toMatch(said);
      expect(message).not.toMatch(/returned no data|not the protocol's contract/);
    },
  );

  it('eth_call answered "0x" (the contract returned no data) still fails the facts read from it', async () => {
    const r = await readWith("eth_call", EMPTY_DATA);
    expect(r.facts.onchain_root.state).toBe("failed");
    expect(r.facts.onchain_root.reasons.join("\n")).toMatch(
      /^\$\.benchmark\.bounty_contract 0x[0-9a-f]{40}: \w+\([^)]*\) returned no data: not the protocol's contract$/m,
    );
  });

  it.each(["eth_chainId", "eth_call", "eth_getCode", "eth_getTransactionReceipt"])(
    "an answer to %s with another id is not an answer to the request",
    async (method) => {
      const e = await readWith(method, OTHER_ID).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(VerifierNetworkError);
      expect((e as Error).message).toMatch(
        new RegExp(
          `the answer is not an answer to this batch of \\d+ calls? \\([^)]*${method}[^)]*\\) \\(\\$\\[\\d+\\]\\.id: is "other", the id of no call of the batch\\)`,
        ),
      );
    },
  );

  it("an unbatched request answered with another id is refused too", async () => {
    const client = rpcClient(`${proxy.origin}/eth_chainId/${OTHER_ID}`, { batch: false, timeoutMs: 5000 });
    const e = await rpcReader("rpc x")("eth_chainId", () => readChainId(client)).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(VerifierNetworkError);
    expect((e as Error).message).toMatch(
      /^rpc x: eth_chainId: the answer is not an answer to this eth_chainId request \(\$\.id: is "other", the request's is \d+\)$/,
    );
  });

  it("the CLI exits 3 naming eth_call, not 1 (not the protocol's contract)", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "verify-envelope-")), "pack.json");
    writeFileSync(file, packBytes);
    const r = await runCli(["verify", file, "--rpc", `${proxy.origin}/eth_call/${NO_RESULT}`]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      /^verify: cannot read rpc http:\/\/127\.0\.0\.1:\d+: \w+\([^)]*\): the answer is not a JSON-RPC answer to eth_call /m,
    );
    expect(r.stdout).not.toMatch(/not the protocol's contract/);
  });
});

/**
 * probe38 B-F1: an `eth_call` answered with odd hex (`"0x123"`) or `""` was read as the contract's "returned
 * data too short for the function's ABI: not the protocol's contract" (seven facts failed, exit 1), and a
 * number, an object or a non-hex string failed in viem's words with no JSON path ("An unknown error
 * occurred", "Invalid byte sequence"). Each is an RPC that cannot be read (exit 3) naming eth_call and
 * `$[i].result`; a real `"0x"` stays the contract's answer (the probe36 V-F7 test above).
 */
/** The verifier's "cannot read the RPC" message for the pack through `proxy`'s eth_call answer `k` (exit 3). */
async function unreadableAt(proxy: RpcProxy, k: number): Promise<string> {
  const e = await verifyPack({
    source: packBytes,
    rpcUrl: `${proxy.origin}/eth_call/${k}`,
    policy: "onchain",
    timeoutMs: 5000,
  }).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(VerifierNetworkError);
  return (e as Error).message;
}

describe("an eth_call result that is not hex data (probe38 B-F1)", () => {
  const results: [string, unknown, string][] = [
    ["odd hex", "0x123", '"0x123"'],
    // 65 digits: viem pads odd hex with a leading 0, so this decoded as another bytes32 (a root mismatch)
    ["odd hex long enough to decode", `0x${"ab".repeat(32)}c`, `"0x${"ab".repeat(32)}c"`],
    ["an empty string", "", '""'],
    ["a number", 5, "5"],
    ["an object", { a: 1 }, '{"a":1}'],
    ["a string of no hex", "0llo", '"0llo"'],
    ["hex digits after 0x but not hex", "0xzz", '"0xzz"'],
  ];
  let proxy: RpcProxy;
  beforeAll(async () => {
    proxy = await startRpcProxy(
      chain.rpcUrl,
      results.map(([, r]) => r),
    );
  });
  afterAll(() => proxy.close());

  it.each(results.map(([what, , json], k) => [what, k, json] as const))(
    "eth_call answered with %s: cannot read the RPC, naming eth_call and $[i].result",
    async (_what, k, json) => {
      const message = await unreadableAt(proxy, k);
      expect(message).toMatch(
        /^rpc http:\/\/127\.0\.0\.1:\d+: \w+\([^)]*\): the answer is not a JSON-RPC answer to eth_call \(\$\[\d+\]\.result: is /,
      );
      expect(message).toContain(
        `.result: is ${json}: an eth_call answers hex data ("0x" then an even count of hex digits;`,
      );
      expect(message).not.toMatch(
        /too short|not the protocol's contract|unknown error|Invalid byte sequence/,
      );
    },
  );

  it("the CLI exits 3 for odd hex, not 1 (not the protocol's contract)", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "verify-ethcall-hex-")), "pack.json");
    writeFileSync(file, packBytes);
    const r = await runCli(["verify", file, "--rpc", `${proxy.origin}/eth_call/0`]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      /^verify: cannot read rpc http:\/\/127\.0\.0\.1:\d+: \w+\([^)]*\): the answer is not a JSON-RPC answer to eth_call \(\$\[\d+\]\.result: is "0x123": /m,
    );
    expect(r.stdout).not.toMatch(/not the protocol's contract/);
  });

  it("an unbatched eth_call answered with odd hex names $.result", async () => {
    const client = rpcClient(`${proxy.origin}/eth_call/0`, { batch: false, timeoutMs: 5000 });
    const e = await rpcReader("rpc x")("eth_call", () =>
      client.call({ to: "0x0000000000000000000000000000000000000001", data: "0x" }),
    ).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(VerifierNetworkError);
    expect((e as Error).message).toMatch(
      /^rpc x: eth_call: the answer is not a JSON-RPC answer to eth_call \(\$\.result: is "0x123": an eth_call answers hex data /,
    );
  });
});

/** The revert data of Solidity's `Error(reason)`. */
const encodeErrorString = (reason: string): Hex =>
  encodeErrorResult({
    abi: [{ type: "error", name: "Error", inputs: [{ type: "string", name: "message" }] }],
    errorName: "Error",
    args: [reason],
  });

/** An `eth_call` answered with a JSON-RPC error carrying `error` in place of its result. */
const revertAnswer = (error: Record<string, unknown>) =>
  new WholeAnswer(({ result: _, ...rest }) => ({ ...rest, error }));

/**
 * probe38 B-N1: an `eth_call` of a view of the bounty contract (whose code `eth_getCode` matched) answered
 * with a revert carrying junk data (`0x08c379a0` and 10 zero bytes, 100 bytes of `0xab`) was the contract's
 * "reverted (no reason): not the protocol's contract" (exit 1), where check_pack.py says it cannot read the
 * RPC (exit 3). The protocol's views never revert: any revert is the RPC's answer, exit 3 naming the call.
 */
describe("a revert answered to a view of the protocol's contract (probe38 B-N1)", () => {
  const reverts: [string, Record<string, unknown>, RegExp][] = [
    [
      "Error(string)'s selector and 10 zero bytes",
      { code: 3, message: "execution reverted", data: `0x08c379a0${"00".repeat(10)}` },
      /\(data 0x08c379a0(00){10}\)$/,
    ],
    [
      "100 bytes of 0xab",
      { code: 3, message: "execution reverted", data: `0x${"ab".repeat(100)}` },
      /\(data 0x(ab){68}\.\.\. \(200 hex digits\)\)$/,
    ],
    [
      "a well-formed Error(string) reason",
      { code: 3, message: "execution reverted: nope", data: encodeErrorString("nope") },
      /\(data 0x08c379a0\w+\.\.\. \(200 hex digits\), its reason "nope"\)$/,
    ],
    [
      "an internal error with a message and no data",
      { code: -32603, message: "internal error" },
      /\(no data, its message "internal error"\)$/,
    ],
  ];
  let proxy: RpcProxy;
  beforeAll(async () => {
    proxy = await startRpcProxy(
      chain.rpcUrl,
      reverts.map(([, error]) => revertAnswer(error)),
    );
  });
  afterAll(() => proxy.close());

  it.each(reverts.map(([what, , said], k) => [what, k, said] as const))(
    "eth_call reverted with %s: cannot read the RPC, naming the call and the revert",
    async (_what, k, said) => {
      const message = await unreadableAt(proxy, k);
      expect(message).toMatch(
        /^rpc http:\/\/127\.0\.0\.1:\d+: \w+\([^)]*\): the RPC answered a revert of a view the protocol's contract cannot revert \(/,
      );
      expect(message).toMatch(said);
      expect(message).not.toMatch(/not the protocol's contract|reverted \(/);
    },
  );

  it("the CLI exits 3 for the junk revert, not 1 (not the protocol's contract)", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "verify-revert-")), "pack.json");
    writeFileSync(file, packBytes);
    const r = await runCli(["verify", file, "--rpc", `${proxy.origin}/eth_call/0`, "--policy", "onchain"]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      /^verify: cannot read rpc http:\/\/127\.0\.0\.1:\d+: \w+\([^)]*\): the RPC answered a revert of a view the protocol's contract cannot revert \(data 0x08c379a0(00){10}\)$/m,
    );
    expect(r.stdout).not.toMatch(/not the protocol's contract/);
  });
});

/** A receipt answer with `change` made to its result (an unmined transaction's `null` left as it is). */
const receiptChanged = (change: (r: Record<string, any>) => void) =>
  new WholeAnswer((m) => {
    if (m.result === null || typeof m.result !== "object") return m;
    const r = structuredClone(m.result) as Record<string, any>;
    change(r);
    return { ...m, result: r };
  });

/**
 * probe38 B-N2: a receipt whose `gasUsed` was `"-0x5"` failed in viem's formatter's words ("Cannot convert
 * -0x5 to a BigInt", exit 3 with no JSON path): its shape check read only the fields the facts read. Every
 * quantity viem's formatter converts is checked, named by its JSON path; so is `eth_blockNumber`.
 */
describe("a receipt or block number whose quantity viem's formatter converts is malformed (probe38 B-N2)", () => {
  const broken: [string, (r: Record<string, any>) => void, string][] = [
    ["gasUsed -0x5", (r) => (r.gasUsed = "-0x5"), "$.gasUsed"],
    ['cumulativeGasUsed "5" (no 0x)', (r) => (r.cumulativeGasUsed = "5"), "$.cumulativeGasUsed"],
    ["effectiveGasPrice zz", (r) => (r.effectiveGasPrice = "0xzz"), "$.effectiveGasPrice"],
    ["transactionIndex -0x1", (r) => (r.transactionIndex = "-0x1"), "$.transactionIndex"],
    ["blobGasUsed 1e3", (r) => (r.blobGasUsed = "1e3"), "$.blobGasUsed"],
    ["a log's logIndex zz", (r) => (r.logs[0].logIndex = "zz"), "$.logs[0].logIndex"],
    [
      "a log's transactionIndex -0x1",
      (r) => (r.logs[0].transactionIndex = "-0x1"),
      "$.logs[0].transactionIndex",
    ],
  ];
  let proxy: RpcProxy;
  beforeAll(async () => {
    proxy = await startRpcProxy(chain.rpcUrl, [
      ...broken.map(([, change]) => receiptChanged(change)),
      "-0x5",
    ]);
  });
  afterAll(() => proxy.close());

  it.each(broken.map(([what, , path], k) => [what, k, path] as const))(
    "a receipt with %s: cannot read the RPC, naming its JSON path",
    async (_what, k, path) => {
      const e = await verifyPack({
        source: packBytes,
        rpcUrl: `${proxy.origin}/eth_getTransactionReceipt/${k}`,
        policy: "onchain",
        timeoutMs: 5000,
      }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(VerifierNetworkError);
      const message = (e as Error).message;
      expect(message).toMatch(
        /^rpc http:\/\/127\.0\.0\.1:\d+: eth_getTransactionReceipt: the answer is not a transaction receipt/,
      );
      expect(message).toContain(`(${path}: expected a hex quantity)`);
      expect(message).not.toMatch(INTERNAL);
    },
  );

  it("the CLI exits 3 for gasUsed -0x5 naming $.gasUsed, not viem's words", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "verify-gasused-")), "pack.json");
    writeFileSync(file, packBytes);
    const r = await runCli(["verify", file, "--rpc", `${proxy.origin}/eth_getTransactionReceipt/0`]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      /^verify: cannot read rpc http:\/\/127\.0\.0\.1:\d+: eth_getTransactionReceipt: the answer is not a transaction receipt.*\(\$\.gasUsed: expected a hex quantity\)$/m,
    );
  });

  it("an honest receipt with null and absent quantities is read", async () => {
    const k = broken.length + 1;
    const nulls = await startRpcProxy(chain.rpcUrl, [
      ...Array<unknown>(k).fill(null),
      receiptChanged((r) => {
        r.effectiveGasPrice = null;
        delete r.blobGasUsed;
        delete r.logs[0]?.transactionIndex;
      }),
    ]);
    try {
      const r = await verifyPack({
        source: packBytes,
        rpcUrl: `${nulls.origin}/eth_getTransactionReceipt/${k}`,
        policy: "onchain",
        timeoutMs: 5000,
      });
      expect(r.facts.award_log.state).toBe("verified");
    } finally {
      nulls.close();
    }
  });

  it("eth_blockNumber answered -0x5: cannot read the RPC, naming eth_blockNumber and $", async () => {
    const client = rpcClient(`${proxy.origin}/eth_blockNumber/${broken.length}`, {
      batch: false,
      timeoutMs: 5000,
    });
    const e = await rpcReader("rpc x")("eth_blockNumber", () => readBlockNumber(client)).catch(
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(VerifierNetworkError);
    expect((e as Error).message).toBe(
      "rpc x: eth_blockNumber: the answer is not a block number ($: expected a hex quantity)",
    );
  });
});

/**
 * probe36 B-F3: a pack whose address or digest is malformed exited 1 offline and with `--rpc` alone, but with
 * `--indexer` the value was put into `creditOf` (exit 3, "cannot read rpc") or an indexer route (`GET
 * /anchors/0`, `GET /anchors/`, `/awards?winner=0x`: exit 2, "check the indexer URL"). The verifier decides
 * such a value from the pack: every mode exits 1, and `indexer_agreement` fails naming its JSON path.
 */
describe("a pack with a malformed address or digest: exit 1 in every mode (probe36 B-F3)", () => {
  const cases: [string, (tree: JsonObject) => void, RegExp][] = [
    [
      'winners[0].withdrawal_address "0x"',
      (tree) => (at(tree, "winners", 0).withdrawal_address = "0x"),
      /^\$\.winners\[0\]\.withdrawal_address 0x is not an address \(0x and 40 hex digits\): GET \/awards\?winner=&bounty= and GET \/accounts\/:address\/credits\?bounty= not read$/,
    ],
    [
      'winners[0].receipt_hash "0"',
      (tree) => (at(tree, "winners", 0).receipt_hash = "0"),
      /^\$\.winners\[0\]\.receipt_hash 0 is not a bytes32 \(0x and 64 hex digits\): GET \/anchors\/:digest \(its receipt anchor\) not read$/,
    ],
    [
      'benchmark.commit_root ""',
      (tree) => (at(tree, "benchmark").commit_root = ""),
      /^\$\.benchmark\.commit_root "" is not a bytes32 \(0x and 64 hex digits\): GET \/anchors\/:digest \(its commitment anchor\) not read$/,
    ],
  ];

  for (const [what, edit, reason] of cases)
    it(`${what}: offline, --rpc, --indexer, --rpc --indexer all exit 1`, async (ctx) => {
      if (indexer === null) ctx.skip(`indexer did not start: ${indexerError}`);
      await indexer!.waitForHead();
      const tree = parseJson(packBytes) as JsonObject;
      edit(tree);
      const file = join(mkdtempSync(join(tmpdir(), "verify-unkeyed-")), "pack.json");
      writeFileSync(file, toBytes(tree));
      const modes: [string, string[]][] = [
        ["offline", []],
        ["--rpc", ["--rpc", chain.rpcUrl, "--policy", "onchain"]],
        ["--indexer", ["--indexer", indexer!.url, "--policy", "full"]],
        ["--rpc --indexer", ["--rpc", chain.rpcUrl, "--indexer", indexer!.url, "--policy", "full"]],
      ];
      const runs = await Promise.all(modes.map(([, args]) => runCli(["verify", file, "--json", ...args])));
      const outcomes = runs.map((r, i) => ({ mode: modes[i]![0], code: r.code, stderr: r.stderr }));
      expect(outcomes).toEqual(modes.map(([mode]) => ({ mode, code: 1, stderr: "" })));
      for (const [i, r] of runs.entries()) {
        const report = JSON.parse(r.stdout) as VerificationReport;
        expect(report.policy_met).toBe(false);
        const agreement = report.facts.indexer_agreement;
        if (!modes[i]![0].includes("--indexer")) expect(agreement.state).toBe("not-observed");
        else {
          expect({ mode: modes[i]![0], state: agreement.state }).toEqual({
            mode: modes[i]![0],
            state: "failed",
          });
          expect(agreement.reasons[0]).toMatch(reason);
        }
        // receipt_anchors names where the pack states the hash it could not read (j36's note)
        if (what.includes("receipt_hash") && modes[i]![0].includes("--rpc"))
          expect(report.facts.receipt_anchors.reasons.join("\n")).toMatch(
            /^\$\.winners\[0\]\.receipt_hash 0 is not a bytes32$/m,
          );
      }
    }, 240_000);
});

describe("a zero-winner award with no runs on the local Base profile", () => {
  it("meets the onchain policy: receipt_anchors is not-required, not unmet", async () => {
    // another test set (the first award burned its root), committed, anchored and locked
    const bounty = await lockBounty(TEST_SET.map((r) => ({ ...r, salt: salt(`zero-${r.ordinal}`) })));
    await chain.increaseTime(3700);
    // nobody ran: award() with no winner and the digest of the empty derivation
    const derivation = buildRankDerivation({ scoring: SCORING, pool_base_units: POOL, runs: [] });
    expect(derivation.winning_runs).toEqual([]);
    const award = await awardBounty(bounty.bountyId, derivation);
    const zeroPack = await mintAnchoredPack({
      slug: "onchain-verifier-zero",
      title: "Verifier on-chain test, no runs",
      bounty,
      award,
      runs: [],
    });

    const r = await verifyPack({
      source: evidencePackBytes(zeroPack),
      rpcUrl: chain.rpcUrl,
      policy: "onchain",
    });
    expect(r.facts.receipt_anchors.state).toBe("not-required");
    expect(r.policy_unmet).toEqual([]);
    expect(r.policy_met).toBe(true);
    for (const n of CHAIN_FACTS) expect(["verified", "not-required"]).toContain(r.facts[n].state);
    expect(r.facts.award_log.state).toBe("verified");
  });
});

describe("compute receipts anchored on the local Base profile", () => {
  it("verify-receipt --rpc: anchored with kind compute-receipt is verified, unanchored is unverified", async () => {
    const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
    const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256" }] };
    const receiptFor = async (model: string) => {
      const payload = {
        model_id: model,
        prompt_tokens: 10,
        completion_tokens: 5,
        total_tokens: 15,
        base_cost_usdc: "0.000100",
        margin_usdc: "0.000015",
        total_usdc: "0.000115",
        input_sha256: `sha256:${"0".repeat(64)}`,
        output_sha256: `sha256:${"1".repeat(64)}`,
      };
      const receipt_hash = keccak256Hex(canonicalJson(payload));
      const receipt_jws = await new CompactSign(canonicalJson(payload))
        .setProtectedHeader({ alg: "ES256", kid: "k1" })
        .sign(privateKey);
      return {
        receipt_hash,
        bytes: new TextEncoder().encode(
          JSON.stringify({
            invocation_id: model,
            receipt_jws,
            compute_receipt: { ...payload, receipt_hash },
          }),
        ),
      };
    };
    const verifyAgainstChain = (execute: Uint8Array) =>
      verifyComputeReceipt({ execute, jwks, rpcUrl: chain.rpcUrl, registry: chain.contracts.anchorRegistry });
    const anchored = await receiptFor("model-anchored");
    await anchor(anchored.receipt_hash, ANCHOR_KINDS["compute-receipt"], 7);
    const r1 = await verifyAgainstChain(anchored.bytes);
    expect(r1.facts.anchor.state).toBe("verified");
    expect(r1.facts.anchor.reasons[0]).toMatch(/anchored with kind compute-receipt in block \d+/);
    expect(r1.ok).toBe(true);
    const loose = await receiptFor("model-unanchored");
    const r2 = await verifyAgainstChain(loose.bytes);
    expect(r2.facts.anchor.state).toBe("unverified");
    expect(r2.ok).toBe(true);
    // a digest anchored with another kind is not a compute-receipt anchor
    const wrongKind = await receiptFor("model-wrong-kind");
    await anchor(wrongKind.receipt_hash, ANCHOR_KINDS.receipt, 7);
    const r3 = await verifyAgainstChain(wrongKind.bytes);
    expect(r3.facts.anchor.state).toBe("failed");
    expect(r3.ok).toBe(false);
  });
});

// Last in the file: the winner's claim changes the chain every test above reads.
describe("a winner's claim as the real indexer states it (probe35 B-F8)", () => {
  it("its claimTx, claimedTotal and awardedLogIndex agree with the chain; a claimTx of another transaction fails", async (ctx) => {
    if (indexer === null) ctx.skip(`indexer did not start: ${indexerError}`);
    const winner = pack.winners[0]!.withdrawal_address.toLowerCase();
    const account = chain.accounts.findIndex((a) => a.address.toLowerCase() === winner);
    expect(account).toBeGreaterThanOrEqual(0);
    const claimTx = await chain.wallet(account).writeContract({
      address: pack.benchmark.bounty_contract as Address,
      abi: benchmarkBountyAbi,
      functionName: "claim",
      args: [BigInt(pack.benchmark.bounty_id), winner as Address],
    });
    await mined(claimTx);
    await indexer!.waitForHead();
    const served = (await (await fetch(`${indexer!.url}/bounties/${pack.benchmark.bounty_id}`)).json()) as {
      bounty: { claimedTotal: string; awardedLogIndex: number };
      winners: { claimTx: string | null }[];
    };
    expect(served.winners[0]!.claimTx).toBe(claimTx);
    expect(served.bounty.claimedTotal).toBe(String(pack.winners[0]!.amount_base_units));
    const honest = await verifyPack({
      source: packBytes,
      rpcUrl: chain.rpcUrl,
      indexerUrl: indexer!.url,
      policy: "full",
    });
    expect({
      state: honest.facts.indexer_agreement.state,
      reasons: honest.facts.indexer_agreement.reasons,
    }).toMatchObject({ state: "verified" });
    // the award transaction is mined but holds no Claimed log
    const proxy = await startJsonProxy(indexer!.url, (path, body) => {
      if (path.startsWith("/bounties/")) body.winners[0].claimTx = pack.benchmark.award_tx;
    });
    try {
      const r = await verifyPack({
        source: packBytes,
        rpcUrl: chain.rpcUrl,
        indexerUrl: proxy.origin,
        policy: "full",
      });
      expect(r.facts.indexer_agreement.state).toBe("failed");
      expect(r.facts.indexer_agreement.reasons).toContain(
        `GET /bounties/${pack.benchmark.bounty_id}: winners[0].claimTx is ${pack.benchmark.award_tx.toLowerCase()}, its receipt holds no Claimed log of bounty ${pack.benchmark.bounty_id} for ${winner}`,
      );
    } finally {
      proxy.close();
    }
  });
});

/**
 * probe38 W-N1 / probe39 B-F1, V-F2: viem decodes each word of `getBounty`'s answer without checking its ABI
 * type, so a lying RPC's `status` of 2^256-1 was read as a (rounded) number and an awarder word with its upper
 * 12 bytes set as the address of its low 20 (MET, exit 0). The transport refuses such an answer word by word
 * (`protocolViewAnswerProblem`): the RPC cannot be read (exit 3), naming the member, as check_pack.py does.
 */
describe("a getBounty answer whose member does not fit its ABI type", () => {
  it.each([
    ["status", 10, "f".repeat(64), /\$\.bounty\.status: 0xf{64} is not a uint8/],
    ["awarder", 2, null, /\$\.bounty\.awarder: 0xf{24}[0-9a-f]{40} is not an address/],
  ] as const)("%s: the RPC cannot be read, naming the member", async (_what, index, word, said) => {
    const { createServer } = await import("node:http");
    const selector = toFunctionSelector("getBounty(uint256)");
    type Call = { id: unknown; method: string; params?: { data?: string }[] };
    const server = createServer((req, res) => {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (d: string) => (body += d));
      req.on("end", () => {
        const asked = JSON.parse(body) as Call | Call[];
        const calls = Array.isArray(asked) ? asked : [asked];
        void fetch(chain.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body })
          .then((r) => r.json())
          .then((answer: unknown) => {
            const lie = (m: { id: unknown; result?: string }) => {
              const call = calls.find((c) => c.id === m.id);
              const data = call?.method === "eth_call" ? String(call.params?.[0]?.data ?? "") : "";
              if (!data.startsWith(selector) || typeof m.result !== "string") return m;
              // word `index` of the answer (0 the tuple's offset, then author, awarder, ..., status at 10)
              const at = 2 + 64 * index;
              const was = m.result.slice(at, at + 64);
              const w = word ?? `${"f".repeat(24)}${was.slice(24)}`;
              return { ...m, result: `${m.result.slice(0, at)}${w}${m.result.slice(at + 64)}` };
            };
            res.setHeader("content-type", "application/json");
            res.end(JSON.stringify(Array.isArray(answer) ? answer.map(lie) : lie(answer as never)));
          });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const e = await verifyPack({
        source: packBytes,
        rpcUrl: origin,
        policy: "onchain",
        timeoutMs: 10_000,
      }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(VerifierNetworkError);
      expect((e as Error).message).toMatch(
        /getBounty\(\d+\): the answer is not a JSON-RPC answer to eth_call \(\$(\[\d+\])?\.result: is not the view's ABI value \(getBounty: /,
      );
      expect((e as Error).message).toMatch(said);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
