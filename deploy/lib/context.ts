/**
 * What every bench-bounty task needs before touching the chain: the network
 * profile, the environment it requires, the chain id it must report, the
 * contract addresses (address book or the CREATE2 addresses) and the signer.
 * Each check fails with a TaskError before any transaction is sent.
 */
import { types } from "hardhat/config";
import type { ConfigurableTaskDefinition, HardhatRuntimeEnvironment } from "hardhat/types";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import type {
  BaseContract,
  ContractTransactionResponse,
  Interface,
  LogDescription,
  TransactionReceipt,
} from "ethers";
import type {
  TypedContractEvent,
  TypedDeferredTopicFilter,
  TypedEventLog,
} from "../../typechain-types/common";
import type { AnchorRegistry, BenchmarkBounty, TestUSDC } from "../../typechain-types";
import { isError } from "ethers";
import {
  TaskError,
  TokenRefusal,
  decodeRevert,
  errorText,
  isNodeAnswer,
  rpcFailureLine,
  viewAnswerErrorIn,
} from "./errors";
import { expectedAddresses } from "./local-chain";
import { readEntry } from "./address-book";
import { chainText, MAX_CHAIN_TEXT_CHARS, tokenSymbolText } from "./text";
import { contracts } from "./packages";
import { checkChainId, networkProfile, pasteableTask, type NetworkProfile } from "./network";

/** Contracts and signer of a task run. */
export interface TaskContext {
  hre: HardhatRuntimeEnvironment;
  profile: NetworkProfile;
  signer: HardhatEthersSigner;
  bounty: BenchmarkBounty;
  registry: AnchorRegistry;
  bountyAddress: string;
  registryAddress: string;
  /** Interfaces that may explain a revert (bounty, registry, test USDC). */
  ifaces: Interface[];
  /** First block to read logs from (address book startBlock, else 0). */
  startBlock: number;
}

/**
 * Resolves network, chain id, contract addresses and signer.
 *
 * Addresses come from the address book; when its entry is empty, from the
 * CREATE2 addresses of the current build (the same on every chain), provided
 * code is deployed there. `from` picks one of the available signers (the node's
 * accounts on localhost; the DEPLOYER_PRIVATE_KEY account elsewhere).
 */
export async function taskContext(
  hre: HardhatRuntimeEnvironment,
  opts: { needSigner: boolean; from?: string },
): Promise<TaskContext> {
  const profile = networkProfile(hre, opts);
  await checkChainId(hre, profile);
  const { bountyAddress, registryAddress, startBlock } = await resolveAddresses(hre, profile);
  const signer = await pickSigner(hre, profile, opts.from);
  const bounty = (await hre.ethers.getContractAt(
    "BenchmarkBounty",
    bountyAddress,
    signer,
  )) as unknown as BenchmarkBounty;
  const registry = (await hre.ethers.getContractAt(
    "AnchorRegistry",
    registryAddress,
    signer,
  )) as unknown as AnchorRegistry;
  const usdcIface = (await hre.ethers.getContractAt("TestUSDC", profile.usdc)).interface;
  return {
    hre,
    profile,
    signer,
    bounty,
    registry,
    bountyAddress,
    registryAddress,
    ifaces: [bounty.interface, registry.interface, usdcIface],
    startBlock,
  };
}

const hasCode = async (hre: HardhatRuntimeEnvironment, address: string) =>
  (await hre.ethers.provider.getCode(address)) !== "0x";

/**
 * The contract addresses of a network: its address book entry; when the entry
 * is empty, the CREATE2 addresses of the current build (the same on every
 * chain). On localhost only, an entry without code (a node restarted since
 * `bounty:deploy`, or contracts rebuilt) also falls back to the CREATE2
 * addresses. Code must be deployed at the result.
 * @throws TaskError when a contract is missing
 */
async function resolveAddresses(
  hre: HardhatRuntimeEnvironment,
  profile: NetworkProfile,
): Promise<{ bountyAddress: string; registryAddress: string; startBlock: number }> {
  const book = readEntry(profile);
  const expected = await expectedAddresses(hre);
  let bountyAddress = book?.benchmarkBounty ?? expected.benchmarkBounty;
  let registryAddress = book?.anchorRegistry ?? expected.anchorRegistry;
  let startBlock = book?.benchmarkBounty ? (book.startBlock ?? 0) : 0;
  if (
    profile.name === "localhost" &&
    book?.benchmarkBounty &&
    !((await hasCode(hre, bountyAddress)) && (await hasCode(hre, registryAddress)))
  ) {
    bountyAddress = expected.benchmarkBounty;
    registryAddress = expected.anchorRegistry;
    startBlock = 0;
  }
  for (const [what, address] of [
    ["BenchmarkBounty", bountyAddress],
    ["AnchorRegistry", registryAddress],
  ] as const) {
    if (!(await hasCode(hre, address))) {
      throw new TaskError(
        `No ${what} at ${address} on ${profile.name}: deploy first with: ${pasteableTask(profile, "bounty:deploy", [])}`,
      );
    }
  }
  return { bountyAddress, registryAddress, startBlock };
}

