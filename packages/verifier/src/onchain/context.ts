/**
 * The on-chain walk's shared context: the pack, what the off-chain walk
 * derived, the viem client and the reads the chain facts share (the bounty
 * record, transaction receipts, `anchorOf`, all cached).
 * @packageDocumentation
 */
import { anchorRegistryAbi, benchmarkBountyAbi, type BountyRecord } from "@bench-bounty/contracts";
import { isAddress, type Address, type Hex, type PublicClient, type TransactionReceipt } from "viem";
import { VerifierNetworkError, describeError } from "../errors.js";
import type { Fact } from "../facts.js";
import type { OfflineDerived } from "../offline/index.js";
import type { PackView } from "../pack.js";
import type { ProgressCallback } from "../progress.js";
import { codeProblem, type ProtocolContract } from "./code.js";
import { AnswerTimeoutError, AnswerTooLargeError } from "../source.js";

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
  } | null;
  /** anchorOf results by digest (lowercase). */
  anchors: Map<string, AnchorRecord>;
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
  /** Run an RPC read; any failure is a {@link VerifierNetworkError} naming `what`. */
  net<T>(what: string, read: () => Promise<T>): Promise<T>;
  /** A view of the bounty contract (`functionName(args)`). */
  readBounty<T>(address: Address, functionName: string, args: readonly unknown[]): Promise<T>;
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
}

/** The RPC read wrapper: every failure becomes a {@link VerifierNetworkError} (an oversized answer says so). */
export function rpcReader(target: string): ChainWalk["net"] {
  return async <T>(what: string, read: () => Promise<T>): Promise<T> => {
    try {
      return await read();
    } catch (e) {
      const bound = AnswerTooLargeError.find(e) ?? AnswerTimeoutError.find(e);
      throw new VerifierNetworkError(target, `${what}: ${bound?.message ?? describeError(e)}`, {
        cause: e,
      });
    }
  };
}

/** Build the context: checks the bounty contract runs the BenchmarkBounty code ({@link codeProblem}); the other reads are lazy and cached. */
export async function makeChainWalk(init: ChainWalkInit): Promise<ChainWalk> {
  const { view, client, chainId } = init;
  const net = rpcReader(init.target);
  const b = view.benchmark;
  const anchors = new Map<string, Promise<AnchorRecord>>();
  const observation: ChainObservation = { chainId, awarded: null, anchors: new Map() };
  let record: Promise<BountyRecord> | undefined;
  const codes = new Map<Address, Promise<Hex | undefined>>();
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
    net,
    readBounty: <T>(address: Address, functionName: string, args: readonly unknown[]) =>
      net(
        `${functionName}(${args.join(", ")})`,
        () =>
          client.readContract({
            address,
            abi: benchmarkBountyAbi,
            functionName,
            args,
          } as never) as Promise<T>,
      ),
    bountyRecord: (address) =>
      (record ??= walk.readBounty<BountyRecord>(address, "getBounty", [init.bountyId])),
    receiptOf: (hash) =>
      net("eth_getTransactionReceipt", async () => {
        try {
          return await client.getTransactionReceipt({ hash });
        } catch (e) {
          if ((e as { name?: string }).name === "TransactionReceiptNotFoundError") return null;
          throw e;
        }
      }),
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
        codes.set(address, (code = net("eth_getCode", () => client.getCode({ address }))));
      return codeProblem(await code, contract, address, where, chainId);
    },
  };
  return { ...walk, bounty: await bountyContract(walk) };
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

async function readAnchor(
  net: ChainWalk["net"],
  client: PublicClient,
  registry: Address,
  digest: string,
): Promise<AnchorRecord> {
  const r = (await net(`anchorOf(${digest})`, () =>
    client.readContract({
      address: registry,
      abi: anchorRegistryAbi,
      functionName: "anchorOf",
      args: [digest as Hex],
    } as never),
  )) as readonly [Address, bigint, bigint, Hex];
  return { anchorer: r[0].toLowerCase(), blockNumber: BigInt(r[1]), kind: r[3].toLowerCase() };
}

/** A step of the on-chain walk: reads the chain through the context, returns its facts. */
export type ChainStep = (walk: ChainWalk) => Promise<Partial<ChainFacts>>;
