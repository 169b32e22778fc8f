/**
 * `bounty:award`: the awarder settles a bounty from the pack's rank derivation
 * (SPEC 7-8). The selection and the amounts are recomputed with
 * @bench-bounty/evidence and compared with the file, with the bounty on-chain
 * and with the contract's own `payoutAmounts`; the award is refused when any of
 * them disagree or a winner has no withdrawal address. It sends
 * `award(bountyId, winners, rankingDigest)` and prints the `Awarded` event.
 */
import { task, types } from "hardhat/config";
import { TaskError, decodeRevert, userAction } from "../lib/errors";
import {
  chainNow,
  eventIn,
  refuseLostRecipient,
  refuseLostRecipientOnChain,
  refuseMalformedAddress,
  simulateAndSend,
  taskContext,
  tokenDisplay,
  withFromParam,
} from "../lib/context";
import { txLink } from "../lib/network";
import { asObject, describeError, readJsonFile } from "../lib/files";
import { contracts, evidence } from "../lib/packages";
import { formatAmount, isoSeconds, parseBountyId } from "../lib/format";

interface AwardArgs {
  id: string;
  rankDerivation: string;
  withdrawalsFile?: string;
  withdrawals?: string;
  from?: string;
  dryRun: boolean;
}

interface Row {
  rank: unknown;
  agent_id: string;
  [k: string]: unknown;
}

/** agent_id -> withdrawal address, from --withdrawals-file, --withdrawals, or the pack's winners. */
function readWithdrawals(
  args: AwardArgs,
  doc: Record<string, unknown>,
): { map: Map<string, string>; source: string } {
  const map = new Map<string, string>();
  const put = (agent: string, address: unknown, where: string) => {
    refuseMalformedAddress(address, `${where}: the withdrawal address of agent "${agent}"`);
    refuseLostRecipient(address, `${where}: the withdrawal address of agent "${agent}"`);
    if (map.has(agent) && map.get(agent)!.toLowerCase() !== address.toLowerCase()) {
      throw new TaskError(`${where}: agent "${agent}" has two different withdrawal addresses.`);
    }
    map.set(agent, address);
  };
  const sources: string[] = [];
  if (args.withdrawalsFile !== undefined) {
    const obj = asObject(
      readJsonFile(args.withdrawalsFile, "--withdrawals-file"),
      `--withdrawals-file ${args.withdrawalsFile}`,
    );
    for (const [agent, address] of Object.entries(obj))
      put(agent, address, `--withdrawals-file ${args.withdrawalsFile} $.${agent}`);
    sources.push(args.withdrawalsFile);
  }
  if (args.withdrawals !== undefined) {
    for (const pair of args.withdrawals.split(",")) {
      const m = /^\s*([^=\s]+)\s*=\s*(\S+)\s*$/.exec(pair);
      if (!m)
        throw new TaskError(
          `--withdrawals must be agent=0xaddress pairs separated by commas, got "${pair}".`,
        );
      put(m[1]!, m[2], "--withdrawals");
    }
    sources.push("--withdrawals");
  }
  if (sources.length === 0 && Array.isArray(doc.winners)) {
    doc.winners.forEach((w, i) => {
      const o = asObject(w, `$.winners[${i}]`);
      put(
        String(o.agent_id),
        o.withdrawal_address,
        `${args.rankDerivation} $.winners[${i}].withdrawal_address`,
      );
    });
    sources.push(`${args.rankDerivation} (winners)`);
  }
  return { map, source: sources.join(" + ") || "(none given)" };
}

/**
 * Step 1 of an award: reads the rank derivation of `file` (bare, or under
 * `rank_derivation`) and recomputes ordering, selection, amounts and the ranking
 * digest with @bench-bounty/evidence (SPEC 7-8), refusing any disagreement with
 * the file (the file, then the JSON path in it, named once), and any break of the
 * pack's rules for the block (`rankDerivationProblems`: schema, payout rule,
 * composites, embedded receipts), so `award()` never commits the digest of a block
 * no pack can carry.
 */
