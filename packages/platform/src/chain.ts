/**
 * Chain access (viem + the ABIs of `@bench-bounty/contracts`): anchoring digests in the AnchorRegistry
 * (SPEC 1.2), reading and locking bounties and sending the `award` transaction (SPEC 1.1).
 *
 * Every write is simulated first (a revert surfaces as `chain_error` naming the contract's custom
 * error), sent, and awaited to a successful receipt. Anchoring is idempotent: a digest that is already
 * anchored (for instance by a previous attempt that crashed before recording it) is looked up with
 * `anchorOf` and its `Anchored` log instead of being sent again (which would revert `AlreadyAnchored`).
 */
import {
  ANCHOR_KINDS,
  anchorKindServes,
  anchorKindName,
  anchorRegistryAbi,
  benchmarkBountyAbi,
  privateKeyProblem,
  testUsdcAbi,
  type BountyRecord,
} from "@bench-bounty/contracts";
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  parseEventLogs,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  WaitForTransactionReceiptTimeoutError,
  decodeErrorResult,
  decodeFunctionData,
  encodeFunctionData,
  isHex,
  RpcRequestError,
  getAddress,
  isAddress,
  HttpRequestError,
  keccak256,
  TimeoutError,
  InvalidParamsRpcError,
  RpcError,
  MethodNotFoundRpcError,
  MethodNotSupportedRpcError,
  NonceTooLowError,
  type Account,
  type Address,
  type Chain,
  type Hash,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
} from "viem";
import { privateKeyToAccount, toAccount, type PrivateKeyAccount } from "viem/accounts";
import { AnswerTimeoutError, AnswerTooLargeError, boundedFetch } from "@bench-bounty/verifier/body";
import { credentialsToHeader } from "@bench-bounty/verifier/url";
import { MAX_RPC_MESSAGE_CHARS, describeRpcRefusal, rpcRefusalOf } from "@bench-bounty/verifier/rpc-refusal";
import { RpcAnswerShapeError, lowerHexRpcFetch } from "@bench-bounty/verifier/rpc-answers";
import { publicOrigin, redactSecretUrl, redactUrlParts } from "./redact.js";
import { PlatformError } from "./errors.js";
import { assertBountyTerms } from "./terms.js";
import { turnQueue, type TurnBound, type Turns } from "./turns.js";

/** The anchor kinds the platform writes (SPEC 1.2). */
export type PlatformAnchorKind = "commitment" | "receipt" | "pack";

/** Where and how the platform reaches the chain. */
export interface ChainConfig {
  /** JSON-RPC URL (the devchain's `rpcUrl`, or a Base RPC). */
  rpcUrl: string;
  /** Chain id (8453 for Base and the local Base profile, 84532 for Base Sepolia). */
  chainId: number;
  /** Deployed contract addresses. */
  contracts: { benchmarkBounty: Address; anchorRegistry: Address; usdc?: Address };
  /**
   * Private key of the platform's account: it anchors digests and, as the bounty's awarder, sends `award`.
   * Without it the chain is read-only ({@link ChainConfig.readAs}).
   */
  privateKey?: Hex;
  /**
   * The platform account's address when no `privateKey` is given: the chain is opened read-only (the CLI's
   * `evidence` without `BENCH_BOUNTY_PRIVATE_KEY`, probe24 C-F4), its state read as that account's (its
   * pending transactions, the bounty's awarder); every write of the platform account is refused, nothing
   * sent. Ignored when `privateKey` is given.
   */
  readAs?: Address;
  /**
   * How long `award` waits for its transaction to be mined before answering that it is pending,
   * milliseconds (default {@link DEFAULT_AWARD_WAIT_MS}).
   */
  awardWaitMs?: number;
  /**
   * How long an anchoring without a caller's deadline (the batcher's flushes, an immediate finalize's or
   * publish's anchor, `anchor <slug>`, the award's re-anchors) waits in the gateway's write turn for its
   * transaction to be mined, milliseconds (default {@link DEFAULT_ANCHOR_WAIT_MS}): see
   * {@link ChainGateway.anchorMany}.
   */
  anchorWaitMs?: number;
  /**
   * Blocks an award transaction's block must have on top of it, itself included, before the award is
   * recorded `confirmed` and its pack (which reveals the test set) minted (default 1: the block it is
   * mined in). On a chain whose recent blocks may be reorganised (an L2's unsafe head) more: a mined award
   * not deep enough yet is answered `award_pending`, and the next `award` or door read records it once deep.
   */
  awardConfirmations?: number;
  /**
   * The operator's log of RPC failures, one line each naming the RPC by its origin (default: stderr,
   * which is `serve`'s log and the CLI's output); what users are served says "the chain RPC" only.
   */
  log?: (line: string) => void;
  /**
   * The bounds of one JSON-RPC request, each default {@link RPC_REQUEST_LIMITS}'s: `timeoutMs` (from the
   * request's start to its answer's last byte) and `maxAnswerBytes` (one answer's bytes).
   */
  rpcLimits?: { timeoutMs?: number; maxAnswerBytes?: number };
}

/** Default of {@link ChainConfig.awardWaitMs}: 180 s (viem's own default wait for a receipt). */
export const DEFAULT_AWARD_WAIT_MS = 180_000;

/**
 * Default of {@link ChainConfig.anchorWaitMs}: 20 s, the longest an anchor transaction of the platform
 * account that the node still holds (pending: on a real chain underpriced or stuck in a fee spike) keeps
 * the gateway's one write turn, which relayed claims, the award and every other anchor share (probe34
 * A-F1: viem's 180 s wait held them all). A normal anchor is mined well within it (Base: 2 s blocks).
 */
export const DEFAULT_ANCHOR_WAIT_MS = 20_000;

/**
 * Consecutive looks ({@link STOP_CHECK_MS} apart) at which an awaited anchor transaction must be unknown
 * to the node before it is taken as dropped ({@link ChainGateway.waitWithin} `letGoDropped`): one miss may
 * be a load-balanced RPC's node that has not seen it yet.
 */
export const DROPPED_AFTER_LOOKS = 2;

/** Where a sent transaction is after a bounded wait ({@link ChainGateway.waitWithin}). */
export type WaitOutcome =
  | { state: "mined"; block: number }
  | { state: "reverted" }
  | { state: "pending" }
  | { state: "unknown" };

/**
 * How an anchoring waits for a transaction ({@link ChainGateway.anchorMany}): its own, or one of the
 * platform account's anchoring the same digests found waiting in the node's pool (sent by a process
 * killed while it waited) or let go by an earlier call of this gateway still pending. Without it the wait
 * ends {@link ChainConfig.anchorWaitMs} after the call's turn began. A transaction the node no longer
 * knows is let go as soon as that is seen ({@link DROPPED_AFTER_LOOKS}), not at `until`.
 */
export interface AnchorWait {
  /**
   * The latest moment (unix ms, wall clock) the anchoring waits for a transaction to be mined: the
   * caller's deadline (an award's `awardWaitMs` budget left, the evidence door's `DOOR_WAIT_MS`). A
   * transaction not mined by then is {@link AnchorNotMined}, never a failure of the RPC.
   */
  until: number;
  /** Once aborted (the process is stopping), the wait ends within {@link STOP_CHECK_MS}, as at `until`. */
  stop?: AbortSignal;
  /**
   * Told as the wait for a transaction begins: its hash, whether it was found sent before (in the
   * node's pool: adopted, never sent twice) and the moment (unix ms) the wait ends (`until`).
   */
  onWaiting?: (txHash: Hash, adopted: boolean, until: number) => void;
}

/**
 * An anchor transaction not mined by its caller's deadline ({@link AnchorWait.until}): still `pending`
 * in the node's pool (an underpriced or stuck transaction on a real chain), or (`unknown`) no longer
 * known to the node (dropped before it was mined). Not a failure of the RPC (probe33 C-F1): the domain
 * answers it as what it is; the next call adopts a pending one (or sends a dropped one anew).
 */
export class AnchorNotMined extends Error {
  constructor(
    /** The anchor transaction's hash. */
    readonly txHash: Hash,
    /** `pending` (the node holds it, not mined) or `unknown` (dropped). */
    readonly state: "pending" | "unknown",
    /** True when it was found sent before (in the node's pool), false when this call sent it. */
    readonly adopted: boolean,
  ) {
    super(
      state === "pending"
        ? `the anchor transaction ${txHash} is not mined yet (pending in the node's pool)`
        : `the anchor transaction ${txHash} is no longer known to the node (dropped before it was mined)`,
    );
    this.name = "AnchorNotMined";
  }
}

/** Evidence of an anchoring (SPEC 8 `commitment_anchor` / `pack_anchor`). */
export interface AnchorEvidence {
  registry_address: string;
  tx_hash: string;
  anchor_block: number;
}

/**
 * A digest someone else anchored first with another kind (probe14 D3-F8): SPEC 1.2 keeps the first
 * anchoring forever, so it can never carry the kind the verifier checks (SPEC 9 receipt and
 * commitment anchors).
 */
export interface AnchorSquat {
  /** The kind found on-chain (bytes32, lowercase hex). */
  kind: Hex;
  /** Its name when it is one of SPEC 1.2's kinds, else null. */
  kind_name: string | null;
  /** Who anchored it (lowercase). */
  anchorer: Address;
  anchor_block: number;
}

/**
 * A receipt's evidence taken from someone else's first anchoring of its digest with another kind
 * (`anchorKindServes` of `@bench-bounty/contracts`): `adopted_from` names that anchoring (the kind found, who, the block) for the
 * operator's log.
 */
export interface AdoptedAnchor extends AnchorEvidence {
  adopted_from: AnchorSquat;
}

/**
 * What anchoring one digest gave: its evidence (for a receipt possibly {@link AdoptedAnchor}), or the
 * squat that keeps it from being anchored.
 */
export type AnchorOutcome = AnchorEvidence | AdoptedAnchor | { squatted: AnchorSquat };

/** A squat as served (answers, refusals): the kind found (its SPEC 1.2 name, else the bytes32), who, when. */
export interface SquatFacts {
  found_kind: string;
  anchorer: Address;
  anchor_block: number;
}

/** The {@link SquatFacts} of a squat. */
export function squatFacts(squat: AnchorSquat): SquatFacts {
  return {
    found_kind: squat.kind_name ?? squat.kind,
    anchorer: squat.anchorer,
    anchor_block: squat.anchor_block,
  };
}

/**
 * The `anchor_squatted` refusal of a digest (details: digest, wanted kind, the {@link SquatFacts}, and
 * `extra`).
 */
export function squattedError(
  digest: string,
  kind: PlatformAnchorKind,
  squat: AnchorSquat,
  extra: Record<string, unknown> = {},
): PlatformError {
  return new PlatformError(
    "anchor_squatted",
    `${digest} was anchored first by ${squat.anchorer} in block ${squat.anchor_block} with kind ${squat.kind_name ?? squat.kind}, not ${kind}: the registry keeps the first anchoring, so it can never be anchored as a ${kind}`,
    { digest, kind, ...squatFacts(squat), ...extra },
  );
}

/**
 * A bounty as read from `getBounty` (SPEC 1.1), with its id: the contract's record
 * ({@link BountyRecord}: amounts in base units, times in unix seconds, bps, status
 * 0 None, 1 Pending, 2 Funded, 3 Awarded, 4 Reclaimed).
 */
export interface OnChainBounty extends BountyRecord {
  bountyId: bigint;
}

