/**
 * `bounty:award`: the awarder settles a bounty from the pack's rank derivation
 * (SPEC 7-8). The selection and the amounts are recomputed with
 * @bench-bounty/evidence and compared with the file, with the bounty on-chain
 * and with the contract's own `payoutAmounts`; the award is refused when any of
 * them disagree, a winner has no withdrawal address or is paid at the bounty's author (SPEC 7.2), or a
 * row's receipt hash is not anchored (SPEC 9 `receipt_anchors`). It sends
 * `award(bountyId, winners, rankingDigest)` and prints the `Awarded` event.
 */
import { task, types } from "hardhat/config";
import { TaskError, decodeRevert, userAction } from "../lib/errors";
import {
  chainNow,
  eventIn,
  pendingNow,
  queryLogs,
  refuseLostRecipient,
  refuseLostRecipientOnChain,
  refuseTokenRecipient,
  refuseMalformedAddress,
  SIMULATE_AT,
  simulateAndSend,
  taskContext,
  tokenDisplay,
  type TaskContext,
  withFromParam,
} from "../lib/context";
import { unanchoredDigests } from "../lib/anchors";
import { pasteableTask, txLink } from "../lib/network";
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

/**
 * agent_id -> withdrawal address of the winners. A pack's own `winners[].withdrawal_address` (SPEC 8:
 * the pack's `award_log` fact compares them with `Awarded.winners`) come first and are binding:
 * `--withdrawals-file` / `--withdrawals` may add an agent the pack does not name, never name another
 * address for one it does (probe27 C-F1: the file silently replaced them, so the award paid addresses the
 * evidence does not name and the pack could never verify). Without a pack, the flags give the addresses.
 * @throws TaskError naming the agent, both sources and both addresses of a disagreement, or a malformed
 *   or lost address (its file and JSON path)
 */
function readWithdrawals(
  args: AwardArgs,
  doc: Record<string, unknown>,
): { map: Map<string, string>; source: string } {
  const map = new Map<string, { address: string; where: string }>();
  const put = (agent: string, address: unknown, where: string) => {
    refuseMalformedAddress(address, `${where}: the withdrawal address of agent "${agent}"`);
    refuseLostRecipient(address, `${where}: the withdrawal address of agent "${agent}"`);
    const known = map.get(agent);
    if (known && known.address.toLowerCase() !== address.toLowerCase()) {
      throw new TaskError(
        `${where}: agent "${agent}" has withdrawal address ${address} but ${known.where} says ${known.address}: refusing to award (an award must pay the addresses its pack names); nothing was sent.`,
      );
    }
    if (!known) map.set(agent, { address, where });
  };
  const sources: string[] = [];
  if (Array.isArray(doc.winners)) {
    doc.winners.forEach((w, i) => {
      const o = asObject(w, `--rank-derivation ${args.rankDerivation} $.winners[${i}]`);
      put(
        String(o.agent_id),
        o.withdrawal_address,
        `--rank-derivation ${args.rankDerivation} $.winners[${i}].withdrawal_address`,
      );
    });
    sources.push(`${args.rankDerivation} (winners)`);
  }
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
  const addresses = new Map([...map].map(([agent, v]) => [agent, v.address]));
  return { map: addresses, source: sources.join(" + ") || "(none given)" };
}

/**
 * When the `--rank-derivation` file is an evidence pack (it has a `benchmark` block, SPEC 8), the
 * bounty it names must be the one being awarded: `bounty_id` is `--id`, `chain_id` and
 * `bounty_contract` are the network's, `commit_root` and `leaf_count` are the bounty's on-chain
 * (`getBounty(id)`), and its `winners[]` are the recomputed winners, place by place (probe27 C-F1: the
 * pack of another bounty with the same terms awarded bounty `--id` to that pack's winners and burned its
 * root), each with a receipt run on the bounty's test set (`winners[i].receipt.commit_root` is the
 * on-chain root: SPEC 8, SPEC 9 step 2). Called before anything is sent; a bare rank derivation names no
 * bounty and is not checked here. Each field is compared only once it has its SPEC 8 JSON type (a
 * decimal string `bounty_id`, an integer `chain_id` and `leaf_count`, a string `bounty_contract` and
 * `commit_root`): one of another type is named by its type (probe33 C-F4: the number 2 was refused
 * "is 2 but --id is 2").
 * @throws TaskError `--rank-derivation <file> $.benchmark.<field> is <pack value> but <what> is <value>: ...`,
 *   `... $.benchmark.<field> must be <type> (SPEC 8), got <the value, by its type>: ...` (or `is missing`),
 *   or `... $.winners[i].receipt.commit_root is <value> but bounty <id>'s test-set root on-chain is ...`
 */
