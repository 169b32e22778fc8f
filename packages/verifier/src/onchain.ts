/**
 * On-chain checks (`--rpc URL`), read with viem: the bounty contract and the
 * AnchorRegistry named by the pack, on the chain the pack names.
 *
 * - `onchain_root`: `testSetRoots(bounty_id)` == `benchmark.commit_root`;
 * - `onchain_leaf_count`: `leafCountOf(bounty_id)` == `benchmark.leaf_count`;
 * - `root_burned`: `rootBurned(commit_root)` is true;
 * - `award_log`: the receipt of `award_tx` succeeded in `award_block` and carries exactly
 *   one `Awarded` log of `bounty_contract` for `bounty_id`, with the pack's root, winners'
 *   withdrawal addresses and amounts in place order, the author remainder
 *   (pool - sum) and the ranking digest (as stated and as recomputed); the bounty
 *   (`getBounty`) is Awarded with the pack's token, author, awarder, pool,
 *   `closes_at`, threshold and splits;
 * - `commitment_anchor`: `anchorOf(commit_root)` has kind `commitment`, the pack's
 *   `anchor_block`, at or before the award block, and `tx_hash` emitted that `Anchored` log;
 * - `receipt_anchors`: every receipt hash the pack names is anchored with kind `receipt`
 *   at or before `award_block`;
 * - `pack_anchor`: `anchorOf(pack_hash)` (recomputed) has kind `pack`, the pack's
 *   `anchor_block` and `tx_hash`; with `pack_anchor: null`, an anchor found anyway
 *   verifies, none found is `unverified`.
 *
 * When the RPC serves another chain than `benchmark.chain_id`, every chain fact fails.
 *
 * @packageDocumentation
 */
import {
  ANCHOR_KINDS,
  anchorKindName,
  anchorRegistryAbi,
  benchmarkBountyAbi,
  BountyStatus,
  type BountyRecord,
} from "@bench-bounty/contracts";
import {
  createPublicClient,
  decodeEventLog,
  http,
  isAddress,
  type Address,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
} from "viem";
import { VerifierNetworkError, describeError } from "./errors.js";
import { capReasons, fact, factFrom, type Fact, type FactName } from "./facts.js";
import { sameHex, type OfflineDerived, type ProgressCallback } from "./offline.js";
import type { AnchorRef, PackView } from "./pack.js";

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
  anchors: Map<string, { anchorer: string; blockNumber: bigint; kind: string }>;
}

/** Result of {@link verifyOnchain}. */
export interface OnchainResult {
  facts: Record<ChainFactName, Fact>;
  observation: ChainObservation;
}

/** Options of {@link verifyOnchain}. */
export interface OnchainOptions {
  rpcUrl: string;
  /** Per-request timeout, milliseconds (default 20 000). */
  timeoutMs?: number;
  onProgress?: ProgressCallback;
  /** A viem client to use instead of building one from `rpcUrl` (tests). */
  client?: PublicClient;
}

/** A fact that could not be observed (no `--rpc`). */
export function chainNotObserved(): Record<ChainFactName, Fact> {
  const f = {} as Record<ChainFactName, Fact>;
  for (const n of CHAIN_FACTS) f[n] = fact("not-observed", "no --rpc: the chain was not read");
  return f;
}

function addr(a: string): Address | null {
  return isAddress(a, { strict: false }) ? (a.toLowerCase() as Address) : null;
}

function bytes32(h: string): Hex | null {
  return /^0x[0-9a-fA-F]{64}$/.test(h) ? (h.toLowerCase() as Hex) : null;
}

