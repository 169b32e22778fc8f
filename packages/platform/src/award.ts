/**
 * Bounty, award and evidence (seed "Compete on Benchmarks" section 8, "Verify a Benchmark Award
 * Yourself"; SPEC 1.1, 7, 8).
 *
 * The award is a resumable state machine stored in the `awards` table, so a crash at any step loses
 * nothing and never pays twice:
 * 1. checks: a bounty is attached and Funded on-chain, the chain clock is within
 *    `[closesAt, awardDeadline]`, the commitment is anchored; the benchmark is closed to new runs;
 *    pending receipt anchors are flushed (`anchorMany`), since every ranked receipt must be anchored
 *    before the award;
 * 2. `prepared`: the evidence library ranks every finalized run, selects winners and amounts
 *    (`buildRankDerivation`, with the on-chain threshold, splits and pool) and computes the ranking
 *    digest; a winner without a withdrawal address refuses the whole award
 *    (`winner_without_withdrawal_address`, nothing is sent);
 * 3. `confirmed`: `award(bountyId, winners, rankingDigest)` is sent and mined. After a crash between
 *    sending and recording, the `Awarded` log of the bounty is found on-chain and adopted when its
 *    ranking digest matches;
 * 4. `packed`: the pack is minted by the evidence library (`mintEvidencePack`; its ranking digest must
 *    equal the one sent on-chain), its hash anchored (kind `pack`), and its canonical bytes stored in
 *    the `packs` table in the transaction that marks the award packed. The door then serves exactly
 *    those bytes forever, from any process on the store.
 *
 * The whole award of a benchmark runs under the store's lock `award:<slug>` (a PostgreSQL advisory
 * lock across `serve` processes), so two operators awarding at once send one transaction and mint one
 * pack; the preparation also locks the benchmark's row, which finalize takes too.
 */
import { benchmarkBountyAbi } from "@bench-bounty/contracts";
import {
  buildRankDerivation,
  evidencePackBytes,
  mintEvidencePack,
  packHash,
  ruleOfSplits,
  withPackAnchor,
  type EvidencePack,
  type Hex,
  type MintRun,
  type MintScoring,
  type Receipt,
  type RevealedAnswer,
} from "@bench-bounty/evidence";
import type { Address, Hash } from "viem";
import { BOUNTY_STATUS_NAMES, type AnchorEvidence } from "./chain.js";
import type { AttachedBounty, BenchmarkRecord, PlatformContext } from "./context.js";
import { PlatformError } from "./errors.js";
import { fromStored, toStored } from "./json.js";
import { receiptUrl } from "./leaderboard.js";
import { anchorCommitment, getBenchmark, getTasks, isOpen, testSetRowOf } from "./publish.js";
import { assertBountyTerms } from "./terms.js";
import { isAuthorAgent } from "./agents.js";
import { anchorOf, anchorPending, listRuns, runAnswers } from "./runs.js";
import { packByteLimit, rowReceiptsFit } from "./pack-budget.js";
import { assertAuthor, assertOperator } from "./identity/access.js";
import { isOperator, type Principal } from "./identity/principal.js";
import type { Tables } from "./store.js";
import type { AwardRow } from "./store/awards.js";
import { isoMillis } from "./time.js";

/** Options of {@link lockBounty}. Amounts in base units, times in unix seconds. */
export interface LockOptions {
  /** The author's private key: it approves and pays the pool. */
  authorPrivateKey: Hex;
  /** Pool in token base units (USDC has 6 decimals: 50 USDC = 50000000). */
  pool: bigint | string | number;
  /** Unix seconds at which the contest closes (runs stop, the award may be sent). */
  closesAt: number;
  /** Unix seconds, after `closesAt`: the last moment for the award, after which the author may reclaim. */
  awardDeadline: number;
  /** Composite threshold in basis points (0..10000). */
  thresholdBps: number;
  /** `winner_take_all` ([10000]) or `top_n_split` ([5000, 3000, 2000]); required unless `splitsBps` is given. */
  payoutRule?: "winner_take_all" | "top_n_split";
  /** Explicit splits (overrides payoutRule). */
  splitsBps?: number[];
  /** Token (default: the configured USDC). */
  token?: Address;
  /** Awarder (default: the platform account). */
  awarder?: Address;
}

/** What {@link awardBenchmark} returns. */
export interface AwardResult {
  slug: string;
  bounty_id: string;
  award_tx: string;
  award_block: number;
  ranking_digest: Hex;
  winners: {
    place: number;
    agent_id: string;
    withdrawal_address: string;
    amount_base_units: string;
    run_id: string;
  }[];
  zero_winner_reason: string | null;
  pack_hash: Hex;
  pack_anchor: AnchorEvidence | null;
  /** Size of the stored pack in bytes (the door serves them: `awardEvidence`). */
  pack_size: number;
}