function refusePackOfAnotherBounty(
  file: string,
  doc: Record<string, unknown>,
  id: bigint,
  onChain: { testSetRoot: string; leafCount: bigint },
  network: { name: string; chainId: number; bountyAddress: string },
  selected: readonly { agent_id: string }[],
): void {
  if (doc.benchmark === undefined) return;
  const where = `--rank-derivation ${file}`;
  const bench = asObject(doc.benchmark, `${where} $.benchmark`);
  const refuse = (field: string, packValue: unknown, what: string, value: string) =>
    new TaskError(
      `${where} $.benchmark.${field} is ${typeof packValue === "bigint" ? String(packValue) : JSON.stringify(packValue)} but ${what} is ${value}: this pack is not bounty ${id}'s. Refusing to award; nothing was sent.`,
    );
  const { describeValue } = evidence();
  const types: [field: string, type: "string" | "number", shape: string][] = [
    ["bounty_id", "string", "a decimal string"],
    ["chain_id", "number", "an integer"],
    ["bounty_contract", "string", "an address string"],
    ["commit_root", "string", "a 0x-prefixed hex string"],
    ["leaf_count", "number", "an integer"],
  ];
  for (const [field, type, shape] of types) {
    const v = bench[field];
    if (typeof v === type || (type === "number" && typeof v === "bigint")) continue; // bigint: an integer past 2^53
    throw new TaskError(
      `${where} $.benchmark.${field} ${v === undefined ? `is missing (SPEC 8: ${shape})` : `must be ${shape} (SPEC 8), got ${describeValue(v)}`}: this pack is not bounty ${id}'s. Refusing to award; nothing was sent.`,
    );
  }
  const lower = (v: unknown) => (typeof v === "string" ? v.toLowerCase() : v);
  if (bench.bounty_id !== String(id)) throw refuse("bounty_id", bench.bounty_id, "--id", String(id));
  if (bench.chain_id !== network.chainId)
    throw refuse(
      "chain_id",
      bench.chain_id,
      `the chain id of --network ${network.name}`,
      String(network.chainId),
    );
  if (lower(bench.bounty_contract) !== network.bountyAddress.toLowerCase())
    throw refuse(
      "bounty_contract",
      bench.bounty_contract,
      `the BenchmarkBounty of ${network.name}`,
      network.bountyAddress,
    );
  if (lower(bench.commit_root) !== onChain.testSetRoot.toLowerCase())
    throw refuse(
      "commit_root",
      bench.commit_root,
      `bounty ${id}'s test-set root on-chain`,
      onChain.testSetRoot,
    );
  if (bench.leaf_count !== Number(onChain.leafCount))
    throw refuse(
      "leaf_count",
      bench.leaf_count,
      `bounty ${id}'s leaf count on-chain`,
      String(onChain.leafCount),
    );
  if (doc.winners === undefined) return;
  if (!Array.isArray(doc.winners)) throw new TaskError(`${where} $.winners must be an array.`);
  const named = doc.winners.map((w) => (w as { agent_id?: unknown } | null)?.agent_id);
  const recomputed = selected.map((w) => w.agent_id);
  if (JSON.stringify(named) !== JSON.stringify(recomputed))
    throw new TaskError(
      `${where} $.winners name ${JSON.stringify(named)} but the rank derivation selects ${JSON.stringify(recomputed)} (in place order): no pack carrying them could verify. Refusing to award; nothing was sent.`,
    );
  // each winner's receipt was run on this test set (probe31 C-F3 rest: only the rows' were compared)
  const ev = evidence();
  doc.winners.forEach((w, i) => {
    const receipt = (w as { receipt?: unknown } | null)?.receipt;
    if (receipt === undefined || receipt === null || typeof receipt !== "object") return;
    const receiptPath = `${ev.appendPath("$.winners", i)}.receipt`;
    const { problems } = ev.checkReceiptBinding(receipt as never, {
      commitRoot: onChain.testSetRoot.toLowerCase(),
      receiptPath,
    });
    const other = problems.find((p) => p.code === "commit_root_mismatch");
    if (other !== undefined)
      throw new TaskError(
        `${where} ${other.path} is ${JSON.stringify((receipt as { commit_root?: unknown }).commit_root) ?? "missing"} but bounty ${id}'s test-set root on-chain is ${onChain.testSetRoot}: this winner's run was not on bounty ${id}'s test set, and no evidence pack carrying it could verify. Refusing to award; nothing was sent.`,
      );
  });
}

