/**
 * Winners: `bounty:credits` lists outstanding credit of an account, and
 * `bounty:claim` withdraws it (one bounty, several, or all with credit), to the
 * signer or to `--to` (SPEC 1.1 claim / claimMany). Bounties with credit are
 * found through the indexer's REST API (`--indexer URL`,
 * `GET /accounts/:address/credits`) or else from the `Awarded` logs; either
 * way every amount is re-read on-chain with `creditOf` before anything is sent.
 */
import { task, types } from "hardhat/config";
import { TaskError, userAction } from "../lib/errors";
import { eventsIn, queryLogs, simulateAndSend, taskContext, type TaskContext } from "../lib/context";
import { txLink } from "../lib/network";
import { contracts } from "../lib/packages";
import { formatAmount, parseBountyId, parseBountyIds } from "../lib/format";

/** One bounty in which an account holds credit (base units, read on-chain). */
interface Credit {
  bountyId: bigint;
  token: string;
  amount: bigint;
}

/** Bounty ids the indexer lists with outstanding credit for `account` (all pages). */
async function idsFromIndexer(indexer: string, account: string): Promise<bigint[]> {
  let base: URL;
  try {
    base = new URL(indexer);
  } catch {
    throw new TaskError(`--indexer must be a URL like http://127.0.0.1:42069, got "${indexer}".`);
  }
  const ids: bigint[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 1000; page++) {
    const url = new URL(`accounts/${account}/credits`, base.href.endsWith("/") ? base.href : `${base.href}/`);
    url.searchParams.set("limit", "100");
    if (cursor) url.searchParams.set("cursor", cursor);
    let res: Response;
    try {
      res = await fetch(url);
    } catch (e) {
      throw new TaskError(
        `Cannot reach the indexer at ${url.origin} (${(e as Error).message}): check --indexer, or leave it out to search the logs.`,
      );
    }
    if (!res.ok)
      throw new TaskError(
        `The indexer answered ${res.status} for ${url.pathname}: ${(await res.text()).slice(0, 200)}`,
      );
    const body = (await res.json()) as {
      credits?: { bountyId?: unknown; outstanding?: unknown }[];
      nextCursor?: unknown;
    };
    if (!Array.isArray(body.credits))
      throw new TaskError(`The indexer's answer for ${url.pathname} has no "credits" list.`);
    for (const c of body.credits) {
      if (typeof c.bountyId !== "string" && typeof c.bountyId !== "number") continue;
      if (c.outstanding !== undefined && String(c.outstanding) === "0") continue;
      ids.push(BigInt(c.bountyId));
    }
    cursor = typeof body.nextCursor === "string" ? body.nextCursor : null;
    if (!cursor) break;
  }
  return ids;
}

/** Bounty ids whose `Awarded` log credits `account` (a place, or the author's remainder). */
async function idsFromLogs(ctx: TaskContext, account: string): Promise<bigint[]> {
  const ids: bigint[] = [];
  const lower = account.toLowerCase();
  for (const log of await queryLogs(ctx, ctx.bounty, ctx.bounty.filters.Awarded())) {
    const id = log.args.bountyId;
    const winners = (log.args.winners as string[]).map((w) => w.toLowerCase());
    if (winners.includes(lower)) ids.push(id);
    else if (log.args.authorRemainder > 0n) {
      const b = await ctx.bounty.getBounty(id);
      if (b.author.toLowerCase() === lower) ids.push(id);
    }
  }
  return ids;
}

/** Outstanding credit of `account`, re-read with `creditOf`, in bounty id order. */
async function findCredits(
  ctx: TaskContext,
  account: string,
  indexer: string | undefined,
): Promise<Credit[]> {
  const ids = indexer ? await idsFromIndexer(indexer, account) : await idsFromLogs(ctx, account);
  const unique = [...new Set(ids.map(String))].map(BigInt).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const out: Credit[] = [];
  for (const bountyId of unique) {
    const amount = await ctx.bounty.creditOf(bountyId, account);
    if (amount === 0n) continue;
    const b = await ctx.bounty.getBounty(bountyId);
    out.push({ bountyId, token: b.token, amount });
  }
  return out;
}

async function symbolOf(ctx: TaskContext, token: string): Promise<string> {
  try {
    return await (await ctx.hre.ethers.getContractAt("TestUSDC", token)).symbol();
  } catch {
    return "tokens";
  }
}

