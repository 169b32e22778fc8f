/**
 * Winners: `bounty:credits` lists outstanding credit of an account, and
 * `bounty:claim` withdraws it (one bounty, several, or all with credit), to the
 * signer or to `--to` (SPEC 1.1 claim / claimMany). Bounties with credit are
 * found through the indexer's REST API (`--indexer URL`,
 * `GET /accounts/:address/credits`) or else from the `Awarded` logs; either
 * way every amount is re-read on-chain with `creditOf` before anything is sent.
 * `bounty:claim --relay` has the winner sign the EIP-712 Claim and another
 * account submit `claimWithSig` and pay the gas (deploy/lib/relay.ts).
 */
import { task, types } from "hardhat/config";
import { TaskError, decodeRevert, userAction } from "../lib/errors";
import type { TransactionReceipt } from "ethers";
import {
  chainNow,
  eventsIn,
  queryLogs,
  simulateAndSend,
  taskContext,
  tokenDisplay,
  type TaskContext,
  withFromParam,
  refuseLostRecipientOnChain,
  refuseWithoutGas,
  refuseMalformedAddress,
} from "../lib/context";
import { pasteableTask, txLink } from "../lib/network";
import { contracts } from "../lib/packages";
import { formatAmount, isoSeconds, parseBountyId, parseBountyIds, parseTime } from "../lib/format";
import { creditIdsFromIndexer, DEFAULT_INDEXER_TIMEOUT_MS, parseIndexerTimeout } from "../lib/indexer";
import { relayClaim } from "../lib/relay";
import { hardhatWallet, keyWallet, publicClientOf } from "../lib/wallets";