/**
 * The rows' embedded receipts (SPEC 8 `rank_derivation.rows[].receipt`, optional) must have been run on
 * the bounty's test set, pack or bare rank derivation alike: each receipt's `commit_root` is the
 * bounty's test-set root on-chain (`getBounty(id).testSetRoot`; compared by `checkReceiptBinding` of
 * @bench-bounty/evidence, SPEC 4 / SPEC 9 step 2: `receipt.commit_root == benchmark.commit_root`), and
 * its `benchmark_slug` the pack's `benchmark.slug` (a bare rank derivation: the first embedded
 * receipt's, rows of one benchmark). Probe31 C-F3: a bare rank derivation of another benchmark, its
 * terms edited to match, awarded bounty `--id` and burned its root, though no pack could ever verify
 * it. A row without an embedded receipt names no test set and is not checked here. Called before
 * anything is sent.
 * @param rdRoot the JSON path of the rank derivation in the file (`$` or `$.rank_derivation`)
 * @throws TaskError `--rank-derivation <file> <rdRoot>.rows[i].receipt.<field> is <receipt value> but
 *   <what> is <value>: ...`
 */
function refuseRowsOfAnotherTestSet(
  file: string,
  doc: Record<string, unknown>,
  rows: readonly unknown[],
  rdRoot: string,
  id: bigint,
  testSetRoot: string,
): void {
  const ev = evidence();
  const root = testSetRoot.toLowerCase();
  const packSlug = (doc.benchmark as { slug?: unknown } | undefined)?.slug;
  let slug: { value: unknown; what: string; why: string } | undefined =
    doc.benchmark === undefined
      ? undefined
      : {
          value: packSlug,
          what: "the pack's $.benchmark.slug",
          why: "these rows are not of the pack's benchmark",
        };
  const refuse = (path: string, value: unknown, what: string, expected: string, why: string) =>
    new TaskError(
      `--rank-derivation ${file} ${path} is ${JSON.stringify(value) ?? "missing"} but ${what} is ${expected}: ${why}, and no evidence pack carrying them could verify. Refusing to award; nothing was sent.`,
    );
  rows.forEach((row, i) => {
    const receipt = (row as Row).receipt as { commit_root?: unknown; benchmark_slug?: unknown } | undefined;
    if (receipt === undefined) return;
    const receiptPath = `${ev.appendPath(`${rdRoot}.rows`, i)}.receipt`;
    const { problems } = ev.checkReceiptBinding(receipt as never, { commitRoot: root, receiptPath });
    const other = problems.find((p) => p.code === "commit_root_mismatch");
    if (other !== undefined)
      throw refuse(
        other.path,
        receipt.commit_root,
        `bounty ${id}'s test-set root on-chain`,
        testSetRoot,
        `these rows were not run on bounty ${id}'s test set`,
      );
    if (slug === undefined)
      slug = {
        value: receipt.benchmark_slug,
        what: `${receiptPath}.benchmark_slug`,
        why: "these rows are not of one benchmark",
      };
    else if (receipt.benchmark_slug !== slug.value)
      throw refuse(
        `${receiptPath}.benchmark_slug`,
        receipt.benchmark_slug,
        slug.what,
        JSON.stringify(slug.value),
        slug.why,
      );
  });
}

