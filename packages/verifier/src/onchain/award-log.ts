/**
 * `award_log`: the receipt of `award_tx` succeeded in `award_block` and carries
 * exactly one `Awarded` log of `bounty_contract` for `bounty_id`, with the pack's
 * root, winners' withdrawal addresses and amounts in place order, the author
 * remainder (pool - sum) and the ranking digest (as stated and as recomputed);
 * the bounty (`getBounty`) is Awarded with the pack's token, author, awarder, pool,
 * `closes_at`, threshold and splits.
 * @packageDocumentation
 */
import { benchmarkBountyAbi, BountyStatus, tokenProblem, type BountyRecord } from "@bench-bounty/contracts";
import type { Address, Hex, TransactionReceipt } from "viem";
import { sameHex } from "../compare.js";
import { capReasons, factFrom, type Fact } from "../facts.js";
import { bytes32, type ChainFacts, type ChainWalk } from "./context.js";
import { exactEventLog } from "./logs.js";

/** The decoded arguments of one `Awarded` log. */
interface AwardedArgs {
  winners: readonly Address[];
  amounts: readonly bigint[];
  authorRemainder: bigint;
  rankingDigest: Hex;
  testSetRoot: Hex;
  /** The log's index in its block. */
  logIndex: number;
}

/** The `award_log` fact; records `observation.awarded`. */
export async function awardLogFacts(walk: ChainWalk): Promise<Pick<ChainFacts, "award_log">> {
  if ("unreadable" in walk.bounty) return { award_log: walk.bounty.unreadable };
  const { address } = walk.bounty;
  const tx = bytes32(walk.view.benchmark.award_tx);
  const [record, receipt] = await Promise.all([
    walk.bountyRecord(address),
    tx === null ? Promise.resolve(null) : walk.receiptOf(tx),
  ]);
  walk.observation.bounty = record;
  return { award_log: awardLog(walk, address, record, receipt) };
}

function awardLog(
  walk: ChainWalk,
  bounty: Address,
  record: BountyRecord,
  receipt: TransactionReceipt | null,
): Fact {
  const b = walk.view.benchmark;
  const problems = recordProblems(walk, record);
  if (receipt === null) {
    problems.push(`$.benchmark.award_tx ${b.award_tx} is not a mined transaction`);
    return { state: "failed", reasons: capReasons(problems) };
  }
  if (receipt.status !== "success") problems.push(`$.benchmark.award_tx reverted`);
  if (Number(receipt.blockNumber) !== b.award_block)
    problems.push(
      `$.benchmark.award_tx was mined in block ${receipt.blockNumber}, $.benchmark.award_block is ${b.award_block}`,
    );
  const logs = awardedLogs(receipt, bounty, walk.bountyId);
  if (logs.length !== 1) {
    problems.push(
      `$.benchmark.award_tx carries ${logs.length} Awarded logs of ${bounty} for bounty ${walk.bountyId}, expected 1`,
    );
    return { state: "failed", reasons: capReasons(problems) };
  }
  const ev = logs[0]!;
  walk.observation.awarded = {
    winners: ev.winners.map((w) => w.toLowerCase()),
    amounts: [...ev.amounts],
    authorRemainder: ev.authorRemainder,
    rankingDigest: ev.rankingDigest.toLowerCase(),
    blockNumber: receipt.blockNumber,
    txHash: receipt.transactionHash,
    logIndex: ev.logIndex,
  };
  problems.push(...logProblems(walk, ev, record.pool));
  return factFrom(
    problems,
    `award_tx (block ${receipt.blockNumber}) Awarded bounty ${walk.bountyId} to ${ev.winners.length} winners for [${ev.amounts.join(", ")}], remainder ${ev.authorRemainder}, digest ${ev.rankingDigest}`,
  );
}

