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
import { TaskError, TokenRefusal, decodeRevert, userAction } from "../lib/errors";
import type { TransactionReceipt } from "ethers";
import {
  chainNow,
  eventsIn,
  explainTokenRefusal,
  markSend,
  queryLogs,
  SIMULATE_AT,
  simulateAndSend,
  taskContext,
  tokenDisplay,
  type TaskContext,
  withFromParam,
  refuseLostRecipientOnChain,
  refuseTokenRecipient,
  refuseWithoutGas,
  refuseMalformedAddress,
  rpcFailure,
  settleUnansweredSend,
  tokenBlacklists,
  type TransferParty,
} from "../lib/context";
import { pasteableTask, txLink } from "../lib/network";
import { contracts } from "../lib/packages";
import {
  formatAmount,
  isoSeconds,
  parseBountyId,
  parseBountyIds,
  parseCount,
  parseTime,
} from "../lib/format";
import {
  creditIdsFromIndexer,
  DEFAULT_INDEXER_TIMEOUT_MS,
  indexerLagNotice,
  parseIndexerTimeout,
} from "../lib/indexer";
import { ClaimSendFailed, relayClaim } from "../lib/relay";
import { hardhatWallet, keyWallet, publicClientOf } from "../lib/wallets";

/** One bounty in which an account holds credit (base units, read on-chain). */
interface Credit {
  bountyId: bigint;
  token: string;
  amount: bigint;
}

/**
 * Bounty ids whose `Awarded` log credits `account`: a place, or the author's remainder of one of the
 * account's own bounties (its `BountyCreated` logs, filtered by the indexed author: no read per award).
 */
async function idsFromLogs(ctx: TaskContext, account: string): Promise<bigint[]> {
  const ids: bigint[] = [];
  const lower = account.toLowerCase();
  const withRemainder: bigint[] = [];
  for (const log of await queryLogs(ctx, ctx.bounty, ctx.bounty.filters.Awarded())) {
    const id = log.args.bountyId;
    const winners = (log.args.winners as string[]).map((w) => w.toLowerCase());
    if (winners.includes(lower)) ids.push(id);
    else if (log.args.authorRemainder > 0n) withRemainder.push(id);
  }
  if (withRemainder.length > 0) {
    const own = new Set(
      (await queryLogs(ctx, ctx.bounty, ctx.bounty.filters.BountyCreated(undefined, account))).map((l) =>
        String(l.args.bountyId),
      ),
    );
    for (const id of withRemainder) if (own.has(String(id))) ids.push(id);
  }
  return ids;
}

/**
 * Views per `eth_call` of {@link readBatched}. A deployless call is a contract creation: its code, ~256
 * bytes per view, must stay under the 48 KiB initcode limit (EIP-3860), and its answer, returned as the
 * created code, under the 24 KiB code limit (EIP-170): ~130 bytes per `creditOf`, ~800 per `getBounty`.
 */
const CALLS_PER_BATCH = { creditOf: 100, getBounty: 20 } as const;

/** `eth_call`s of {@link readBatched} in flight at once. */
const BATCHES_IN_FLIGHT = 4;

/**
 * The same view of BenchmarkBounty for many bounties in few `eth_call`s: viem's deployless multicall
 * (Multicall3's code run in the call, so no contract need be deployed), {@link CALLS_PER_BATCH} views
 * per call, at most {@link BATCHES_IN_FLIGHT} calls at a time (probe27 C-F8: one `creditOf` + one
 * `getBounty` per bounty, one after another, took minutes for a stranger's 10,000 awards).
 * @returns the answers in the order of `ids`
 * @throws TaskError naming what was read ({@link rpcFailure}) when a call fails
 */