/**
 * SPEC 7.2 by the money's destination: no winner is paid at the bounty's author (`getBounty(id).author`,
 * the address that locked it), "author agents rank but take no money". The verifier's `selection` fact
 * fails any pack whose `winners[].withdrawal_address` is `benchmark.author` (packages/verifier
 * offline/selection.ts), and the platform refuses such an address at run start, address change and award
 * (probe34 C-F1): all by `paysAuthor` of `@bench-bounty/evidence`. Probe35 C-F1: the task sent such an
 * award, burned the root, and no pack of it could ever verify.
 * Called before anything is sent, a pack's own `winners[]` addresses and the flags' alike.
 * @param author the bounty's author on-chain
 * @param selected the recomputed winners, in place order
 * @param addresses their withdrawal addresses, in place order
 * @param source where the addresses came from (named in the refusal)
 * @throws TaskError naming the place, the agent, the address and what to do; nothing is sent
 */
function refuseWinnerPaidAtAuthor(
  id: bigint,
  author: string,
  selected: readonly { agent_id: string }[],
  addresses: readonly string[],
  source: string,
): void {
  addresses.forEach((address, i) => {
    if (!evidence().paysAuthor(address, author)) return;
    throw new TaskError(
      `The withdrawal address of place ${i + 1} (agent "${selected[i]!.agent_id}", ${source}) is ${address}, the author of bounty ${id} (getBounty(${id}).author ${author}): ${evidence().AUTHOR_TAKES_NO_PRIZE}, so no evidence pack of this award could verify its selection fact. Give that agent another withdrawal address, or mark its row is_author_agent if it is the author's own agent. Refusing to award; nothing was sent.`,
    );
  });
}

/**
 * Every row's `receipt_hash` must be anchored in the network's AnchorRegistry before the award is sent:
 * SPEC 9 `receipt_anchors` wants each anchored at or before the award block, so a hash with no record now
 * can never meet it once the award is mined, and the award burns the root while no pack can verify
 * (probe35 C-F3; the platform's award refuses the same, its receipt anchors flushed first). Existence at
 * the latest block counts, whatever the kind (a digest anchored first with another kind is a matter of
 * its own). Read with bounded concurrency (`unanchoredDigests`, deploy/lib/anchors.ts). Called before
 * anything is sent, `--dry-run` too; the row hashes are well-formed already (`rankDerivationProblems`).
 * @param rows the rank derivation's rows, in rank order
 * @param rdRoot the JSON path of the rank derivation in the file (`$` or `$.rank_derivation`)
 * @throws TaskError naming the first unanchored row (JSON path, hash, agent), how many more there are,
 *   and the pasteable `npx hardhat anchor … --kind receipt` command that anchors it; nothing is sent
 */
async function refuseUnanchoredReceipts(
  ctx: TaskContext,
  file: string,
  rows: readonly unknown[],
  rdRoot: string,
): Promise<void> {
  const hashes = rows.map((r) => String((r as Row).receipt_hash));
  const missing = await unanchoredDigests(ctx.registry, hashes);
  const first = missing[0];
  if (first === undefined) return;
  const hash = hashes[first]!;
  const path = `${evidence().appendPath(`${rdRoot}.rows`, first)}.receipt_hash`;
  const more =
    missing.length > 1
      ? ` (${missing.length} of the ${rows.length} rows' receipt hashes are not anchored: anchor each the same way)`
      : "";
  const anchor = pasteableTask(ctx.profile, "anchor", [
    ...["--from", ctx.signer.address, "--digest", hash, "--kind", "receipt"],
  ]);
  throw new TaskError(
    `--rank-derivation ${file} ${path} ${hash} (agent "${(rows[first] as Row).agent_id}", rank ${first + 1}) is not anchored in AnchorRegistry ${ctx.registryAddress}${more}: ` +
      "SPEC 9 receipt_anchors needs every row's receipt anchored at or before the award block, so no evidence pack of this award could ever verify. " +
      `Refusing to award; nothing was sent. Anchor it first, then award again:\n  ${anchor}`,
  );
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
  return { doc, rd, rdRoot, rows, selection, digest };
}

/**
 * A rerun of an award that is done already (probe34 C-F4: the send's answer was lost, the award was
 * mined; a rerun said only "is Awarded, not Funded"): bounty `id`'s `Awarded` event read. The same
 * ranking digest and the same winners: it prints that this award is done, by which transaction, and
 * the task ends with exit code 0 (nothing to send; the award asked for holds, as the platform adopts its
 * own award on-chain). No event found: false (the caller's refusal follows).
 * @returns true when this very award is on-chain (printed)
 * @throws TaskError when the bounty was awarded with another ranking digest or to other addresses,
 *   naming the transaction and what differs (exit code 1)
 */
