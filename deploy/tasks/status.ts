/**
 * `bounty:status`: a bounty's on-chain state, its position on the status
 * ladder (SPEC 1.1), and whether the lock verifies against the token and author
 * the benchmark declares ("verify the lock before you spend a run").
 * Exits non-zero when a declared fact does not hold.
 */
import { task, types } from "hardhat/config";
import { TaskError, userAction } from "../lib/errors";
import {
  chainNow,
  pendingNow,
  queryLogs,
  refuseMalformedAddress,
  taskContext,
  tokenDisplay,
  type TaskContext,
} from "../lib/context";
import { contracts } from "../lib/packages";
import { readCommitmentFile } from "../lib/commitment";
import { baseUnits, formatAmount, isoSeconds, parseBountyId, relative } from "../lib/format";
import { awardClaimNotes, type Fmt } from "../lib/claim-notes";
import { fundedNext } from "../lib/window";
import { warnShortAwardWindow } from "../lib/terms";

/** The ladder with the current step in brackets, e.g. `Pending -> [Funded] -> Awarded | Reclaimed` (SPEC 1.1). */
export function ladder(status: number): string {
  const { BountyStatus: S, bountyStatusName } = contracts();
  const mark = (step: number) => (step === status ? `[${bountyStatusName(step)}]` : bountyStatusName(step));
  return `${mark(S.Pending)} -> ${mark(S.Funded)} -> ${mark(S.Awarded)} | ${mark(S.Reclaimed)}`;
}

/** The award of bounty `id` from its `Awarded` log: each place, the author's remainder, and what is still to claim. */
async function printAward(ctx: TaskContext, id: bigint, author: string, fmt: Fmt): Promise<void> {
  const [awarded] = await queryLogs(ctx, ctx.bounty, ctx.bounty.filters.Awarded(id));
  if (!awarded) return;
  const { winners, amounts, authorRemainder, rankingDigest } = awarded.args;
  const credit = new Map<string, bigint>();
  for (const account of [...(winners as string[]), author])
    if (!credit.has(account.toLowerCase()))
      credit.set(account.toLowerCase(), await ctx.bounty.creditOf(id, account));
  const notes = awardClaimNotes(
    winners as string[],
    amounts as bigint[],
    author,
    authorRemainder,
    credit,
    fmt,
  );
  console.log(
    `  awarded in    ${awarded.transactionHash} (block ${awarded.blockNumber}), ranking digest ${rankingDigest}`,
  );
  for (const [i, w] of (winners as string[]).entries())
    console.log(`    place ${i + 1}   ${w}  ${fmt(amounts[i]!)}  (${notes.places[i]})`);
  console.log(
    `    author     ${author}  ${fmt(authorRemainder)} (remainder${notes.remainder === null ? "" : `; ${notes.remainder}`})`,
  );
}

/**
 * Where the pool stands, the first line of the lock check: locked while Funded;
 * once Awarded, locked and then paid out (what is still to claim, or that every
 * credit was claimed); never for Pending or Reclaimed (to whom it went back).
 */
async function poolCheck(
  ctx: TaskContext,
  id: bigint,
  status: number,
  fmt: Fmt,
): Promise<{ ok: boolean; what: string }> {
  const { BountyStatus: S } = contracts();
  if (status === S.Funded) return { ok: true, what: "the pool is locked (status Funded)" };
  if (status === S.Pending)
    return { ok: false, what: "the pool is not locked (status Pending: not funded yet)" };
  if (status === S.Reclaimed) {
    const [reclaimed] = await queryLogs(ctx, ctx.bounty, ctx.bounty.filters.Reclaimed(id));
    const where = reclaimed
      ? `${fmt(reclaimed.args.amount)} went back to ${reclaimed.args.to} (tx ${reclaimed.transactionHash})`
      : "no Reclaimed log found";
    return {
      ok: false,
      what: `the pool is not locked: the author reclaimed it (status Reclaimed; ${where})`,
    };
  }
  const [awarded] = await queryLogs(ctx, ctx.bounty, ctx.bounty.filters.Awarded(id));
  const payees = new Set<string>([...((awarded?.args.winners ?? []) as string[])]);
  if (awarded && awarded.args.authorRemainder > 0n) payees.add((await ctx.bounty.getBounty(id)).author);
  let unclaimed = 0n;
  for (const p of payees) unclaimed += await ctx.bounty.creditOf(id, p);
  return {
    ok: true,
    what:
      unclaimed === 0n
        ? "the pool was locked, then awarded and paid out: every credit has been claimed (status Awarded)"
        : `the pool was locked and is awarded: ${fmt(unclaimed)} of credit is still in the contract (status Awarded)`,
  };
}

/**
 * One line of the lock check comparing what the chain holds with what was declared: `<what> is the
 * declared <declared>` when it holds, `<what> on-chain is <onChain>, not the declared <declared>` when it
 * does not (probe40 C-N2: a failing line read as the passing one with a ✗, never naming the chain's value).
 */
function declaredCheck(
  what: string,
  onChain: string,
  declared: string,
  ok: boolean,
): { ok: boolean; what: string } {
  return ok
    ? { ok, what: `${what} is the declared ${declared}` }
    : { ok, what: `${what} on-chain is ${onChain}, not the declared ${declared}` };
}