async function readBatched<T>(
  ctx: TaskContext,
  functionName: "creditOf" | "getBounty",
  argsOf: (id: bigint) => readonly unknown[],
  ids: readonly bigint[],
): Promise<T[]> {
  const { benchmarkBountyAbi } = contracts();
  const client = publicClientOf(ctx.hre);
  const size = CALLS_PER_BATCH[functionName];
  const slices: bigint[][] = [];
  for (let i = 0; i < ids.length; i += size) slices.push(ids.slice(i, i + size));
  const read = async (slice: bigint[]): Promise<T[]> => {
    try {
      return (await client.multicall({
        contracts: slice.map((id) => ({
          address: ctx.bountyAddress as `0x${string}`,
          abi: benchmarkBountyAbi,
          functionName,
          args: argsOf(id),
        })) as never,
        allowFailure: false,
        deployless: true,
        batchSize: 0,
      })) as T[];
    } catch (e) {
      throw rpcFailure(ctx, e, `${functionName} of bounties ${slice[0]}..${slice[slice.length - 1]}`);
    }
  };
  const out: T[] = [];
  for (let i = 0; i < slices.length; i += BATCHES_IN_FLIGHT)
    for (const answers of await Promise.all(slices.slice(i, i + BATCHES_IN_FLIGHT).map(read)))
      out.push(...answers);
  return out;
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

/**
 * Says on stderr, before anything is listed or claimed, when the indexer's list of credits may be
 * incomplete ({@link indexerLagNotice}: its head behind the chain's latest block, or unknown).
 */
async function warnIfIndexerBehind(ctx: TaskContext, indexer: IndexerOption): Promise<void> {
  let chainHead: number;
  try {
    chainHead = await ctx.hre.ethers.provider.getBlockNumber();
  } catch (e) {
    throw rpcFailure(ctx, e, "the latest block number");
  }
  const notice = await indexerLagNotice(indexer.url, indexer.timeoutMs, ctx.profile.chainId, chainHead);
  if (notice !== null) console.error(notice);
}

/**
 * Outstanding credit of `account`, re-read with `creditOf`, in bounty id order; the token of each from
 * `getBounty`. Both read in batches ({@link readBatched}). With `--indexer` and one token chosen, only
 * that token's credits are asked of the indexer (review28 R-F5: a stranger's dust in other tokens cost
 * a page and two reads per credit); the token is still read on-chain, so {@link splitByToken} decides.
 */
async function findCredits(
  ctx: TaskContext,
  account: string,
  indexer: IndexerOption | undefined,
  choice: TokenChoice,
): Promise<Credit[]> {
  const ids = indexer
    ? await creditIdsFromIndexer(
        indexer.url,
        account,
        indexer.timeoutMs,
        choice.all ? undefined : choice.address,
      )
    : await idsFromLogs(ctx, account);
  if (indexer) await warnIfIndexerBehind(ctx, indexer);
  const unique = [...new Set(ids.map(String))].map(BigInt).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const amounts = await readBatched<bigint>(ctx, "creditOf", (id) => [id, account], unique);
  const credited = unique.filter((_, i) => amounts[i]! > 0n);
  const amountOf = new Map(unique.map((id, i) => [id, amounts[i]!]));
  const bounties = await readBatched<{ token: string }>(ctx, "getBounty", (id) => [id], credited);
  return credited.map((bountyId, i) => ({
    bountyId,
    token: bounties[i]!.token,
    amount: amountOf.get(bountyId)!,
  }));
}

/** `--token`: the credits of one token (an address), or of every token (`all`). */
type TokenChoice = { all: true } | { all: false; address: string };

/**
 * `--token` of `bounty:credits` and `bounty:claim --all`: an address, or `all`; by default the
 * network's USDC (anyone can award a credit in any token, so a stranger's tokens are not mixed into a
 * winner's prizes unless asked for; probe27 C-F8).
 * @throws TaskError naming `--token` for a value that is neither
 */
function tokenChoice(ctx: TaskContext, token: string | undefined): TokenChoice {
  if (token === "all") return { all: true };
  if (token === undefined) return { all: false, address: ctx.profile.usdc };
  refuseMalformedAddress(token, "--token");
  return { all: false, address: ctx.hre.ethers.getAddress(token) };
}

/** The credits `choice` selects, and how many credits (in how many tokens) it leaves out. */
function splitByToken(
  credits: Credit[],
  choice: TokenChoice,
): { chosen: Credit[]; others: number; otherTokens: number } {
  if (choice.all) return { chosen: credits, others: 0, otherTokens: 0 };
  const want = choice.address.toLowerCase();
  const chosen = credits.filter((c) => c.token.toLowerCase() === want);
  const rest = credits.filter((c) => c.token.toLowerCase() !== want);
  return { chosen, others: rest.length, otherTokens: new Set(rest.map((c) => c.token.toLowerCase())).size };
}

/**
 * The order in which `bounty:credits` lists and `bounty:claim --all` takes credits (`--limit` and
 * `--max-claims` cut it): grouped by token, the network's USDC (`usdc`) first, then the other tokens by
 * address (lower-case); within a token the largest amount first (a winner's prizes before a stranger's
 * dust), then the lower bounty id. Amounts of different tokens are never compared (review28 R-F7: raw
 * base units put 0.000001 of an 18-decimal token before 1 USDC).
 */
function creditOrder(usdc: string): (a: Credit, b: Credit) => number {
  const group = (c: Credit) => (c.token.toLowerCase() === usdc.toLowerCase() ? "" : c.token.toLowerCase());
  return (a, b) => {
    const [ga, gb] = [group(a), group(b)];
    if (ga !== gb) return ga < gb ? -1 : 1;
    if (a.amount !== b.amount) return a.amount > b.amount ? -1 : 1;
    return a.bountyId < b.bountyId ? -1 : a.bountyId > b.bountyId ? 1 : 0;
  };
}

/** Help text of `--limit` / `--max-claims`: the order {@link creditOrder} cuts. */
const CREDIT_ORDER_HELP = "USDC first, then by token; the largest first within a token";

/** The line naming the credits `--token` left out, with the command that lists them. */
function othersLine(ctx: TaskContext, account: string, others: number, otherTokens: number): string {
  return `  ${others} credit${others === 1 ? "" : "s"} in ${otherTokens} other token${otherTokens === 1 ? "" : "s"} not listed (anyone can award a credit in any token); list them with:\n  ${pasteableTask(ctx.profile, "bounty:credits", ["--account", account, "--token", "all"])}`;
}

/**
 * `amount` base units of `token` as printed: with the token's decimals and symbol ({@link tokenDisplay},
 * read once per token and run), so 10^12 base units of an 18-decimal token read 0.000001000000000000, not
 * 1000000.000000 (the 6 decimals of USDC were used for every token).
 */
async function amountText(ctx: TaskContext, token: string, amount: bigint): Promise<string> {
  const { symbol, decimals } = await tokenDisplay(ctx, token);
  return formatAmount(amount, symbol, decimals);
}

const INDEXER_TIMEOUT_HELP = `With --indexer: the bound of each request to it, headers and body together, ms (default ${DEFAULT_INDEXER_TIMEOUT_MS})`;

/** Lines `bounty:credits` prints by default; the rest is summed up on one line. */
const DEFAULT_CREDIT_LINES = 20;

task("bounty:credits", "List the outstanding credit of an account (what it can claim)")
  .addOptionalParam("account", "Account (default: the signer)", undefined, types.string)
  .addOptionalParam(
    "indexer",
    "Indexer REST base URL (else the Awarded logs are searched)",
    undefined,
    types.string,
  )
  .addOptionalParam("indexerTimeout", INDEXER_TIMEOUT_HELP, undefined, types.string)
  .addOptionalParam(
    "token",
    "Token whose credits are listed: an address, or all (default: the network's USDC)",
    undefined,
    types.string,
  )
  .addOptionalParam(
    "limit",
    `Credits listed (${CREDIT_ORDER_HELP}); the rest is summed up (default ${DEFAULT_CREDIT_LINES}; 0: all)`,
    undefined,
    types.string,
  )
  .setAction(
    userAction(
      async (
        args: { account?: string; indexer?: string; indexerTimeout?: string; token?: string; limit?: string },
        hre,
      ) => {
        const indexer = indexerOption(args.indexer, args.indexerTimeout);
        const limit = parseCount(args.limit, "--limit", DEFAULT_CREDIT_LINES, 0);
        const ctx = await taskContext(hre, { needSigner: args.account === undefined });
        if (args.account !== undefined) refuseMalformedAddress(args.account, "--account");
        const choice = tokenChoice(ctx, args.token);
        const account = hre.ethers.getAddress(args.account ?? ctx.signer.address);
        const { chosen, others, otherTokens } = splitByToken(
          await findCredits(ctx, account, indexer, choice),
          choice,
        );
        const which = choice.all
          ? "every token"
          : choice.address.toLowerCase() === ctx.profile.usdc.toLowerCase()
            ? "USDC"
            : `token ${choice.address}`;
        console.log(
          `Outstanding credit of ${account} on ${ctx.profile.name} in ${which} (found via ${args.indexer ? `the indexer ${args.indexer}${choice.all ? "" : ", asked for this token only: --token all for every token;"}` : "the Awarded logs,"} amounts read on-chain):`,
        );
        if (chosen.length === 0) {
          console.log("  none");
          if (others > 0) console.log(othersLine(ctx, account, others, otherTokens));
          return;
        }
        // the chosen credits in claim order, the rest summed up (one token lookup per token)
        const sorted = [...chosen].sort(creditOrder(ctx.profile.usdc));
        const shown = limit === 0 ? sorted : sorted.slice(0, limit);
        for (const c of shown) {
          console.log(
            `  bounty ${c.bountyId}  ${await amountText(ctx, c.token, c.amount)}  (${c.amount} base unit${c.amount === 1n ? "" : "s"} of ${c.token})`,
          );
        }
        const totals = new Map<string, { total: bigint; count: number }>();
        for (const c of chosen) {
          const t = totals.get(c.token) ?? { total: 0n, count: 0 };
          totals.set(c.token, { total: t.total + c.amount, count: t.count + 1 });
        }
        const hidden = sorted.length - shown.length;
        if (hidden > 0)
          console.log(
            `  ... and ${hidden} ${choice.all ? "more" : "smaller"} credit${hidden === 1 ? "" : "s"} (--limit 0 lists every one)`,
          );
        const shownTokens = new Set(shown.map((c) => c.token));
        for (const [token, { total, count }] of totals) {
          // a token with no line shown is summed without its symbol (no lookup for a stranger's tokens)
          const amount = shownTokens.has(token)
            ? await amountText(ctx, token, total)
            : `${total} base unit${total === 1n ? "" : "s"}`;
          console.log(`  total ${amount} in ${count} bount${count === 1 ? "y" : "ies"} (${token})`);
        }
        if (others > 0) console.log(othersLine(ctx, account, others, otherTokens));
        // A command that works when pasted: the account signs (--from), all of its credit, to itself.
        // the command alone on its line, so the line pastes (probe21 B-F9 class)
        const tokenArgs = args.token === undefined ? [] : ["--token", args.token];
        console.log(
          `Claim with:\n  ${pasteableTask(ctx.profile, "bounty:claim", ["--from", account, "--all", ...tokenArgs])}`,
        );
        console.log(
          `  It claims the ${DEFAULT_MAX_CLAIMS} ${choice.all ? "first credits in this order" : "largest credits"} per run (--max-claims). Paid at another address: add --to and that address. No ETH for gas: bounty:claim --relay (deploy/README.md).`,
        );
      },
    ),
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
  token?: string;
  maxClaims?: string;
}

/** Credits `bounty:claim --all` claims per run by default (one claimMany; the largest first). */
const DEFAULT_MAX_CLAIMS = 50;

/** What `--all` takes: the `--token` choice and at most `--max-claims` credits. */
interface AllOptions {
  choice: TokenChoice;
  maxClaims: number;
}

/**
 * The credits a claim takes: the requested bounties (each must hold credit), or with `--all` the
 * `--token` credits found, in {@link creditOrder}, at most `--max-claims` of them (probe27 C-F8: a stranger's
 * 10,000 dust awards were each listed and simulated before one claimMany of all of them); what is left
 * is named with the command that claims it.
 */
async function creditsToClaim(
  ctx: TaskContext,
  account: string,
  requested: bigint[] | null,
  indexer: IndexerOption | undefined,
  all?: AllOptions,
): Promise<{ credits: Credit[]; left: string[] }> {
  if (!requested) {
    const found = await findCredits(ctx, account, indexer, all!.choice);
    const { chosen, others, otherTokens } = splitByToken(found, all!.choice);
    if (chosen.length === 0) {
      const why =
        others > 0
          ? ` in ${all!.choice.all ? "any token" : "this token"} (${others} in other tokens: --token all)`
          : "";
      // asked for one token, the indexer named no other (review28 R-F5): the line says so
      const source = !indexer
        ? ""
        : all!.choice.all
          ? " (as far as the indexer knows)"
          : " (as far as the indexer knows; it was asked for this token only: --token all for every token)";
      throw new TaskError(
        `${account} has no outstanding credit on ${ctx.profile.name}${why}${source}: nothing to claim.`,
      );
    }
    const sorted = [...chosen].sort(creditOrder(ctx.profile.usdc));
    const take = sorted.slice(0, all!.maxClaims);
    const left: string[] = [];
    if (sorted.length > take.length)
      left.push(
        `${sorted.length - take.length} ${all!.choice.all ? "more" : "smaller"} credit${sorted.length - take.length === 1 ? "" : "s"} left for another run of the same command (--max-claims ${all!.maxClaims})`,
      );
    if (others > 0)
      left.push(
        `${others} credit${others === 1 ? "" : "s"} in ${otherTokens} other token${otherTokens === 1 ? "" : "s"} not claimed (--token all, or --token <address>)`,
      );
    return {
      credits: take.sort((a, b) => (a.bountyId < b.bountyId ? -1 : a.bountyId > b.bountyId ? 1 : 0)),
      left,
    };
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
  return { credits, left: [] };
}

/** Prints the `Claimed` events of a claim transaction. */
async function printClaimed(ctx: TaskContext, receipt: TransactionReceipt, credits: Credit[]): Promise<void> {
  for (const parsed of eventsIn(receipt, ctx.bounty, "Claimed")) {
    const credit = credits.find((c) => c.bountyId === parsed.args.bountyId);
    const amount = parsed.args.amount as bigint;
    console.log(
      `Claimed bounty ${parsed.args.bountyId}: ${credit ? await amountText(ctx, credit.token, amount) : formatAmount(amount, "tokens")} from ${parsed.args.account} to ${parsed.args.to}`,
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
  const { credits } = await creditsToClaim(ctx, account, [bountyId], undefined);
  refuseTokenRecipient(to, args.to !== undefined ? "--to" : "--account", credits);
  const now = await chainNow(ctx);
  const deadline = givenDeadline ?? now + 3600n;
  const relayer = ctx.signer.address;
  await refuseWithoutGas(ctx, relayer, "claimWithSig", "relay through an account that holds ETH (--from)");
  let hash: string;
  // the relayer's nonce before the send: a send whose answer is lost is settled by the chain (probe34 C-F4)
  const mark = await markSend(ctx, relayer);
  try {
    const publicClient = publicClientOf(ctx.hre);
    const { receipt } = await relayClaim(publicClient, claimer, hardhatWallet(ctx.hre, relayer), {
      bounty: ctx.bountyAddress as `0x${string}`,
      chainId: ctx.profile.chainId,
      bountyId,
      account: account as `0x${string}`,
      to: to as `0x${string}`,
      deadline,
    });
    hash = receipt.transactionHash;
  } catch (e) {
    const sent = e instanceof ClaimSendFailed;
    const decoded = decodeRevert(sent ? e.cause : e, ctx.ifaces, "claimWithSig");
    if (sent && !(decoded instanceof TaskError))
      hash = (
        await settleUnansweredSend(
          ctx,
          "claimWithSig",
          e.cause,
          mark,
          pasteableTask(ctx.profile, "bounty:status", ["--id", String(bountyId)]),
          e.hash,
        )
      ).hash;
    else
      throw await explainTokenRefusal(
        ctx,
        decoded,
        credits[0]!.token,
        claimParties(ctx, to, "sign the claim again with --to a clean address"),
      );
  }
  // only now, past the receipt: printed before the send, a refused claim left a payment on stdout (probe26 C-F3)
  console.log(
    `Relayed claim of bounty ${bountyId} for ${account}, paid to ${to}; gas paid by ${relayer} (--from).`,
  );
  console.log(
    `  ${await amountText(ctx, credits[0]!.token, credits[0]!.amount)}; signed by ${claimer.account.address}, valid until ${isoSeconds(deadline)}`,
  );
  await printClaimed(ctx, await ctx.hre.ethers.provider.getTransactionReceipt(hash).then((r) => r!), credits);
}

/**
 * A credit whose claim does not simulate, with the decoded reason (`claim reverted: ...`), and whether
 * the token blacklists the recipient (then only another `--to` claims it; waiting does not help).
 */
interface RefusedCredit {
  credit: Credit;
  reason: string;
  recipientBlacklisted: boolean;
}

/** The placeholder of the retry commands of a blacklisted recipient, filled with the address to pay. */
const CLEAN_ADDRESS_PLACEHOLDER = "<clean address>";

/**
 * The addresses a claim's transfer touches, for {@link explainTokenRefusal}: the recipient `to` (another `to`
 * helps: `toAdvice`) and the bounty contract, the sender (nothing the winner does helps; probe30 C-F3).
 */
function claimParties(ctx: TaskContext, to: string, toAdvice: string): TransferParty[] {
  // the parties themselves are the one list the platform's relay reads too (`claimTransferParties`)
  return contracts()
    .claimTransferParties(to, ctx.bountyAddress)
    .map(({ address, role }) => ({
      address,
      advice:
        role === "recipient"
          ? `(the recipient): ${toAdvice}.`
          : "(the bounty contract, which sends the claim): no --to helps; the credit stays until the token stops blacklisting it.",
    }));
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
      await ctx.bounty.claim.staticCall(credit.bountyId, to, SIMULATE_AT);
      claimable.push(credit);
    } catch (e) {
      const decoded = decodeRevert(e, ctx.ifaces, "claim");
      if (!(decoded instanceof TaskError)) throw decoded;
      // whom the token refuses is read (isBlacklisted), not guessed from its reason (probe30 C-F3)
      const recipientBlacklisted =
        decoded instanceof TokenRefusal && (await tokenBlacklists(ctx, credit.token, to));
      const explained = await explainTokenRefusal(
        ctx,
        decoded,
        credit.token,
        claimParties(ctx, to, "retry with --to a clean address"),
      );
      refused.push({ credit, reason: (explained as Error).message, recipientBlacklisted });
    }
  }
  return { claimable, refused };
}

/**
 * The refusal of the credits {@link splitRefused} set apart: each named by its bounty id and
 * token with the reason, then for each the `bounty:claim --id` command that retries it alone, on
 * its own line (it works when pasted). A credit refused because the token blacklists the recipient is
 * retried `--to` {@link CLEAN_ADDRESS_PLACEHOLDER}, to be filled in (probe28c C-F4: pasted without a new
 * `--to`, the retry failed the same way; waiting "until the token transfers again" never helps).
 */
function refusedReport(
  ctx: TaskContext,
  account: string,
  to: string,
  refused: RefusedCredit[],
  nothingSent: boolean,
): string {
  const blacklisted = refused.filter((r) => r.recipientBlacklisted).length;
  const when =
    blacklisted === 0
      ? "once its token transfers again"
      : blacklisted === refused.length
        ? `the token blacklists ${to}: replace ${CLEAN_ADDRESS_PLACEHOLDER} with an address it does not blacklist`
        : `once its token transfers again; where the token blacklists ${to}, replace ${CLEAN_ADDRESS_PLACEHOLDER} with an address it does not blacklist`;
  const toArgs = (r: RefusedCredit) =>
    r.recipientBlacklisted ? ["--to", CLEAN_ADDRESS_PLACEHOLDER] : to === account ? [] : ["--to", to];
  const lines = [
    nothingSent
      ? `No credit of ${account} can be claimed now; nothing was sent:`
      : `${refused.length} credit${refused.length > 1 ? "s" : ""} of ${account} could not be claimed (the others are claimed above):`,
    ...refused.map((r) => `  bounty ${r.credit.bountyId} (token ${r.credit.token}): ${r.reason}`),
    `Retry ${refused.length > 1 ? "each" : "it"} alone (${when}) with:`,
    ...refused.map(
      (r) =>
        `  ${pasteableTask(ctx.profile, "bounty:claim", ["--from", account, "--id", String(r.credit.bountyId), ...toArgs(r)])}`,
    ),
  ];
  return lines.join("\n");
}

/**
 * What a winner without ETH does instead of `claim` / `claimMany`: the relayed claim of the first bounty,
 * as a command that works when pasted ({@link pasteableTask}: `--network`, and on localhost the
 * `LOCAL_RPC_URL=` of this run) and keeps the user's `--to` (probe27 C-F2: the printed command dropped it,
 * and a relayed claim pasted as printed paid the winner's own address). It ends the line, so the tail
 * from `npx` pastes. The relayer is `--from` (default: the first signer; on Base DEPLOYER_PRIVATE_KEY,
 * the winner's key then in CLAIMER_PRIVATE_KEY).
 */
function relayCommandHint(ctx: TaskContext, account: string, to: string, ids: bigint[]): string {
  const command = pasteableTask(ctx.profile, "bounty:claim", [
    "--relay",
    "--id",
    String(ids[0]!),
    "--account",
    account,
    ...(to.toLowerCase() === account.toLowerCase() ? [] : ["--to", to]),
  ]);
  const keys =
    ctx.profile.name === "localhost"
      ? "a node account with ETH relays: add --from <it> if the first one holds none"
      : "export the winner's key as CLAIMER_PRIVATE_KEY and the relayer's (it pays the gas) as DEPLOYER_PRIVATE_KEY";
  const more =
    ids.length > 1
      ? `, one bounty per relayed claim (then the same with the --id of each of the ${ids.length - 1} other bounties)`
      : "";
  return `claim through a relayer that pays the gas (deploy/README.md; ${keys})${more}. Nothing was sent. Run: ${command}`;
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
  .addOptionalParam(
    "token",
    "With --all: the token whose credits are claimed, an address or all (default: the network's USDC)",
    undefined,
    types.string,
  )
  .addOptionalParam(
    "maxClaims",
    `With --all: credits claimed in this run (${CREDIT_ORDER_HELP}; default ${DEFAULT_MAX_CLAIMS})`,
    undefined,
    types.string,
  )
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
      for (const [flag, value] of [
        ["--token", args.token],
        ["--max-claims", args.maxClaims],
      ] as const)
        if (value !== undefined && !args.all) throw new TaskError(`${flag} is only used with --all.`);
      const maxClaims = parseCount(args.maxClaims, "--max-claims", DEFAULT_MAX_CLAIMS, 1);
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
      const { credits, left } = await creditsToClaim(ctx, account, requested, indexer, {
        choice: tokenChoice(ctx, args.token),
        maxClaims,
      });
      refuseTokenRecipient(to, args.to !== undefined ? "--to" : "the claiming account", credits);

      console.log(
        `Claiming for ${account} on ${ctx.profile.name}, paid to ${to}${to === account ? "" : " (--to)"}:`,
      );
      for (const c of credits)
        console.log(`  bounty ${c.bountyId}  ${await amountText(ctx, c.token, c.amount)}`);
      for (const line of left) console.log(`  (${line})`);
      // each credit of a multi-bounty claim on its own (probe21 B-F10): one token refusing its
      // transfer no longer stops the claim of the others
      const { claimable, refused } =
        credits.length > 1 ? await splitRefused(ctx, credits, to) : { claimable: credits, refused: [] };
      if (claimable.length === 0) throw new TaskError(refusedReport(ctx, account, to, refused, true));
      const ids = claimable.map((c) => c.bountyId);
      // a winner without ETH claims through a relayer, one bounty at a time (claimWithSig)
      const relayHint = relayCommandHint(ctx, account, to, ids);
      const explain = async (e: unknown): Promise<never> => {
        const tokens = [...new Set(claimable.map((c) => c.token.toLowerCase()))];
        // one token's refusal at a time: claimMany's credits each simulated fine alone (splitRefused)
        throw tokens.length === 1
          ? await explainTokenRefusal(
              ctx,
              e,
              tokens[0]!,
              claimParties(ctx, to, "claim with --to a clean address"),
            )
          : e;
      };
      // what shows a claim's outcome when its send's answer is lost (probe34 C-F4)
      const check = pasteableTask(ctx.profile, "bounty:credits", ["--account", account]);
      const receipt =
        ids.length === 1
          ? await simulateAndSend(
              ctx,
              "claim",
              (o) => ctx.bounty.claim.staticCall(ids[0]!, to, o),
              () => ctx.bounty.claim(ids[0]!, to),
              relayHint,
              check,
            ).catch(explain)
          : await simulateAndSend(
              ctx,
              "claimMany",
              (o) => ctx.bounty.claimMany.staticCall(ids, to, o),
              () => ctx.bounty.claimMany(ids, to),
              relayHint,
              check,
            ).catch(explain);
      await printClaimed(ctx, receipt, claimable);
      if (refused.length > 0) throw new TaskError(refusedReport(ctx, account, to, refused, false));
    }),
  );