/** One bounty in which an account holds credit (base units, read on-chain). */
interface Credit {
  bountyId: bigint;
  token: string;
  amount: bigint;
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

/** Where the credits are looked up: the indexer's REST base URL and the bound of each request, or none (the logs). */
interface IndexerOption {
  url: string;
  timeoutMs: number;
}

/** `--indexer` and `--indexer-timeout` (only with `--indexer`). @throws TaskError naming the flag */
function indexerOption(indexer: string | undefined, timeout: string | undefined): IndexerOption | undefined {
  if (indexer === undefined) {
    if (timeout !== undefined) throw new TaskError("--indexer-timeout is only used with --indexer.");
    return undefined;
  }
  return { url: indexer, timeoutMs: parseIndexerTimeout(timeout) };
}

/** Outstanding credit of `account`, re-read with `creditOf`, in bounty id order. */
async function findCredits(
  ctx: TaskContext,
  account: string,
  indexer: IndexerOption | undefined,
): Promise<Credit[]> {
  const ids = indexer
    ? await creditIdsFromIndexer(indexer.url, account, indexer.timeoutMs)
    : await idsFromLogs(ctx, account);
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
  return (await tokenDisplay(ctx, token)).symbol;
}

const INDEXER_TIMEOUT_HELP = `With --indexer: the bound of each request to it, headers and body together, ms (default ${DEFAULT_INDEXER_TIMEOUT_MS})`;

task("bounty:credits", "List the outstanding credit of an account (what it can claim)")
  .addOptionalParam("account", "Account (default: the signer)", undefined, types.string)
  .addOptionalParam(
    "indexer",
    "Indexer REST base URL (else the Awarded logs are searched)",
    undefined,
    types.string,
  )
  .addOptionalParam("indexerTimeout", INDEXER_TIMEOUT_HELP, undefined, types.string)
  .setAction(
    userAction(async (args: { account?: string; indexer?: string; indexerTimeout?: string }, hre) => {
      const indexer = indexerOption(args.indexer, args.indexerTimeout);
      const ctx = await taskContext(hre, { needSigner: args.account === undefined });
      if (args.account !== undefined) refuseMalformedAddress(args.account, "--account");
      const account = hre.ethers.getAddress(args.account ?? ctx.signer.address);
      const credits = await findCredits(ctx, account, indexer);
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
      // A command that works when pasted: the account signs (--from), all of its credit, to itself.
      // the command alone on its line, so the line pastes (probe21 B-F9 class)
      console.log(
        `Claim with:\n  ${pasteableTask(ctx.profile, "bounty:claim", ["--from", account, "--all"])}`,
      );
      console.log(
        "  Paid at another address: add --to and that address. No ETH for gas: bounty:claim --relay (deploy/README.md).",
      );
    }),
  );

interface ClaimArgs {
  id?: string;
  ids?: string;
  all: boolean;
  to?: string;
  indexer?: string;
  indexerTimeout?: string;
  from?: string;
  relay: boolean;
  account?: string;
  deadline?: string;
}

/** The credits a claim takes: the requested bounties (each must hold credit), or all found. */
async function creditsToClaim(
  ctx: TaskContext,
  account: string,
  requested: bigint[] | null,
  indexer: IndexerOption | undefined,
): Promise<Credit[]> {
  if (!requested) {
    const credits = await findCredits(ctx, account, indexer);
    if (credits.length === 0) {
      throw new TaskError(
        `${account} has no outstanding credit on ${ctx.profile.name}${indexer ? " (as far as the indexer knows)" : ""}: nothing to claim.`,
      );
    }
    return credits;
  }
  const { BountyStatus: S } = contracts();
  const credits: Credit[] = [];
  for (const bountyId of requested) {
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
  return credits;
}

/** Prints the `Claimed` events of a claim transaction. */
async function printClaimed(ctx: TaskContext, receipt: TransactionReceipt, credits: Credit[]): Promise<void> {
  for (const parsed of eventsIn(receipt, ctx.bounty, "Claimed")) {
    const credit = credits.find((c) => c.bountyId === parsed.args.bountyId);
    const symbol = credit ? await symbolOf(ctx, credit.token) : "tokens";
    console.log(
      `Claimed bounty ${parsed.args.bountyId}: ${formatAmount(parsed.args.amount as bigint, symbol)} from ${parsed.args.account} to ${parsed.args.to}`,
    );
  }
  console.log(`  tx   ${receipt.hash} (block ${receipt.blockNumber})`);
  console.log(`  link ${txLink(ctx.profile, receipt.hash)}`);
}

/**
 * The winner's wallet for a relayed claim: CLAIMER_PRIVATE_KEY when set (any
 * network), else on a local node the node's unlocked `--account`.
 */
function claimerWallet(ctx: TaskContext, account: string | undefined) {
  const key = process.env.CLAIMER_PRIVATE_KEY;
  if (key) return keyWallet(ctx.hre, "CLAIMER_PRIVATE_KEY", key);
  if (ctx.profile.name === "localhost" && account !== undefined) return hardhatWallet(ctx.hre, account);
  throw new TaskError(
    ctx.profile.name === "localhost"
      ? "--relay needs the winner: pass --account (one of the node's accounts signs), or export CLAIMER_PRIVATE_KEY."
      : `--relay needs the winner's key on ${ctx.profile.name}: export CLAIMER_PRIVATE_KEY (0x + 64 hex); the relayer signs with DEPLOYER_PRIVATE_KEY.`,
  );
}

/**
 * `bounty:claim --relay`: the winner signs the EIP-712 Claim, the task's signer
 * (`--from`) submits claimWithSig and pays the gas; the USDC goes to `--to`
 * (default: the winner). Every refusal of the contract (expired deadline,
 * signature not by the winner, used nonce) is decoded to one line.
 */
async function relayedClaim(ctx: TaskContext, args: ClaimArgs, bountyId: bigint): Promise<void> {
  const { ethers } = ctx.hre;
  if (args.account !== undefined) refuseMalformedAddress(args.account, "--account");
  const givenDeadline = args.deadline === undefined ? undefined : parseTime(args.deadline, "--deadline");
  const claimer = claimerWallet(ctx, args.account);
  if (claimer.account.type === "json-rpc") {
    const nodeAccounts = (await ctx.hre.network.provider.request({ method: "eth_accounts" })) as string[];
    if (!nodeAccounts.some((a) => a.toLowerCase() === claimer.account.address.toLowerCase()))
      throw new TaskError(
        `--account ${claimer.account.address} is not one of the node's accounts, so the node cannot sign its Claim: export CLAIMER_PRIVATE_KEY with the winner's key.`,
      );
  }
  const account = ethers.getAddress(args.account ?? claimer.account.address);
  const to = ethers.getAddress(args.to ?? account);
  const credits = await creditsToClaim(ctx, account, [bountyId], undefined);
  const now = await chainNow(ctx);
  const deadline = givenDeadline ?? now + 3600n;
  const relayer = ctx.signer.address;
  await refuseWithoutGas(ctx, relayer, "claimWithSig", "relay through an account that holds ETH (--from)");
  let receipt;
  try {
    const publicClient = publicClientOf(ctx.hre);
    ({ receipt } = await relayClaim(publicClient, claimer, hardhatWallet(ctx.hre, relayer), {
      bounty: ctx.bountyAddress as `0x${string}`,
      chainId: ctx.profile.chainId,
      bountyId,
      account: account as `0x${string}`,
      to: to as `0x${string}`,
      deadline,
    }));
  } catch (e) {
    throw decodeRevert(e, ctx.ifaces, "claimWithSig");
  }
  // only now, past the receipt: printed before the send, a refused claim left a payment on stdout (probe26 C-F3)
  console.log(
    `Relayed claim of bounty ${bountyId} for ${account}, paid to ${to}; gas paid by ${relayer} (--from).`,
  );
  console.log(
    `  ${formatAmount(credits[0]!.amount, await symbolOf(ctx, credits[0]!.token))}; signed by ${claimer.account.address}, valid until ${isoSeconds(deadline)}`,
  );
  await printClaimed(
    ctx,
    await ctx.hre.ethers.provider.getTransactionReceipt(receipt.transactionHash).then((r) => r!),
    credits,
  );
}

/** A credit whose claim does not simulate, with the decoded reason (`claim reverted: ...`). */
interface RefusedCredit {
  credit: Credit;
  reason: string;
}

/**
 * Simulates the claim of each credit on its own (`claim(id, to)`, nothing sent): a bounty whose
 * token refuses the transfer (a stranger can award a credit in any token, probe21 B-F10) is set
 * apart, so the others are claimed. An error that is not a revert (the RPC down) is thrown.
 */
async function splitRefused(
  ctx: TaskContext,
  credits: Credit[],
  to: string,
): Promise<{ claimable: Credit[]; refused: RefusedCredit[] }> {
  const claimable: Credit[] = [];
  const refused: RefusedCredit[] = [];
  for (const credit of credits) {
    try {
      await ctx.bounty.claim.staticCall(credit.bountyId, to);
      claimable.push(credit);
    } catch (e) {
      const decoded = decodeRevert(e, ctx.ifaces, "claim");
      if (!(decoded instanceof TaskError)) throw decoded;
      refused.push({ credit, reason: decoded.message });
    }
  }
  return { claimable, refused };
}

/**
 * The refusal of the credits {@link splitRefused} set apart: each named by its bounty id and
 * token with the reason, then for each the `bounty:claim --id` command that retries it alone, on
 * its own line (it works when pasted).
 */
function refusedReport(
  ctx: TaskContext,
  account: string,
  to: string,
  refused: RefusedCredit[],
  nothingSent: boolean,
): string {
  const lines = [
    nothingSent
      ? `No credit of ${account} can be claimed now; nothing was sent:`
      : `${refused.length} credit${refused.length > 1 ? "s" : ""} of ${account} could not be claimed (the others are claimed above):`,
    ...refused.map((r) => `  bounty ${r.credit.bountyId} (token ${r.credit.token}): ${r.reason}`),
    `Retry ${refused.length > 1 ? "each" : "it"} alone (once its token transfers again) with:`,
    ...refused.map(
      (r) =>
        `  ${pasteableTask(ctx.profile, "bounty:claim", ["--from", account, "--id", String(r.credit.bountyId), ...(to === account ? [] : ["--to", to])])}`,
    ),
  ];
  return lines.join("\n");
}

withFromParam(
  task("bounty:claim", "Claim credit: one bounty (--id), several (--ids) or all with credit (--all)"),
  "Winner account, or with --relay the relayer paying the gas",
)
  .addOptionalParam("id", "Bounty id", undefined, types.string)
  .addOptionalParam("ids", "Bounty ids, comma-separated", undefined, types.string)
  .addFlag("all", "Every bounty in which the signer has credit")
  .addOptionalParam("to", "Where the USDC goes (default: the winner)", undefined, types.string)
  .addOptionalParam(
    "indexer",
    "Indexer REST base URL used by --all (else the Awarded logs are searched)",
    undefined,
    types.string,
  )
  .addOptionalParam("indexerTimeout", INDEXER_TIMEOUT_HELP, undefined, types.string)
  .addFlag(
    "relay",
    "The winner signs an EIP-712 Claim; --from submits claimWithSig and pays the gas (--id only)",
  )
  .addOptionalParam(
    "account",
    "With --relay: the winner (default: the CLAIMER_PRIVATE_KEY account)",
    undefined,
    types.string,
  )
  .addOptionalParam(
    "deadline",
    "With --relay: the signature's deadline, unix s or ISO-8601 (default: chain time + 1 hour)",
    undefined,
    types.string,
  )
  .setAction(
    userAction(async (args: ClaimArgs, hre) => {
      const chosen = [args.id !== undefined, args.ids !== undefined, args.all].filter(Boolean).length;
      if (chosen !== 1) throw new TaskError("Give exactly one of --id <n>, --ids <n,m,...> or --all.");
      if (args.indexer !== undefined && !args.all) throw new TaskError("--indexer is only used with --all.");
      const indexer = indexerOption(args.indexer, args.indexerTimeout);
      if (args.relay && args.id === undefined)
        throw new TaskError("--relay claims one bounty: give --id (claimWithSig takes one bounty).");
      if (!args.relay && (args.account !== undefined || args.deadline !== undefined))
        throw new TaskError("--account and --deadline are only used with --relay.");
      const requested =
        args.id !== undefined
          ? [parseBountyId(args.id)]
          : args.ids !== undefined
            ? parseBountyIds(args.ids, "--ids")
            : null;
      if (args.to !== undefined) refuseMalformedAddress(args.to, "--to");
      const ctx = await taskContext(hre, { needSigner: true, from: args.from });
      if (args.to !== undefined) await refuseLostRecipientOnChain(args.to, "--to", ctx);
      if (args.relay) return relayedClaim(ctx, args, requested![0]!);
      const account = ctx.signer.address;
      const to = args.to ?? account;
      const credits = await creditsToClaim(ctx, account, requested, indexer);

      console.log(
        `Claiming for ${account} on ${ctx.profile.name}, paid to ${to}${to === account ? "" : " (--to)"}:`,
      );
      for (const c of credits)
        console.log(`  bounty ${c.bountyId}  ${formatAmount(c.amount, await symbolOf(ctx, c.token))}`);
      // each credit of a multi-bounty claim on its own (probe21 B-F10): one token refusing its
      // transfer no longer stops the claim of the others
      const { claimable, refused } =
        credits.length > 1 ? await splitRefused(ctx, credits, to) : { claimable: credits, refused: [] };
      if (claimable.length === 0) throw new TaskError(refusedReport(ctx, account, to, refused, true));
      const ids = claimable.map((c) => c.bountyId);
      // a winner without ETH claims through a relayer, one bounty at a time (claimWithSig)
      const relayHint = `claim through a relayer that pays the gas: bounty:claim --relay --id ${ids[0]} --account ${account} --from <relayer>${ids.length > 1 ? " (one bounty per relayed claim)" : ""} (deploy/README.md)`;
      const receipt =
        ids.length === 1
          ? await simulateAndSend(
              ctx,
              "claim",
              () => ctx.bounty.claim.staticCall(ids[0]!, to),
              () => ctx.bounty.claim(ids[0]!, to),
              relayHint,
            )
          : await simulateAndSend(
              ctx,
              "claimMany",
              () => ctx.bounty.claimMany.staticCall(ids, to),
              () => ctx.bounty.claimMany(ids, to),
              relayHint,
            );
      await printClaimed(ctx, receipt, claimable);
      if (refused.length > 0) throw new TaskError(refusedReport(ctx, account, to, refused, false));
    }),
  );