/** Run promises with at most `limit` in flight. */
async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (t: T, i: number) => Promise<R>,
  onDone?: (n: number) => void,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      const i = next++;
      if (i >= items.length) return;
      out[i] = await fn(items[i] as T, i);
      done++;
      onDone?.(done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * Read the chain and decide the chain facts.
 * @throws VerifierNetworkError when the RPC cannot be reached or answers an unexpected error
 */
export async function verifyOnchain(
  view: PackView,
  derived: OfflineDerived,
  options: OnchainOptions,
): Promise<OnchainResult> {
  const b = view.benchmark;
  const target = `rpc ${options.rpcUrl}`;
  const client =
    options.client ??
    (createPublicClient({
      transport: http(options.rpcUrl, {
        timeout: options.timeoutMs ?? 20_000,
        retryCount: 1,
        batch: { batchSize: 200 },
      }),
    }) as PublicClient);
  const net = async <T>(what: string, p: () => Promise<T>): Promise<T> => {
    try {
      return await p();
    } catch (e) {
      throw new VerifierNetworkError(target, `${what}: ${describeError(e)}`, { cause: e });
    }
  };

  const chainId = await net("eth_chainId", () => client.getChainId());
  const observation: ChainObservation = { chainId, awarded: null, anchors: new Map() };
  const facts = {} as Record<ChainFactName, Fact>;
  const all = (f: Fact): Record<ChainFactName, Fact> => {
    for (const n of CHAIN_FACTS) facts[n] = f;
    return facts;
  };
  if (chainId !== b.chain_id) {
    return {
      facts: all(fact("failed", `the RPC serves chain ${chainId}, $.benchmark.chain_id is ${b.chain_id}`)),
      observation,
    };
  }

  const bounty = addr(b.bounty_contract);
  const registry = b.commitment_anchor === null ? null : addr(b.commitment_anchor.registry_address);
  const root = bytes32(b.commit_root);
  let bountyId: bigint;
  try {
    bountyId = BigInt(b.bounty_id);
  } catch {
    return {
      facts: all(fact("failed", `$.benchmark.bounty_id ${b.bounty_id} is not an integer`)),
      observation,
    };
  }

  // ---- the bounty contract
  const bountyFacts = await (async (): Promise<Partial<Record<ChainFactName, Fact>>> => {
    if (bounty === null) {
      const f = fact("failed", `$.benchmark.bounty_contract ${b.bounty_contract} is not an address`);
      return { onchain_root: f, onchain_leaf_count: f, root_burned: f, award_log: f };
    }
    const code = await net("eth_getCode", () => client.getCode({ address: bounty }));
    if (code === undefined || code === "0x") {
      const f = fact("failed", `no contract at $.benchmark.bounty_contract ${bounty} on chain ${chainId}`);
      return { onchain_root: f, onchain_leaf_count: f, root_burned: f, award_log: f };
    }
    const read = <T>(functionName: string, args: readonly unknown[]): Promise<T> =>
      net(
        `${functionName}(${args.join(", ")})`,
        () =>
          client.readContract({
            address: bounty,
            abi: benchmarkBountyAbi,
            functionName,
            args,
          } as never) as Promise<T>,
      );
    const [onRoot, onLeafCount, burned, onBounty, awardReceipt] = await Promise.all([
      read<Hex>("testSetRoots", [bountyId]),
      read<number>("leafCountOf", [bountyId]),
      root === null ? Promise.resolve(null) : read<boolean>("rootBurned", [root]),
      read<BountyRecord>("getBounty", [bountyId]),
      bytes32(b.award_tx) === null
        ? Promise.resolve(null)
        : net("eth_getTransactionReceipt", async () => {
            try {
              return await client.getTransactionReceipt({ hash: b.award_tx as Hex });
            } catch (e) {
              if ((e as { name?: string }).name === "TransactionReceiptNotFoundError") return null;
              throw e;
            }
          }),
    ]);
    const out: Partial<Record<ChainFactName, Fact>> = {};
    out.onchain_root = sameHex(onRoot, b.commit_root)
      ? fact("verified", `testSetRoots(${bountyId}) is ${onRoot}`)
      : fact("failed", `testSetRoots(${bountyId}) is ${onRoot}, $.benchmark.commit_root is ${b.commit_root}`);
    out.onchain_leaf_count =
      Number(onLeafCount) === b.leaf_count
        ? fact("verified", `leafCountOf(${bountyId}) is ${onLeafCount}`)
        : fact(
            "failed",
            `leafCountOf(${bountyId}) is ${onLeafCount}, $.benchmark.leaf_count is ${b.leaf_count}`,
          );
    out.root_burned =
      burned === null
        ? fact("failed", `$.benchmark.commit_root ${b.commit_root} is not a bytes32`)
        : burned
          ? fact("verified", `rootBurned(${root}) is true`)
          : fact("failed", `rootBurned(${root}) is false: no terminal award authorised this reveal`);
    out.award_log = checkAward(view, derived, bountyId, bounty, onBounty, awardReceipt, observation);
    return out;
  })();
  Object.assign(facts, bountyFacts);

  // ---- the AnchorRegistry
  const anchorOf = async (
    reg: Address,
    digest: string,
  ): Promise<{ anchorer: string; blockNumber: bigint; kind: string }> => {
    const key = `${reg}:${digest.toLowerCase()}`;
    const cached = anchorCache.get(key);
    if (cached) return cached;
    const r = (await net(`anchorOf(${digest})`, () =>
      client.readContract({
        address: reg,
        abi: anchorRegistryAbi,
        functionName: "anchorOf",
        args: [digest as Hex],
      } as never),
    )) as readonly [Address, bigint, bigint, Hex];
    const v = { anchorer: r[0].toLowerCase(), blockNumber: BigInt(r[1]), kind: r[3].toLowerCase() };
    anchorCache.set(key, v);
    observation.anchors.set(digest.toLowerCase(), v);
    return v;
  };
  const anchorCache = new Map<string, { anchorer: string; blockNumber: bigint; kind: string }>();
  const registryHasCode = async (reg: Address): Promise<boolean> => {
    const code = await net("eth_getCode", () => client.getCode({ address: reg }));
    return code !== undefined && code !== "0x";
  };

  const anchorTxProblems = async (
    ref: AnchorRef,
    reg: Address,
    digest: string,
    kind: Hex,
    what: string,
  ): Promise<string[]> => {
    const problems: string[] = [];
    const txh = bytes32(ref.tx_hash);
    if (txh === null) return [`${what}.tx_hash ${ref.tx_hash} is not a transaction hash`];
    const rc = await net("eth_getTransactionReceipt", async () => {
      try {
        return await client.getTransactionReceipt({ hash: txh });
      } catch (e) {
        if ((e as { name?: string }).name === "TransactionReceiptNotFoundError") return null;
        throw e;
      }
    });
    if (rc === null) return [`${what}.tx_hash ${txh} is not a mined transaction on chain ${chainId}`];
    if (Number(rc.blockNumber) !== ref.anchor_block)
      problems.push(
        `${what}.tx_hash was mined in block ${rc.blockNumber}, ${what}.anchor_block is ${ref.anchor_block}`,
      );
    const found = rc.logs.some((log) => {
      if (log.address.toLowerCase() !== reg) return false;
      try {
        const ev = decodeEventLog({ abi: anchorRegistryAbi, data: log.data, topics: log.topics }) as {
          eventName: string;
          args: { digest: Hex; kind: Hex };
        };
        return ev.eventName === "Anchored" && sameHex(ev.args.digest, digest) && sameHex(ev.args.kind, kind);
      } catch {
        return false;
      }
    });
    if (!found)
      problems.push(
        `${what}.tx_hash ${txh} emitted no Anchored(${digest}, ${anchorKindName(kind)}) log of ${reg}`,
      );
    return problems;
  };

  const awardBlock = BigInt(b.award_block);
  const describeAnchor = (a: { blockNumber: bigint; kind: string }): string =>
    a.blockNumber === 0n
      ? "not anchored"
      : `anchored in block ${a.blockNumber} with kind ${anchorKindName(a.kind) ?? a.kind}`;

  // commitment anchor
  if (b.commitment_anchor === null) {
    facts.commitment_anchor = fact(
      "unverified",
      "$.benchmark.commitment_anchor is null: the pack names no registry to read",
    );
    facts.receipt_anchors = fact(
      "unverified",
      "$.benchmark.commitment_anchor is null: the pack names no registry to read the receipt anchors from",
    );
  } else if (registry === null) {
    facts.commitment_anchor = fact(
      "failed",
      `$.benchmark.commitment_anchor.registry_address ${b.commitment_anchor.registry_address} is not an address`,
    );
    facts.receipt_anchors = facts.commitment_anchor;
  } else if (!(await registryHasCode(registry))) {
    facts.commitment_anchor = fact(
      "failed",
      `no contract at the AnchorRegistry ${registry} on chain ${chainId}`,
    );
    facts.receipt_anchors = facts.commitment_anchor;
  } else {
    const problems: string[] = [];
    if (root === null) problems.push(`$.benchmark.commit_root ${b.commit_root} is not a bytes32`);
    else {
      const a = await anchorOf(registry, root);
      if (a.blockNumber === 0n) problems.push(`anchorOf(${root}) on ${registry}: not anchored`);
      else {
        if (a.kind !== ANCHOR_KINDS.commitment)
          problems.push(
            `anchorOf(${root}) has kind ${anchorKindName(a.kind) ?? a.kind}, expected commitment`,
          );
        if (a.blockNumber !== BigInt(b.commitment_anchor.anchor_block))
          problems.push(
            `anchorOf(${root}) is in block ${a.blockNumber}, $.benchmark.commitment_anchor.anchor_block is ${b.commitment_anchor.anchor_block}`,
          );
        if (a.blockNumber > awardBlock)
          problems.push(
            `the commitment was anchored in block ${a.blockNumber}, after the award block ${awardBlock}`,
          );
        problems.push(
          ...(await anchorTxProblems(
            b.commitment_anchor,
            registry,
            root,
            ANCHOR_KINDS.commitment,
            "$.benchmark.commitment_anchor",
          )),
        );
      }
    }
    facts.commitment_anchor = factFrom(
      problems,
      `commit_root anchored with kind commitment in block ${b.commitment_anchor.anchor_block} (tx ${b.commitment_anchor.tx_hash})`,
    );

    // receipt anchors
    const hashes = derived.receiptHashes;
    const rp: string[] = [];
    let ok = 0;
    const results = await mapLimit(
      hashes,
      16,
      async (h) => (bytes32(h) === null ? null : anchorOf(registry, h)),
      (done) => options.onProgress?.({ phase: "chain", done, total: hashes.length }),
    );
    hashes.forEach((h, i) => {
      const a = results[i];
      if (a === null || a === undefined) rp.push(`receipt hash ${h} is not a bytes32`);
      else if (a.blockNumber === 0n) rp.push(`receipt ${h}: not anchored on ${registry}`);
      else if (a.kind !== ANCHOR_KINDS.receipt)
        rp.push(`receipt ${h}: ${describeAnchor(a)}, expected kind receipt`);
      else if (a.blockNumber > awardBlock)
        rp.push(`receipt ${h}: anchored in block ${a.blockNumber}, after the award block ${awardBlock}`);
      else ok++;
    });
    facts.receipt_anchors =
      hashes.length === 0
        ? fact("not-required", "the pack names no receipt")
        : factFrom(rp, `${ok} receipt hashes anchored with kind receipt at or before block ${awardBlock}`);
  }

  // pack anchor
  const ph = derived.packHash;
  if (ph === null) facts.pack_anchor = fact("failed", "the pack hash cannot be computed");
  else if (view.pack_anchor === null) {
    if (registry === null)
      facts.pack_anchor = fact("unverified", "$.pack_anchor is null and the pack names no registry");
    else {
      const a = await anchorOf(registry, ph);
      if (a.blockNumber === 0n)
        facts.pack_anchor = fact(
          "unverified",
          `$.pack_anchor is null and anchorOf(${ph}) on ${registry}: not anchored`,
        );
      else if (a.kind !== ANCHOR_KINDS.pack)
        facts.pack_anchor = fact("failed", `anchorOf(${ph}) is ${describeAnchor(a)}, expected kind pack`);
      else
        facts.pack_anchor = fact(
          "verified",
          `$.pack_anchor is null, but ${ph} is anchored with kind pack in block ${a.blockNumber}`,
        );
    }
  } else {
    const reg = addr(view.pack_anchor.registry_address);
    if (reg === null)
      facts.pack_anchor = fact(
        "failed",
        `$.pack_anchor.registry_address ${view.pack_anchor.registry_address} is not an address`,
      );
    else if (!(await registryHasCode(reg)))
      facts.pack_anchor = fact(
        "failed",
        `no contract at $.pack_anchor.registry_address ${reg} on chain ${chainId}`,
      );
    else {
      const problems: string[] = [];
      const a = await anchorOf(reg, ph);
      if (a.blockNumber === 0n) problems.push(`anchorOf(${ph}) on ${reg}: not anchored`);
      else {
        if (a.kind !== ANCHOR_KINDS.pack)
          problems.push(`anchorOf(${ph}) has kind ${anchorKindName(a.kind) ?? a.kind}, expected pack`);
        if (a.blockNumber !== BigInt(view.pack_anchor.anchor_block))
          problems.push(
            `anchorOf(${ph}) is in block ${a.blockNumber}, $.pack_anchor.anchor_block is ${view.pack_anchor.anchor_block}`,
          );
        problems.push(
          ...(await anchorTxProblems(view.pack_anchor, reg, ph, ANCHOR_KINDS.pack, "$.pack_anchor")),
        );
      }
      facts.pack_anchor = factFrom(
        problems,
        `pack hash anchored with kind pack in block ${view.pack_anchor.anchor_block} (tx ${view.pack_anchor.tx_hash})`,
      );
    }
  }

  for (const n of CHAIN_FACTS)
    if (facts[n] === undefined) facts[n] = fact("failed", "not decided (internal)");
  return { facts, observation };
}

function checkAward(
  view: PackView,
  derived: OfflineDerived,
  bountyId: bigint,
  bounty: Address,
  onBounty: BountyRecord,
  receipt: TransactionReceipt | null,
  observation: ChainObservation,
): Fact {
  const b = view.benchmark;
  const rd = view.rank_derivation;
  const problems: string[] = [];
  const g = `getBounty(${bountyId})`;
  if (Number(onBounty.status) !== BountyStatus.Awarded)
    problems.push(
      `${g}.status is ${BountyStatus[Number(onBounty.status)] ?? onBounty.status}, expected Awarded`,
    );
  if (!sameHex(onBounty.token, b.token))
    problems.push(`${g}.token is ${onBounty.token.toLowerCase()}, $.benchmark.token is ${b.token}`);
  if (!sameHex(onBounty.author, b.author))
    problems.push(`${g}.author is ${onBounty.author.toLowerCase()}, $.benchmark.author is ${b.author}`);
  if (!sameHex(onBounty.awarder, b.awarder))
    problems.push(`${g}.awarder is ${onBounty.awarder.toLowerCase()}, $.benchmark.awarder is ${b.awarder}`);
  if (onBounty.pool !== b.pool_base_units)
    problems.push(`${g}.pool is ${onBounty.pool}, $.benchmark.pool_base_units is ${b.pool_base_units}`);
  if (onBounty.pool !== rd.pool_base_units)
    problems.push(
      `${g}.pool is ${onBounty.pool}, $.rank_derivation.pool_base_units is ${rd.pool_base_units}`,
    );
  if (BigInt(onBounty.closesAt) !== BigInt(b.closes_at))
    problems.push(`${g}.closesAt is ${onBounty.closesAt}, $.benchmark.closes_at is ${b.closes_at}`);
  if (Number(onBounty.thresholdBps) !== rd.threshold_bps)
    problems.push(
      `${g}.thresholdBps is ${onBounty.thresholdBps}, $.rank_derivation.threshold_bps is ${rd.threshold_bps}`,
    );
  const splits = onBounty.splitsBps.map(Number);
  if (splits.length !== rd.splits_bps.length || splits.some((s, i) => s !== rd.splits_bps[i]))
    problems.push(
      `${g}.splitsBps is [${splits.join(", ")}], $.rank_derivation.splits_bps is [${rd.splits_bps.join(", ")}]`,
    );

  if (receipt === null) {
    problems.push(`$.benchmark.award_tx ${b.award_tx} is not a mined transaction`);
    return { state: "failed", reasons: capReasons(problems) };
  }
  if (receipt.status !== "success") problems.push(`$.benchmark.award_tx reverted`);
  if (Number(receipt.blockNumber) !== b.award_block)
    problems.push(
      `$.benchmark.award_tx was mined in block ${receipt.blockNumber}, $.benchmark.award_block is ${b.award_block}`,
    );
  const logs: {
    winners: readonly Address[];
    amounts: readonly bigint[];
    authorRemainder: bigint;
    rankingDigest: Hex;
    testSetRoot: Hex;
  }[] = [];
  for (const log of receipt.logs) {
    if (log.address.toLowerCase() !== bounty) continue;
    try {
      const ev = decodeEventLog({ abi: benchmarkBountyAbi, data: log.data, topics: log.topics }) as {
        eventName: string;
        args: Record<string, unknown>;
      };
      if (ev.eventName === "Awarded" && ev.args.bountyId === bountyId) logs.push(ev.args as never);
    } catch {
      // another event of the contract
    }
  }
  if (logs.length !== 1) {
    problems.push(
      `$.benchmark.award_tx carries ${logs.length} Awarded logs of ${bounty} for bounty ${bountyId}, expected 1`,
    );
    return { state: "failed", reasons: capReasons(problems) };
  }
  const ev = logs[0]!;
  observation.awarded = {
    winners: ev.winners.map((w) => w.toLowerCase()),
    amounts: [...ev.amounts],
    authorRemainder: ev.authorRemainder,
    rankingDigest: ev.rankingDigest.toLowerCase(),
    blockNumber: receipt.blockNumber,
    txHash: receipt.transactionHash,
  };
  if (!sameHex(ev.testSetRoot, b.commit_root))
    problems.push(`Awarded.testSetRoot is ${ev.testSetRoot}, $.benchmark.commit_root is ${b.commit_root}`);
  const winners = view.winners;
  if (ev.winners.length !== winners.length)
    problems.push(`Awarded.winners has ${ev.winners.length} places, $.winners has ${winners.length}`);
  const max = Math.max(ev.winners.length, winners.length);
  for (let i = 0; i < max; i++) {
    const w = winners[i];
    const onW = ev.winners[i];
    const onA = ev.amounts[i];
    if (w === undefined || onW === undefined) continue;
    if (!sameHex(onW, w.withdrawal_address))
      problems.push(
        `Awarded.winners[${i}] is ${onW.toLowerCase()}, ${w.path}.withdrawal_address is ${w.withdrawal_address}`,
      );
    if (onA !== w.amount_base_units)
      problems.push(`Awarded.amounts[${i}] is ${onA}, ${w.path}.amount_base_units is ${w.amount_base_units}`);
  }
  const paid = ev.amounts.reduce((s, a) => s + a, 0n);
  if (paid + ev.authorRemainder !== onBounty.pool)
    problems.push(`Awarded amounts ${paid} + authorRemainder ${ev.authorRemainder} != pool ${onBounty.pool}`);
  if (!sameHex(ev.rankingDigest, b.ranking_digest))
    problems.push(
      `Awarded.rankingDigest is ${ev.rankingDigest}, $.benchmark.ranking_digest is ${b.ranking_digest}`,
    );
  if (derived.rankingDigest !== null && !sameHex(ev.rankingDigest, derived.rankingDigest))
    problems.push(
      `Awarded.rankingDigest is ${ev.rankingDigest}, rank_derivation hashes to ${derived.rankingDigest}`,
    );
  return factFrom(
    problems,
    `award_tx (block ${receipt.blockNumber}) Awarded bounty ${bountyId} to ${ev.winners.length} winners for [${ev.amounts.join(", ")}], remainder ${ev.authorRemainder}, digest ${ev.rankingDigest}`,
  );
}

export type { FactName };
