/**
 * The on-chain walk's shared context: the pack, what the off-chain walk
 * derived, the viem client and the reads the chain facts share (the bounty
 * record, transaction receipts, `anchorOf`, all cached).
 * @packageDocumentation
 */
import {
  anchorRegistryAbi,
  benchmarkBountyAbi,
  codeProblem,
  deploymentProblem,
  type BountyRecord,
  type ProtocolContract,
} from "@bench-bounty/contracts";
import {
  BaseError,
  decodeEventLog,
  isAddress,
  type Address,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
} from "viem";
import { VerifierNetworkError, describeError } from "../errors.js";
import { MAX_RPC_MESSAGE_CHARS, describeRpcRefusal, rpcRefusalOf } from "../rpc-refusal.js";
import type { Fact } from "../facts.js";
import type { OfflineDerived } from "../offline/index.js";
import type { PackView } from "../pack.js";
import type { ProgressCallback } from "../progress.js";
import { AnswerTimeoutError, AnswerTooLargeError } from "../source.js";
import { printable } from "../text.js";
import {
  RpcAnswerShapeError,
  readBlockNumber,
  readCode,
  readReceipt,
  viewRevertProblem,
} from "./rpc-answers.js";

/** The chain facts. */
export type ChainFactName =
  | "onchain_root"
  | "onchain_leaf_count"
  | "root_burned"
  | "award_log"
  | "commitment_anchor"
  | "receipt_anchors"
  | "pack_anchor";

/** The chain fact names, in report order. */
export const CHAIN_FACTS: readonly ChainFactName[] = [
  "onchain_root",
  "onchain_leaf_count",
  "root_burned",
  "award_log",
  "commitment_anchor",
  "receipt_anchors",
  "pack_anchor",
];

/** The chain facts, by name. */
export type ChainFacts = Record<ChainFactName, Fact>;

/** What `anchorOf(digest)` returned (`blockNumber` 0 when not anchored). */
export interface AnchorRecord {
  anchorer: string;
  blockNumber: bigint;
  kind: string;
}

/** What the chain said, for the indexer cross-check. */
export interface ChainObservation {
  chainId: number;
  /** The Awarded log as decoded, or null. */
  awarded: {
    winners: string[];
    amounts: bigint[];
    authorRemainder: bigint;
    rankingDigest: string;
    blockNumber: bigint;
    txHash: string;
    /** The log's index in its block (`logIndex` of the receipt's log). */
    logIndex: number;
  } | null;
  /** anchorOf results by digest (lowercase). */
  anchors: Map<string, AnchorRecord>;
  /**
   * `getBounty(bounty_id)` as the award-log step read it, or null when the bounty contract was not read
   * (the indexer's bounty is compared with it, probe28 C-F2).
   */
  bounty: BountyRecord | null;
  /**
   * Reads `creditOf(bounty_id, account)` of each account at the chain's latest block (one `eth_blockNumber`,
   * then one `eth_call` per account, pinned to that block), for the indexer's claims (probe29 C-F2); absent
   * when the bounty contract could not be read.
   */
  readCredits?: (accounts: readonly string[]) => Promise<ChainCredits>;
  /**
   * Reads the receipt of transaction `tx` (one `eth_getTransactionReceipt`) and returns the `Claimed` logs of
   * the bounty contract for `bounty_id` it holds, or null when `tx` is not mined (for the indexer's `claimTx`,
   * probe35 B-F8); absent when the bounty contract could not be read.
   * @throws VerifierNetworkError the RPC cannot be read
   */
  readClaims?: (tx: Hex) => Promise<ClaimedLog[] | null>;
}

/** One `Claimed(bountyId, account, to, amount)` log of the bounty (addresses lowercase, amount in base units). */
export interface ClaimedLog {
  account: string;
  to: string;
  amount: bigint;
}

/** What `creditOf(bounty_id, account)` held at one block (base units, by lowercase account). */
export interface ChainCredits {
  /** The block read (the latest when read). */
  block: bigint;
  of: ReadonlyMap<string, bigint>;
}

