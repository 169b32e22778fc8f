/**
 * User-facing errors of the bench-bounty tasks, and revert decoding.
 *
 * A {@link TaskError} is a `HardhatPluginError`: the Hardhat CLI prints its
 * message without a stack trace and exits 1. Every revert of BenchmarkBounty,
 * AnchorRegistry or the token is decoded to its custom error name and
 * arguments, followed by one sentence of what to do.
 */
import { HardhatPluginError } from "hardhat/plugins";
import { Interface, type ErrorDescription } from "ethers";
import { contracts } from "./packages";
import { isoSeconds } from "./time";
import { chainText, MAX_CHAIN_TEXT_CHARS } from "./text";

export const PLUGIN = "bench-bounty";

/** A refusal or failure the user can act on; printed without a stack trace. */
export class TaskError extends HardhatPluginError {
  constructor(message: string) {
    super(PLUGIN, message);
    // HardhatPluginError resets the prototype to its own; restore ours so `instanceof TaskError` holds.
    Object.setPrototypeOf(this, new.target.prototype);
    this.name = "TaskError";
  }
}

/**
 * A revert the token chose (its `Error(string)` reason, or SafeERC20's `SafeERC20FailedOperation`): the
 * message names the token's refusal, never whom it refused. Which address the token blacklists is read,
 * not guessed from the reason's wording (probe30 C-F3): `tokenRefusalFacts` (deploy/lib/context.ts).
 */
export class TokenRefusal extends TaskError {
  constructor(message: string) {
    super(message);
    Object.setPrototypeOf(this, new.target.prototype);
  }
}

/**
 * An `eth_call` answer of a view of the protocol's contracts that is not the view's ABI value (an address
 * word with its upper bytes set, an integer past its width: `protocolViewAnswerProblem`), thrown by the
 * tasks' transport (`CheckedViewsProvider`, deploy/lib/view-answers.ts; probe40 C-F1). A failure of the
 * RPC endpoint ({@link isRpcFailure}): one line naming the view, its arguments and the member
 * ({@link rpcFailureLine}). Its message is the tasks' own words, e.g. `getBounty(1): the answer is not the
 * view's ABI value ($.bounty.author: 0xffff… is not an address (it does not fit 160 bits))`.
 */
export class ViewAnswerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ViewAnswerError";
  }
}

/** The {@link ViewAnswerError} `e` is or wraps (viem wraps a transport's error as its `cause`), if any. */
export function viewAnswerErrorIn(e: unknown): ViewAnswerError | undefined {
  return errorChain(e).find((x) => x.name === "ViewAnswerError" && typeof x.message === "string") as
    | ViewAnswerError
    | undefined;
}