function recomputeAward(file: string) {
  const ev = evidence();
  const doc = asObject(readJsonFile(file, "--rank-derivation"), `--rank-derivation ${file}`);
  const rd = asObject(doc.rank_derivation ?? doc, `--rank-derivation ${file} rank_derivation`);
  const rdRoot = doc.rank_derivation ? "$.rank_derivation" : "$";
  const where = (p: string) => `--rank-derivation ${file} ${rdRoot}${p}`;
  /** An evidence library refusal of the rank derivation: the file, then the JSON path in it, once. */
  const refused = (e: unknown) => new TaskError(`--rank-derivation ${file}: ${describeError(e, rdRoot)}`);

  // 1. Recompute ordering, selection and amounts from the rows (SPEC 7).
  const rows = rd.rows;
  if (!Array.isArray(rows)) throw new TaskError(`${where(".rows")} must be an array.`);
  let order: number[];
  try {
    order = ev.rankOrder(rows as never, "$.rows");
  } catch (e) {
    throw refused(e);
  }
  order.forEach((rowIndex, i) => {
    if (rowIndex !== i) {
      throw new TaskError(
        `${where(`.rows[${i}]`)} is out of SPEC 7.1 order: row ${rowIndex} ranks before it. Refusing to award.`,
      );
    }
    if ((rows[i] as Row).rank !== i + 1) {
      throw new TaskError(
        `${where(`.rows[${i}].rank`)} is ${String((rows[i] as Row).rank)}, expected ${i + 1}. Refusing to award.`,
      );
    }
  });
  const agents = new Set<string>();
  rows.forEach((r, i) => {
    const agent = (r as Row).agent_id;
    if (agents.has(agent))
      throw new TaskError(
        `${where(`.rows[${i}].agent_id`)}: agent "${agent}" has two rows (one best row per agent).`,
      );
    agents.add(agent);
  });
  if (typeof rd.threshold_bps !== "number")
    throw new TaskError(`${where(".threshold_bps")} must be an integer.`);
  let selection;
  try {
    selection = ev.selectWinners({
      rows: rows as never,
      threshold_bps: rd.threshold_bps,
      splits_bps: rd.splits_bps as number[],
      pool_base_units: rd.pool_base_units as string,
    });
  } catch (e) {
    throw refused(e);
  }
  const fileAmounts = rd.place_amounts_base_units;
  if (
    !Array.isArray(fileAmounts) ||
    fileAmounts.length !== selection.place_amounts_base_units.length ||
    fileAmounts.some((a, i) => a !== selection.place_amounts_base_units[i])
  ) {
    throw new TaskError(
      `${where(".place_amounts_base_units")} is ${JSON.stringify(fileAmounts)} but the recomputed amounts are ${JSON.stringify(selection.place_amounts_base_units)}. Refusing to award.`,
    );
  }
  if ((rd.zero_winner_reason ?? null) !== selection.zero_winner_reason) {
    throw new TaskError(
      `${where(".zero_winner_reason")} is ${JSON.stringify(rd.zero_winner_reason)} but recomputed it is ${JSON.stringify(selection.zero_winner_reason)}. Refusing to award.`,
    );
  }
  // 2. The whole block by the pack's rules (SPEC 8), before its digest is committed for good: a
  // derivation the schema refuses (a weight `true`, a null receipt hash, a `-1` time budget), a payout
  // rule other than its splits' or a composite other than its inputs' can never verify (probe26 B-F3).
  const problems = ev.rankDerivationProblems(rd, rdRoot);
  const first = problems[0];
  if (first !== undefined) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem(s))` : "";
    throw new TaskError(
      `--rank-derivation ${file}: ${first.path}: ${first.message}${more}. No evidence pack carrying it could verify: refusing to award; nothing was sent.`,
    );
  }
  const digest = ev.rankingDigest(rd);
  return { doc, rd, rows, selection, digest };
}

withFromParam(
  task("bounty:award", "Award a bounty from a rank-derivation file (recomputed before sending)"),
  "Awarder account",
)
  .addParam("id", "Bounty id", undefined, types.string)
  .addParam(
    "rankDerivation",
    "JSON file: the pack's rank_derivation block, or a pack holding one",
    undefined,
    types.string,
  )
  .addOptionalParam("withdrawalsFile", "JSON file {agent_id: withdrawal address}", undefined, types.string)
  .addOptionalParam("withdrawals", "agent_id=0xaddress pairs, comma-separated", undefined, types.string)
  .addFlag("dryRun", "Recompute, check and simulate; send nothing")
  .setAction(
    userAction(async (args: AwardArgs, hre) => {
      const id = parseBountyId(args.id);
      const { doc, rd, rows, selection, digest } = recomputeAward(args.rankDerivation);

      // 2. Withdrawal addresses of the winners.
      const { map, source } = readWithdrawals(args, doc);
      const winners = selection.winners.map((w, i) => {
        const address = map.get(w.agent_id);
        if (!address) {
          throw new TaskError(
            `Winner "${w.agent_id}" (place ${i + 1}) has no withdrawal address in ${source}: the award would pay nobody for that place. Add it and run again.`,
          );
        }
        return address;
      });

      // 3. The bounty on-chain must be the one the derivation was made for.
      const ctx = await taskContext(hre, { needSigner: true, from: args.from });
      for (const [i, address] of winners.entries())
        await refuseLostRecipientOnChain(
          address,
          `the withdrawal address of place ${i + 1} (${source})`,
          ctx,
        );
      const { BountyStatus: S, bountyStatusName } = contracts();
      const b = await ctx.bounty.getBounty(id);
      if (Number(b.status) === S.None)
        throw new TaskError(`There is no bounty ${id} on ${ctx.profile.name}.`);
      const mismatches: string[] = [];
      if (b.pool !== BigInt(rd.pool_base_units as string)) {
        mismatches.push(`pool ${b.pool} on-chain vs pool_base_units ${String(rd.pool_base_units)}`);
      }
      const chainSplits = b.splitsBps.map(Number);
      if (JSON.stringify(chainSplits) !== JSON.stringify(rd.splits_bps)) {
        mismatches.push(
          `splits ${JSON.stringify(chainSplits)} on-chain vs splits_bps ${JSON.stringify(rd.splits_bps)}`,
        );
      }
      if (Number(b.thresholdBps) !== rd.threshold_bps) {
        mismatches.push(`threshold ${b.thresholdBps} bps on-chain vs threshold_bps ${rd.threshold_bps}`);
      }
      if (mismatches.length > 0) {
        throw new TaskError(
          `The rank derivation does not match bounty ${id}: ${mismatches.join("; ")}. Refusing to award.`,
        );
      }
      const onChainAmounts = await ctx.bounty.payoutAmounts(b.pool, [...b.splitsBps], winners.length);
      if (
        onChainAmounts.length !== selection.amounts.length ||
        onChainAmounts.some((a, i) => a !== selection.amounts[i])
      ) {
        throw new TaskError(
          `The contract would pay ${onChainAmounts.join("/")} but the evidence library computes ${selection.amounts.join("/")}. Refusing to award.`,
        );
      }
      if (Number(b.status) !== S.Funded) {
        throw new TaskError(
          `Bounty ${id} is ${bountyStatusName(b.status)}, not Funded: it cannot be awarded.`,
        );
      }
      if (ctx.signer.address.toLowerCase() !== b.awarder.toLowerCase()) {
        throw new TaskError(
          `${ctx.signer.address} is not the awarder of bounty ${id} (${b.awarder}): sign with the awarder's key.`,
        );
      }
      const now = await chainNow(ctx);
      if (now < b.closesAt)
        throw new TaskError(
          `Bounty ${id} closes at ${isoSeconds(b.closesAt)}: the award window is not open yet.`,
        );
      if (now > b.awardDeadline) {
        throw new TaskError(
          `The award deadline of bounty ${id} (${isoSeconds(b.awardDeadline)}) has passed: it can no longer be awarded; the author may reclaim.`,
        );
      }

      const { symbol } = await tokenDisplay(ctx, b.token);
      console.log(`Awarding bounty ${id} on ${ctx.profile.name} (BenchmarkBounty ${ctx.bountyAddress})`);
      console.log(
        `  recomputed    ${rows.length} ranked rows, threshold ${rd.threshold_bps} bps, splits ${chainSplits.join("/")}: ${winners.length} winner(s)`,
      );
      selection.winners.forEach((w, i) =>
        console.log(
          `  place ${i + 1}       ${w.agent_id} -> ${winners[i]}  ${formatAmount(selection.amounts[i]!, symbol)}`,
        ),
      );
      if (winners.length === 0)
        console.log(`  no winner     ${selection.zero_winner_reason}: the whole pool returns to the author`);
      console.log(`  ranking digest ${digest}`);
      if (args.dryRun) {
        try {
          await ctx.bounty.award.staticCall(id, winners, digest);
        } catch (e) {
          throw decodeRevert(e, ctx.ifaces, "award");
        }
        console.log("Dry run: the award simulates fine; nothing sent.");
        return;
      }
      const receipt = await simulateAndSend(
        ctx,
        "award",
        () => ctx.bounty.award.staticCall(id, winners, digest),
        () => ctx.bounty.award(id, winners, digest),
      );
      const awarded = eventIn(receipt, ctx.bounty, "Awarded");
      console.log(`Awarded (tx ${receipt.hash}, block ${receipt.blockNumber}):`);
      console.log(`  bountyId        ${awarded.args.bountyId}`);
      console.log(`  testSetRoot     ${awarded.args.testSetRoot}`);
      (awarded.args.winners as string[]).forEach((w, i) =>
        console.log(
          `  winner ${i + 1}        ${w}  ${formatAmount(awarded.args.amounts[i] as bigint, symbol)}`,
        ),
      );
      console.log(`  authorRemainder ${formatAmount(awarded.args.authorRemainder as bigint, symbol)}`);
      console.log(`  rankingDigest   ${awarded.args.rankingDigest}`);
      console.log(`  link            ${txLink(ctx.profile, receipt.hash)}`);
    }),
  );