/**
 * The door's answer (SPEC 8), by domain outcome: `pack`, the stored canonical bytes and their hash; or
 * `unavailable`, with the reason there is none (yet). The HTTP edge maps each reason to its status.
 */
export type AwardEvidenceResult =
  | { kind: "pack"; bytes: Uint8Array; pack_hash: Hex }
  | { kind: "unavailable"; reason: AwardEvidenceReason; message: string };

/**
 * The SPEC 8 reasons (plus `unknown_benchmark`, and the transient `pack_pending` and `award_pending`:
 * an award is confirmed or in flight and its pack will exist soon).
 */
export type AwardEvidenceReason =
  | "unknown_benchmark"
  | "no_commitment"
  | "not_verifiable_arm"
  | "not_awarded"
  | "withheld_live_contest"
  | "reclaimed_never_reveals"
  | "pack_pending"
  | "award_pending";

interface PreparedWinner {
  place: number;
  agent_id: string;
  withdrawal_address: string;
  amount_base_units: string;
  run_id: string;
}

function chainOf(ctx: PlatformContext) {
  if (!ctx.chain)
    throw new PlatformError("no_chain", "no chain configured (pass --rpc-url, contracts and a key)", {});
  return ctx.chain;
}

function statusName(n: number): string {
  return BOUNTY_STATUS_NAMES[n] ?? `unknown(${n})`;
}

/**
 * Attaches an on-chain bounty to a benchmark after checking that it commits to the same root and leaf
 * count. The bounty's `closesAt` becomes the benchmark's close.
 * @throws PlatformError `no_chain`, `bounty_mismatch`, `chain_error`
 */
export async function attachBounty(
  ctx: PlatformContext,
  p: Principal,
  slug: string,
  bountyId: bigint,
  expect: AttachExpectations = {},
): Promise<AttachedBounty> {
  if (bountyId < 1n || bountyId >= 2n ** 256n)
    throw new PlatformError(
      "invalid_option",
      `bounty_id must be an integer from 1 to 2^256-1, got ${bountyId}`,
      { field: "bounty_id" },
    );
  // the owner rule first: a stranger learns nothing (not even that no chain is configured)
  const b = await getBenchmark(ctx, slug);
  if (!isOperator(p)) assertAuthor(p, b);
  const chain = chainOf(ctx);
  const onchain = await chain.getBounty(bountyId);
  if (onchain.status === 0)
    throw new PlatformError("bounty_mismatch", `bounty ${bountyId} does not exist`, {
      bounty_id: String(bountyId),
    });
  if (onchain.testSetRoot.toLowerCase() !== b.commit_root || onchain.leafCount !== b.leaf_count) {
    throw new PlatformError(
      "bounty_mismatch",
      `bounty ${bountyId} commits to root ${onchain.testSetRoot} (${onchain.leafCount} leaves), the benchmark to ${b.commit_root} (${b.leaf_count})`,
      { bounty_id: String(bountyId), on_chain_root: onchain.testSetRoot, commit_root: b.commit_root },
    );
  }
  checkExpectations(bountyId, onchain, expect);
  if (b.bounty && b.bounty.bounty_id !== String(bountyId)) {
    throw new PlatformError("bounty_mismatch", `benchmark ${slug} already has bounty ${b.bounty.bounty_id}`, {
      bounty_id: b.bounty.bounty_id,
    });
  }
  const attached: AttachedBounty = {
    chain_id: chain.config.chainId,
    bounty_contract: chain.config.contracts.benchmarkBounty.toLowerCase(),
    bounty_id: String(bountyId),
    token: onchain.token.toLowerCase(),
    author: onchain.author.toLowerCase(),
    awarder: onchain.awarder.toLowerCase(),
    pool_base_units: onchain.pool.toString(),
    closes_at: Number(onchain.closesAt),
    award_deadline: Number(onchain.awardDeadline),
    threshold_bps: onchain.thresholdBps,
    splits_bps: [...onchain.splitsBps],
    status: statusName(onchain.status),
  };
  await ctx.store.benchmarks.setBounty(slug, attached);
  return attached;
}

/** What the author declares about the bounty they attach (each checked against the chain when given). */
export interface AttachExpectations {
  /** The author's address that locked it. */
  author?: string;
  /** The pool in base units. */
  pool_base_units?: string;
}

function checkExpectations(
  bountyId: bigint,
  onchain: { author: string; pool: bigint },
  expect: AttachExpectations,
): void {
  const mismatch = (field: string, declared: string, actual: string): never => {
    throw new PlatformError(
      "bounty_mismatch",
      `bounty ${bountyId}: ${field} on-chain is ${actual}, the request says ${declared}`,
      { bounty_id: String(bountyId), field, declared, on_chain: actual },
    );
  };
  if (expect.author !== undefined && expect.author.toLowerCase() !== onchain.author.toLowerCase())
    mismatch("author", expect.author, onchain.author);
  if (expect.pool_base_units !== undefined && expect.pool_base_units !== onchain.pool.toString())
    mismatch("pool_base_units", expect.pool_base_units, onchain.pool.toString());
}