/** What to do after each custom error (SPEC 1; names of contracts/interfaces). */
export const ADVICE: Record<string, (args: readonly unknown[]) => string> = {
  // BenchmarkBounty: creation
  ZeroToken: () => "The token address is zero: pass --token, or leave it out to use the chain's USDC.",
  ZeroAwarder: () =>
    "The awarder is the zero address: pass --awarder with the address that will settle the award.",
  ZeroPool: () => "The pool is zero: pass --pool with a positive USDC amount.",
  ZeroTestSetRoot: () => "The commitment root is zero: commit the test set again (bounty:lock --test-set).",
  ZeroLeafCount: () => "The leaf count is zero: a test set needs at least one row.",
  ThresholdAboveWhole: () => "--threshold-bps must be between 0 and 10000.",
  AwardDeadlineNotAfterClose: () => "--award-deadline must be strictly after --closes-at.",
  ClosesAtNotInFuture: (a) =>
    `--closes-at ${isoTime(a[0])} is not after the chain time ${isoTime(a[1])}: pick a later time.`,
  TokenWithoutCode: (a) =>
    `There is no contract at the token address ${a[0]}: pass --token with a deployed ERC-20, or leave it out to use the chain's USDC.`,
  SplitsLengthOutOfRange: () => "Splits need 1 to 8 places: fix --splits or use --payout-rule.",
  ZeroSplit: (a) => `Place ${Number(a[0]) + 1} has a zero share: every place needs a positive share.`,
  SplitsIncreasing: (a) =>
    `Place ${Number(a[0]) + 1} gets more than the place before it: shares must not increase.`,
  SplitsSumNotWhole: (a) => `The shares sum to ${a[0]} bps: they must sum to 10000.`,
  RootBurned: () =>
    "An award already revealed this test set: commit a fresh test set (new salts) for a new bounty.",
  RootBoundToLiveBounty: (a) =>
    `Your bounty ${a[2]} is still live on this root: wait until it is awarded or reclaimed, or commit a new test set.`,
  // BenchmarkBounty: lifecycle
  UnknownBounty: (a) => `There is no bounty ${a[0]}: check --id (ids run from 1 to bountyCount()).`,
  NotAuthor: (a) =>
    `Only the bounty's author may do this; ${a[1]} is not the author: sign with the author's key (--from on a local node, DEPLOYER_PRIVATE_KEY elsewhere).`,
  NotAwarder: (a) =>
    `Only the bounty's awarder may award it; ${a[1]} is not the awarder: sign with the awarder's key.`,
  BountyNotPending: (a) =>
    `Bounty ${a[0]} is no longer Pending (status ${statusName(a[1])}): it cannot be funded again.`,
  BountyNotFunded: (a) =>
    `Bounty ${a[0]} is ${statusName(a[1])}, not Funded: only a Funded bounty can be awarded (see bounty:status).`,
  BountyAlreadySettled: (a) =>
    `Bounty ${a[0]} is already ${statusName(a[1])}: there is nothing left to reclaim.`,
  FundingShortfall: (a) =>
    `The contract received ${a[1]} base units instead of ${a[0]}: the token takes a fee on transfer, and bounties refuse such tokens. Use USDC.`,
  FundAfterClose: (a) =>
    `Bounty ${a[0]} closed at ${isoTime(a[1])}: it can no longer be funded; create a new one (its pool was never taken).`,
  PermitFailedAndAllowanceShort: (a) =>
    `The permit was rejected and the allowance (${a[0]}) does not cover the pool (${a[1]}): rerun with --approve.`,
  AwardBeforeClose: (a) => `The bounty closes at ${isoTime(a[0])}: award after that.`,
  AwardAfterDeadline: (a) =>
    `The award deadline (${isoTime(a[0])}) has passed: the award can no longer be made; the author can take the pool back with bounty:reclaim.`,
  TooManyWinners: (a) =>
    `${a[0]} winners for ${a[1]} paid places: check the rank derivation against the bounty's splits.`,
  ZeroAddressWinner: (a) =>
    `The winner at place ${Number(a[0]) + 1} has no withdrawal address: add it to --withdrawals before awarding.`,
  NothingToClaim: (a) => `${a[1]} has no credit in bounty ${a[0]}: see bounty:credits for what it can claim.`,
  InvalidRecipient: (a) =>
    `${a[0]} cannot receive the payment (the zero address or the bounty contract itself): pass --to with the address that should receive the USDC.`,
  ClaimSignatureExpired: (a) =>
    `The Claim signature expired at ${isoTime(a[0])} (chain time ${isoTime(a[1])}): sign again with a later --deadline.`,
  InvalidClaimSignature: (a) =>
    `The Claim signature is not by ${a[0]}: sign with the winner's own key (CLAIMER_PRIVATE_KEY, or --account on a local node).`,
  InvalidAccountNonce: (a) =>
    `The Claim was signed for another nonce than ${a[0]}'s current one (${a[1]}): it was already used or is stale; sign it again.`,
  ReclaimBeforeDeadline: (a) =>
    `A funded bounty can only be reclaimed after its award deadline (${isoTime(a[1])}): wait, or let the awarder award it.`,
  // AnchorRegistry
  ZeroDigest: () => "The zero digest cannot be anchored: check the digest or file.",
  AlreadyAnchored: (a) =>
    `It was already anchored by ${a[1]} at block ${a[2]}: nothing to do (anchor:check shows the record).`,
  UnknownKind: () => "Use --kind commitment, receipt, pack or compute-receipt.",
  // OpenZeppelin
  InvalidShortString: () =>
    "The EIP-712 domain string is malformed: this is a contract bug, please report it.",
  StringTooLong: () => "The EIP-712 domain string is too long: this is a contract bug, please report it.",
  SafeERC20FailedOperation: () => "The token refused the transfer (it returned false): check the token.",
  ReentrancyGuardReentrantCall: () =>
    "A token called back into the contract during a transfer; the call was refused.",
};