/** The shared context of the on-chain walk (built once the RPC serves the pack's chain). */
export interface ChainWalk {
  readonly view: PackView;
  readonly derived: OfflineDerived;
  readonly onProgress: ProgressCallback | undefined;
  readonly client: PublicClient;
  /** The chain id the RPC serves (== `benchmark.chain_id`). */
  readonly chainId: number;
  readonly bountyId: bigint;
  /** `benchmark.commit_root` as a bytes32, or null when it is not one. */
  readonly root: Hex | null;
  /** The bounty contract, or the fact every bounty-contract fact takes when it cannot be read. */
  readonly bounty: { address: Address } | { unreadable: Fact };
  /** Filled by the award-log step and the anchor reads. */
  readonly observation: ChainObservation;
  /** A competitor's receipt hashes (`verify --receipt`): the anchor step reads their `anchorOf` too. */
  readonly givenReceiptHashes: readonly string[];
  /** Run an RPC read; any failure is a {@link VerifierNetworkError} naming `what`. */
  net<T>(what: string, read: () => Promise<T>): Promise<T>;
  /** A view of the bounty contract (`functionName(args)`), at the latest block or at `blockNumber`. */
  readBounty<T>(
    address: Address,
    functionName: string,
    args: readonly unknown[],
    blockNumber?: bigint,
  ): Promise<T>;
  /** `getBounty(bounty_id)`, read once. */
  bountyRecord(address: Address): Promise<BountyRecord>;
  /** A transaction's receipt, or null when it is not mined. */
  receiptOf(hash: Hex): Promise<TransactionReceipt | null>;
  /** `anchorOf(digest)` on a registry, read once per registry and digest. */
  anchorOf(registry: Address, digest: string): Promise<AnchorRecord>;
  /**
   * Why the code at `address` is not the protocol contract `contract` ({@link codeProblem}), or null
   * when it is; read once per address. `where` is the pack's JSON path naming the address.
   */
  codeProblem(address: Address, contract: ProtocolContract, where: string): Promise<string | null>;
}

/** An address, lowercase, or null when `a` is not one. */
export function addr(a: string): Address | null {
  return isAddress(a, { strict: false }) ? (a.toLowerCase() as Address) : null;
}

/** A bytes32, lowercase, or null when `h` is not one. */
export function bytes32(h: string): Hex | null {
  return /^0x[0-9a-fA-F]{64}$/.test(h) ? (h.toLowerCase() as Hex) : null;
}

/** Inputs of {@link makeChainWalk}. */
export interface ChainWalkInit {
  view: PackView;
  derived: OfflineDerived;
  onProgress: ProgressCallback | undefined;
  client: PublicClient;
  chainId: number;
  bountyId: bigint;
  /** Label of the RPC in errors (`rpc <url>`). */
  target: string;
  /** The RPC's URL, hidden in an RPC's own error text ({@link rpcReader}). */
  rpcUrl?: string;
  /** A competitor's receipt hashes whose anchors are read too ({@link ChainWalk.givenReceiptHashes}). */
  givenReceiptHashes?: readonly string[];
}

/**
 * A contract the pack names answered a call with no data, or with data its ABI cannot decode (probe
 * D2-F9): an answer of the chain, the contract is not the protocol's. It fails the facts read from that
 * contract (exit 1); it is not an RPC that could not be read (exit 3). A revert is not one: the views
 * read run on code that is the protocol's (checked first) and never revert, so a revert is the RPC's
 * answer ({@link viewRevertProblem}, probe38 B-N1, exit 3). `answer` is already {@link printable}.
 */
export class ContractAnswerError extends Error {
  /** The contract called (lowercase). */
  readonly address: Address;
  /** The call, `functionName(args)`. */
  readonly call: string;
  /** What it answered, in words: `reverted ("reason")`, `reverted (no reason)`, `returned no data`, ... */
  readonly answer: string;

  constructor(address: Address, call: string, answer: string, options?: { cause?: unknown }) {
    super(`${call} on ${address} ${answer}`, options);
    this.name = "ContractAnswerError";
    this.address = address;
    this.call = call;
    this.answer = answer;
  }
}

/**
 * viem's errors for an answer of the contract itself (not of the RPC): what each says about the contract.
 * A revert (`ContractFunctionRevertedError`) is not one ({@link viewRevertProblem}, probe38 B-N1).
 */