async function pickSigner(
  hre: HardhatRuntimeEnvironment,
  profile: NetworkProfile,
  from: string | undefined,
): Promise<HardhatEthersSigner> {
  const signers = await hre.ethers.getSigners();
  if (signers.length === 0) {
    throw new TaskError(`No signing account on ${profile.name}: export DEPLOYER_PRIVATE_KEY.`);
  }
  if (from === undefined) return signers[0]!;
  refuseMalformedAddress(from, "--from");
  const match = signers.find((s) => s.address.toLowerCase() === from.toLowerCase());
  if (!match) {
    throw new TaskError(
      profile.name === "localhost"
        ? `--from ${from} is not one of the node's accounts.`
        : `--from ${from} is not the DEPLOYER_PRIVATE_KEY account (${signers[0]!.address}).`,
    );
  }
  return match;
}

/**
 * An ERC-20 (with the USDC surface where present) at `address`, connected to the signer, with its
 * `symbol()` (as printed: {@link tokenSymbolText}) and `decimals()`; `balanceOf(signer)` is read too, so a contract that is not a token is
 * refused here in one line, not by a ProviderError and a stack trace later (probe19 B-F10). The permit
 * surface is optional (`permitDomain` of `bounty:lock` falls back to approve).
 * @param flag the option named in the refusal (`--token`)
 * @throws TaskError `<flag>: <address> on <network> is not an ERC-20 token (...) reverts). Nothing was sent.`
 */
export async function tokenAt(
  ctx: TaskContext,
  address: string,
  flag: string,
): Promise<{ token: TestUSDC; symbol: string; decimals: number }> {
  if ((await ctx.hre.ethers.provider.getCode(address)) === "0x") {
    throw new TaskError(`${flag}: no token contract at ${address} on ${ctx.profile.name}. Nothing was sent.`);
  }
  const token = (await ctx.hre.ethers.getContractAt("TestUSDC", address, ctx.signer)) as unknown as TestUSDC;
  try {
    const [symbol, decimals] = await Promise.all([
      token.symbol(),
      token.decimals(),
      token.balanceOf(ctx.signer.address),
    ]);
    return { token, symbol: tokenSymbolText(symbol), decimals: Number(decimals) };
  } catch (e) {
    if (!isMissingFunction(e)) throw e;
    throw new TaskError(
      `${flag}: ${address} on ${ctx.profile.name} is not an ERC-20 token (symbol(), decimals() or balanceOf() reverts). Nothing was sent.`,
    );
  }
}

/**
 * Refuses, before anything is sent, when `address` holds no ETH on the task's chain to pay the gas of
 * `action` (a node's own refusal is a stack trace or "Missing or invalid parameters"; probe16 B-F9).
 * @param hint what to do instead (default: send it ETH); `bounty:claim` names the relayed claim
 * @throws TaskError naming the address, the network and its chain id
 */
export async function refuseWithoutGas(
  ctx: TaskContext,
  address: string,
  action: string,
  hint = "send it ETH on that chain, then run again",
): Promise<void> {
  const balance = await ctx.hre.ethers.provider.getBalance(address);
  if (balance > 0n) return;
  throw new TaskError(noGas(ctx, address, action, "holds no ETH", hint));
}

/**
 * The refusal of a sender without gas; a `hint` that already says "Nothing was sent." (one that ends
 * with a command to paste, which nothing may follow on its line) is used as it is.
 */
function noGas(ctx: TaskContext, address: string, action: string, holds: string, hint: string): string {
  const end = hint.includes("Nothing was sent.") ? "" : ". Nothing was sent.";
  return `${address} ${holds} on ${ctx.profile.name} (chain id ${ctx.profile.chainId}) to pay the gas of ${action}: ${hint}${end}`;
}

/** True for a node's refusal of a transaction its sender cannot pay for (Hardhat, geth, ethers' code). */
function isInsufficientFunds(e: unknown): boolean {
  return (
    isError(e, "INSUFFICIENT_FUNDS") ||
    /doesn't have enough funds|insufficient funds/i.test((e as Error)?.message ?? "")
  );
}