task("bounty:credits", "List the outstanding credit of an account (what it can claim)")
  .addOptionalParam("account", "Account (default: the signer)", undefined, types.string)
  .addOptionalParam(
    "indexer",
    "Indexer REST base URL (else the Awarded logs are searched)",
    undefined,
    types.string,
  )
  .setAction(
    userAction(async (args: { account?: string; indexer?: string }, hre) => {
      const ctx = await taskContext(hre, { needSigner: args.account === undefined });
      if (args.account !== undefined && !hre.ethers.isAddress(args.account)) {
        throw new TaskError(`--account is not an address: "${args.account}".`);
      }
      const account = args.account ?? ctx.signer.address;
      const credits = await findCredits(ctx, account, args.indexer);
      console.log(
        `Outstanding credit of ${account} on ${ctx.profile.name} (found via ${args.indexer ? `the indexer ${args.indexer}` : "the Awarded logs"}, amounts read on-chain):`,
      );
      if (credits.length === 0) {
        console.log("  none");
        return;
      }
      const totals = new Map<string, bigint>();
      for (const c of credits) {
        const symbol = await symbolOf(ctx, c.token);
        console.log(
          `  bounty ${c.bountyId}  ${formatAmount(c.amount, symbol)}  (${c.amount} base units of ${c.token})`,
        );
        totals.set(c.token, (totals.get(c.token) ?? 0n) + c.amount);
      }
      for (const [token, total] of totals)
        console.log(`  total ${formatAmount(total, await symbolOf(ctx, token))} (${token})`);
      console.log(
        `Claim with: npx hardhat bounty:claim --network ${ctx.profile.name} --all [--to <address>]`,
      );
    }),
  );

task("bounty:claim", "Claim credit: one bounty (--id), several (--ids) or all with credit (--all)")
  .addOptionalParam("id", "Bounty id", undefined, types.string)
  .addOptionalParam("ids", "Bounty ids, comma-separated", undefined, types.string)
  .addFlag("all", "Every bounty in which the signer has credit")
  .addOptionalParam("to", "Where the USDC goes (default: the signer)", undefined, types.string)
  .addOptionalParam(
    "indexer",
    "Indexer REST base URL used by --all (else the Awarded logs are searched)",
    undefined,
    types.string,
  )
  .addOptionalParam(
    "from",
    "Winner account (one of the node's accounts on localhost)",
    undefined,
    types.string,
  )
  .setAction(
    userAction(
      async (
        args: { id?: string; ids?: string; all: boolean; to?: string; indexer?: string; from?: string },
        hre,
      ) => {
        const chosen = [args.id !== undefined, args.ids !== undefined, args.all].filter(Boolean).length;
        if (chosen !== 1) throw new TaskError("Give exactly one of --id <n>, --ids <n,m,...> or --all.");
        if (args.indexer !== undefined && !args.all)
          throw new TaskError("--indexer is only used with --all.");
        const requested =
          args.id !== undefined
            ? [parseBountyId(args.id)]
            : args.ids !== undefined
              ? parseBountyIds(args.ids, "--ids")
              : null;
        if (args.to !== undefined && (!hre.ethers.isAddress(args.to) || BigInt(args.to) === 0n)) {
          throw new TaskError(`--to must be a non-zero address, got "${args.to}".`);
        }
        const ctx = await taskContext(hre, { needSigner: true, from: args.from });
        const account = ctx.signer.address;
        const to = args.to ?? account;

        let credits: Credit[];
        if (requested) {
          credits = [];
          for (const bountyId of requested) {
            const { BountyStatus: S } = contracts();
            const b = await ctx.bounty.getBounty(bountyId);
            if (Number(b.status) === S.None)
              throw new TaskError(`There is no bounty ${bountyId} on ${ctx.profile.name}.`);
            const amount = await ctx.bounty.creditOf(bountyId, account);
            if (amount === 0n) {
              throw new TaskError(
                `${account} has no credit in bounty ${bountyId}${Number(b.status) === S.Awarded ? "" : " (it is not awarded)"}: see bounty:credits. Nothing was sent.`,
              );
            }
            credits.push({ bountyId, token: b.token, amount });
          }
        } else {
          credits = await findCredits(ctx, account, args.indexer);
          if (credits.length === 0) {
            throw new TaskError(
              `${account} has no outstanding credit on ${ctx.profile.name}${args.indexer ? " (as far as the indexer knows)" : ""}: nothing to claim.`,
            );
          }
        }

        console.log(
          `Claiming for ${account} on ${ctx.profile.name}, paid to ${to}${to === account ? "" : " (--to)"}:`,
        );
        for (const c of credits)
          console.log(`  bounty ${c.bountyId}  ${formatAmount(c.amount, await symbolOf(ctx, c.token))}`);
        const ids = credits.map((c) => c.bountyId);
        const receipt =
          ids.length === 1
            ? await simulateAndSend(
                ctx,
                "claim",
                () => ctx.bounty.claim.staticCall(ids[0]!, to),
                () => ctx.bounty.claim(ids[0]!, to),
              )
            : await simulateAndSend(
                ctx,
                "claimMany",
                () => ctx.bounty.claimMany.staticCall(ids, to),
                () => ctx.bounty.claimMany(ids, to),
              );
        for (const parsed of eventsIn(receipt, ctx.bounty, "Claimed")) {
          const credit = credits.find((c) => c.bountyId === parsed.args.bountyId);
          const symbol = credit ? await symbolOf(ctx, credit.token) : "tokens";
          console.log(
            `Claimed bounty ${parsed.args.bountyId}: ${formatAmount(parsed.args.amount as bigint, symbol)} from ${parsed.args.account} to ${parsed.args.to}`,
          );
        }
        console.log(`  tx   ${receipt.hash} (block ${receipt.blockNumber})`);
        console.log(`  link ${txLink(ctx.profile, receipt.hash)}`);
      },
    ),
  );