/** Parameters of {@link ChainGateway.lockBounty} (the author's `createAndFund`). */
export interface LockBountyParams {
  /** The author's private key (pays the pool). */
  authorPrivateKey: Hex;
  /** Token address (default: the configured USDC). */
  token?: Address;
  /** Address allowed to award (default: the platform account). */
  awarder?: Address;
  /** Pool in base units. */
  pool: bigint;
  testSetRoot: Hex;
  leafCount: number;
  /** Unix seconds. */
  closesAt: bigint;
  /** Unix seconds, > closesAt. */
  awardDeadline: bigint;
  thresholdBps: number;
  splitsBps: number[];
}

/** Status names of the on-chain status ladder. */
export const BOUNTY_STATUS_NAMES = ["none", "pending", "funded", "awarded", "reclaimed"] as const;

const lower = (a: string): string => a.toLowerCase();

/**
 * The RPC URL without its userinfo, and the userinfo as an `Authorization: Basic` header: fetch (viem's
 * `http` transport) refuses a URL that carries credentials. The verifier's rule, used as it is
 * (`credentialsToHeader`: the same for the verifier's RPC and the indexer's transport). A URL without
 * userinfo is returned as it is.
 */
export const rpcTransportUrl: (rpcUrl: string) => { url: string; headers: Record<string, string> } =
  credentialsToHeader;

/**
 * The bounds of one JSON-RPC request of the platform's chain clients (every chain read and send:
 * serve, lock, attach, award, evidence, the relay, the door's reads):
 * - `timeoutMs`: from the request's start to the **last byte of its answer**, headers and body together
 *   (probe27 B-F5: viem's own `timeout` stops at the headers, and an RPC that sent its headers and then
 *   dripped the body hung `attach` for ever);
 * - `maxAnswerBytes`: the most bytes of one answer, 64 MiB, the verifier's `DEFAULT_MAX_RPC_ANSWER_BYTES`
 *   (a longer answer is cut off at the limit, never read whole nor decoded: a 400 MiB answer was read
 *   into 1.7 GB of memory and misread as "bounty 1 does not exist");
 * - `retryCount`: a failed request is retried once (probe16 A-F3: viem's default, 3 retries of 10 s
 *   with backoff, kept a door request 41 s on a slow RPC).
 *
 * So every chain read ends within about 2 x 10 s, whatever the RPC sends. Past a bound the read is
 * `chain_error` naming it ({@link ChainGateway.read}). The calls that answer a request bound
 * themselves further (the award's deadline, the door's `DOOR_WAIT_MS`); this bounds the work they
 * leave running.
 */
export const RPC_REQUEST_LIMITS = {
  timeoutMs: 10_000,
  maxAnswerBytes: 64 * 1024 * 1024,
  retryCount: 1,
} as const;

/**
 * A decoded contract revert: `name` the custom error's name (`"Error"` for Solidity's `Error(string)`,
 * `"Panic"` for a panic, `"unknown"` when the data could not be decoded), `reason` the `Error(string)`
 * text (a token's own refusal bubbled up through SafeERC20, e.g. USDC's "Blacklistable: account is
 * blacklisted"), `args` the error's arguments as strings.
 */
export interface DecodedRevert {
  name: string;
  reason?: string;
  args: string[];
}

/**
 * The revert inside viem error `e` (a `ContractFunctionRevertedError` anywhere in its cause chain),
 * or `undefined` when `e` is not a revert (an RPC failure). The one decoding of reverts of the
 * platform and the server (probe27 C-F7: `Error(string)` was named "Error", its reason left in `args`).
 */
export function revertOf(e: unknown): DecodedRevert | undefined {
  if (!(e instanceof BaseError)) return undefined;
  const revert = e.walk((x) => x instanceof ContractFunctionRevertedError);
  if (!(revert instanceof ContractFunctionRevertedError)) return undefined;
  const name = revert.data?.errorName ?? (revert.reason === undefined ? "unknown" : "Error");
  const args = (revert.data?.args ?? []).map(String);
  const reason = name === "Error" ? (revert.reason ?? args[0]) : undefined;
  return reason === undefined ? { name, args } : { name, reason, args };
}

/**
 * The revert inside the RPC's refusal of a gas estimate `e` (viem leaves it undecoded: the estimate is not a
 * contract call), decoded against `abi`, the called contract's: the revert data the node sent with its
 * JSON-RPC error (`error.data`, a hex string, or Hardhat's `error.data.data`). `undefined` when the error
 * carries no such data, or data no error of `abi` (nor `Error(string)`, `Panic`) decodes: then it is not
 * known to be the contract's refusal, and stays the RPC's failure (probe37 C-N1: a wallet's ERC-1271
 * refusal shown only at the estimate was "the RPC refused the call").
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any contract's ABI, as in ChainGateway.write
function estimateRevertOf(e: unknown, abi: any): DecodedRevert | undefined {
  if (!(e instanceof BaseError)) return undefined;
  const answer = e.walk((x) => x instanceof RpcRequestError);
  if (!(answer instanceof RpcRequestError)) return undefined;
  const error: unknown = answer.cause;
  const raw = typeof error === "object" && error !== null ? (error as { data?: unknown }).data : undefined;
  const data = typeof raw === "object" && raw !== null ? (raw as { data?: unknown }).data : raw;
  if (typeof data !== "string" || !isHex(data) || data.length < 10) return undefined;
  let decoded;
  try {
    decoded = decodeErrorResult({ abi, data });
  } catch {
    return undefined; // data of no error the contract declares: not known to be its refusal
  }
  const args = ((decoded.args ?? []) as unknown[]).map(String);
  return decoded.errorName === "Error"
    ? { name: "Error", reason: args[0], args }
    : { name: decoded.errorName, args };
}

/**
 * PlatformError `chain_error` "`what` reverted: <the custom error's name, or the `Error(string)`
 * reason>", `details.revert` the error's name, `details.reason` the reason (when `Error(string)`),
 * `details.args`.
 */
export function revertError(what: string, r: DecodedRevert): PlatformError {
  return new PlatformError("chain_error", `${what} reverted: ${r.reason ?? r.name}`, {
    revert: r.name,
    ...(r.reason === undefined ? {} : { reason: r.reason }),
    args: r.args,
  });
}

/** `text` with the RPC's host (`host:port`, or the bare host name) replaced by "the chain RPC". */
function withoutHost(text: string, rpcUrl: string): string {
  let u: URL;
  try {
    u = new URL(rpcUrl);
  } catch (e) {
    if (e instanceof TypeError) return text;
    throw e;
  }
  return [u.host, u.hostname]
    .filter((h) => h !== "")
    .reduce((out, h) => out.split(h).join("the chain RPC"), text);
}

/**
 * The one viem transport of the platform's chain clients ({@link rpcTransportUrl}, {@link RPC_REQUEST_LIMITS}):
 * each request's answer is read through the verifier's `boundedFetch` (`@bench-bounty/verifier/body`),
 * which ends it at the timeout, headers and body together, and at the size limit, and with the hex of its
 * results in lower case (`lowerHexRpcFetch`, `@bench-bounty/verifier/rpc-answers`; probe37 B-F1: viem
 * matches a log's topic 0 by string, so an RPC writing it in upper case hid the platform's own logs), an
 * `eth_call` result that is not hex data refused as the RPC's failure (probe38 B-F1: odd hex was read as a
 * value no contract returned).
 */
function rpcTransport(config: Pick<ChainConfig, "rpcUrl" | "rpcLimits">): ReturnType<typeof http> {
  const { url, headers } = rpcTransportUrl(config.rpcUrl);
  const timeoutMs = config.rpcLimits?.timeoutMs ?? RPC_REQUEST_LIMITS.timeoutMs;
  return http(url, {
    fetchOptions: { headers },
    timeout: timeoutMs,
    retryCount: RPC_REQUEST_LIMITS.retryCount,
    fetchFn: lowerHexRpcFetch(
      boundedFetch({
        what: "RPC answer",
        timeoutMs,
        maxBytes: config.rpcLimits?.maxAnswerBytes ?? RPC_REQUEST_LIMITS.maxAnswerBytes,
      }),
    ),
  });
}

/**
 * The account of a private key, checked with the contracts' rule first (`privateKeyProblem`): viem's own
 * error for a key outside 1..n-1 prints the key in decimal (probe15 B-F7).
 * @throws PlatformError `invalid_option` naming `field`, never the value
 */
/**
 * The platform account of a read-only chain ({@link ChainConfig.readAs}): its address, and signing that
 * refuses (the gateway refuses its writes before they sign: {@link ChainGateway.write}).
 * @throws PlatformError `invalid_option` (field `privateKey`) when there is no address either
 */
function readOnlyAccount(address: Address | undefined): Account {
  if (address === undefined || !isAddress(address, { strict: false }))
    throw new PlatformError(
      "invalid_option",
      "the chain needs the platform account's privateKey, or its address (readAs) to be read only",
      { field: "privateKey" },
    );
  const refuse = (): never => {
    throw readOnlyRefusal("sign", getAddress(address));
  };
  return toAccount({
    address: getAddress(address),
    signMessage: refuse,
    signTransaction: refuse,
    signTypedData: refuse,
  });
}

/** `chain_error` (`details.read_only`): `what` needs the platform account's key; nothing was sent. */
function readOnlyRefusal(what: string, address: string): PlatformError {
  return new PlatformError(
    "chain_error",
    `${what} needs the platform account's signing key: the chain was opened read-only (as ${address.toLowerCase()}), so nothing was sent`,
    { read_only: true, address: address.toLowerCase() },
  );
}

/**
 * The account of a private key given as option `field`.
 * @throws PlatformError `invalid_option` (`details.field`) for a value that is not a private key (never printed)
 */
export function signerAccount(key: Hex, field: string): PrivateKeyAccount {
  const problem = privateKeyProblem(key);
  if (problem !== null)
    throw new PlatformError(
      "invalid_option",
      `${field} is not a private key: ${problem} (the value is not printed)`,
      {
        field,
      },
    );
  return privateKeyToAccount(key);
}

/** The digests an `AnchorRegistry` call anchors (`anchor`, `anchorMany`), lowercase; none for other input. */
function anchoredDigests(input: Hex): string[] {
  try {
    const call = decodeFunctionData({ abi: anchorRegistryAbi, data: input });
    if (call.functionName === "anchor") return [lower(call.args[0])];
    if (call.functionName === "anchorMany") return call.args[0].map(lower);
  } catch {
    // not a registry call this gateway makes: it anchors nothing
  }
  return [];
}

/**
 * The fewest hex digits of a withheld digest (or of a transaction anchoring one) a served text may carry
 * in a row (probe40 V-F1: a digest cut at {@link MAX_RPC_MESSAGE_CHARS} to 62 of its 64 digits left a
 * stranger 256 candidates to anchor in one transaction).
 */
export const WITHHELD_FRAGMENT_DIGITS = 8;

/**
 * What an anchoring withholds from every text it may serve (probe39 A-F1, probe40 V-F1, V-F5): its
 * digests, said as "the <kind> digest", and the hashes of the transactions that anchor them (whose
 * input, read by hash while pending, is a digest), said as "[withheld: an anchor transaction]" (a
 * reverted one's or a `may_be_sent` one's hash). Lowercase, without
 * `0x`.
 */
interface Withheld {
  kind: PlatformAnchorKind;
  digests: readonly string[];
  txs: Set<string>;
}

/**
 * `text` with every run of {@link WITHHELD_FRAGMENT_DIGITS} or more hex digits (any case, with or without
 * `0x`, whole or cut by a length bound or a line break) that is part of a digest or an anchor
 * transaction hash of `withheld` said as what it is ("the <kind> digest", "[withheld: an anchor
 * transaction]"): a
 * prefix or a suffix of a digest leaks as much as the digest once few digits are missing (probe40 V-F1).
 * Runs of hex next to each other are said once.
 */