async function awardedAlready(
  ctx: TaskContext,
  id: bigint,
  digest: string,
  winners: readonly string[],
): Promise<boolean> {
  const [awarded] = await queryLogs(ctx, ctx.bounty, ctx.bounty.filters.Awarded(id));
  if (!awarded) return false;
  const onChain = (awarded.args.winners as string[]).map((w) => w.toLowerCase());
  const by = `by transaction ${awarded.transactionHash} (block ${awarded.blockNumber})`;
  if (awarded.args.rankingDigest.toLowerCase() !== digest.toLowerCase())
    throw new TaskError(
      `Bounty ${id} is already Awarded ${by} with ranking digest ${awarded.args.rankingDigest}, not this rank derivation's ${digest}: it cannot be awarded again. Nothing was sent.`,
    );
  if (onChain.length !== winners.length || onChain.some((w, i) => w !== winners[i]!.toLowerCase()))
    throw new TaskError(
      `Bounty ${id} is already Awarded ${by} with this ranking digest, but to ${onChain.join(", ") || "no winner"}, not ${winners.join(", ") || "no winner"}: it cannot be awarded again. Nothing was sent.`,
    );
  console.log(
    `Bounty ${id} is already awarded with this ranking digest ${digest} and these winners, ${by}: nothing to do, nothing was sent.`,
  );
  console.log(`  link ${txLink(ctx.profile, awarded.transactionHash)}`);
  return true;
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
      const { doc, rd, rdRoot, rows, selection, digest } = recomputeAward(args.rankDerivation);

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
      for (const [i, address] of winners.entries())
        refuseTokenRecipient(address, `the withdrawal address of place ${i + 1} (${source})`, [
          { bountyId: id, token: b.token },
        ]);
      refuseWinnerPaidAtAuthor(id, b.author, selection.winners, winners, source);
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
      refusePackOfAnotherBounty(
        args.rankDerivation,
        doc,
        id,
        b,
        { name: ctx.profile.name, chainId: ctx.profile.chainId, bountyAddress: ctx.bountyAddress },
        selection.winners,
      );
      refuseRowsOfAnotherTestSet(args.rankDerivation, doc, rows, rdRoot, id, b.testSetRoot);
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
      // a rerun after a send whose answer was lost finds its own award done (probe34 C-F4)
      if (Number(b.status) === S.Awarded && (await awardedAlready(ctx, id, digest, winners))) return;
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
      // the award lands in the next block at the earliest: the opening edge is judged by its time
      // (`pendingNow`), as the contract and the simulation judge it (probe31 C-F2: at closesAt - 1 in the
      // latest block it was refused "not open yet" though the block it lands in was open); the deadline
      // edge's last second is the simulation's (`AwardAfterDeadline`: probe28c C-F1)
      const landing = now < b.closesAt ? await pendingNow(ctx) : now;
      if (landing < b.closesAt)
        throw new TaskError(
          `Bounty ${id} closes at ${isoSeconds(b.closesAt)}: the award window is not open yet (the next block's time is ${isoSeconds(landing)}).`,
        );
      if (now > b.awardDeadline) {
        throw new TaskError(
          `The award deadline of bounty ${id} (${isoSeconds(b.awardDeadline)}) has passed: it can no longer be awarded; the author may reclaim.`,
        );
      }
      await refuseUnanchoredReceipts(ctx, args.rankDerivation, rows, rdRoot);

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
          await ctx.bounty.award.staticCall(id, winners, digest, SIMULATE_AT);
        } catch (e) {
          throw decodeRevert(e, ctx.ifaces, "award");
        }
        console.log("Dry run: the award simulates fine; nothing sent.");
        return;
      }
      const receipt = await simulateAndSend(
        ctx,
        "award",
        (o) => ctx.bounty.award.staticCall(id, winners, digest, o),
        () => ctx.bounty.award(id, winners, digest),
        undefined,
        pasteableTask(ctx.profile, "bounty:status", ["--id", String(id)]),
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