/**
 * The author locks the prize: `approve` + `createAndFund` with the benchmark's root and leaf count,
 * then {@link attachBounty}.
 * Validates everything before sending anything: pool > 0 (and <= the author's balance, checked by the
 * gateway), threshold 0..10000, closesAt in the future (chain time), awardDeadline after closesAt, splits
 * per `validateSplits` of the evidence library: the one terms rule, `assertBountyTerms` (`terms.ts`).
 * @throws PlatformError `no_chain`, `invalid_option` (naming the field), `chain_error` (naming the contract's custom error)
 */
export async function lockBounty(
  ctx: PlatformContext,
  p: Principal,
  slug: string,
  o: LockOptions,
): Promise<AttachedBounty> {
  // the owner rule first: a stranger learns nothing (not even that no chain is configured)
  const b = await getBenchmark(ctx, slug);
  if (!isOperator(p)) assertAuthor(p, b);
  const chain = chainOf(ctx);
  if (b.bounty)
    throw new PlatformError("bounty_mismatch", `benchmark ${slug} already has bounty ${b.bounty.bounty_id}`, {
      bounty_id: b.bounty.bounty_id,
    });
  let pool: bigint;
  try {
    pool = BigInt(o.pool);
  } catch (e) {
    // BigInt refuses a non-integer with a SyntaxError (text) or a RangeError (fractional number)
    if (!(e instanceof SyntaxError || e instanceof RangeError || e instanceof TypeError)) throw e;
    throw new PlatformError("invalid_option", "pool must be an integer number of base units", {
      field: "pool",
    });
  }
  for (const [field, v] of [
    ["closes_at", o.closesAt],
    ["award_deadline", o.awardDeadline],
  ] as const)
    if (!Number.isSafeInteger(v))
      throw new PlatformError("invalid_option", `${field} must be an integer of unix seconds, got ${v}`, {
        field,
      });
  if (o.splitsBps === undefined && o.payoutRule === undefined)
    throw new PlatformError(
      "invalid_option",
      "give payout_rule (winner_take_all | top_n_split) or splits_bps: no default for money rules",
      { field: "payout_rule" },
    );
  const unchecked = {
    pool,
    thresholdBps: o.thresholdBps,
    closesAt: BigInt(o.closesAt),
    awardDeadline: BigInt(o.awardDeadline),
    splitsBps: o.splitsBps ?? (o.payoutRule === "winner_take_all" ? [10000] : [5000, 3000, 2000]),
  };
  // The terms rule (SPEC 1.1, one place: evidence's checkBountyTerms): everything but chain time before
  // the chain is read, then "closes in the future" against the chain's clock.
  assertBountyTerms(unchecked);
  const terms = assertBountyTerms(unchecked, await chain.latestTimestamp());
  const { bountyId } = await chain.lockBounty({
    authorPrivateKey: o.authorPrivateKey,
    ...(o.token ? { token: o.token } : {}),
    ...(o.awarder ? { awarder: o.awarder } : {}),
    pool,
    testSetRoot: b.commit_root,
    leafCount: b.leaf_count,
    closesAt: terms.closesAt,
    awardDeadline: terms.awardDeadline,
    thresholdBps: terms.thresholdBps,
    splitsBps: terms.splitsBps,
  });
  return attachBounty(ctx, p, slug, bountyId);
}

/** Closes a benchmark to new runs (idempotent); the operator or the author. @throws PlatformError `forbidden` */
export async function closeBenchmark(
  ctx: PlatformContext,
  p: Principal,
  slug: string,
): Promise<BenchmarkRecord> {
  const b = await getBenchmark(ctx, slug);
  if (!isOperator(p)) assertAuthor(p, b);
  await ctx.store.benchmarks.close(slug, isoMillis(ctx.clock()));
  return getBenchmark(ctx, slug);
}