/** The name of a status number of the ladder of @bench-bounty/contracts (the number itself if unknown). */
function statusName(v: unknown): string {
  try {
    return contracts().bountyStatusName(Number(v));
  } catch (e) {
    if (e instanceof RangeError) return String(v);
    throw e;
  }
}
/** Unix seconds -> `2026-01-01T00:00:00Z (1767225600)` (past a date's range: `unix N (after ...)`). */
export function isoTime(v: unknown): string {
  let s: bigint;
  try {
    s = BigInt(v as bigint | number | string);
  } catch (e) {
    // not an integer (a malformed revert argument): shown as it is
    if (e instanceof SyntaxError || e instanceof TypeError || e instanceof RangeError) return String(v);
    throw e;
  }
  const iso = isoSeconds(s);
  return iso.startsWith("unix ") ? iso : `${iso} (${s})`;
}

/** Finds the revert data (`0x` + selector...) in an ethers / Hardhat error, however deeply wrapped. */
export function revertData(e: unknown): string | undefined {
  const seen = new Set<unknown>();
  const visit = (x: unknown, depth: number): string | undefined => {
    if (x === null || typeof x !== "object" || seen.has(x) || depth > 6) return undefined;
    seen.add(x);
    const o = x as Record<string, unknown>;
    if (typeof o.data === "string" && /^0x[0-9a-fA-F]{8}/.test(o.data)) return o.data;
    // viem: ContractFunctionRevertedError keeps the revert data in `raw`.
    if (typeof o.raw === "string" && /^0x[0-9a-fA-F]{8}/.test(o.raw)) return o.raw;
    for (const k of ["data", "error", "info", "cause", "receipt", "payload"]) {
      const found = visit(o[k], depth + 1);
      if (found) return found;
    }
    return undefined;
  };
  return visit(e, 0);
}

/** The revert reason text of an Error(string) that Hardhat put in the message, if any. */
function reasonFromMessage(e: unknown): string | undefined {
  const msg = (e as { message?: string })?.message ?? "";
  const m = /reverted with reason string '([^']*)'/.exec(msg) ?? /execution reverted: (.*)$/m.exec(msg);
  return m?.[1];
}

/**
 * Turns a failed call or transaction into a TaskError naming the custom error,
 * its arguments and what to do (a revert reason string, which the token chose, shown through
 * {@link chainText}). `ifaces` are the ABIs that may have reverted.
 * Errors that are not reverts (network down, user mistakes already TaskErrors) pass through.
 */