/**
 * The block a simulation runs in: the pending one, whose time is the next block's (`eth_call` at
 * `"pending"`), as the platform's award simulates (probe28c C-F1: simulated at the latest block, an award at
 * the deadline's last second "simulated fine" and was then mined reverted in the next block, gas spent).
 */
export const SIMULATE_AT = { blockTag: "pending" } as const;

/** The overrides a `staticCall` of {@link simulateAndSend} takes: {@link SIMULATE_AT}. */
export type SimulateOverrides = typeof SIMULATE_AT;

/**
 * Simulates a contract call in the pending block ({@link SIMULATE_AT}: the next block's time, where the
 * transaction lands), so a revert is decoded before anything is sent, checks that the signer can pay
 * the gas ({@link refuseWithoutGas}), then sends it and waits for the receipt. A transaction mined
 * reverted all the same (the chain moved between the simulation and the send) is reported as sent: its
 * hash, block and gas used ({@link minedRevert}). A send whose answer is lost, or whose receipt cannot
 * be read (the RPC fails after the transaction may have left), is settled by the chain, never reported
 * as not sent ({@link settleUnansweredSend}; probe34 C-F4): the signer's transaction of the send's nonce,
 * found mined and successful, is this send's receipt.
 * @param simulate a `staticCall` of the same call, given the overrides to pass on
 * @param send the call itself
 * @param noGasHint what to do when the signer holds no ETH (default: send it ETH)
 * @param check a pasteable command that shows the outcome (`npx hardhat bounty:status --id 7 ...`),
 *   named when the outcome of a send is not known; default: the signer's transaction of its nonce
 * @throws TaskError with the decoded custom error and what to do, or naming the signer without gas, or
 *   `<action> transaction <hash> was mined reverted in block <n> (gas used <g> paid): ...`, or
 *   {@link settleUnansweredSend}'s
 */
export async function simulateAndSend(
  ctx: TaskContext,
  action: string,
  simulate: (overrides: SimulateOverrides) => Promise<unknown>,
  send: () => Promise<ContractTransactionResponse>,
  noGasHint?: string,
  check?: string,
): Promise<TransactionReceipt> {
  try {
    await simulate(SIMULATE_AT);
  } catch (e) {
    throw decodeRevert(e, ctx.ifaces, action);
  }
  await refuseWithoutGas(ctx, ctx.signer.address, action, noGasHint);
  const mark = await markSend(ctx, ctx.signer.address);
  let receipt: TransactionReceipt | null;
  let sentHash: string | undefined;
  try {
    const tx = await send();
    sentHash = tx.hash;
    console.log(`  sent ${action}: ${tx.hash}`);
    receipt = await tx.wait();
  } catch (e) {
    if (isInsufficientFunds(e))
      throw new TaskError(
        noGas(
          ctx,
          ctx.signer.address,
          action,
          "holds too little ETH",
          noGasHint ?? "send it ETH on that chain, then run again",
        ),
      );
    const decoded = decodeRevert(e, ctx.ifaces, action);
    const mined = await minedRevert(ctx, e, mark.nonce).catch(() => null);
    if (mined !== null)
      throw new TaskError(
        `${action} transaction ${mined.hash} was mined reverted in block ${mined.blockNumber} (gas used ${mined.gasUsed} paid by ${ctx.signer.address}): ${decoded instanceof TaskError ? decoded.message : chainText(errorText(e), MAX_CHAIN_TEXT_CHARS)}`,
      );
    if (decoded instanceof TaskError) throw decoded;
    receipt = await settleUnansweredSend(ctx, action, e, mark, check, sentHash);
  }
  if (!receipt || receipt.status !== 1)
    throw new TaskError(`${action} failed on-chain (tx ${receipt?.hash ?? "?"}).`);
  return receipt;
}

/** Where a send starts: its sender, the nonce it takes (the `pending` count) and the latest block then. */
export interface SendMark {
  from: string;
  nonce: number;
  block: number;
}

/**
 * Reads {@link SendMark} of a send `from` is about to make: right before it, so the transaction the
 * send makes is `from`'s of that nonce (a key signs for one task at a time, as every task assumes).
 */
export async function markSend(ctx: TaskContext, from: string): Promise<SendMark> {
  const provider = ctx.hre.ethers.provider;
  const [nonce, block] = await Promise.all([
    provider.getTransactionCount(from, "pending"),
    provider.getBlockNumber(),
  ]);
  return { from, nonce, block };
}

/** How long a lost send's transaction that the node holds is waited for, to be mined (ms). */
export const LOST_SEND_MINED_WAIT_MS = 60_000;
/** How long a lost send's transaction that the node does not hold is looked for (ms), then called unknown. */
export const LOST_SEND_UNKNOWN_WAIT_MS = 5_000;
/** Blocks past {@link SendMark.block} searched for the transaction of a lost send. */
const LOST_SEND_BLOCKS = 256;