/** Every finalized run of a benchmark as the evidence library's mint input. */
async function mintRuns(ctx: PlatformContext, slug: string, q: Tables): Promise<MintRun[]> {
  const author = (await getBenchmark(ctx, slug, q)).author_account_id;
  const out: MintRun[] = [];
  for (const r of await listRuns(ctx, slug, undefined, q)) {
    if (r.status !== "finalized") continue;
    const agent = await q.agents.get(r.agent_id);
    const answers = await runAnswers(ctx, r.run_id, q);
    const revealed: RevealedAnswer[] = r.plan
      .map((bank, i) => ({ ordinal: i, bank_ordinal: bank, answer_text: answers.get(i) }))
      .filter((a): a is RevealedAnswer => a.answer_text !== undefined);
    out.push({
      agent_id: r.agent_id,
      is_author_agent: isAuthorAgent(agent, author),
      receipt: r.receipt as Receipt,
      receipt_url: receiptUrl(ctx, slug, r.run_id),
      rank_accuracy: r.rank_accuracy!,
      achieved_at: isoMillis(r.finalized_at_ms!),
      withdrawal_address: agent?.withdrawal_address ?? null,
      answer_salt: r.answer_salt!,
      answers: revealed,
    });
  }
  // the rows carry their receipts only while they all fit the rows' share of the pack (pack-budget.ts)
  const rowReceipts = rowReceiptsFit(
    packByteLimit(ctx),
    out.map((r) => r.receipt.tasks.length),
  );
  return out.map((r) => ({ ...r, include_receipt: rowReceipts }));
}

function scoringOf(b: BenchmarkRecord, bounty: AttachedBounty): MintScoring {
  const rule = ruleOfSplits(bounty.splits_bps);
  return {
    speed_weight: b.config.speed_weight,
    cost_weight: b.config.cost_weight,
    time_budget_seconds: b.config.time_budget_seconds,
    cost_budget_usdc: b.config.cost_budget_usdc,
    threshold_bps: bounty.threshold_bps,
    payout_rule: rule ?? "custom",
    splits_bps: bounty.splits_bps,
  };
}

function awardRow(ctx: PlatformContext, slug: string): Promise<AwardRow | null> {
  return ctx.store.awards.get(slug);
}

/**
 * Settles the award of a benchmark (see the module doc). Idempotent: once packed it returns the record.
 * Runs under the store's lock `award:<slug>`: a second caller (another process on PostgreSQL) waits,
 * then finds the award done.
 * @throws PlatformError `no_chain`, `no_bounty`, `no_commitment`-like `award_not_allowed`,
 *   `winner_without_withdrawal_address`, `chain_error`
 */
export async function awardBenchmark(ctx: PlatformContext, p: Principal, slug: string): Promise<AwardResult> {
  assertOperator(p, "award");
  chainOf(ctx);
  const b = await getBenchmark(ctx, slug);
  if (!b.bounty)
    throw new PlatformError(
      "no_bounty",
      `benchmark ${slug} has no bounty attached (lock or attach one first)`,
      {
        slug,
      },
    );
  return ctx.store.withLock(awardLock(slug), () => settleAward(ctx, p, slug));
}

/** The name of the store lock a benchmark's award holds. */
const awardLock = (slug: string) => `bench-bounty.award:${slug}`;

/** The award's steps, under its lock: prepare (once), send or adopt, record, mint the pack. */
async function settleAward(ctx: PlatformContext, p: Principal, slug: string): Promise<AwardResult> {
  let b = await getBenchmark(ctx, slug);
  const bountyId = BigInt(b.bounty!.bounty_id);
  let row = await awardRow(ctx, slug);
  if (!row) row = await prepareAward(ctx, p, b);
  if (row.status === "prepared" || row.status === "sent") {
    const sent = await sendOrAdoptAward(ctx, slug, bountyId, row);
    ctx.faults.awardBeforeRecord?.(slug);
    await recordConfirmed(ctx, slug, sent.txHash, sent.blockNumber);
    row = (await awardRow(ctx, slug))!;
  }
  ctx.faults.awardBeforeMint?.(slug);
  b = await getBenchmark(ctx, slug);
  const packed = await ensurePack(ctx, b, row);
  const winners = fromStored<PreparedWinner[]>(row.winners_json);
  const rd = fromStored<{ zero_winner_reason: string | null }>(row.rank_derivation_json);
  return {
    slug,
    bounty_id: b.bounty!.bounty_id,
    award_tx: row.award_tx!,
    award_block: row.award_block!,
    ranking_digest: row.ranking_digest as Hex,
    winners,
    zero_winner_reason: rd.zero_winner_reason,
    pack_hash: packed.pack_hash,
    pack_anchor: packed.pack_anchor,
    pack_size: packed.bytes.length,
  };
}

/** Records a mined award transaction: the award `confirmed`, the benchmark's bounty `awarded` (one transaction). */
async function recordConfirmed(
  ctx: PlatformContext,
  slug: string,
  txHash: string,
  block: number,
): Promise<void> {
  await ctx.store.tx(async (t) => {
    await t.awards.markConfirmed(slug, txHash, block);
    const bounty = { ...(await getBenchmark(ctx, slug, t)).bounty!, status: "awarded" };
    await t.benchmarks.setBounty(slug, bounty);
  });
}

/**
 * Step 1 and 2 of the award: the on-chain checks, closing, flushing the receipt anchors, then one
 * transaction from reading the runs to recording the derivation (`prepared`).
 */