export function decodeRevert(e: unknown, ifaces: readonly Interface[], action: string): Error {
  if (e instanceof TaskError) return e;
  const data = revertData(e);
  if (data) {
    for (const iface of ifaces) {
      let parsed: ErrorDescription | null;
      try {
        parsed = iface.parseError(data);
      } catch {
        // Data this interface cannot decode (a selector of its, other arguments): not its error.
        parsed = null;
      }
      if (!parsed) continue;
      if (parsed.name === "Error") {
        const reason = String(parsed.args[0]);
        return new TokenRefusal(
          `${action} reverted: ${chainText(reason, MAX_CHAIN_TEXT_CHARS)}. ${tokenAdvice(reason)}`,
        );
      }
      if (parsed.name === "Panic") {
        return new TaskError(
          `${action} reverted with a panic (code ${parsed.args[0]}): this is a contract bug, please report it.`,
        );
      }
      const args = parsed.args.toArray().map(String);
      const advice =
        ADVICE[parsed.name]?.(parsed.args.toArray()) ?? "See the contract's NatSpec for this error.";
      const text = `${action} reverted with ${parsed.name}(${args.join(", ")}). ${advice}`;
      return parsed.name === "SafeERC20FailedOperation" ? new TokenRefusal(text) : new TaskError(text);
    }
    return new TaskError(`${action} reverted with unknown data ${data.slice(0, 74)}.`);
  }
  const reason = reasonFromMessage(e);
  if (reason !== undefined)
    return new TokenRefusal(
      `${action} reverted: ${chainText(reason, MAX_CHAIN_TEXT_CHARS)}. ${tokenAdvice(reason)}`,
    );
  const msg = (e as Error)?.message ?? String(e);
  if (/ECONNREFUSED|could not detect network|connect ECONN|fetch failed/i.test(msg)) {
    return new TaskError(
      `${action} failed: cannot reach the RPC endpoint (${msg.split("\n")[0]}). Check the RPC URL and that the node is running.`,
    );
  }
  return e instanceof Error ? e : new Error(msg);
}

/**
 * The sentence after a token's reason. Whom a blacklist refusal is about is not in it: the reason's wording
 * does not say (the sender, the recipient or the bounty contract itself; probe30 C-F3), the task reads it.
 */
function tokenAdvice(reason: string): string {
  if (/exceeds balance/i.test(reason)) return "The balance is too low for this transfer.";
  if (/allowance/i.test(reason)) return "The allowance is too low: approve first or use the permit path.";
  return "The token refused the operation.";
}

/** The first line of an error's message and of its causes, for a one-line report. */
export function errorText(e: unknown): string {
  const parts: string[] = [];
  let x: unknown = e;
  for (let depth = 0; x !== undefined && x !== null && depth < 4; depth++) {
    const o = x as { message?: unknown; code?: unknown; cause?: unknown; parent?: unknown };
    const line = typeof o.message === "string" ? o.message.split("\n")[0]!.trim() : String(x);
    const part = typeof o.code === "string" && !line.includes(o.code) ? `${line} (${o.code})` : line;
    // wrappers repeat their cause's words (viem, Hardhat): each said once
    if (!parts.some((p) => p.includes(part))) parts.push(part);
    // Hardhat's errors keep their cause in `parent`
    x = o.cause ?? o.parent;
  }
  return parts.join(": ");
}

/** `e` and the errors it wraps (`cause`, Hardhat's `parent`), outermost first, at most 8. */
function errorChain(e: unknown): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let x: unknown = e;
  while (
    x !== null &&
    typeof x === "object" &&
    out.length < 8 &&
    !out.includes(x as Record<string, unknown>)
  ) {
    const o = x as Record<string, unknown>;
    out.push(o);
    x = o.cause ?? o.parent;
  }
  return out;
}

/**
 * True when `e` holds the node's own JSON-RPC error answer (Hardhat's `ProviderError`, which viem wraps
 * as its cause): the request reached the node and the node answered it, refusing. False for an answer
 * that was lost (a 502 without a JSON-RPC body, a connection broken off, a timeout).
 */
export function isNodeAnswer(e: unknown): boolean {
  return errorChain(e).some((x) => x._isProviderError === true);
}

/** Node's and undici's codes of a broken connection. */
const CONNECTION_CODES =
  /^(ECONNRESET|ECONNREFUSED|ECONNABORTED|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_\w+)$/;