export function withoutWithheldHex(text: string, withheld: Withheld): string {
  const n = WITHHELD_FRAGMENT_DIGITS;
  const windows = new Map<string, string>();
  const add = (hex: string, as: string): void => {
    for (let i = 0; i + n <= hex.length; i++)
      if (!windows.has(hex.slice(i, i + n))) windows.set(hex.slice(i, i + n), as);
  };
  for (const d of withheld.digests) add(d, `the ${withheld.kind} digest`);
  for (const t of withheld.txs) add(t, "[withheld: an anchor transaction]");
  if (windows.size === 0) return text;
  // the same length as `text`, index for index (toLowerCase may lengthen other characters)
  const low = text.replace(/[A-F]/g, (c) => c.toLowerCase());
  const label: (string | undefined)[] = new Array<string | undefined>(text.length);
  for (let i = 0; i + n <= low.length; i++) {
    const as = windows.get(low.slice(i, i + n));
    if (as !== undefined) for (let j = i; j < i + n; j++) label[j] ??= as;
  }
  let out = "";
  for (let i = 0; i < text.length; ) {
    const as = label[i];
    if (as === undefined) {
      out += text[i];
      i++;
      continue;
    }
    if (/0x$/i.test(out)) out = out.slice(0, -2);
    out += as;
    while (i < text.length && label[i] !== undefined) i++;
  }
  return out;
}

/**
 * A failure `e` of an anchoring with no word of what it withholds ({@link Withheld}; probe39 A-F1,
 * probe40 V-F1, V-F5): its text is served while its digests are pending (a publish's
 * `commitment_anchor_error`, a finalize's `receipt_anchor_error`, the CLI's warnings, `anchor`'s refusal),
 * and a digest not anchored yet is withheld (reveal.ts: whoever saw it, or the transaction carrying it,
 * could anchor it first with another kind). The message and the string values of `details` are said
 * through {@link withoutWithheldHex}; a `details.tx_hash` of a withheld transaction (a send that
 * `may_be_sent`) is left out. A PlatformError is rebuilt with the same code; any other error is returned
 * as it is ({@link AnchorNotMined}: its caller serves it without its hash, `anchor-batch.ts`).
 */
function withoutWithheld(e: unknown, withheld: Withheld): unknown {
  if (!(e instanceof PlatformError)) return e;
  const clean = (v: unknown): unknown =>
    typeof v === "string"
      ? withoutWithheldHex(v, withheld)
      : Array.isArray(v)
        ? v.map(clean)
        : v !== null && typeof v === "object"
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clean(x)]))
          : v;
  const message = withoutWithheldHex(e.message, withheld);
  const kept = Object.entries(e.details).filter(
    ([k, v]) =>
      !(k === "tx_hash" && typeof v === "string" && withheld.txs.has(lower(v as Hex).replace(/^0x/, ""))),
  );
  const details = clean(Object.fromEntries(kept)) as Record<string, unknown>;
  if (message === e.message && JSON.stringify(details) === JSON.stringify(e.details)) return e;
  return new PlatformError(e.code, message, details);
}

/** A lock around one send of the platform key ({@link ChainGateway.sendThrough}): runs `fn` holding it. */
export type SendLock = <T>(fn: () => Promise<T>) => Promise<T>;

/** A node's refusal of a transaction's nonce: below the account's ("nonce too low"), or its own hash already held. */
type NonceRefusal = "nonce_too_low" | "already_known";

/**
 * The node's refusal of a sent transaction's nonce in error `e` (viem's `NonceTooLowError`, or the
 * node's words in any of its causes: Hardhat's "Nonce too low. Expected nonce to be 122 but got 121."
 * under the RPC's `InvalidParams`, geth's "nonce too low: next nonce 5, tx nonce 4", "already known"),
 * or null.
 */
function nonceRefusal(e: unknown): NonceRefusal | null {
  if (!(e instanceof BaseError)) return null;
  let text = "";
  e.walk((x) => {
    const o = x as { message?: unknown; details?: unknown };
    text += ` ${typeof o.message === "string" ? o.message : ""} ${typeof o.details === "string" ? o.details : ""}`;
    return false;
  });
  if (/nonce too low/i.test(text) || e.walk((x) => x instanceof NonceTooLowError) !== null)
    return "nonce_too_low";
  return /already known|transaction already imported/i.test(text) ? "already_known" : null;
}

/**
 * Whether a send's failure `e` is the node's definite refusal of the transaction itself, nothing sent: a
 * revert, or the node's words for a transaction it will not take (insufficient funds, intrinsic gas, a gas
 * limit over the block's, a fee under the base fee or a replacement underpriced, a nonce too high, an
 * unsupported type, an invalid sender). Anything else (a gateway's -32000 "connection reset", -32603) may
 * have come after the transaction left, and is looked up by its hash first (`sendFailed`, probe39 B-F4).
 */
function definiteRefusal(e: unknown): boolean {
  if (!(e instanceof BaseError)) return false;
  if (revertOf(e)) return true;
  let text = "";
  e.walk((x) => {
    const o = x as { message?: unknown; details?: unknown };
    text += ` ${typeof o.message === "string" ? o.message : ""} ${typeof o.details === "string" ? o.details : ""}`;
    return false;
  });
  return /insufficient funds|intrinsic gas|exceeds block gas limit|execution reverted|underpriced|fee cap|max fee per gas less than|base fee|nonce too high|transaction type not supported|invalid sender|invalid signature/i.test(
    text,
  );
}

/**
 * `e` (a send's failure) as `chain_error` with `details.tx_hash` and `details.may_be_sent`: the
 * transaction, signed here, may be on its way (`why`); the caller looks for it instead of giving up
 * (probe16 B-F12).
 */
function maybeSent(e: PlatformError, hash: Hash, why: string): PlatformError {
  return new PlatformError(
    "chain_error",
    `${e.message}: transaction ${hash} may have been sent (it was signed here; ${why})`,
    { ...e.details, tx_hash: hash, may_be_sent: true },
  );
}

/**
 * Runs a gateway send (`send`, one of {@link ChainGateway}'s writes) and takes a lost answer as sent: when
 * the send fails with `details.may_be_sent` (the RPC failed after the signed transaction left, probe16
 * B-F12), the transaction may be on its way, and its hash (signed here, `details.tx_hash`) is returned as
 * if the send had answered, so that the caller waits for it and never takes it for a refusal. The one
 * statement of that rule: the award (`sendAward`) and the relayed claims (`sendClaimWithSig`, probe34 C-F5:
 * a relay took its own lost send for a refusal and answered `no_credit`) both send through it.
 * @returns the transaction's hash: the node's answer, or the signed one when that answer was lost
 * @throws what `send` throws otherwise (a revert in the simulation, a refusal, no gas: nothing was sent)
 */
export async function sendOrLose(send: () => Promise<Hash>): Promise<Hash> {
  try {
    return await send();
  } catch (e) {
    if (e instanceof PlatformError && e.details.may_be_sent === true && typeof e.details.tx_hash === "string")
      return e.details.tx_hash as Hash;
    throw e;
  }
}

/** Whether two transaction hashes are the same (hex in any case). */
function sameHash(a: Hash, b: Hash): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** Chain access for the platform. Construct with {@link ChainGateway.connect}. */
export class ChainGateway {
  /**
   * Serialises this gateway's writes, the relayed claims' sends included (one nonce sequence per
   * account, no lookup/send races).
   */
  private readonly turns: Turns = turnQueue();

  private constructor(
    readonly config: ChainConfig,
    readonly publicClient: PublicClient<Transport, Chain>,
    readonly wallet: WalletClient<Transport, Chain, Account>,
    readonly chain: Chain,
  ) {}