async function prepareAward(ctx: PlatformContext, p: Principal, b: BenchmarkRecord): Promise<AwardRow> {
  const chain = chainOf(ctx);
  const slug = b.slug;
  const bountyId = BigInt(b.bounty!.bounty_id);
  const onchain = await chain.getBounty(bountyId);
  if (onchain.status !== 2) {
    throw new PlatformError(
      "award_not_allowed",
      `bounty ${bountyId} is ${statusName(onchain.status)} on-chain, not funded`,
      {
        bounty_status: statusName(onchain.status),
      },
    );
  }
  const now = await chain.latestTimestamp();
  if (now < onchain.closesAt) {
    throw new PlatformError(
      "award_not_allowed",
      `the contest closes at ${onchain.closesAt}; the chain clock is ${now}`,
      {
        closes_at: Number(onchain.closesAt),
        chain_time: Number(now),
      },
    );
  }
  if (now > onchain.awardDeadline) {
    throw new PlatformError(
      "award_not_allowed",
      `the award deadline ${onchain.awardDeadline} has passed (chain clock ${now}); the author may reclaim`,
      { award_deadline: Number(onchain.awardDeadline), chain_time: Number(now) },
    );
  }
  if (!b.commitment_anchor) await anchorCommitment(ctx, slug);
  await closeBenchmark(ctx, p, slug);
  await anchorPending(ctx, slug, "receipt");
  // The benchmark's row is locked (finalize locks it too): a run finalized concurrently either lands
  // before (and is ranked) or is refused (finalize sees the award row).
  const attached = b.bounty!;
  await ctx.store.tx(async (t) => {
    const fresh = await getBenchmark(ctx, slug, t, { lock: true });
    if ((await t.awards.get(slug)) !== null) return;
    const runs = await mintRuns(ctx, slug, t);
    for (const r of await listRuns(ctx, slug, undefined, t)) {
      if (r.status === "finalized" && !(await anchorOf(ctx, r.receipt_hash!, t))) {
        throw new PlatformError("award_not_allowed", `the receipt of run ${r.run_id} is not anchored yet`, {
          run_id: r.run_id,
        });
      }
    }
    const bounty: AttachedBounty = {
      ...attached,
      pool_base_units: onchain.pool.toString(),
      threshold_bps: onchain.thresholdBps,
      splits_bps: [...onchain.splitsBps],
    };
    const derivation = buildRankDerivation({
      scoring: scoringOf(fresh, bounty),
      pool_base_units: bounty.pool_base_units,
      runs,
    });
    const missing = derivation.winning_runs.filter((w) => !w.withdrawal_address).map((w) => w.agent_id);
    if (missing.length > 0) {
      throw new PlatformError(
        "winner_without_withdrawal_address",
        `winner(s) ${missing.join(", ")} have no withdrawal address: the whole award is blocked until they set one`,
        { agent_ids: missing },
      );
    }
    const winners: PreparedWinner[] = derivation.winning_runs.map((w, i) => ({
      place: i + 1,
      agent_id: w.agent_id,
      withdrawal_address: w.withdrawal_address!.toLowerCase(),
      amount_base_units: derivation.amounts[i]!.toString(),
      run_id: w.receipt.run_id,
    }));
    await t.awards.insertPrepared({
      slug,
      rank_derivation_json: toStored(derivation.rank_derivation),
      ranking_digest: derivation.ranking_digest,
      winners_json: toStored(winners),
      created_at: isoMillis(ctx.clock()),
    });
    await t.benchmarks.setBounty(slug, bounty);
    await t.benchmarks.bumpBoard(slug);
  });
  return (await awardRow(ctx, slug))!;
}

/** Finds an `Awarded` log of the bounty carrying `digest` from block `fromBlock` (recovery after a crash between send and record). */
async function findAwardTx(
  ctx: PlatformContext,
  bountyId: bigint,
  digest: Hex,
  fromBlock: bigint,
): Promise<{ txHash: Hex; blockNumber: number } | null> {
  const chain = chainOf(ctx);
  const onchain = await chain.getBounty(bountyId);
  if (onchain.status !== 3) return null;
  const logs = await chain.publicClient.getContractEvents({
    address: chain.config.contracts.benchmarkBounty,
    abi: benchmarkBountyAbi,
    eventName: "Awarded",
    args: { bountyId },
    fromBlock,
  });
  const log = logs.find(
    (l) => (l.args as { rankingDigest?: string }).rankingDigest?.toLowerCase() === digest,
  );
  if (!log?.transactionHash || log.blockNumber === null) {
    throw new PlatformError(
      "bounty_mismatch",
      `bounty ${bountyId} was awarded on-chain with another ranking digest than the one recorded here`,
      { ranking_digest: digest },
    );
  }
  return { txHash: log.transactionHash, blockNumber: Number(log.blockNumber) };
}