/**
 * True when `e` is a failure of the RPC endpoint (what a task cannot act on but report): the node's
 * JSON-RPC error answer ({@link isNodeAnswer}), a Hardhat network error (HH1xx: not running, timed out,
 * an answer that is not JSON-RPC), a viem RPC or HTTP error, ethers' server/network/timeout errors, or
 * a broken connection.
 */
export function isRpcFailure(e: unknown): boolean {
  return errorChain(e).some((x) => {
    if (x._isProviderError === true || x.name === "ViewAnswerError") return true;
    if (x._isHardhatError === true && typeof x.number === "number") return x.number >= 100 && x.number < 200;
    if (
      typeof x.name === "string" &&
      /RpcError$|^(HttpRequestError|RpcRequestError|TimeoutError)$/.test(x.name)
    )
      return true;
    if (typeof x.code === "string")
      return CONNECTION_CODES.test(x.code) || ["SERVER_ERROR", "NETWORK_ERROR", "TIMEOUT"].includes(x.code);
    return false;
  });
}

/**
 * The one line of a task that ended on an RPC failure ({@link isRpcFailure}): the endpoint's words
 * (shown through {@link chainText}: a node or a proxy chose them), never the request (a viem error
 * dumps it, a relayed claim's signature included); for an answer that is not its view's ABI value, the
 * {@link ViewAnswerError}'s own words, whatever wraps it (the view, its arguments and the member).
 */
export function rpcFailureLine(e: unknown, network: string): string {
  const view = viewAnswerErrorIn(e);
  const words = view !== undefined ? view.message : chainText(errorText(e), MAX_CHAIN_TEXT_CHARS);
  return `The ${network} RPC endpoint failed: ${words}. Check the endpoint and run again.`;
}

/** True when running under the `hardhat` command line (not `hre.run` from a script or test). */
function underHardhatCli(): boolean {
  return /hardhat[\\/]internal[\\/]cli[\\/]/.test(require.main?.filename ?? "");
}

/**
 * Wraps a task action so that a TaskError (a refusal the user can act on) is
 * printed as one `Error: ...` line on stderr with exit code 1 and no stack trace,
 * even where Hardhat would print stack traces by default (CI, Linux without a
 * display). A failure of the RPC endpoint ({@link isRpcFailure}: HH110, a broken connection, a viem RPC
 * error) is one line too ({@link rpcFailureLine}; probe34 C-F4: an HH110 ended a task in a stack trace),
 * unless the user asked for stack traces (`--show-stack-traces`). A task that sends settles its own
 * send's failures first (`simulateAndSend`, deploy/lib/context.ts: sent or not). Other errors (bugs)
 * propagate unchanged. Programmatic callers still get the throw.
 */
export function userAction<A, R>(
  fn: (args: A, hre: import("hardhat/types").HardhatRuntimeEnvironment) => Promise<R>,
): (args: A, hre: import("hardhat/types").HardhatRuntimeEnvironment) => Promise<R | undefined> {
  return async (args, hre) => {
    try {
      return await fn(args, hre);
    } catch (e) {
      if (e instanceof TaskError && underHardhatCli()) {
        console.error(`Error: ${e.message}`);
        process.exitCode = 1;
        return undefined;
      }
      if (isRpcFailure(e) && underHardhatCli() && !stackTracesRequested()) {
        console.error(`Error: ${rpcFailureLine(e, hre.network.name)}`);
        process.exitCode = 1;
        return undefined;
      }
      throw e;
    }
  };
}

/** True when the user asked Hardhat for stack traces (`--show-stack-traces` or `HARDHAT_SHOW_STACK_TRACES`). */
function stackTracesRequested(): boolean {
  const env = process.env.HARDHAT_SHOW_STACK_TRACES;
  return process.argv.includes("--show-stack-traces") || (env !== undefined && env !== "false" && env !== "");
}

/**
 * True for the errors Hardhat raises when the command line itself is wrong:
 * every `ERRORS.ARGUMENTS` error (HH3xx: a value of the wrong type, an unknown or
 * missing parameter, an unknown task) and an unknown `--network` (HH100).
 */