const CONTRACT_ANSWERS: Record<string, (e: BaseError) => string> = {
  ContractFunctionZeroDataError: () => "returned no data",
  AbiDecodingZeroDataError: () => "returned no data",
  AbiDecodingDataSizeTooSmallError: () => "returned data too short for the function's ABI",
  PositionOutOfBoundsError: () => "returned data that does not decode as the function's ABI",
  InvalidBytesBooleanError: () => "returned data that does not decode as the function's ABI",
};

/** What a contract answered, in words, when `e` is an answer of the contract (see {@link CONTRACT_ANSWERS}); else null. */
export function contractAnswer(e: unknown): string | null {
  if (!(e instanceof BaseError)) return null;
  const found = e.walk(
    (x) => typeof (x as { name?: unknown }).name === "string" && (x as Error).name in CONTRACT_ANSWERS,
  );
  if (found === null || !(found instanceof BaseError)) return null;
  return CONTRACT_ANSWERS[found.name]!(found);
}

/**
 * The RPC read wrapper: every failure becomes a {@link VerifierNetworkError} (an oversized answer says so, and
 * so does an answer that is no JSON-RPC answer to its call, {@link RpcAnswerShapeError}; the RPC's text is shown
 * through {@link printable}), but a {@link ContractAnswerError}, which is the chain's answer.
 * The RPC's own JSON-RPC error answer is said in its words and code ({@link rpcRefusalOf}), never viem's
 * generic advice for the code (probe35 B-F4: a provider's -32000 "rate limit exceeded" read "Missing or
 * invalid parameters. Double check you have provided the correct parameters."); `url` (the RPC's URL), when
 * given, is hidden in that text: a provider's answer may echo its path or credentials, where a key is.
 */
export function rpcReader(target: string, url?: string): ChainWalk["net"] {
  return async <T>(what: string, read: () => Promise<T>): Promise<T> => {
    try {
      return await read();
    } catch (e) {
      if (e instanceof ContractAnswerError) throw e;
      const bound = AnswerTooLargeError.find(e) ?? AnswerTimeoutError.find(e);
      // an answer that is no JSON-RPC answer to the call (checkedRpcFetch, probe36 V-F7): its own words
      const shape = bound === undefined ? RpcAnswerShapeError.find(e) : undefined;
      if (shape !== undefined)
        throw new VerifierNetworkError(target, `${what}: ${printable(hideUrlParts(shape.message, url))}`, {
          cause: e,
        });
      const refusal = rpcRefusalOf(e);
      if (bound === undefined && refusal !== undefined) {
        const text = describeRpcRefusal({ ...refusal, message: hideUrlParts(refusal.message, url) });
        throw new VerifierNetworkError(target, `${what}: ${printable(text, MAX_RPC_MESSAGE_CHARS + 80)}`, {
          cause: e,
        });
      }
      const status = httpStatusOf(e);
      // the host's http status, when it answered one (probe33 C-F8: the indexer's or the platform's
      // URL given as --rpc said only "HTTP request failed.")
      const said =
        status === undefined
          ? printable(describeError(e))
          : `${printable(describeError(e))} (http ${status}: the URL answered, but not as a JSON-RPC node: is it the chain's RPC endpoint?)`;
      throw new VerifierNetworkError(target, `${what}: ${bound?.message ?? said}`, { cause: e });
    }
  };
}

/** `text` with the URL's parts that may carry a provider's key (the URL, its path and query, its credentials) shown as `(hidden)`. */
function hideUrlParts(text: string, url: string | undefined): string {
  if (url === undefined) return text;
  let u: URL;
  try {
    u = new URL(url);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return text;
  }
  const parts = [url, u.href, `${u.pathname}${u.search}`, u.pathname, u.search, u.username, u.password];
  return parts
    .filter((p) => p.length > 1)
    .sort((a, b) => b.length - a.length)
    .reduce((t, p) => t.split(p).join("(hidden)"), text);
}