/** {@link findAwardTx} from the block of the benchmark's commitment anchor (the bounty was created after it). */
async function findOwnAward(ctx: PlatformContext, slug: string, bountyId: bigint, digest: Hex) {
  const since = BigInt((await getBenchmark(ctx, slug)).commitment_anchor?.anchor_block ?? 0);
  return findAwardTx(ctx, bountyId, digest, since);
}

/**
 * Mints, anchors and stores the pack of a confirmed award (or returns the stored one).
 * Minting is reproducible, and anchoring is idempotent, so a retry after a crash gives the same bytes.
 * Callers hold the award's lock.
 */
async function ensurePack(
  ctx: PlatformContext,
  b: BenchmarkRecord,
  row: AwardRow,
): Promise<{ pack_hash: Hex; pack_anchor: AnchorEvidence | null; bytes: Uint8Array }> {
  const stored = await ctx.store.packs.get(b.slug);
  if (stored) {
    if (row.status !== "packed") {
      // A crash between storing the pack and marking the award: finish the step.
      await markPacked(ctx, b.slug, stored.pack_hash, null);
    }
    const pack = fromStored<EvidencePack>(new TextDecoder().decode(stored.bytes));
    return { pack_hash: stored.pack_hash as Hex, pack_anchor: pack.pack_anchor, bytes: stored.bytes };
  }
  if (!b.bounty || !b.commitment_anchor || !row.award_tx || row.award_block === null) {
    throw new PlatformError("award_not_allowed", `award of ${b.slug} is not confirmed yet`, { slug: b.slug });
  }
  const pack = await mintPack(ctx, b, row.award_tx, row.award_block);
  if (pack.benchmark.ranking_digest !== row.ranking_digest) {
    throw new PlatformError(
      "bounty_mismatch",
      `the minted pack's ranking digest ${pack.benchmark.ranking_digest} differs from the one sent on-chain ${row.ranking_digest}; refusing to publish an inconsistent pack`,
      {},
    );
  }
  const hash = packHash(pack);
  const anchor = ctx.chain ? await ctx.chain.anchor(hash, "pack") : null;
  const bytes = evidencePackBytes(withPackAnchor(pack, anchor));
  await ctx.store.tx(async (t) => {
    await t.packs.insertIfAbsent({
      slug: b.slug,
      bytes,
      pack_hash: hash,
      created_at: isoMillis(ctx.clock()),
    });
    await markPacked(ctx, b.slug, hash, anchor, t);
  });
  const kept = (await ctx.store.packs.get(b.slug))!;
  return { pack_hash: kept.pack_hash as Hex, pack_anchor: anchor, bytes: kept.bytes };
}

/** Mints the pack of a benchmark whose award is `awardTx` in block `awardBlock` (reproducible). */
async function mintPack(
  ctx: PlatformContext,
  b: BenchmarkRecord,
  awardTx: string,
  awardBlock: number,
): Promise<EvidencePack> {
  const tasks = await getTasks(ctx, b.slug);
  return mintEvidencePack({
    benchmark: {
      slug: b.slug,
      title: b.title,
      chain_id: b.bounty!.chain_id,
      bounty_contract: b.bounty!.bounty_contract,
      bounty_id: b.bounty!.bounty_id,
      token: b.bounty!.token,
      author: b.bounty!.author,
      awarder: b.bounty!.awarder,
      pool_base_units: b.bounty!.pool_base_units,
      closes_at: b.bounty!.closes_at,
      award_tx: awardTx,
      award_block: awardBlock,
      commitment_anchor: b.commitment_anchor!,
    },
    test_set: tasks.map(testSetRowOf),
    scoring: scoringOf(b, b.bounty!),
    runs: await mintRuns(ctx, b.slug, ctx.store),
  });
}

/**
 * Before the award is sent: the pack it will publish must be readable by the default verifier (issue 13
 * item 8; `PACK_LIMITS.maxPackBytes`, 512 MiB). The pack is minted with the widest award transaction,
 * block and pack anchor it can carry (their bytes are the only ones not known yet), and an award whose
 * pack would be larger is refused: no transaction is sent, the money stays in the bounty.
 * @throws PlatformError `award_not_allowed` with `reason: "pack_too_large"`, the size and the limit
 */
async function assertPackFits(ctx: PlatformContext, slug: string): Promise<void> {
  const b = await getBenchmark(ctx, slug);
  const widestTx = `0x${"f".repeat(64)}`;
  const pack = await mintPack(ctx, b, widestTx, Number.MAX_SAFE_INTEGER);
  const anchor: AnchorEvidence = {
    registry_address: `0x${"f".repeat(40)}`,
    tx_hash: widestTx,
    anchor_block: Number.MAX_SAFE_INTEGER,
  };
  const size = evidencePackBytes(withPackAnchor(pack, anchor)).length;
  const max = packByteLimit(ctx);
  if (size > max)
    throw new PlatformError(
      "award_not_allowed",
      `the award's evidence pack would take ${size} bytes, over the ${max} bytes (PACK_LIMITS.maxPackBytes) the default verifier reads: the award is not sent`,
      { reason: "pack_too_large", size_bytes: size, limit: "maxPackBytes", max },
    );
}