export function isArgumentError(e: unknown): boolean {
  const { HardhatError } =
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: Hardhat internals (CommonJS, no exports map), loaded only when an error is classified
    require("hardhat/internal/core/errors") as typeof import("hardhat/internal/core/errors");
  const { ERRORS } =
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: Hardhat internals (CommonJS, no exports map), loaded only when an error is classified
    require("hardhat/internal/core/errors-list") as typeof import("hardhat/internal/core/errors-list");
  if (!HardhatError.isHardhatError(e)) return false;
  const descriptor = e.errorDescriptor;
  return (
    Object.values(ERRORS.ARGUMENTS).includes(descriptor as never) ||
    descriptor === ERRORS.NETWORK.CONFIG_NOT_FOUND
  );
}

let argumentErrorsInstalled = false;

/**
 * The Hardhat version whose internals {@link endArgumentErrorsWithoutStack} was
 * checked against. Hardhat 2 offers no supported way to print an argument error
 * without its "For more info" line (and, on CI, its stack), so this is a patch of
 * internals, kept behind `deploy/test/hardhat-internals.test.ts`: that test fails,
 * naming what to re-check, as soon as the installed Hardhat is another version or
 * the internals the patch relies on moved.
 */
export const ARGUMENT_ERROR_PATCH_CHECKED_ON = "2.28.6";

/**
 * Makes Hardhat's own command-line errors (see {@link isArgumentError}) end
 * after their one `Error HHnnn: ...` line with exit code 1, as the refusals of
 * the tasks do (see {@link userAction}): Hardhat would add a stack trace on CI and
 * on Linux without a display, where it shows stack traces by default.
 *
 * How: the Hardhat 2 CLI (`hardhat/internal/cli/cli.js`, `main`'s catch) prints
 * the error's message line, then hands the error to `Reporter.reportError`, and
 * only then prints the stack. The reporter is wrapped so that, for an argument
 * error, the process exits with 1 right there. Called while hardhat.config.ts
 * loads, which is before Hardhat parses the task's arguments and picks the network.
 *
 * Does nothing outside the `hardhat` command line (tests, scripts calling
 * `hre.run` keep the throw) or when the user asked for stack traces
 * (`--show-stack-traces`, `HARDHAT_SHOW_STACK_TRACES=true`). Other errors,
 * including Sentry reporting of them when the user consented, are untouched.
 */
export function endArgumentErrorsWithoutStack(): void {
  if (argumentErrorsInstalled || !underHardhatCli()) return;
  argumentErrorsInstalled = true;
  const { Reporter } =
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: Hardhat CLI internal, loaded only under the hardhat command line
    require("hardhat/internal/sentry/reporter") as typeof import("hardhat/internal/sentry/reporter");
  const report = Reporter.reportError.bind(Reporter);
  Reporter.reportError = (error: Error) => {
    if (isArgumentError(error) && !stackTracesRequested()) process.exit(1);
    return report(error);
  };
}

/**
 * A reader that closes standard output early (`npx hardhat bounty:status ... | head -1`: EPIPE) ends the
 * task's output quietly, as SIGPIPE ends a C tool: later writes are dropped and the task finishes with its
 * own exit code (probe26 B-F4: an Awarded bounty's status, printed between chain reads, ended in an
 * unhandled 'error' event with a stack). Any other output error stays what it was. Under the `hardhat`
 * command line only.
 */
export function endOutputQuietlyOnClosedPipe(stream: NodeJS.WriteStream = process.stdout): void {
  if (!underHardhatCli()) return;
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE") throw e;
    // dropped, each write's callback still called (a writer awaiting it goes on)
    stream.write = ((_chunk: unknown, encOrDone?: unknown, done?: unknown) => {
      const callback = typeof encOrDone === "function" ? encOrDone : done;
      if (typeof callback === "function") process.nextTick(callback as () => void);
      return true;
    }) as typeof stream.write;
  });
}