/**
 * Settles a send that failed without a revert (probe34 C-F4): the node's answer to it was lost (a 502
 * without a JSON-RPC body, HH110, a connection broken off, a timeout) or its receipt could not be read,
 * or the node refused it ({@link isNodeAnswer}). The chain says what happened, as the platform's award
 * takes a lost answer as sent (`sendOrLose`): `mark.from`'s transaction of `mark.nonce`, looked for in
 * the blocks after `mark.block` (while the node holds it unmined, for up to
 * {@link LOST_SEND_MINED_WAIT_MS}; while it holds none, for up to {@link LOST_SEND_UNKNOWN_WAIT_MS}; a
 * node's refusal once, unless the node holds one). Never sends.
 * @param check a pasteable command that shows the outcome (see {@link simulateAndSend})
 * @param sentHash the transaction's hash when the send answered (then its receipt is what failed)
 * @returns the receipt of that transaction, mined and successful (a line on stdout says the answer was
 *   lost and where it was found): the send's outcome is known good
 * @throws TaskError, one line: the transaction mined reverted (hash, block, gas); sent and not mined in
 *   time; not known to the node (it may not have been sent: check before running again); the node's
 *   refusal (nothing was sent); or the chain unreadable too (whether it was sent is not known)
 */
export async function settleUnansweredSend(
  ctx: TaskContext,
  action: string,
  e: unknown,
  mark: SendMark,
  check?: string,
  sentHash?: string,
): Promise<TransactionReceipt> {
  const provider = ctx.hre.ethers.provider;
  const refused = isNodeAnswer(e);
  const words = chainText(errorText(e), MAX_CHAIN_TEXT_CHARS);
  const which = `the transaction of nonce ${mark.nonce} from ${mark.from}`;
  const checkWith =
    check ??
    `look up ${which}${ctx.profile.explorer ? ` (${ctx.profile.explorer}/address/${mark.from})` : ""}`;
  const lost =
    sentHash === undefined
      ? `the node's answer to the ${action} send was lost (${words})`
      : `the receipt of the ${action} transaction ${sentHash} could not be read (${words})`;
  let found: TransactionReceipt | null = null;
  let mined = false;
  let heldUnmined = false;
  try {
    const started = Date.now();
    for (;;) {
      const [latestCount, pendingCount] = await Promise.all([
        provider.getTransactionCount(mark.from, "latest"),
        provider.getTransactionCount(mark.from, "pending"),
      ]);
      if (latestCount > mark.nonce) {
        mined = true;
        found = await minedByNonce(ctx, mark);
        break;
      }
      heldUnmined = pendingCount > mark.nonce;
      const waited = Date.now() - started;
      // a node's refusal is looked at once, unless the node holds a transaction of that nonce after all
      if (refused && !heldUnmined) break;
      if (waited >= (heldUnmined ? LOST_SEND_MINED_WAIT_MS : LOST_SEND_UNKNOWN_WAIT_MS)) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
  } catch (readError) {
    if (readError instanceof TaskError) throw readError;
    throw new TaskError(
      `${refused ? `The node refused the ${action} send (${words})` : lost}, and reading the chain to learn whether it was sent failed too (${chainText(errorText(readError), MAX_CHAIN_TEXT_CHARS)}): whether it was sent is not known. Do not run this again before you check: ${checkWith}.`,
    );
  }
  if (found !== null) {
    if (found.status === 1) {
      console.log(
        `  sent ${action}: ${found.hash} (${refused ? `the node answered "${words}"` : lost}; found mined in block ${found.blockNumber})`,
      );
      return found;
    }
    throw new TaskError(
      `${action} transaction ${found.hash} was mined reverted in block ${found.blockNumber} (gas used ${found.gasUsed} paid by ${mark.from}); ${refused ? `the node answered "${words}"` : lost}, so its reason was not read: see ${checkWith}.`,
    );
  }
  if (mined)
    throw new TaskError(
      `${refused ? `The node refused the ${action} send (${words})` : lost}, yet ${which} was mined, not within ${LOST_SEND_BLOCKS} blocks of the send: check with ${checkWith}.`,
    );
  if (refused && !heldUnmined)
    throw new TaskError(`The node refused the ${action} send: ${words}. Nothing was sent.`);
  if (heldUnmined)
    throw new TaskError(
      `${action} was sent but ${refused ? `the node answered "${words}"` : lost}: the node holds ${which}, not mined after ${LOST_SEND_MINED_WAIT_MS / 1000} s. Do not run this again before it settles: check with ${checkWith}.`,
    );
  throw new TaskError(
    `${action} may not have been sent: ${lost}, and after ${LOST_SEND_UNKNOWN_WAIT_MS / 1000} s the node knows no ${which.slice(4)}. Check before running this again: ${checkWith}.`,
  );
}

/**
 * The receipt of `mark.from`'s transaction of `mark.nonce`, searched in the blocks after `mark.block`
 * (at most {@link LOST_SEND_BLOCKS} of them); null when it is not there.
 */
async function minedByNonce(ctx: TaskContext, mark: SendMark): Promise<TransactionReceipt | null> {
  const provider = ctx.hre.ethers.provider;
  const head = await provider.getBlockNumber();
  for (let n = mark.block + 1; n <= Math.min(head, mark.block + LOST_SEND_BLOCKS); n++) {
    const block = await provider.getBlock(n, true);
    const tx = block?.prefetchedTransactions.find(
      (t) => t.from.toLowerCase() === mark.from.toLowerCase() && t.nonce === mark.nonce,
    );
    if (tx) return provider.getTransactionReceipt(tx.hash);
  }
  return null;
}

/**
 * The receipt of the signer's transaction of nonce `nonce` when it was mined and reverted: the one ethers'
 * `wait()` threw with (a key signer), else the one a node's unlocked signer (`eth_sendTransaction`, which
 * mines a failing transaction and answers with its revert) mined in the latest block; null when none was.
 */
async function minedRevert(
  ctx: TaskContext,
  e: unknown,
  nonce: number,
): Promise<{ hash: string; blockNumber: number; gasUsed: bigint } | null> {
  const carried = (e as { receipt?: TransactionReceipt | null }).receipt;
  if (carried && carried.status === 0) return carried;
  const provider = ctx.hre.ethers.provider;
  if ((await provider.getTransactionCount(ctx.signer.address, "latest")) <= nonce) return null;
  const block = await provider.getBlock("latest", true);
  const tx = block?.prefetchedTransactions.find(
    (t) => t.from.toLowerCase() === ctx.signer.address.toLowerCase() && t.nonce === nonce,
  );
  if (!tx) return null;
  const receipt = await provider.getTransactionReceipt(tx.hash);
  return receipt && receipt.status === 0 ? receipt : null;
}

/**
 * The time (unix seconds) of the block a transaction sent now lands in: the pending block's
 * ({@link SIMULATE_AT}, the time {@link simulateAndSend} simulates at), and never earlier than one
 * second past the latest block's (a node that serves its latest block as the pending one: the next
 * block's time is always later). What a task judges a contract's time rule by before it sends (probe29
 * C-F6: `bounty:reclaim` judged by the latest block and refused "the awarder may still award it" at
 * the award deadline's last second, though no block to come could carry an award any more).
 * @throws TaskError when the latest block cannot be read
 */
export async function pendingNow(ctx: TaskContext): Promise<bigint> {
  const provider = ctx.hre.ethers.provider;
  const latest = await provider.getBlock("latest");
  if (!latest) throw new TaskError("Cannot read the latest block.");
  const next = BigInt(latest.timestamp) + 1n;
  // read raw: a pending block has no number, which ethers' block formatter refuses
  // (a node that serves no pending block: the next block's time is at least one second past the latest's)
  const pending = (await provider.send("eth_getBlockByNumber", ["pending", false]).catch(() => null)) as {
    timestamp?: string;
  } | null;
  const at = typeof pending?.timestamp === "string" ? BigInt(pending.timestamp) : 0n;
  return at > next ? at : next;
}

/** Latest block timestamp (the chain's "now", which a local node may have moved). */
export async function chainNow(ctx: TaskContext): Promise<bigint> {
  const block = await ctx.hre.ethers.provider.getBlock("latest");
  if (!block) throw new TaskError("Cannot read the latest block.");
  return BigInt(block.timestamp);
}

/** Logs per `eth_getLogs` answer above which {@link queryLogs} halves its next window (an answer of ~1 MB). */
export const LOGS_PER_WINDOW_TARGET = 1000;

/**
 * True for a failure of the RPC connection itself (refused, unknown host, no network): retrying a
 * smaller log window cannot help, so it is reported at once.
 */
function isUnreachable(e: unknown): boolean {
  return /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|could not detect network/i.test(errorText(e));
}

/**
 * A failed read of the chain (the RPC broke off an answer, was unreachable or refused the request) as
 * one line naming what was read and the RPC's own words (probe27 C-F8: an undici `SocketError: other side
 * closed` ended `bounty:credits` in a stack trace). A TaskError passes through.
 * @param what what was being read, e.g. `the logs of blocks 0..9999`
 * @param advice what to do, a sentence without its capital and period
 */
export function rpcFailure(
  ctx: TaskContext,
  e: unknown,
  what: string,
  advice = "check the endpoint and run again",
): TaskError {
  if (e instanceof TaskError) return e;
  // an answer that is not its view's ABI value names the view, the same line whatever was being read
  if (viewAnswerErrorIn(e) !== undefined) return new TaskError(rpcFailureLine(e, ctx.profile.name));
  return new TaskError(
    `Reading ${what} from the ${ctx.profile.name} RPC endpoint (${ctx.profile.rpcEnv}) failed: ${chainText(errorText(e), MAX_CHAIN_TEXT_CHARS)}. ${advice[0]!.toUpperCase()}${advice.slice(1)}.`,
  );
}

/**
 * Logs of one event filter from the deployment block to the head, read in windows of at most
 * LOG_BLOCK_RANGE blocks (default 10000; public RPCs cap eth_getLogs ranges) that adapt to the answers
 * (probe27 C-F8: a stranger's ~10,000 awards made one window's answer ~10 MB, which the connection broke
 * off): a window that fails is read again as two halves, down to one block; the next window is halved
 * after an answer of more than {@link LOGS_PER_WINDOW_TARGET} logs and doubled (up to the limit) after
 * one of less than a quarter of it.
 * @throws TaskError naming the blocks and the RPC's error ({@link rpcFailure}) when even a one-block
 *   window fails, or at once when the endpoint is unreachable
 */
export async function queryLogs<E extends TypedContractEvent>(
  ctx: TaskContext,
  contract: {
    queryFilter(f: TypedDeferredTopicFilter<E>, from?: number, to?: number): Promise<TypedEventLog<E>[]>;
  },
  filter: TypedDeferredTopicFilter<E>,
): Promise<TypedEventLog<E>[]> {
  const maxRange = Number(process.env.LOG_BLOCK_RANGE ?? "10000");
  if (!Number.isSafeInteger(maxRange) || maxRange < 1)
    throw new TaskError("LOG_BLOCK_RANGE must be a positive integer.");
  let head: number;
  try {
    head = await ctx.hre.ethers.provider.getBlockNumber();
  } catch (e) {
    throw rpcFailure(ctx, e, "the latest block number");
  }
  const out: TypedEventLog<E>[] = [];
  let range = maxRange;
  for (let from = ctx.startBlock; from <= head; ) {
    const to = Math.min(head, from + range - 1);
    let logs: TypedEventLog<E>[];
    try {
      logs = await contract.queryFilter(filter, from, to);
    } catch (e) {
      if (to === from || isUnreachable(e))
        throw rpcFailure(
          ctx,
          e,
          `the logs of blocks ${from}..${to}`,
          "check the endpoint (or use one that answers eth_getLogs in full), then run again",
        );
      range = Math.max(1, Math.floor((to - from + 1) / 2));
      continue;
    }
    out.push(...logs);
    from = to + 1;
    if (logs.length > LOGS_PER_WINDOW_TARGET) range = Math.max(1, Math.floor(range / 2));
    else if (logs.length < LOGS_PER_WINDOW_TARGET / 4) range = Math.min(maxRange, range * 2);
  }
  return out;
}

/**
 * The events named `name` that `contract` emitted in a receipt, decoded (logs of
 * other contracts and other events are skipped).
 */
export function eventsIn(
  receipt: TransactionReceipt,
  contract: BaseContract,
  name: string,
): LogDescription[] {
  const address = String(contract.target).toLowerCase();
  const out: LogDescription[] = [];
  for (const log of receipt.logs) {
    if (log.address.toLowerCase() !== address) continue;
    const parsed = contract.interface.parseLog(log);
    if (parsed?.name === name) out.push(parsed);
  }
  return out;
}

/**
 * The one event named `name` of a receipt (see {@link eventsIn}).
 * @throws TaskError when the transaction emitted none
 */
export function eventIn(receipt: TransactionReceipt, contract: BaseContract, name: string): LogDescription {
  const [found] = eventsIn(receipt, contract, name);
  if (!found) throw new TaskError(`No ${name} event in ${receipt.hash}: check the transaction.`);
  return found;
}

/**
 * True for the errors of calling a view a contract does not have: it reverts
 * (ethers' CALL_EXCEPTION, or the node's own "Transaction reverted" answer that
 * Hardhat's provider passes on as a ProviderError) or answers nothing decodable
 * (BAD_DATA). Anything else (the RPC down, a bug) is not this and must propagate.
 */
export function isMissingFunction(e: unknown): boolean {
  if (isError(e, "CALL_EXCEPTION") || isError(e, "BAD_DATA")) return true;
  const { name, message } = (e ?? {}) as { name?: unknown; message?: unknown };
  return name === "ProviderError" && typeof message === "string" && /\breverted\b/i.test(message);
}

/**
 * True when `token` answers `isBlacklisted(address)` (USDC's FiatToken surface) with true; false for a token
 * without that view. An error that is not a revert (the RPC down) is thrown.
 */
export async function tokenBlacklists(ctx: TaskContext, token: string, address: string): Promise<boolean> {
  const usdc = await ctx.hre.ethers.getContractAt("TestUSDC", token);
  try {
    return await usdc.isBlacklisted(address);
  } catch (e) {
    if (!isMissingFunction(e)) throw e;
    return false;
  }
}

/** An address a token transfer of a task touches, and what to do when the token blacklists it. */
export interface TransferParty {
  address: string;
  /** The sentence after "The token blacklists <address>", e.g. `(the recipient): claim with --to a clean address.` */
  advice: string;
}

/**
 * The party of a transfer whose refusal the token's own blacklist explains: the parties `token` says it
 * blacklists (FiatToken `isBlacklisted`, read, never guessed from the revert's wording; probe30 C-F3: a
 * blacklisted bounty contract or author was told to "claim with --to a clean address"). A read that fails
 * says nothing. The rule is `blacklistedParties` of `@bench-bounty/contracts`, which the platform's relay uses too.
 * @returns `err` with one sentence per blacklisted party appended when it is a {@link TokenRefusal}
 *   (`err` itself when no party is blacklisted); any other error as it is
 */
export async function explainTokenRefusal(
  ctx: TaskContext,
  err: unknown,
  token: string,
  parties: readonly TransferParty[],
): Promise<unknown> {
  if (!(err instanceof TokenRefusal)) return err;
  // the one rule, shared with the platform's relayed claims (`blacklistedParties` of @bench-bounty/contracts)
  const listed = await contracts().blacklistedParties(parties, (a) => tokenBlacklists(ctx, token, a));
  const facts = listed.map((party) => `The token blacklists ${party.address} ${party.advice}`);
  return facts.length === 0 ? err : new TokenRefusal(`${err.message} ${facts.join(" ")}`);
}

/**
 * A token's `symbol()` and `decimals()` for printing amounts, the symbol as printed
 * ({@link tokenSymbolText}: a stranger's token chooses it); a token without
 * them is shown as "tokens" with 6 decimals (amounts stay exact in base units). Read once per token
 * and task run.
 */
export async function tokenDisplay(
  ctx: TaskContext,
  address: string,
): Promise<{ symbol: string; decimals: number }> {
  // one lookup per token and task run (probe27 C-F8: a lookup per credited bounty)
  let cache = displayCache.get(ctx);
  if (!cache) displayCache.set(ctx, (cache = new Map()));
  const key = address.toLowerCase();
  let found = cache.get(key);
  if (!found) cache.set(key, (found = readTokenDisplay(ctx, address)));
  return found;
}

/** {@link tokenDisplay}'s answers, per task run and token (lower-case address). */
const displayCache = new WeakMap<TaskContext, Map<string, Promise<{ symbol: string; decimals: number }>>>();

async function readTokenDisplay(
  ctx: TaskContext,
  address: string,
): Promise<{ symbol: string; decimals: number }> {
  const token = await ctx.hre.ethers.getContractAt("TestUSDC", address);
  try {
    return { symbol: tokenSymbolText(await token.symbol()), decimals: Number(await token.decimals()) };
  } catch (e) {
    if (!isMissingFunction(e)) throw e;
    return { symbol: "tokens", decimals: 6 };
  }
}

/**
 * Adds the `--from` option every sending task has: the account that signs, `who` naming its role
 * (one of the node's accounts on localhost).
 */
export function withFromParam(t: ConfigurableTaskDefinition, who: string): ConfigurableTaskDefinition {
  return t.addOptionalParam(
    "from",
    `${who} (one of the node's accounts on localhost)`,
    undefined,
    types.string,
  );
}

/**
 * Refuses a recipient that is not an address by the platform's one form rule, `addressForm` of
 * @bench-bounty/contracts (probe17 B-F6: 40 hex digits without `0x` passed ethers' `isAddress` and then
 * threw in `BigInt`; a wrong EIP-55 checksum was called "not a non-zero address").
 * @param where the option or file path named in the refusal (`--to`, `--withdrawals agent`)
 * @throws TaskError `<where>: not a 0x-prefixed address of 40 hex digits: "<value>"` or
 *   `<where>: mixed-case address with a wrong EIP-55 checksum ...`
 */
export function refuseMalformedAddress(address: unknown, where: string): asserts address is string {
  const form = typeof address === "string" ? contracts().addressForm(address) : "not_an_address";
  if (form === "not_an_address")
    throw new TaskError(`${where}: not a 0x-prefixed address of 40 hex digits: ${JSON.stringify(address)}.`);
  if (form === "bad_checksum")
    throw new TaskError(
      `${where}: mixed-case address with a wrong EIP-55 checksum (check for a typo): ${JSON.stringify(address)}.`,
    );
}

/**
 * Refuses a recipient USDC paid to would be lost (`--to`, a withdrawal address): the zero address, a
 * precompile, an OP-stack predeploy, or one of the protocol's contracts (those of every chain, and
 * `ctx`'s when given), by the platform's one rule, `recipientProblem` of @bench-bounty/contracts
 * (probe16 B-F8). Called before anything is sent.
 * @param where the option or file path named in the refusal (`--to`, `--withdrawals-file f $.agent`)
 * @throws TaskError `<where>: <address> is one of the protocol's contracts ...: it can never claim ...`
 */
export function refuseLostRecipient(address: string, where: string, ctx?: TaskContext): void {
  const problem = recipientProblemOn(address, ctx);
  if (problem !== null) throw new TaskError(`${where}: ${problem.message}.`);
}

/**
 * {@link refuseLostRecipient} with the chain at hand, then the code the address runs
 * (`recipientCodeProblem` of @bench-bounty/contracts on `eth_getCode`): a BenchmarkBounty or an
 * AnchorRegistry deployed at any other address, where a claim's USDC would be lost for good (probe26
 * C-F7). Any other code (a smart-contract wallet, a Safe) passes. Called before anything is sent.
 * @throws TaskError `<where>: <address> runs the protocol's BenchmarkBounty code (a deployment at another
 *   address): it can never claim, credit there is lost.`, or {@link refuseLostRecipient}'s
 */
export async function refuseLostRecipientOnChain(
  address: string,
  where: string,
  ctx: TaskContext,
): Promise<void> {
  refuseLostRecipient(address, where, ctx);
  const code = (await ctx.hre.ethers.provider.getCode(address)) as `0x${string}`;
  const problem = contracts().recipientCodeProblem(address, code);
  if (problem !== null) throw new TaskError(`${where}: ${problem.message}.`);
}

/**
 * Refuses a recipient that is the token contract of a credit or pool it would be paid (probe32 C-F1:
 * `bounty:claim --to <the bounty's own token>` was sent, and tokens paid to their own contract are lost
 * for good; {@link refuseLostRecipient} knows only the chain's USDC). Called before anything is sent.
 * @param where the option or file path named in the refusal (`--to`, `the withdrawal address of place 1`)
 * @param paid what `address` would be paid: each bounty id and its token (`getBounty(id).token`)
 * @throws TaskError `<where>: <address> is the token contract of bounty <id> (<token>): ... Nothing was sent.`
 */
export function refuseTokenRecipient(
  address: string,
  where: string,
  paid: readonly { bountyId: bigint; token: string }[],
): void {
  const own = paid.find((p) => p.token.toLowerCase() === address.toLowerCase());
  if (own !== undefined)
    throw new TaskError(
      `${where}: ${address} is the token contract of bounty ${own.bountyId} (${own.token}): tokens paid to their own contract are lost for good. Nothing was sent.`,
    );
}

function recipientProblemOn(address: string, ctx?: TaskContext) {
  const chainContracts = ctx ? [ctx.bountyAddress, ctx.registryAddress, ctx.profile.usdc] : [];
  return contracts().recipientProblem(address, chainContracts);
}

/**
 * Refuses `bounty:lock --awarder` by the same rule as a recipient ({@link refuseLostRecipient},
 * `recipientProblem` of @bench-bounty/contracts; probe19 B-F9): a router (Multicall3, a
 * MultiSendCallOnly) would let anyone award the pool to themselves through it after the close; the zero
 * address, a precompile, a predeploy or a protocol contract never calls `award`. Called before anything
 * is sent, after {@link refuseMalformedAddress}.
 * @throws TaskError `--awarder: <address> is Multicall3 ...: anyone could award through it. Nothing was sent.`
 */
export function refuseUnfitAwarder(address: string, ctx: TaskContext): void {
  const problem = recipientProblemOn(address, ctx);
  if (problem === null) return;
  const why = problem.router
    ? "anyone could award through it"
    : "it can never award, only a reclaim would return the pool";
  throw new TaskError(`--awarder: ${problem.what}: ${why}. Nothing was sent.`);
}