/** The award is `packed`, the benchmark `awarded`, and the pack's anchor recorded (in one transaction). */
async function markPacked(
  ctx: PlatformContext,
  slug: string,
  hash: string,
  anchor: AnchorEvidence | null,
  q?: Tables,
): Promise<void> {
  const step = async (t: Tables) => {
    await t.awards.markPacked(slug, hash);
    await t.benchmarks.markAwarded(slug);
    if (anchor) await t.anchors.recordAnchored(hash, "pack", slug, anchor, isoMillis(ctx.clock()));
  };
  if (q) await step(q);
  else await ctx.store.tx(step);
}

/**
 * Where the award transaction is (issue 13 item 7), read from the chain when the store is not sure (the
 * award prepared, or sent but not confirmed): `none` (not prepared, or not sent: no Awarded log carries the
 * prepared ranking digest), `pending` (sent, not mined), `mined` (mined, not
 * yet recorded: the next `award` or door read records it), `reverted` or `dropped` (the next `award`
 * sends again), `confirmed` (recorded).
 * @throws PlatformError `unknown_benchmark`, `chain_error` when the RPC fails
 */
export async function awardChainState(
  ctx: PlatformContext,
  slug: string,
): Promise<{
  state: "none" | "pending" | "mined" | "reverted" | "dropped" | "confirmed";
  tx_hash: string | null;
  block: number | null;
}> {
  await getBenchmark(ctx, slug);
  const row = await awardRow(ctx, slug);
  if (!row) return { state: "none", tx_hash: null, block: null };
  if (row.status === "prepared") {
    // A crash between sending and recording `sent` leaves no hash here: an Awarded log with the prepared
    // ranking digest is the award, mined and not yet recorded.
    const b = await getBenchmark(ctx, slug);
    const found = ctx.chain
      ? await findOwnAward(ctx, slug, BigInt(b.bounty!.bounty_id), row.ranking_digest as Hex)
      : null;
    return found
      ? { state: "mined", tx_hash: found.txHash, block: found.blockNumber }
      : { state: "none", tx_hash: null, block: null };
  }
  if (row.status !== "sent") return { state: "confirmed", tx_hash: row.award_tx, block: row.award_block };
  const t = await chainOf(ctx).transactionState(row.award_tx as Hash);
  if (t.state === "mined") return { state: "mined", tx_hash: row.award_tx, block: t.block };
  return { state: t.state === "unknown" ? "dropped" : t.state, tx_hash: row.award_tx, block: null };
}

/**
 * Sends the prepared award once: adopts an award already on-chain (found by its ranking digest), or a
 * sent transaction recorded in the store (waiting for it while pending), or sends it and records its hash
 * as `sent` before waiting. A reverted or dropped send is forgotten so the next call sends again.
 * @throws PlatformError `chain_error`
 */
async function sendOrAdoptAward(
  ctx: PlatformContext,
  slug: string,
  bountyId: bigint,
  row: AwardRow,
): Promise<{ txHash: string; blockNumber: number }> {
  const chain = chainOf(ctx);
  if (row.status === "sent" && row.award_tx) {
    const state = await awardChainState(ctx, slug);
    if (state.state === "mined") return { txHash: row.award_tx, blockNumber: state.block! };
    if (state.state === "pending")
      return { txHash: row.award_tx, blockNumber: await chain.waitMined(row.award_tx as Hash, "award") };
    await ctx.store.awards.forgetSent(slug);
  }
  const winners = fromStored<PreparedWinner[]>(row.winners_json);
  const digest = row.ranking_digest as Hex;
  const adopted = await findOwnAward(ctx, slug, bountyId, digest);
  if (adopted) return adopted;
  await assertPackFits(ctx, slug);
  const hash = await chain.sendAward(
    bountyId,
    winners.map((w) => w.withdrawal_address as Address),
    digest,
  );
  ctx.faults.awardBeforeMarkSent?.(slug);
  await ctx.store.awards.markSent(slug, hash);
  ctx.faults.awardAfterSend?.(slug);
  try {
    return { txHash: hash, blockNumber: await chain.waitMined(hash, "award") };
  } catch (e) {
    // An earlier send of this award, unrecorded (a crash before markSent) and still pending then, may
    // have been mined first, and this one reverted: that award is adopted, not reported as a failure.
    if (!(e instanceof PlatformError && e.code === "chain_error")) throw e;
    const earlier = await findOwnAward(ctx, slug, bountyId, digest);
    if (!earlier) throw e;
    return earlier;
  }
}