/** `getBounty(bounty_id)` against the pack: status, token, author, awarder, pool, close time, threshold, splits. */
function recordProblems(walk: ChainWalk, onBounty: BountyRecord): string[] {
  const b = walk.view.benchmark;
  const rd = walk.view.rank_derivation;
  const problems: string[] = [];
  const g = `getBounty(${walk.bountyId})`;
  if (Number(onBounty.status) !== BountyStatus.Awarded)
    problems.push(
      `${g}.status is ${BountyStatus[Number(onBounty.status)] ?? onBounty.status}, expected Awarded`,
    );
  if (!sameHex(onBounty.token, b.token))
    problems.push(`${g}.token is ${onBounty.token.toLowerCase()}, $.benchmark.token is ${b.token}`);
  const notUsdc = tokenProblem(onBounty.token, `${g}.token`, walk.chainId);
  if (notUsdc !== null) problems.push(notUsdc);
  if (!sameHex(onBounty.author, b.author))
    problems.push(`${g}.author is ${onBounty.author.toLowerCase()}, $.benchmark.author is ${b.author}`);
  if (!sameHex(onBounty.awarder, b.awarder))
    problems.push(`${g}.awarder is ${onBounty.awarder.toLowerCase()}, $.benchmark.awarder is ${b.awarder}`);
  if (onBounty.pool !== b.pool_base_units)
    problems.push(`${g}.pool is ${onBounty.pool}, $.benchmark.pool_base_units is ${b.pool_base_units}`);
  if (onBounty.pool !== rd.pool_base_units)
    problems.push(
      `${g}.pool is ${onBounty.pool}, $.rank_derivation.pool_base_units is ${rd.pool_base_units}`,
    );
  if (BigInt(onBounty.closesAt) !== BigInt(b.closes_at))
    problems.push(`${g}.closesAt is ${onBounty.closesAt}, $.benchmark.closes_at is ${b.closes_at}`);
  if (Number(onBounty.thresholdBps) !== rd.threshold_bps)
    problems.push(
      `${g}.thresholdBps is ${onBounty.thresholdBps}, $.rank_derivation.threshold_bps is ${rd.threshold_bps}`,
    );
  const splits = onBounty.splitsBps.map(Number);
  if (splits.length !== rd.splits_bps.length || splits.some((s, i) => s !== rd.splits_bps[i]))
    problems.push(
      `${g}.splitsBps is [${splits.join(", ")}], $.rank_derivation.splits_bps is [${rd.splits_bps.join(", ")}]`,
    );
  return problems;
}

/** The `Awarded` logs of the bounty contract for this bounty id in a receipt. */
function awardedLogs(receipt: TransactionReceipt, bounty: Address, bountyId: bigint): AwardedArgs[] {
  const logs: AwardedArgs[] = [];
  for (const log of receipt.logs) {
    if (log.address.toLowerCase() !== bounty) continue;
    // strictly: whole 32-byte words of data, exactly the event's topics (probe35 B-F6)
    const ev = exactEventLog(benchmarkBountyAbi, log);
    if (ev !== null && ev.eventName === "Awarded" && ev.args.bountyId === bountyId)
      logs.push({ ...(ev.args as object), logIndex: log.logIndex } as AwardedArgs);
  }
  return logs;
}

/** The `Awarded` log against the pack: root, winners, amounts, remainder, ranking digest. */
function logProblems(walk: ChainWalk, ev: AwardedArgs, pool: bigint): string[] {
  const b = walk.view.benchmark;
  const winners = walk.view.winners;
  const problems: string[] = [];
  if (!sameHex(ev.testSetRoot, b.commit_root))
    problems.push(`Awarded.testSetRoot is ${ev.testSetRoot}, $.benchmark.commit_root is ${b.commit_root}`);
  if (ev.winners.length !== winners.length)
    problems.push(`Awarded.winners has ${ev.winners.length} places, $.winners has ${winners.length}`);
  const max = Math.max(ev.winners.length, winners.length);
  for (let i = 0; i < max; i++) {
    const w = winners[i];
    const onW = ev.winners[i];
    const onA = ev.amounts[i];
    if (w === undefined || onW === undefined) continue;
    if (!sameHex(onW, w.withdrawal_address))
      problems.push(
        `Awarded.winners[${i}] is ${onW.toLowerCase()}, ${w.path}.withdrawal_address is ${w.withdrawal_address}`,
      );
    if (onA !== w.amount_base_units)
      problems.push(`Awarded.amounts[${i}] is ${onA}, ${w.path}.amount_base_units is ${w.amount_base_units}`);
  }
  const paid = ev.amounts.reduce((s, a) => s + a, 0n);
  if (paid + ev.authorRemainder !== pool)
    problems.push(`Awarded amounts ${paid} + authorRemainder ${ev.authorRemainder} != pool ${pool}`);
  if (!sameHex(ev.rankingDigest, b.ranking_digest))
    problems.push(
      `Awarded.rankingDigest is ${ev.rankingDigest}, $.benchmark.ranking_digest is ${b.ranking_digest}`,
    );
  const derived = walk.derived.rankingDigest;
  if (derived !== null && !sameHex(ev.rankingDigest, derived))
    problems.push(`Awarded.rankingDigest is ${ev.rankingDigest}, rank_derivation hashes to ${derived}`);
  return problems;
}