  /** Builds the viem clients for a configuration (no network call). */
  static connect(config: ChainConfig): ChainGateway {
    const chain = defineChain({
      id: config.chainId,
      name: `chain-${config.chainId}`,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [rpcTransportUrl(config.rpcUrl).url] } },
    });
    const transport = rpcTransport(config);
    const publicClient = createPublicClient({ chain, transport }) as PublicClient<Transport, Chain>;
    const wallet = createWalletClient({
      account:
        config.privateKey !== undefined
          ? signerAccount(config.privateKey, "privateKey")
          : readOnlyAccount(config.readAs),
      chain,
      transport,
    });
    return new ChainGateway(config, publicClient, wallet, chain);
  }

  /** True when the chain was opened without the platform account's key ({@link ChainConfig.readAs}). */
  get readOnly(): boolean {
    return this.config.privateKey === undefined;
  }

  /** The platform account's address (lowercase). */
  get address(): string {
    return lower(this.wallet.account.address);
  }

  /**
   * The runtime code at `address` (`0x` for an account without code), at the latest block.
   * @throws PlatformError `chain_error` when the RPC fails
   */
  async codeAt(address: Address): Promise<Hex> {
    const code = await this.call("read an address's code", () => this.publicClient.getCode({ address }));
    return code ?? "0x";
  }

  /** Number of the latest block. @throws PlatformError `chain_error` when the RPC fails */
  async latestBlockNumber(): Promise<number> {
    // uncached: viem keeps a block number for its polling interval (4 s), a depth read must see now
    return Number(
      await this.call("read the latest block number", () =>
        this.publicClient.getBlockNumber({ cacheTime: 0 }),
      ),
    );
  }

  /**
   * Hash of the chain's genesis block (block 0, lowercase hex): with the chain id, what tells one chain
   * from another (a fresh devchain has chain id 8453, Base's, and a genesis of its own; store28 R-F1).
   * One read, bounded as every other ({@link RPC_REQUEST_LIMITS}).
   * @throws PlatformError `chain_error` when the RPC fails
   */
  async genesisHash(): Promise<Hex> {
    const block = await this.call("read the genesis block", () =>
      this.publicClient.getBlock({ blockNumber: 0n }),
    );
    return lower(block.hash) as Hex;
  }

  /** Timestamp (unix seconds) of the latest block. */
  async latestTimestamp(): Promise<bigint> {
    const block = await this.call("read the latest block", () => this.publicClient.getBlock());
    return block.timestamp;
  }

  /**
   * Timestamp (unix seconds) of the pending block: the earliest block a transaction sent now can be mined
   * in (later blocks are not earlier), the time the contract judges it by. A node that builds no pending
   * block answers `pending` with the latest one (probe39 V-F3: on an idle chain that is long past, and a
   * run started after the close was taken, ranked and paid): a "pending" block whose number is not after
   * the latest's is no next block, so the next block's time is taken as at least the latest's plus one and
   * at least this process's clock (such nodes serve live chains, whose blocks follow the wall clock).
   */
  async pendingTimestamp(): Promise<bigint> {
    const [pending, latest] = await this.call("read the pending block", () =>
      Promise.all([this.publicClient.getBlock({ blockTag: "pending" }), this.publicClient.getBlock()]),
    );
    if (pending.number !== null && pending.number > latest.number) return pending.timestamp;
    const wall = BigInt(Math.floor(Date.now() / 1000));
    const floor = latest.timestamp + 1n;
    return [pending.timestamp, floor, wall].reduce((a, b) => (b > a ? b : a));
  }

  /**
   * Anchors one digest with `AnchorRegistry.anchor(digest, kind)`, or returns the evidence of its
   * existing anchoring with that kind (for a receipt, with any kind: `anchorKindServes` of `@bench-bounty/contracts`).
   * @param wait how long it waits for its transaction ({@link AnchorWait}; default viem's 180 s)
   * @throws PlatformError `anchor_squatted` (details: digest, the kind found, the anchorer, the block)
   *   when someone else anchored it first with another kind (never for a receipt); `chain_error` when the transaction reverts
   *   or the RPC fails; {@link AnchorNotMined} when its transaction is not mined by `wait.until`
   */
  async anchor(digest: Hex, kind: PlatformAnchorKind, wait?: AnchorWait): Promise<AnchorEvidence> {
    const [outcome] = await this.anchorMany([digest], kind, wait);
    if ("squatted" in outcome!) throw squattedError(digest, kind, outcome.squatted);
    return outcome!;
  }

  /**
   * Anchors several digests of one kind with one transaction (`anchor` for one, `anchorMany` for more).
   * A digest already anchored with this kind is looked up instead of being sent again (a retry after a
   * crash, or a stranger anchoring the same digest: the registry keeps the first anchoring and its
   * kind, SPEC 1.2); one anchored with another kind cannot be anchored again and is returned as
   * `{ squatted }` (probe14 D3-F8), never adopted, except a receipt, whose evidence is that first
   * anchoring (`anchorKindServes` of `@bench-bounty/contracts`, {@link AdoptedAnchor}: probe35 C-F2). Every wait for a transaction (this account's pending
   * anchoring of the digests, then its own send) ends by `wait.until` and is told to `wait.onWaiting`;
   * without `wait`, {@link ChainConfig.anchorWaitMs} (default {@link DEFAULT_ANCHOR_WAIT_MS}) after this
   * call's turn began. The wait is inside the gateway's one write turn, so it is what bounds how long one
   * anchoring keeps relayed claims, the award and other anchors waiting (probe34 A-F1: viem's 180 s for
   * a transaction the node had dropped held them all): a transaction seen dropped is let go at once
   * ({@link AnchorNotMined} `unknown`: its digests are sent anew, with a fresh nonce, by the next call);
   * one still pending at the bound is let go too ({@link AnchorNotMined} `pending`) and remembered, so
   * the next call for those digests adopts it (waits for it again) instead of sending them twice or
   * replacing it, as it adopts one found in the node's pool.
   * @returns the evidence, or the squat, per digest, in input order
   * @throws PlatformError `chain_error`, whose message and details name none of `digests`, no run of 8 of
   *   their hex digits, and no transaction anchoring them (served while they are pending and withheld,
   *   reveal.ts: `withoutWithheld`, probe39 A-F1, probe40 V-F1, V-F5); {@link AnchorNotMined}
   *   when a transaction waited for is not mined by `wait.until` (or `wait.stop`), or is dropped
   */
  anchorMany(digests: Hex[], kind: PlatformAnchorKind, wait?: AnchorWait): Promise<AnchorOutcome[]> {
    const withheld: Withheld = {
      kind,
      digests: [...new Set(digests.map((d) => lower(d).replace(/^0x/, "")))],
      txs: new Set(),
    };
    return this.exclusive(async () => {
      // every failure in this turn (an RPC's refusal before its length bound) says none of them
      this.withheld = withheld;
      try {
        return await this.anchorManyNow(
          digests,
          kind,
          wait ?? { until: Date.now() + (this.config.anchorWaitMs ?? DEFAULT_ANCHOR_WAIT_MS) },
        );
      } finally {
        this.withheld = null;
      }
    }).catch((e: unknown) => Promise.reject(withoutWithheld(e, withheld)));
  }

  /**
   * What the anchoring in this gateway's write turn withholds ({@link anchorMany}): {@link failure} says
   * an RPC's refusal without it before the refusal's length bound (probe40 V-F1); each transaction sent
   * or waited for in the turn is added.
   */
  private withheld: Withheld | null = null;

  /**
   * The platform account's anchor transactions an anchoring of this gateway let go while the node still
   * held them (pending at its bound), by digest (lowercase): the next anchoring of a digest adopts its
   * transaction ({@link awaitOwnPendingAnchors}), so it is never sent twice while that one may be mined,
   * even on a node whose pending block does not show its pool.
   */
  private readonly letGo = new Map<string, Hash>();

  private async anchorManyNow(
    digests: Hex[],
    kind: PlatformAnchorKind,
    wait: AnchorWait,
  ): Promise<AnchorOutcome[]> {
    const out = new Map<string, AnchorOutcome>();
    const lookUp = (ds: Hex[]): Promise<Hex[]> => this.lookUpAnchors(ds, kind, out);
    let todo = await lookUp([...new Set(digests.map(lower))] as Hex[]);
    // this account's own anchoring of them may wait in the pool (sent by a process killed while it waited,
    // or by another process on the store): waited for, then looked up again, never sent twice (probe29
    // C-F1: the send's simulation reverted AlreadyAnchored in the pending block, an undecoded "internal
    // error", and the door said the pack "could not be minted")
    if (todo.length > 0 && (await this.awaitOwnPendingAnchors(todo, wait))) todo = await lookUp(todo);
    // a send that reverted because some of its digests were anchored meanwhile (another process on the
    // store, or a stranger who front-ran it from the pool: probe35 C-N1, the rest was left "reverted") is
    // sent again for the rest, at most ANCHOR_SEND_TRIES times
    for (let tries = 1; todo.length > 0; tries++) {
      try {
        await this.sendAnchors(todo, kind, wait, out);
        todo = [];
      } catch (e) {
        todo = await this.anchoredMeanwhile(e, todo, kind, out, wait);
        if (todo.length > 0 && tries >= ANCHOR_SEND_TRIES) throw e;
      }
    }
    return digests.map((d) => out.get(lower(d))!);
  }

  /**
   * Sends one transaction anchoring `todo` (`anchor` for one digest, `anchorMany` for more) and waits
   * for it ({@link anchorMinedBy}); records each digest's evidence in `out` once mined.
   * @throws {@link AnchorNotMined} (a pending one is remembered in {@link letGo}); PlatformError
   *   `chain_error` (the send failed, or its transaction reverted)
   */
  private async sendAnchors(
    todo: Hex[],
    kind: PlatformAnchorKind,
    wait: AnchorWait,
    out: Map<string, AnchorOutcome>,
  ): Promise<void> {
    const hash =
      todo.length === 1
        ? // the label names the kind, never the digest: it is the served error's text while the
          // digest is withheld (probe39 A-F1)
          await this.write(`anchor ${kind}`, {
            address: this.config.contracts.anchorRegistry,
            abi: anchorRegistryAbi,
            functionName: "anchor",
            args: [todo[0]!, ANCHOR_KINDS[kind]],
          })
        : await this.write(`anchorMany ${kind} (${todo.length})`, {
            address: this.config.contracts.anchorRegistry,
            abi: anchorRegistryAbi,
            functionName: "anchorMany",
            args: [todo, ANCHOR_KINDS[kind]],
          });
    const what = todo.length === 1 ? `anchor ${kind}` : `anchorMany ${kind}`;
    let block: number;
    try {
      block = await this.anchorMinedBy(hash, what, false, wait);
    } catch (e) {
      // still held by the node at the bound: remembered, adopted by the next call for these digests
      if (e instanceof AnchorNotMined && e.state === "pending") for (const d of todo) this.letGo.set(d, hash);
      throw e;
    }
    for (const d of todo)
      out.set(d, {
        registry_address: lower(this.config.contracts.anchorRegistry),
        tx_hash: hash,
        anchor_block: block,
      });
  }

  /**
   * Waits for the platform account's transactions that anchor any of `digests` (`anchor` or
   * `anchorMany` calls to the registry), mined or reverted: those in the node's pool, and those this
   * gateway let go pending ({@link letGo}). Only read when the account has unmined transactions (when it
   * has none, every one let go is mined or dropped, and forgotten); a node without a pending block shows
   * none of its pool. Each is waited for until `wait.until` ({@link anchorMinedBy}): one dropped
   * meanwhile is let go (the digests are looked up again, then sent anew).
   * @returns whether any was waited for (the digests are then to be looked up again)
   * @throws PlatformError `chain_error` when the RPC fails; {@link AnchorNotMined} when one is still
   *   pending at `wait.until`
   */
  private async awaitOwnPendingAnchors(digests: Hex[], wait: AnchorWait): Promise<boolean> {
    if ((await this.unminedCount()) === 0) {
      this.letGo.clear();
      return false;
    }
    const pool = await this.pendingTransactionsTo(this.config.contracts.anchorRegistry);
    const wanted = new Set(digests.map(lower));
    const hashes = new Set(
      (pool ?? []).filter((t) => anchoredDigests(t.input).some((d) => wanted.has(d))).map((t) => t.hash),
    );
    for (const d of wanted) {
      const h = this.letGo.get(d);
      if (h !== undefined) hashes.add(h);
    }
    const what = "this account's pending anchor";
    for (const hash of hashes) {
      await this.anchorMinedBy(hash, what, true, wait);
      // mined, reverted or dropped: no longer one that may be mined
      for (const [d, h] of this.letGo) if (h === hash) this.letGo.delete(d);
    }
    return hashes.size > 0;
  }

  /**
   * Waits for the anchor transaction `hash` (named `what` in a refusal) until `wait.until`
   * ({@link waitWithin}, `wait.stop` looked at), or until it is seen dropped ({@link DROPPED_AFTER_LOOKS}),
   * told to `wait.onWaiting` first (`adopted`: found sent before, in the node's pool or let go pending).
   * @returns the block it was mined in; for an `adopted` one, null when it reverted or was dropped (the
   *   caller looks its digests up again)
   * @throws {@link AnchorNotMined} when it is still pending at `wait.until`, or this call's own one is no
   *   longer known to the node; PlatformError `chain_error` when this call's own one reverted, or the
   *   RPC fails
   */
  private async anchorMinedBy(
    hash: Hash,
    what: string,
    adopted: true,
    wait: AnchorWait,
  ): Promise<number | null>;
  private async anchorMinedBy(hash: Hash, what: string, adopted: false, wait: AnchorWait): Promise<number>;
  private async anchorMinedBy(
    hash: Hash,
    what: string,
    adopted: boolean,
    wait: AnchorWait,
  ): Promise<number | null> {
    this.withheld?.txs.add(lower(hash).replace(/^0x/, ""));
    wait.onWaiting?.(hash, adopted, wait.until);
    const outcome = await this.waitWithin(hash, Math.max(0, wait.until - Date.now()), what, wait.stop, {
      letGoDropped: true,
    });
    if (outcome.state === "mined") return outcome.block;
    if (outcome.state === "pending" || (outcome.state === "unknown" && !adopted))
      throw new AnchorNotMined(hash, outcome.state, adopted);
    if (outcome.state === "reverted" && !adopted)
      throw new PlatformError("chain_error", `${what}: transaction ${hash} reverted`, { tx_hash: hash });
    return null;
  }

  /**
   * The outcome of a digest found anchored: its evidence with `kind`; a receipt's evidence adopted from
   * another kind's anchoring (`anchorKindServes` of `@bench-bounty/contracts`, {@link AdoptedAnchor}); else the squat.
   */
  private outcomeOf(
    found: { evidence: AnchorEvidence; kind: Hex; anchorer: Address },
    kind: PlatformAnchorKind,
  ): AnchorOutcome {
    if (lower(found.kind) === lower(ANCHOR_KINDS[kind])) return found.evidence;
    const squat: AnchorSquat = {
      kind: lower(found.kind) as Hex,
      kind_name: anchorKindName(found.kind),
      anchorer: lower(found.anchorer) as Address,
      anchor_block: found.evidence.anchor_block,
    };
    if (anchorKindServes(kind, found.kind)) return { ...found.evidence, adopted_from: squat };
    return { squatted: squat };
  }

  /**
   * After a failed anchor send: another process on the store (`serve`'s batch beside a CLI command), or a
   * stranger front-running the send from the pool, may have anchored some of the digests between the
   * lookup and the send, and the send reverted (`AlreadyAnchored`). Looks them up again and records in
   * `out` the outcome of each one found anchored. When none is, but the registry's pending state holds an
   * anchoring of some (the send's gas estimate ran in the pending block, where a stranger's anchoring still
   * waits in the pool: probe35 V-F3), that transaction is waited for (looked up every
   * {@link STOP_CHECK_MS}, until `wait.until` or `wait.stop`) and they are looked up again.
   * @returns the digests still not anchored (to be sent again)
   * @throws `e` again when it is not a `chain_error`, when the chain cannot be read, or when none of them
   *   was anchored meanwhile (the failure is not explained by it, or the pending anchoring was not mined in time)
   */
  private async anchoredMeanwhile(
    e: unknown,
    digests: Hex[],
    kind: PlatformAnchorKind,
    out: Map<string, AnchorOutcome>,
    wait: AnchorWait,
  ): Promise<Hex[]> {
    if (!(e instanceof PlatformError && e.code === "chain_error")) throw e;
    const lookUp = () => this.lookUpAnchors(digests, kind, out).catch(() => Promise.reject(e)); // the send's error says why
    let missing = await lookUp();
    if (missing.length < digests.length) return missing;
    const pendingBlocks = await this.anchorBlocks(digests, "pending").catch(() => Promise.reject(e));
    if (pendingBlocks.every((a) => a.block === 0)) throw e;
    while (missing.length === digests.length && Date.now() < wait.until && wait.stop?.aborted !== true) {
      await new Promise((r) => setTimeout(r, Math.min(STOP_CHECK_MS, Math.max(1, wait.until - Date.now()))));
      missing = await lookUp();
    }
    if (missing.length === digests.length) throw e;
    return missing;
  }

  /**
   * Looks up the anchoring of each of `digests` ({@link findAnchor}, {@link ANCHOR_READS_IN_FLIGHT} at a
   * time) and records in `out` the outcome of each one found ({@link outcomeOf}).
   * @returns the digests never anchored, in input order
   * @throws PlatformError `chain_error`
   */
  private async lookUpAnchors(
    digests: Hex[],
    kind: PlatformAnchorKind,
    out: Map<string, AnchorOutcome>,
  ): Promise<Hex[]> {
    const missing: Hex[] = [];
    for (let i = 0; i < digests.length; i += ANCHOR_READS_IN_FLIGHT) {
      const slice = digests.slice(i, i + ANCHOR_READS_IN_FLIGHT);
      const found = await Promise.all(slice.map((d) => this.findAnchor(d)));
      slice.forEach((d, j) => {
        const existing = found[j]!;
        if (existing === null) missing.push(d);
        else out.set(d, this.outcomeOf(existing, kind));
      });
    }
    return missing;
  }

  /**
   * The registry's `anchorOf` block of each digest (0 when the chain holds no anchoring of it: never
   * anchored, or dropped by a reorg) and its kind, in input order, in the latest block's state (or, with
   * `blockTag` `pending`, the node's pending block's). Read {@link ANCHOR_READS_IN_FLIGHT}
   * at a time, so thousands of digests cost that many requests in flight, not thousands at once.
   * @throws PlatformError `chain_error`
   */
  async anchorBlocks(
    digests: readonly Hex[],
    blockTag: "latest" | "pending" = "latest",
  ): Promise<{ block: number; kind: Hex }[]> {
    const registry = this.config.contracts.anchorRegistry;
    const out: { block: number; kind: Hex }[] = [];
    for (let i = 0; i < digests.length; i += ANCHOR_READS_IN_FLIGHT) {
      const slice = digests.slice(i, i + ANCHOR_READS_IN_FLIGHT);
      const read = await Promise.all(
        slice.map((digest) =>
          this.call("anchorOf", () =>
            this.publicClient.readContract({
              address: registry,
              abi: anchorRegistryAbi,
              functionName: "anchorOf",
              args: [digest],
              blockTag,
            }),
          ),
        ),
      );
      for (const [, blockNumber, , kind] of read) out.push({ block: Number(blockNumber), kind });
    }
    return out;
  }

  /**
   * The existing anchoring of `digest` (its evidence, kind and anchorer), or null when it was never
   * anchored.
   * @throws PlatformError `chain_error`
   */
  async findAnchor(digest: Hex): Promise<{ evidence: AnchorEvidence; kind: Hex; anchorer: Address } | null> {
    const registry = this.config.contracts.anchorRegistry;
    const [anchorer, blockNumber, , kind] = await this.call("anchorOf", () =>
      this.publicClient.readContract({
        address: registry,
        abi: anchorRegistryAbi,
        functionName: "anchorOf",
        args: [digest],
      }),
    );
    if (blockNumber === 0n) return null;
    const logs = await this.call("read Anchored logs", () =>
      this.publicClient.getContractEvents({
        address: registry,
        abi: anchorRegistryAbi,
        eventName: "Anchored",
        args: { digest },
        fromBlock: BigInt(blockNumber),
        toBlock: BigInt(blockNumber),
      }),
    );
    const log = logs[0];
    if (!log?.transactionHash)
      throw new PlatformError(
        "chain_error",
        `digest ${digest} is anchored at block ${blockNumber} but its log was not found`,
        {},
      );
    return {
      evidence: {
        registry_address: lower(registry),
        tx_hash: log.transactionHash,
        anchor_block: Number(blockNumber),
      },
      kind,
      anchorer,
    };
  }

  /**
   * Reads a bounty with `getBounty` (SPEC 1.1).
   * @throws PlatformError `chain_error` when the answer is not the view's ABI value word by word (the
   *   transport's `protocolViewAnswerProblem`: a lying or broken RPC, probe38 W-N1, probe39 V-F2)
   */
  async getBounty(bountyId: bigint): Promise<OnChainBounty> {
    const b = await this.call("getBounty", () =>
      this.publicClient.readContract({
        address: this.config.contracts.benchmarkBounty,
        abi: benchmarkBountyAbi,
        functionName: "getBounty",
        args: [bountyId],
      }),
    );
    return { bountyId, ...b };
  }

  /**
   * The author locks a prize: `approve(pool)` then `createAndFund(params)` signed with the author's key.
   * Before anything is sent: `createBounty(params)` is simulated (a revert is `chain_error` naming the
   * custom error, `details.args` its arguments: `RootBoundToLiveBounty` names the author's live bounty on
   * the root), then the author's token balance must cover the pool (`invalid_option`, field `pool`).
   * A refusal of `createAndFund` once the approve is mined says so in its message and carries
   * `details.approve_tx`, `details.allowance_left` (base units, read from the chain after the failure; null
   * when that read failed, the message says why) and `details.spender` (probe38 C-F2, probe39 B-F5); a
   * createAndFund whose answer was lost but which the node holds is waited for as sent (`sendFailed`).
   * @returns the new bounty id and the creation transaction
   */
  lockBounty(p: LockBountyParams): Promise<{ bountyId: bigint; txHash: Hash }> {
    return this.exclusive(() => this.lockBountyNow(p));
  }

  /**
   * The author's live bounty that holds `p.testSetRoot` (SPEC 1.1: `createBounty` reverts
   * `RootBoundToLiveBounty` while the author's last bounty on the root is neither Awarded nor Reclaimed),
   * read by simulating `createBounty` with `p`'s terms but a close and deadline ten years after
   * `notBefore` (unix seconds), so no time rule hides the root's (probe38 V-N3: a lock re-run near its
   * close was refused for the close before it could find the bounty its first run had funded). Sends nothing.
   * @returns the bounty id, or undefined when the simulation passes or reverts for another reason
   */
  async liveBountyOfRoot(p: LockBountyParams, notBefore: bigint): Promise<bigint | undefined> {
    const later = notBefore + 10n * 365n * 86_400n;
    const { author, bountyParams } = this.createBountyCall({
      ...p,
      closesAt: later,
      awardDeadline: later + 1n,
    });
    try {
      await this.simulateCreateBounty(author, bountyParams);
      return undefined;
    } catch (e) {
      if (!(e instanceof PlatformError) || e.details.revert !== "RootBoundToLiveBounty") return undefined;
      const id = Array.isArray(e.details.args) ? e.details.args[2] : undefined;
      return typeof id === "string" && /^[1-9][0-9]*$/.test(id) ? BigInt(id) : undefined;
    }
  }

  /** The author's wallet and the `createBounty` parameters of a lock (token and awarder defaulted). */
  private createBountyCall(p: LockBountyParams) {
    const token = p.token ?? this.config.contracts.usdc;
    if (!token)
      throw new PlatformError(
        "invalid_option",
        "lockBounty: no token (configure contracts.usdc or pass token)",
        { field: "token" },
      );
    const author = createWalletClient({
      account: signerAccount(p.authorPrivateKey, "authorPrivateKey"),
      chain: this.chain,
      transport: rpcTransport(this.config),
    });
    const bountyParams = {
      token,
      awarder: p.awarder ?? this.wallet.account.address,
      pool: p.pool,
      testSetRoot: p.testSetRoot,
      leafCount: p.leafCount,
      closesAt: p.closesAt,
      awardDeadline: p.awardDeadline,
      thresholdBps: p.thresholdBps,
      splitsBps: p.splitsBps,
    };
    return { author, token, bountyParams };
  }

  /** `createBounty(bountyParams)` simulated as `author` (a revert: `chain_error` naming the custom error). */
  private async simulateCreateBounty(
    author: ReturnType<ChainGateway["createBountyCall"]>["author"],
    bountyParams: ReturnType<ChainGateway["createBountyCall"]>["bountyParams"],
  ): Promise<void> {
    await this.call("createBounty (simulated)", () =>
      this.publicClient.simulateContract({
        address: this.config.contracts.benchmarkBounty,
        abi: benchmarkBountyAbi,
        functionName: "createBounty",
        args: [bountyParams],
        account: author.account,
      }),
    );
  }

  private async lockBountyNow(p: LockBountyParams): Promise<{ bountyId: bigint; txHash: Hash }> {
    // The terms rule (SPEC 1.1, one place: evidence's checkBountyTerms) before anything is signed.
    assertBountyTerms(p);
    const { author, token, bountyParams } = this.createBountyCall(p);
    const authorAddress = author.account.address;
    // Nothing is sent until the bounty's parameters pass the contract's checks and the pool is covered.
    // The simulation first (probe27 C-F4): a root already bound to the author's live bounty (the pool it
    // moved gone from the balance) is named by its RootBoundToLiveBounty, not by a short balance.
    await this.simulateCreateBounty(author, bountyParams);
    const balance = await this.call("read the author's balance", () =>
      this.publicClient.readContract({
        address: token,
        abi: testUsdcAbi,
        functionName: "balanceOf",
        args: [authorAddress],
      }),
    );
    if (balance < p.pool)
      throw new PlatformError(
        "invalid_option",
        `pool ${p.pool} base units exceeds the author's balance ${balance} base units (${authorAddress})`,
        { field: "pool", balance: balance.toString(), pool: p.pool.toString() },
      );
    const approve = await this.write(
      "approve the pool",
      {
        address: token,
        abi: testUsdcAbi,
        functionName: "approve",
        args: [this.config.contracts.benchmarkBounty, p.pool],
      },
      { wallet: author, signer: "the author" },
    );
    await this.wait(approve, "approve");
    // from here the approve is mined: a refusal says so, and what allowance is left, read from the chain
    // after the failure, never assumed (probe38 C-F2: a createAndFund reverted after the approve read as if
    // nothing had been sent; probe39 B-F5: a createAndFund mined behind a lost answer used the allowance)
    const afterApprove = async (e: unknown): Promise<never> => {
      if (!(e instanceof PlatformError)) throw e;
      const bounty = this.config.contracts.benchmarkBounty;
      let allowance: bigint | undefined;
      let unread = "";
      try {
        allowance = await this.call("read the author's allowance", () =>
          this.publicClient.readContract({
            address: token,
            abi: testUsdcAbi,
            functionName: "allowance",
            args: [authorAddress, bounty],
          }),
        );
      } catch (x) {
        if (!(x instanceof PlatformError)) throw x;
        unread = x.message;
      }
      const sent =
        e.details.may_be_sent === true && typeof e.details.tx_hash === "string"
          ? ` createAndFund (transaction ${e.details.tx_hash}) may have been sent: once it is mined the pool is in a bounty of the author's on this root, which a rerun of lock finds and attaches.`
          : "";
      const left =
        allowance === undefined
          ? `the allowance it left could not be read (${unread}): it is ${p.pool} base units of ${token} unless createAndFund used it`
          : allowance === 0n
            ? `the author ${authorAddress} allows BenchmarkBounty ${bounty} nothing of ${token} any more (read after the failure: createAndFund, or another transfer, used the allowance): run lock again, it finds the author's bounty on this root`
            : `the author ${authorAddress} still allows BenchmarkBounty ${bounty} to take ${allowance} base units of ${token} (read after the failure); a rerun of lock approves ${p.pool} again (approve sets the allowance, it does not add), and approve(${bounty}, 0) on the token from the author's account revokes it`;
      throw new PlatformError(
        e.code,
        `${e.message}. The approve (transaction ${approve}) was sent and mined before:${sent} ${left}`,
        {
          ...e.details,
          approve_tx: approve,
          allowance_left: allowance === undefined ? null : allowance.toString(),
          spender: bounty,
        },
      );
    };
    const hash = await this.write(
      "createAndFund",
      {
        address: this.config.contracts.benchmarkBounty,
        abi: benchmarkBountyAbi,
        functionName: "createAndFund",
        args: [bountyParams],
      },
      { wallet: author, signer: "the author" },
    ).catch(afterApprove);
    const receipt = await this.wait(hash, "createAndFund").catch(afterApprove);
    const created = parseEventLogs({
      abi: benchmarkBountyAbi,
      eventName: "BountyCreated",
      logs: receipt.logs,
    });
    const id = created[0]?.args.bountyId;
    if (id === undefined)
      throw new PlatformError("chain_error", "createAndFund: no BountyCreated event in the receipt", {
        tx_hash: hash,
      });
    return { bountyId: id, txHash: hash };
  }

  /**
   * Sends `award(bountyId, winners, rankingDigest)` from the platform account.
   * @returns transaction hash and block number
   * @throws PlatformError `chain_error` naming the custom error on a revert
   */
  async award(
    bountyId: bigint,
    winners: Address[],
    rankingDigest: Hex,
  ): Promise<{ txHash: Hash; blockNumber: number }> {
    const hash = await this.write("award", {
      address: this.config.contracts.benchmarkBounty,
      abi: benchmarkBountyAbi,
      functionName: "award",
      args: [bountyId, winners, rankingDigest],
    });
    const receipt = await this.wait(hash, "award");
    return { txHash: hash, blockNumber: Number(receipt.blockNumber) };
  }

  /**
   * Sends `award(...)` and returns its hash without waiting (the caller records it as sent first, so a
   * crash while it is pending is seen as pending, never sent twice). `opts.beforeSend` runs right before
   * the signed transaction is handed to the node, after every read the send needs (simulation, balance,
   * nonce, fees, gas: each up to the RPC's timeout): what it throws is thrown, and nothing is sent.
   * @throws PlatformError `chain_error` naming the custom error when the simulation reverts; what
   *   `opts.beforeSend` throws
   */
  sendAward(
    bountyId: bigint,
    winners: Address[],
    rankingDigest: Hex,
    opts: { beforeSend?: () => void } = {},
  ): Promise<Hash> {
    return this.exclusive(() =>
      this.write(
        "award",
        {
          address: this.config.contracts.benchmarkBounty,
          abi: benchmarkBountyAbi,
          functionName: "award",
          args: [bountyId, winners, rankingDigest],
        },
        { ...opts, simulatePending: true },
      ),
    );
  }

  /**
   * Simulates, signs and sends a winner's relayed claim, `claimWithSig(bountyId, account, to, deadline,
   * signature)` on the BenchmarkBounty at `bounty` (SPEC 1.1), from the platform account, which pays the
   * gas; the caller waits for it ({@link waitWithin}). It takes its turn among this gateway's own writes
   * (anchors, locks, the award), so the platform account's nonces have one writer in this process (two
   * sends prepared at once took the same nonce and one failed); `opts.turn` bounds the wait for that turn
   * ({@link TurnBound}: past its deadline its `late` error is thrown and nothing is sent).
   * `opts.beforeSend` runs right before the signed transaction is handed to the node, after every read
   * the send needs: what it throws is thrown, and nothing is sent (the relay's deadline, probe24 C-F2).
   * @throws PlatformError `chain_error` naming the contract's error when the simulation reverts
   *   (`details.revert`), the signer lacking gas, the RPC failing (`details.may_be_sent` with `tx_hash`
   *   when the node's answer to the send was lost); what `opts.beforeSend` throws
   */
  sendClaimWithSig(
    bounty: Address,
    claim: { bountyId: bigint; account: Address; to: Address; deadline: bigint; signature: Hex },
    opts: { beforeSend?: () => void; turn?: TurnBound } = {},
  ): Promise<Hash> {
    const { turn, ...write } = opts;
    return this.exclusive(
      () =>
        this.write(
          "claimWithSig",
          {
            address: bounty,
            abi: benchmarkBountyAbi,
            functionName: "claimWithSig",
            args: [claim.bountyId, claim.account, claim.to, claim.deadline, claim.signature],
          },
          write,
        ),
      turn,
    );
  }

  /** Waits for a sent transaction. @throws PlatformError `chain_error` when it reverted */
  async waitMined(hash: Hash, what: string): Promise<number> {
    return Number((await this.wait(hash, what)).blockNumber);
  }

  /**
   * The chain's state of a sent transaction: `mined` (with its block), `reverted`, `pending` (known to the
   * node, not mined) or `unknown` (dropped, or never reached this node).
   * @param what the transaction's name in a refusal (default `award`: `read the award transaction`)
   * @throws PlatformError `chain_error` when the RPC fails
   */
  async transactionState(
    hash: Hash,
    what = "award",
  ): Promise<{ state: "mined"; block: number } | { state: "reverted" | "pending" | "unknown" }> {
    return this.call(`read the ${what} transaction`, async () => {
      try {
        const r = await this.publicClient.getTransactionReceipt({ hash });
        return r.status === "success"
          ? { state: "mined", block: Number(r.blockNumber) }
          : { state: "reverted" };
      } catch (e) {
        if (!(e instanceof TransactionReceiptNotFoundError)) throw e;
      }
      try {
        await this.publicClient.getTransaction({ hash });
        return { state: "pending" };
      } catch (e) {
        if (!(e instanceof TransactionNotFoundError)) throw e;
        return { state: "unknown" };
      }
    });
  }

  /**
   * Waits up to `timeoutMs` for a sent transaction: `mined` (with its block) or `reverted` once in a
   * block, else where it is then: `pending` (the node has it, not mined) or `unknown` (dropped, replaced
   * by another transaction of its nonce, or never reached this node).
   * @param what the transaction's name in a refusal (default `award`: `wait for award`)
   * @param stop once aborted, the wait ends within {@link STOP_CHECK_MS} and says where the transaction is then
   * @param opts.letGoDropped the wait goes in slices of {@link STOP_CHECK_MS}, the transaction looked up
   *   between them ({@link transactionState}), and ends `unknown` once the node has not known it at
   *   {@link DROPPED_AFTER_LOOKS} looks in a row (viem's own wait goes on to its end for a transaction no
   *   node will ever mine: probe34 A-F1)
   * @throws PlatformError `chain_error` when the RPC fails
   */
  async waitWithin(
    hash: Hash,
    timeoutMs: number,
    what = "award",
    stop?: AbortSignal,
    opts: { letGoDropped?: boolean } = {},
  ): Promise<WaitOutcome> {
    const end = Date.now() + timeoutMs;
    const sliced = stop !== undefined || opts.letGoDropped === true;
    let unknownLooks = 0;
    for (;;) {
      try {
        // viem reads a timeout of 0 as none at all (it would wait for ever): what is left of a deadline
        // that has passed is one millisecond, a look at the receipt. With `stop`, the wait goes in
        // slices of STOP_CHECK_MS, `stop` looked at between them: viem's wait cannot be cancelled, and a
        // slice left running would keep a stopping process alive until its end (probe29 C-F9)
        const left = Math.max(1, Math.floor(end - Date.now()));
        const timeout = sliced ? Math.min(left, STOP_CHECK_MS) : left;
        const r = await this.publicClient.waitForTransactionReceipt({ hash, timeout });
        // viem answers a transaction replaced by another of the same account and nonce with the
        // replacement's receipt: that one is not ours, ours was dropped and is never mined
        if (!sameHash(r.transactionHash, hash)) return { state: "unknown" };
        const block = Number(r.blockNumber);
        return r.status === "success" ? { state: "mined", block } : { state: "reverted" };
      } catch (e) {
        if (!(e instanceof WaitForTransactionReceiptTimeoutError))
          return this.call(`wait for ${what}`, () => Promise.reject(e));
      }
      if (Date.now() >= end || !sliced || stop?.aborted) break;
      if (opts.letGoDropped) {
        const now = await this.transactionState(hash, what);
        if (now.state === "mined" || now.state === "reverted") return now;
        unknownLooks = now.state === "unknown" ? unknownLooks + 1 : 0;
        if (unknownLooks >= DROPPED_AFTER_LOOKS) return now;
      }
    }
    return this.transactionState(hash, what);
  }

  /**
   * Why a mined transaction reverted: it is replayed (`eth_call`, same sender, target and input) on the
   * state of its block, and the contract's custom error decoded (`AwardAfterDeadline(1700000000,
   * 1700000001)`); `unknown (...)` when the replay does not revert (the state changed within the block).
   * @throws PlatformError `chain_error` when the RPC fails
   */
  async revertReason(hash: Hash): Promise<string> {
    const tx = await this.call("read the reverted transaction", () =>
      this.publicClient.getTransaction({ hash }),
    );
    if (tx.to === null || tx.blockNumber === null) return "unknown (not a mined contract call)";
    const abi = [...benchmarkBountyAbi, ...anchorRegistryAbi];
    let call;
    try {
      call = decodeFunctionData({ abi, data: tx.input });
    } catch (e) {
      if (!(e instanceof BaseError)) throw e;
      return "unknown (not a call of the platform's contracts)";
    }
    try {
      await this.publicClient.simulateContract({
        address: tx.to,
        abi,
        functionName: call.functionName,
        args: call.args,
        account: tx.from,
        blockNumber: tx.blockNumber,
      } as never);
    } catch (e) {
      if (!(e instanceof BaseError)) throw e;
      const revert = e.walk((x) => x instanceof ContractFunctionRevertedError);
      if (revert instanceof ContractFunctionRevertedError && revert.data?.errorName)
        return `${revert.data.errorName}(${(revert.data.args ?? []).map(String).join(", ")})`;
      return `unknown (${e.shortMessage})`;
    }
    return `unknown (a replay at block ${tx.blockNumber} does not revert)`;
  }

  /**
   * How many transactions the platform account has sent that are not mined: its `pending` nonce less
   * its mined one (0 when the node has none of its transactions in its pool).
   * @throws PlatformError `chain_error` when the RPC fails
   */
  async unminedCount(): Promise<number> {
    const address = this.wallet.account.address;
    const [mined, pending] = await this.call("read the account's nonce", () =>
      Promise.all([
        this.publicClient.getTransactionCount({ address, blockTag: "latest" }),
        this.publicClient.getTransactionCount({ address, blockTag: "pending" }),
      ]),
    );
    return Math.max(0, pending - mined);
  }

  /**
   * The platform account's transactions to `to` in the node's pending block (its pool), or null when
   * the node does not serve a pending block.
   * @throws PlatformError `chain_error` when the RPC fails otherwise
   */
  async pendingTransactionsTo(to: Address): Promise<{ hash: Hash; input: Hex }[] | null> {
    let block;
    try {
      block = await this.publicClient.getBlock({ blockTag: "pending", includeTransactions: true });
    } catch (e) {
      if (
        e instanceof MethodNotFoundRpcError ||
        e instanceof MethodNotSupportedRpcError ||
        e instanceof InvalidParamsRpcError
      )
        return null;
      return this.call("read the pending block", () => Promise.reject(e));
    }
    const me = this.address;
    return block.transactions
      .filter((t) => lower(t.from) === me && t.to !== null && lower(t.to) === lower(to))
      .map((t) => ({ hash: t.hash, input: t.input }));
  }

  /** Looks up a mined transaction's block (null when unknown or not mined). */
  async transactionBlock(hash: Hash): Promise<number | null> {
    try {
      const r = await this.publicClient.getTransactionReceipt({ hash });
      return r.status === "success" ? Number(r.blockNumber) : null;
    } catch (e) {
      if (e instanceof TransactionReceiptNotFoundError) return null; // unknown or not mined yet
      throw e;
    }
  }

  // ---------------------------------------------------------------------------

  /** The lock the platform key's sends take across processes ({@link sendThrough}), or null (this process's turns only). */
  private sendLock: SendLock | null = null;

  /**
   * Makes every send signed with the platform account's key (anchors, the award, relayed claims) run
   * under `lock`, from the read of its nonce to the node's answer, so that processes sharing the key
   * send one at a time, each reading the nonce the previous one left (probe29 C-F11: an award on one
   * `serve` and a relayed claim on another took the same nonce; the node refused one). `Platform.open`
   * sets its store's named lock here (`platformSendsLock`: a PostgreSQL advisory lock or SQLite's lock
   * file); a node that still refuses a nonce (a process on another store sharing the key) is answered
   * truthfully ({@link nonceRefused}). This process's own writes take their turns first ({@link exclusive}). The
   * author's sends (`lockBounty`, the author's key) are not under it. One lock per gateway: a gateway
   * shared by platforms on several stores sends under the last one's.
   */
  sendThrough(lock: SendLock): void {
    this.sendLock = lock;
  }

  /** Runs `fn` in this gateway's turn of writes ({@link Turns}: `bound` ends a wait for it). */
  private exclusive<T>(fn: () => Promise<T>, bound?: TurnBound): Promise<T> {
    return this.turns(fn, bound);
  }

  /**
   * Simulates a contract call (a revert is `chain_error` naming the custom error), checks that the
   * signer can pay its gas ({@link refuseWithoutGas}), signs it here and sends it. The transaction's hash
   * is known before it is sent: when the node's answer to the send is lost (the RPC fails at that very
   * moment), the transaction may be on its way, and the error says so with `details.tx_hash` and
   * `details.may_be_sent` (probe16 B-F12), so that the caller can look for it instead of giving up.
   * `opts.wallet` signs (default the platform account's); `opts.signer` names its owner in a refusal ("the
   * author", default "the platform account"); `opts.beforeSend` runs right before the send, synchronously
   * (a deadline's last check: probe19 A-F2, the award sent 49 s after its caller was answered). A gas
   * estimate that fails is followed by a second simulation, so a revert since the first (the contract's
   * state changed meanwhile) is named as the contract's refusal, not as a failure of the RPC; when those
   * simulations pass, a revert the estimate's own answer carries, decoded against the contract's ABI
   * ({@link estimateRevertOf}), is named as the contract's refusal with `details.at` `"gas_estimate"`
   * (probe37 C-N1), and an estimate error without one stays the RPC's.
   * @throws PlatformError `chain_error`; what `opts.beforeSend` throws (nothing sent)
   */
  private async write(
    what: string,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- one writer for every contract's ABI: viem's per-ABI generics cannot be shared here
    request: { address: Address; abi: any; functionName: string; args: readonly unknown[] },
    {
      wallet = this.wallet,
      signer = "the platform account",
      beforeSend,
      simulatePending = false,
    }: {
      wallet?: WalletClient<Transport, Chain, Account>;
      signer?: string;
      beforeSend?: () => void;
      /**
       * The award: simulated at the pending block, the block it lands in at the earliest, so both edges of
       * its window are judged by that block's time (probe30 C-F6: at `closesAt - 1` in the latest block the
       * simulation at the latest refused an award the next block accepts); on a failed gas estimate simulated
       * there again to name the contract's error.
       */
      simulatePending?: boolean;
    } = {},
  ): Promise<Hash> {
    if (wallet !== this.wallet)
      return this.writeNow(what, request, { wallet, signer, beforeSend, simulatePending });
    if (this.readOnly) throw readOnlyRefusal(what, this.address);
    // the platform key's nonce is read and used under the store's lock: one sender at a time across
    // the processes on the store (probe29 C-F11)
    const send = () => this.writeNow(what, request, { wallet, signer, beforeSend, simulatePending });
    return this.sendLock === null ? send() : this.sendLock(send);
  }

  /** {@link write}'s work, the lock taken. */
  private async writeNow(
    what: string,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as in write()
    request: { address: Address; abi: any; functionName: string; args: readonly unknown[] },
    {
      wallet,
      signer,
      beforeSend,
      simulatePending,
    }: {
      wallet: WalletClient<Transport, Chain, Account>;
      signer: string;
      beforeSend: (() => void) | undefined;
      simulatePending: boolean;
    },
  ): Promise<Hash> {
    const serialized = await this.call(what, async () => {
      const simulate = (blockTag?: "pending") =>
        this.publicClient.simulateContract({
          ...request,
          account: wallet.account,
          ...(blockTag ? { blockTag } : {}),
        });
      await simulate(simulatePending ? "pending" : undefined);
      const balance = await this.publicClient.getBalance({ address: wallet.account.address });
      this.refuseWithoutGas(what, signer, wallet.account.address, balance, null);
      const prepared = await wallet
        .prepareTransactionRequest({
          account: wallet.account,
          chain: this.chain,
          to: request.address,
          data: encodeFunctionData({
            abi: request.abi,
            functionName: request.functionName,
            args: [...request.args],
          }),
        })
        .catch(async (e: unknown) => {
          // the gas estimate reverts undecoded ("An internal error was received"): the contract's state
          // may have changed since the simulation (probe19 A-F9: the bounty awarded meanwhile by another
          // process), or (`simulatePending`, the award) the pending block the estimate runs in is later than
          // the latest one (probe26 C-F1: an award at its deadline's last second, `AwardAfterDeadline`);
          // simulated again, the contract's refusal is named, else the estimate's error stands (the relay
          // reads the pending block's credit and time itself: `relayRead`)
          await simulate();
          if (simulatePending) await simulate("pending");
          // the simulations pass, and the estimate's own revert data names an error of the contract: its
          // refusal at the estimate (a contract wallet's ERC-1271 answer may depend on the gas price:
          // probe37 C-N1), `details.at` "gas_estimate", never the RPC's failure; else the estimate's error
          const revert = estimateRevertOf(e, request.abi);
          if (revert === undefined) throw e;
          const refused = revertError(what, revert);
          throw new PlatformError(refused.code, `${refused.message} (at the send's gas estimate)`, {
            ...refused.details,
            at: "gas_estimate",
          });
        });
      const fee = prepared.maxFeePerGas ?? prepared.gasPrice ?? 0n;
      this.refuseWithoutGas(what, signer, wallet.account.address, balance, prepared.gas * fee);
      return wallet.signTransaction(prepared as never);
    });
    const hash = keccak256(serialized);
    // an anchoring's transaction carries its withheld digests (probe40 V-F5)
    this.withheld?.txs.add(lower(hash).replace(/^0x/, ""));
    beforeSend?.();
    let raw: unknown;
    try {
      return await wallet.sendRawTransaction({ serializedTransaction: serialized });
    } catch (e) {
      raw = e;
    }
    return this.sendFailed(what, hash, wallet.account.address, raw);
  }

  /**
   * The one rule for a send (signed here, so its hash `hash` is known) answered by the failure `raw`
   * (probe39 B-F4, B-F5, B-N5): a definite refusal of the transaction itself ({@link definiteRefusal}: a
   * revert, insufficient funds, intrinsic gas, a fee or nonce the node will not take, ...) is answered as
   * the refusal (nothing was sent); the node's refusal of its nonce goes to {@link nonceRefused}; any other
   * failure (no HTTP answer, a 5xx, a timeout, and a JSON-RPC error object such as a gateway's -32000
   * "connection reset" after it forwarded the transaction) may have come after the transaction left, so
   * the hash is looked up ({@link transactionState}) before answering: known to the node (pending, mined
   * or reverted), it was sent, its hash is returned (the caller waits for it) and the operator's log says
   * the answer was lost and the transaction adopted, never "failed"; not known, the failure is answered as
   * before: a transport failure as `maybeSent` (the node may still get it), an error object as the refusal.
   * A lookup that fails cannot tell: `maybeSent`.
   * @returns the transaction's hash, when the node holds it
   * @throws PlatformError `chain_error` (the refusal; `details.may_be_sent` with `tx_hash` when it may be
   *   on its way), `server_busy` (the nonce taken: nothing sent)
   */
  private async sendFailed(what: string, hash: Hash, address: Address, raw: unknown): Promise<Hash> {
    // a transport failure (no HTTP answer, a 5xx, a timeout), not a node's answer at all
    const lost =
      raw instanceof BaseError &&
      raw.walk((x) => x instanceof HttpRequestError || x instanceof TimeoutError) !== null;
    // the node's refusal of the transaction's nonce ("nonce too low", "already known")
    const nonce = lost ? null : nonceRefusal(raw);
    if (nonce !== null) return this.nonceRefused(what, hash, address, nonce, this.failureOf(what, raw));
    if (!lost && definiteRefusal(raw)) throw this.failureOf(what, raw);
    let state;
    try {
      state = await this.transactionState(hash, what);
    } catch {
      throw maybeSent(
        this.failureOf(what, raw),
        hash,
        "its answer was lost and the node could not be asked whether it holds it",
      );
    }
    if (state.state !== "unknown") {
      this.failure(
        what,
        raw,
        (text) =>
          `${what}: the answer to its send was lost (${text}); transaction ${hash} found ${state.state}: adopted`,
      );
      return hash;
    }
    if (!lost) throw this.failureOf(what, raw);
    throw maybeSent(this.failureOf(what, raw), hash, "the node's answer was lost");
  }

  /** {@link failure} as a PlatformError (what a send's failure is answered with). */
  private failureOf(what: string, raw: unknown): PlatformError {
    const e = this.failure(what, raw);
    if (e instanceof PlatformError) return e;
    throw e;
  }

  /**
   * After the node refused a send's nonce (`refusal`): this very transaction may be what holds it (the
   * transport sends a request again when its first answer is lost, and the node then knows it), so it
   * is looked up by its `hash` first: known (pending or mined), it was sent, and its hash is returned.
   * Otherwise, for "nonce too low", another transaction of the same key took the nonce (probe29 C-F11:
   * another process sharing the platform account's key sent one at the same moment): nothing of this
   * one was sent, and it can never be mined (its nonce is used). Not sent again here: the caller runs
   * again, with a fresh look at what is in flight (the award's adoption of its own transaction first).
   * @returns the hash, when the node holds this transaction
   * @throws PlatformError `server_busy` (`details.reason` `nonce_taken`, `address`,
   *   `retry_after_seconds`): nothing was sent; `chain_error` with `may_be_sent` and `tx_hash` when the
   *   lookup fails (it cannot be told whether it was sent); `sendError` for "already known" of a
   *   transaction the node does not show
   */
  private async nonceRefused(
    what: string,
    hash: Hash,
    address: Address,
    refusal: NonceRefusal,
    sendError: PlatformError,
  ): Promise<Hash> {
    let state;
    try {
      state = await this.transactionState(hash, what);
    } catch {
      throw maybeSent(
        sendError,
        hash,
        "the node refused its nonce and could not be asked whether it holds it",
      );
    }
    if (state.state !== "unknown") return hash;
    if (refusal !== "nonce_too_low") throw sendError;
    throw new PlatformError(
      "server_busy",
      `${what} was not sent: the node refused its nonce (nonce too low): the platform account ${lower(address)}'s nonce was taken by another transaction signed with the same key (another process sharing the key sent one at the same moment); nothing was sent: run it again`,
      { reason: "nonce_taken", address: lower(address), retry_after_seconds: 2 },
    );
  }

  /**
   * Refuses to send when the signer cannot pay the gas: it holds no ETH, or less than `cost` wei (the
   * prepared transaction's gas x its fee cap), on this chain. Without this check a node's refusal reads
   * "Missing or invalid parameters" (probe16 B-F4), which points the user at the wrong thing.
   * @throws PlatformError `chain_error` naming the address, the chain and what to do
   */
  private refuseWithoutGas(
    what: string,
    signer: string,
    address: Address,
    balance: bigint,
    cost: bigint | null,
  ): void {
    if (balance > 0n && (cost === null || balance >= cost)) return;
    const chainId = this.config.chainId;
    throw new PlatformError(
      "chain_error",
      `${what}: ${signer} ${address} holds ${balance === 0n ? "no ETH" : `${balance} wei, less than the ${cost} wei`} on chain ${chainId} to pay the gas: send it ETH on that chain, then run again (nothing was sent)`,
      {
        // the signer's own condition, not the chain's: a relay answers its caller otherwise (probe33 C-F7)
        no_gas: true,
        address,
        chain_id: chainId,
        balance_wei: balance.toString(),
        ...(cost === null ? {} : { gas_cost_wei: cost.toString() }),
      },
    );
  }

  private async wait(hash: Hash, what: string) {
    const receipt = await this.call(`wait for ${what}`, () =>
      this.publicClient.waitForTransactionReceipt({ hash }),
    );
    // the receipt of a replacement (same account and nonce, viem's answer when ours was dropped) is
    // never taken for ours: no evidence of another transaction is recorded as this one's
    if (!sameHash(receipt.transactionHash, hash))
      throw new PlatformError(
        "chain_error",
        `${what}: transaction ${hash} was never mined: its nonce was used by transaction ${receipt.transactionHash}`,
        { tx_hash: hash, replaced_by: receipt.transactionHash },
      );
    if (receipt.status !== "success")
      throw new PlatformError("chain_error", `${what}: transaction ${hash} reverted`, { tx_hash: hash });
    return receipt;
  }

  /**
   * Runs one chain read `fn` (on {@link publicClient}) named `what` as this gateway runs its own: a revert
   * is `chain_error` "`what` reverted: <the contract's error>" (`details.revert`, `details.args`); a
   * failure of the RPC is `chain_error` "`what` failed: ... (the chain RPC)" with `details.call`, its
   * origin written to the operator's log ({@link ChainConfig.log}). For reads made outside the gateway
   * (the relay's, probe26 A-F7), so that every chain failure is worded, detailed and logged alike.
   * @throws PlatformError `chain_error`; a PlatformError `fn` throws, as it is
   */
  read<T>(what: string, fn: () => Promise<T>): Promise<T> {
    return this.call(what, fn);
  }

  /**
   * The one `Awarded` log of bounty `bountyId` (a bounty is awarded once), searched newest first in windows
   * of at most {@link LOG_BLOCK_RANGE} blocks down to `fromBlock`: hosted RPCs refuse wider `eth_getLogs`
   * ranges (probe28 C-F7: one unwindowed search from the commitment's block answered every award 500 and
   * stopped `serve` at start), and a window an RPC refuses all the same (an error answer, not a transport
   * failure) is halved, down to {@link MIN_LOG_BLOCK_RANGE}. An award is read just after it is made, so the
   * first window usually holds it.
   * @returns the log ({@link AwardedLog}: what it paid, its ranking digest, transaction and block), or
   *   null when no Awarded log is found
   * @throws PlatformError `chain_error` (through the gateway's wording: no part of the RPC's URL)
   */
  async findAwardedLog(bountyId: bigint, fromBlock: bigint): Promise<AwardedLog | null> {
    const what = "read Awarded logs";
    let to = BigInt(await this.latestBlockNumber());
    let span = LOG_BLOCK_RANGE;
    while (to >= fromBlock) {
      const from = to - span + 1n > fromBlock ? to - span + 1n : fromBlock;
      let logs;
      try {
        logs = await this.publicClient.getContractEvents({
          address: this.config.contracts.benchmarkBounty,
          abi: benchmarkBountyAbi,
          eventName: "Awarded",
          args: { bountyId },
          fromBlock: from,
          toBlock: to,
        });
      } catch (e) {
        if (span > MIN_LOG_BLOCK_RANGE && refusedByRpc(e)) {
          span /= 2n;
          continue;
        }
        throw this.failure(what, e);
      }
      const log = logs.find((l) => l.transactionHash !== null && l.blockNumber !== null);
      if (log) {
        const args = log.args as {
          winners: readonly Address[];
          amounts: readonly bigint[];
          authorRemainder: bigint;
          rankingDigest: Hex;
        };
        return {
          winners: args.winners.map((w) => lower(w) as Address),
          amounts: [...args.amounts],
          authorRemainder: args.authorRemainder,
          rankingDigest: lower(args.rankingDigest) as Hex,
          txHash: log.transactionHash!,
          blockNumber: Number(log.blockNumber),
        };
      }
      to = from - 1n;
    }
    return null;
  }

  private async call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      throw this.failure(what, e);
    }
  }

  /** What {@link call} throws for an error `e` of the read `what` (see {@link read}). */
  private failure(
    what: string,
    e: unknown,
    line: (text: string) => string = (text) => `${what} failed: ${text}`,
  ): unknown {
    const rpc = this.config.rpcUrl;
    const origin = publicOrigin(rpc);
    // the URL as given, and as the transport fetches it (userinfo moved to a header), replaced by `by`
    const named = (text: string, by: string): string =>
      redactSecretUrl(redactSecretUrl(text, rpc, by), rpcTransportUrl(rpc).url, by);
    // A failure of the RPC itself (down, refused, a bad answer). Served (a finalize's
    // receipt_anchor_error, a publish's commitment_anchor_error, a bounty attach's 502) as "the chain
    // RPC": its origin, the operator's node or a provider's host that may name an account, is the
    // operator's to see, in their log (probe17 A-F5).
    const unreachable = (message: string, more: Record<string, unknown> = {}): PlatformError => {
      (this.config.log ?? ((line) => void process.stderr.write(`${line}\n`)))(
        `bench-bounty: chain RPC ${origin}: ${line(named(message, origin))}`,
      );
      const served = named(message, "the chain RPC").split(origin).join("the chain RPC");
      return new PlatformError("chain_error", `${what} failed: ${withoutHost(served, rpc)} (the chain RPC)`, {
        call: what,
        ...more,
      });
    };
    if (e instanceof PlatformError) return e;
    if (e instanceof BaseError) {
      const revert = revertOf(e);
      if (revert) return revertError(what, revert);
      // an answer cut off at a bound of RPC_REQUEST_LIMITS: named, never a bare "HTTP request failed"
      const bound = AnswerTooLargeError.find(e) ?? AnswerTimeoutError.find(e);
      if (bound !== undefined) return unreachable(bound.message);
      // an answer of the wrong shape (an eth_call result that is not hex data, lowerHexRpcFetch; probe38
      // B-F1): the RPC's failure, in the verifier's words naming the method and the JSON path
      const shape = RpcAnswerShapeError.find(e);
      if (shape !== undefined) return unreachable(shape.message);
      // hex data too short (or empty) for the function's ABI value: said as the verifier says it, never
      // viem's "Position 447 is out of bounds" (probe38 V-N2)
      if (e.walk((x) => x instanceof Error && ABI_SHORT_DATA_ERRORS.has(x.name)) !== null)
        return unreachable(
          "the answer's data is too short for the function's ABI value (not the protocol's contract, or an RPC that cuts its answers)",
        );
      // the RPC's own JSON-RPC error answer, in its words and code, never viem's generic advice for the
      // code ("Missing or invalid parameters. Double check you have provided the correct parameters." for a
      // provider's -32000 rate limit: probe31 A-F2); the provider's text may echo the URL's path (a key)
      // an anchoring's withheld digests are said as such before the message is cut (probe40 V-F1)
      const withheld = this.withheld;
      const unsaid = (text: string): string => (withheld ? withoutWithheldHex(text, withheld) : text);
      const refusal = rpcRefusalOf(e, unsaid);
      if (refusal !== undefined) {
        const text = unsaid(redactUrlParts(refusal.message, rpc));
        return unreachable(
          describeRpcRefusal({ ...refusal, message: text }),
          refusal.code === undefined ? {} : { rpc_error_code: refusal.code },
        );
      }
      return unreachable(e.shortMessage);
    }
    // Not viem's: its message may name the URL (fetch's), which carries a provider's key.
    return unreachable((e as Error).message);
  }
}