/**
 * The evidence door's answer for a benchmark: the stored pack bytes once awarded (minted, under the
 * award's lock, if an award was confirmed but its pack not yet stored), else the SPEC 8 reason.
 */
export async function awardEvidence(ctx: PlatformContext, slug: string): Promise<AwardEvidenceResult> {
  const b = await ctx.store.benchmarks.get(slug);
  if (!b) return { kind: "unavailable", reason: "unknown_benchmark", message: `no benchmark ${slug}` };
  const stored = await ctx.store.packs.get(slug);
  const row = await awardRow(ctx, slug);
  if (stored && row?.status === "packed")
    return { kind: "pack", bytes: stored.bytes, pack_hash: stored.pack_hash as Hex };
  if (row && (row.status === "packed" || row.status === "confirmed")) {
    if (!ctx.chain)
      return {
        kind: "unavailable",
        reason: "pack_pending",
        message: "the award is confirmed; its pack is being minted",
      };
    const packed = await ctx.store.withLock(awardLock(slug), async () =>
      ensurePack(ctx, await getBenchmark(ctx, slug), (await awardRow(ctx, slug))!),
    );
    return { kind: "pack", bytes: packed.bytes, pack_hash: packed.pack_hash };
  }
  if (row && ctx.chain && (row.status === "prepared" || row.status === "sent")) {
    const fromChain = await awardFromChain(ctx, slug, row);
    if (fromChain) return fromChain;
  }
  return notYetAwarded(ctx, b);
}

/**
 * The door when the store is not sure (issue 13 item 7): the award is prepared or sent but not recorded
 * as confirmed (a crash between sending and recording it, or a transaction in flight). The chain says
 * where it is: a pending transaction answers `award_pending`; a mined one, or an `Awarded` log of the
 * bounty carrying the prepared ranking digest, is adopted (recorded as confirmed, under the award's lock,
 * never sent again) and its pack served. Null when the chain shows no award.
 */
async function awardFromChain(
  ctx: PlatformContext,
  slug: string,
  row: AwardRow,
): Promise<AwardEvidenceResult | null> {
  if (row.status === "sent") {
    const state = await awardChainState(ctx, slug);
    if (state.state === "pending")
      return {
        kind: "unavailable",
        reason: "award_pending",
        message: `the award transaction ${state.tx_hash} is pending`,
      };
    if (state.state === "mined") {
      await recordConfirmed(ctx, slug, state.tx_hash!, state.block!);
      return awardEvidence(ctx, slug);
    }
  }
  const b = await getBenchmark(ctx, slug);
  // read the chain outside the award's lock (an `award` waiting for its transaction holds it)
  const found = await findOwnAward(ctx, slug, BigInt(b.bounty!.bounty_id), row.ranking_digest as Hex);
  if (!found) return null;
  await ctx.store.withLock(awardLock(slug), async () => {
    const fresh = (await awardRow(ctx, slug))!;
    if (fresh.status === "prepared" || fresh.status === "sent")
      await recordConfirmed(ctx, slug, found.txHash, found.blockNumber);
  });
  return awardEvidence(ctx, slug);
}

/** The SPEC 8 reason of a benchmark without an award (yet). */
async function notYetAwarded(ctx: PlatformContext, b: BenchmarkRecord): Promise<AwardEvidenceResult> {
  if (!b.commitment_anchor)
    return {
      kind: "unavailable",
      reason: "no_commitment",
      message: "the benchmark's commitment is not anchored",
    };
  if (!b.bounty)
    return {
      kind: "unavailable",
      reason: "not_verifiable_arm",
      message: "no on-chain bounty binds this benchmark's root: it never reveals",
    };
  let status = b.bounty.status;
  if (ctx.chain && status !== "reclaimed" && status !== "awarded") {
    try {
      status = statusName((await ctx.chain.getBounty(BigInt(b.bounty.bounty_id))).status);
    } catch (e) {
      // The chain cannot be read: keep the recorded status.
      if (!(e instanceof PlatformError && e.code === "chain_error")) throw e;
    }
  }
  if (status === "reclaimed")
    return {
      kind: "unavailable",
      reason: "reclaimed_never_reveals",
      message: "the prize was reclaimed without an award: the test set is never revealed",
    };
  if (status === "awarded")
    // Awarded on-chain with no award prepared in this store (the awarder acted elsewhere): nothing to adopt.
    return {
      kind: "unavailable",
      reason: "not_awarded",
      message: `bounty ${b.bounty.bounty_id} is Awarded on-chain, but this store prepared no award for it: it has no pack to serve`,
    };
  if (isOpen(ctx, b))
    return {
      kind: "unavailable",
      reason: "withheld_live_contest",
      message: `the contest is live until ${b.bounty.closes_at} (unix seconds)`,
    };
  return { kind: "unavailable", reason: "not_awarded", message: "the contest is closed but not awarded yet" };
}