task("bounty:status", "Show a bounty's state and verify its lock against the declared token and author")
  .addParam("id", "Bounty id", undefined, types.string)
  .addOptionalParam("token", "Declared prize token (default: the chain's USDC)", undefined, types.string)
  .addOptionalParam("author", "Declared author address", undefined, types.string)
  .addOptionalParam(
    "commitment",
    "Declared commitment file {root, leafCount}, or the platform's GET .../commitment answer",
    undefined,
    types.string,
  )
  .setAction(
    userAction(async (args: { id: string; token?: string; author?: string; commitment?: string }, hre) => {
      const id = parseBountyId(args.id);
      const ctx = await taskContext(hre, { needSigner: false });
      for (const [flag, v] of [
        ["--token", args.token],
        ["--author", args.author],
      ] as const) {
        if (v !== undefined) refuseMalformedAddress(v, flag);
      }
      const count = await ctx.bounty.bountyCount();
      const b = await ctx.bounty.getBounty(id);
      const { BountyStatus: S, bountyStatusName } = contracts();
      const status = Number(b.status);
      if (status === S.None)
        throw new TaskError(
          `There is no bounty ${id} on ${ctx.profile.name} (bounty ids run from 1 to ${count}).`,
        );

      const now = await chainNow(ctx);
      const { symbol, decimals } = await tokenDisplay(ctx, b.token);
      const fmt = (v: bigint) => `${formatAmount(v, symbol, decimals)} (${baseUnits(v)})`;

      console.log(`Bounty ${id} on ${ctx.profile.name} (BenchmarkBounty ${ctx.bountyAddress})`);
      console.log(`  status        ${bountyStatusName(status)}    ${ladder(status)}`);
      console.log(`  author        ${b.author}`);
      console.log(`  awarder       ${b.awarder}`);
      console.log(`  token         ${b.token} (${symbol})`);
      console.log(`  pool          ${fmt(b.pool)}`);
      console.log(
        `  commitment    root ${b.testSetRoot}, ${b.leafCount} leaves${(await ctx.bounty.rootBurned(b.author, b.testSetRoot)) ? " (burned: revealed by the award)" : ""}`,
      );
      console.log(`  closes at     ${isoSeconds(b.closesAt)} (${relative(b.closesAt, now)})`);
      console.log(`  award by      ${isoSeconds(b.awardDeadline)} (${relative(b.awardDeadline, now)})`);
      console.log(`  threshold     ${b.thresholdBps} bps; splits ${b.splitsBps.join("/")} bps`);

      // What happens next.
      let next: string;
      if (status === S.Pending)
        next = "Pending: created but not funded; the author can fund it or cancel it (bounty:reclaim).";
      else if (status === S.Funded) next = fundedNext(b.closesAt, b.awardDeadline, await pendingNow(ctx));
      else if (status === S.Awarded)
        next = "Awarded: winners claim their credit (bounty:claim); the test set is revealed.";
      else next = "Reclaimed: the pool went back to the author; the test set is never revealed.";
      console.log(`  next          ${next}`);

      if (status === S.Awarded) await printAward(ctx, id, b.author, fmt);
      // The lock check.
      const declaredToken = args.token ?? ctx.profile.usdc;
      const checks: { ok: boolean; what: string }[] = [];
      checks.push(await poolCheck(ctx, id, status, fmt));
      checks.push(
        declaredCheck(
          "token",
          b.token,
          `${args.token ? "token" : "USDC"} ${declaredToken}`,
          b.token.toLowerCase() === declaredToken.toLowerCase(),
        ),
      );
      if (args.author !== undefined)
        checks.push(
          declaredCheck(
            "author",
            b.author,
            args.author,
            b.author.toLowerCase() === args.author.toLowerCase(),
          ),
        );
      if (status === S.Funded || status === S.Awarded || status === S.Reclaimed) {
        const [funded] = await queryLogs(ctx, ctx.bounty, ctx.bounty.filters.BountyFunded(id));
        checks.push(
          funded === undefined
            ? {
                ok: false,
                what: `no BountyFunded log found: the pool of ${fmt(b.pool)} was not seen moving in`,
              }
            : funded.args.amount === b.pool
              ? {
                  ok: true,
                  what: `BountyFunded moved the whole pool into the contract (${baseUnits(funded.args.amount)}, tx ${funded.transactionHash})`,
                }
              : {
                  ok: false,
                  what: `BountyFunded moved ${baseUnits(funded.args.amount)} into the contract (tx ${funded.transactionHash}), not the whole pool of ${baseUnits(b.pool)}`,
                },
        );
      }
      if (args.commitment !== undefined) {
        const declared = readCommitmentFile(args.commitment, "--commitment");
        const root = b.testSetRoot.toLowerCase();
        checks.push(declaredCheck("test-set root", root, declared.root, declared.root === root));
        checks.push(
          declaredCheck(
            "leaf count",
            String(b.leafCount),
            String(declared.leafCount),
            declared.leafCount === Number(b.leafCount),
          ),
        );
      }
      console.log("Lock check:");
      for (const c of checks) console.log(`  ${c.ok ? "✓" : "✗"} ${c.what}`);
      if (args.author === undefined) console.log("  - author not checked: pass --author <declared author>");
      // a window the service refuses to attach (probe38 V-N4), said beside the verdict
      if (status === S.Pending || status === S.Funded)
        warnShortAwardWindow(b.closesAt, b.awardDeadline, "status");
      const failed = checks.filter((c) => !c.ok);
      if (failed.length > 0) {
        throw new TaskError(
          `The lock of bounty ${id} does NOT verify: ${failed.map((c) => c.what).join("; ")}.`,
        );
      }
      console.log(`The lock of bounty ${id} verifies.`);
    }),
  );