/** viem's errors of ABI data shorter than the value it decodes (an eth_call answer cut, or no contract there). */
const ABI_SHORT_DATA_ERRORS: ReadonlySet<string> = new Set([
  "PositionOutOfBoundsError",
  "AbiDecodingDataSizeTooSmallError",
  "AbiDecodingZeroDataError",
]);

/** How often (ms) a wait for a transaction given a stop signal looks at it ({@link ChainGateway.waitWithin}). */
export const STOP_CHECK_MS = 1_000;

/**
 * How many times one anchoring sends its transaction when a send reverts because some of its digests
 * were anchored meanwhile by someone else (each time for the digests still not anchored).
 */
const ANCHOR_SEND_TRIES = 3;

/** `anchorOf` reads {@link ChainGateway.anchorBlocks} keeps in flight at once. */
export const ANCHOR_READS_IN_FLIGHT = 16;

/**
 * An `Awarded` log of a bounty as {@link ChainGateway.findAwardedLog} reads it: what the award paid
 * (`winners[i]` credited `amounts[i]`, base units; `authorRemainder` credited to the author), its ranking
 * digest, and where it is (SPEC 1.1, the contract's `Awarded` event). Addresses and the digest lower-case.
 */
export interface AwardedLog {
  winners: Address[];
  amounts: bigint[];
  authorRemainder: bigint;
  rankingDigest: Hex;
  txHash: Hash;
  blockNumber: number;
}

/** Blocks per `eth_getLogs` of a log search ({@link ChainGateway.findAwardedLog}): what hosted Base RPCs allow. */
export const LOG_BLOCK_RANGE = 10_000n;
/** The narrowest window a log search halves to when the RPC refuses a range. */
export const MIN_LOG_BLOCK_RANGE = 100n;

/**
 * The RPC's own JSON-RPC error answer inside a viem error, and the most characters of it an error quotes:
 * the verifier's rule, shared (probe31 A-F2, probe35 B-F4).
 */
export { MAX_RPC_MESSAGE_CHARS, rpcRefusalOf };

/** Whether `e` is the RPC's own error answer (a refused request, e.g. a range over its cap), not a transport failure. */
function refusedByRpc(e: unknown): boolean {
  return e instanceof BaseError && e.walk((x) => x instanceof RpcError) !== null;
}