/** The http status a failed JSON-RPC request was answered with (viem's `HttpRequestError.status`, in `e` or its causes). */
function httpStatusOf(e: unknown): number | undefined {
  for (let c = e, depth = 0; c !== undefined && c !== null && depth < 8; depth++) {
    const status = (c as { status?: unknown }).status;
    if (typeof status === "number" && Number.isInteger(status)) return status;
    c = (c as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A read of a view of a protocol contract whose code matched ({@link ChainWalk.codeProblem}): an answer of
 * the contract itself (no data, undecodable data) is a {@link ContractAnswerError}; a revert is the RPC's
 * ({@link viewRevertProblem}: a `ViewRevertError`, which {@link rpcReader} says as an RPC that cannot be read).
 */
async function contractRead<T>(address: Address, call: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    const revert = viewRevertProblem(e);
    if (revert !== null) throw revert;
    const answer = contractAnswer(e);
    if (answer !== null)
      throw new ContractAnswerError(address.toLowerCase() as Address, call, answer, { cause: e });
    throw e;
  }
}

/**
 * Where the pack names `address` (its JSON path), for a fact's reason: the bounty contract, the
 * commitment's registry or the pack's registry; `contract` when none does.
 */
export function namedBy(view: PackView, address: string): string {
  const b = view.benchmark;
  const named: [string, string | undefined][] = [
    ["$.benchmark.bounty_contract", b.bounty_contract],
    ["$.benchmark.commitment_anchor.registry_address", b.commitment_anchor?.registry_address],
    ["$.pack_anchor.registry_address", view.pack_anchor?.registry_address],
  ];
  return (
    named.find(([, a]) => a !== undefined && a.toLowerCase() === address.toLowerCase())?.[0] ?? "contract"
  );
}

/** Build the context: checks the bounty contract runs the BenchmarkBounty code ({@link codeProblem}); the other reads are lazy and cached. */
export async function makeChainWalk(init: ChainWalkInit): Promise<ChainWalk> {
  const { view, client, chainId } = init;
  const net = rpcReader(init.target, init.rpcUrl);
  const b = view.benchmark;
  const anchors = new Map<string, Promise<AnchorRecord>>();
  const observation: ChainObservation = { chainId, awarded: null, anchors: new Map(), bounty: null };
  let record: Promise<BountyRecord> | undefined;
  const codes = new Map<Address, Promise<Hex>>();
  const walk: ChainWalk = {
    view,
    derived: init.derived,
    onProgress: init.onProgress,
    client,
    chainId,
    bountyId: init.bountyId,
    root: bytes32(b.commit_root),
    bounty: { unreadable: { state: "failed", reasons: [] } },
    observation,
    givenReceiptHashes: init.givenReceiptHashes ?? [],
    net,
    readBounty: <T>(
      address: Address,
      functionName: string,
      args: readonly unknown[],
      blockNumber?: bigint,
    ) => {
      const call = `${functionName}(${args.join(", ")})${blockNumber === undefined ? "" : ` at block ${blockNumber}`}`;
      return net(call, () =>
        contractRead(
          address,
          call,
          () =>
            client.readContract({
              address,
              abi: benchmarkBountyAbi,
              functionName,
              args,
              ...(blockNumber === undefined ? {} : { blockNumber }),
            } as never) as Promise<T>,
        ),
      );
    },
    bountyRecord: (address) =>
      (record ??= walk.readBounty<BountyRecord>(address, "getBounty", [init.bountyId])),
    receiptOf: (hash) => net("eth_getTransactionReceipt", () => readReceipt(client, hash)),
    anchorOf: (registry, digest) => {
      const key = `${registry}:${digest.toLowerCase()}`;
      let p = anchors.get(key);
      if (p === undefined) {
        p = readAnchor(net, client, registry, digest).then((v) => {
          observation.anchors.set(digest.toLowerCase(), v);
          return v;
        });
        anchors.set(key, p);
      }
      return p;
    },
    codeProblem: async (address, contract, where) => {
      let code = codes.get(address);
      if (code === undefined)
        codes.set(address, (code = net("eth_getCode", () => readCode(client, address))));
      return (
        codeProblem(await code, contract, address, where, chainId) ??
        deploymentProblem(contract, address, where, chainId)
      );
    },
  };
  const bounty = await bountyContract(walk);
  if ("address" in bounty) {
    observation.readCredits = (accounts) => readCredits(walk, bounty.address, accounts);
    observation.readClaims = (tx) => readClaims(walk, bounty.address, tx);
  }
  return { ...walk, bounty };
}

/**
 * The `Claimed` logs of the bounty contract for `bounty_id` in the receipt of `tx` (none when it reverted),
 * or null when `tx` is not mined.
 * @throws VerifierNetworkError the RPC cannot be read
 */
async function readClaims(walk: ChainWalk, address: Address, tx: Hex): Promise<ClaimedLog[] | null> {
  const receipt = await walk.receiptOf(tx);
  if (receipt === null) return null;
  const claims: ClaimedLog[] = [];
  if (receipt.status !== "success") return claims;
  for (const log of receipt.logs) {
    if (log.address.toLowerCase() !== address) continue;
    try {
      const ev = decodeEventLog({ abi: benchmarkBountyAbi, data: log.data, topics: log.topics }) as {
        eventName: string;
        args: Record<string, unknown>;
      };
      if (ev.eventName === "Claimed" && ev.args.bountyId === walk.bountyId)
        claims.push({
          account: String(ev.args.account).toLowerCase(),
          to: String(ev.args.to).toLowerCase(),
          amount: BigInt(ev.args.amount as bigint),
        });
    } catch (e) {
      // a log viem cannot decode with the bounty ABI is not a Claimed log
      if (!(e instanceof BaseError)) throw e;
    }
  }
  return claims;
}

/**
 * `creditOf(bounty_id, account)` of each account at the chain's latest block: `eth_blockNumber`, then one
 * `eth_call` per account pinned to that block (so every value is of the same block).
 * @throws VerifierNetworkError the RPC cannot be read (a revert included, probe38 B-N1); ContractAnswerError the
 *   contract answered no data or undecodable data
 */
async function readCredits(
  walk: ChainWalk,
  address: Address,
  accounts: readonly string[],
): Promise<ChainCredits> {
  const block = await walk.net("eth_blockNumber", () => readBlockNumber(walk.client));
  const values = await Promise.all(
    accounts.map((a) => walk.readBounty<bigint>(address, "creditOf", [walk.bountyId, a], block)),
  );
  return { block, of: new Map(accounts.map((a, i) => [a.toLowerCase(), BigInt(values[i]!)])) };
}

/** The bounty contract named by the pack, or why none of its facts can be read. */
async function bountyContract(walk: ChainWalk): Promise<ChainWalk["bounty"]> {
  const b = walk.view.benchmark;
  const address = addr(b.bounty_contract);
  if (address === null)
    return {
      unreadable: {
        state: "failed",
        reasons: [`$.benchmark.bounty_contract ${b.bounty_contract} is not an address`],
      },
    };
  const problem = await walk.codeProblem(address, "BenchmarkBounty", "$.benchmark.bounty_contract");
  if (problem !== null) return { unreadable: { state: "failed", reasons: [problem] } };
  return { address };
}

/**
 * `anchorOf(digest)` on `registry` through `net`, as a view of a protocol contract ({@link contractRead}):
 * the pack's walk and `verify-receipt --rpc` read it the same way.
 * @throws ContractAnswerError the registry answered no data or data undecodable as `anchorOf`'s;
 *   VerifierNetworkError (from `net`) the RPC cannot be read, or reverted the view
 */
export async function readAnchor(
  net: ChainWalk["net"],
  client: PublicClient,
  registry: Address,
  digest: string,
): Promise<AnchorRecord> {
  const call = `anchorOf(${digest})`;
  const r = (await net(call, () =>
    contractRead(registry, call, () =>
      client.readContract({
        address: registry,
        abi: anchorRegistryAbi,
        functionName: "anchorOf",
        args: [digest as Hex],
      } as never),
    ),
  )) as readonly [Address, bigint, bigint, Hex];
  return { anchorer: r[0].toLowerCase(), blockNumber: BigInt(r[1]), kind: r[3].toLowerCase() };
}

/**
 * A step of the on-chain walk: reads the chain through the context and decides `facts`. When a contract
 * the pack names answers one of its calls with no data or undecodable data (a {@link ContractAnswerError}), every fact of
 * the step fails naming that contract and call.
 */
export interface ChainStep {
  /** The facts the step decides. */
  readonly facts: readonly ChainFactName[];
  readonly run: (walk: ChainWalk) => Promise<Partial<ChainFacts>>;
}
