/**
 * `anchor` (`--rpc`): `AnchorRegistry.anchorOf(receipt_hash)` has kind
 * `compute-receipt`; not anchored is `unverified` (a fund-then-execute hire has none).
 * The registry defaults to the address book entry of the RPC's chain.
 * @packageDocumentation
 */
import {
  ANCHOR_KINDS,
  addressBook,
  anchorKindName,
  codeProblem,
  deploymentProblem,
  type AddressBookEntry,
} from "@bench-bounty/contracts";
import type { Address } from "viem";
import { fact, type Fact } from "../facts.js";
import { rpcClient } from "../onchain/index.js";
import { ContractAnswerError, readAnchor, rpcReader, type AnchorRecord } from "../onchain/context.js";
import { readChainId, readCode } from "../onchain/rpc-answers.js";
import type { ComputeReceiptFacts, ReceiptWalk } from "./context.js";
import { urlOrigin } from "../url.js";

/** The `anchor` fact. @throws VerifierNetworkError the RPC cannot be read */
export async function anchorFacts(walk: ReceiptWalk): Promise<Pick<ComputeReceiptFacts, "anchor">> {
  const { rpcUrl, registry, timeoutMs, signal } = walk.options;
  if (rpcUrl === undefined) return { anchor: fact("not-observed", "no --rpc: the chain was not read") };
  return { anchor: await checkAnchor(rpcUrl, registry, walk.receiptHash, timeoutMs, signal) };
}

/** The AnchorRegistry of the address book for a chain id (Base, Base Sepolia), or null. */
function bookRegistry(chainId: number): string | null {
  // the book is keyed by chain id, plus "local" (not a chain id)
  const entries = addressBook as Readonly<Record<string, AddressBookEntry | undefined>>;
  return Object.prototype.hasOwnProperty.call(entries, String(chainId))
    ? (entries[String(chainId)]?.anchorRegistry ?? null)
    : null;
}

async function checkAnchor(
  rpcUrl: string,
  registryOpt: string | undefined,
  digest: string,
  timeoutMs?: number,
  signal?: AbortSignal,
): Promise<Fact> {
  const net = rpcReader(`rpc ${urlOrigin(rpcUrl)}`, rpcUrl);
  const client = rpcClient(rpcUrl, { timeoutMs, batch: false, signal });
  const chainId = await net("eth_chainId", () => readChainId(client));
  const registry = registryOpt ?? bookRegistry(chainId);
  if (registry === null)
    return fact(
      "not-observed",
      `no --registry and no AnchorRegistry in the address book for chain ${chainId}`,
    );
  // a --registry given was checked to be an address before anything was read (read.ts)
  const code = await net(`eth_getCode(${registry})`, () => readCode(client, registry as Address));
  const problem =
    codeProblem(code, "AnchorRegistry", registry as Address, "the registry", chainId) ??
    deploymentProblem("AnchorRegistry", registry as Address, "the registry", chainId);
  if (problem !== null) return fact("failed", problem);
  // read as the pack's walk reads it (h38's note: outside the view-read wrapper, an undecodable answer of
  // the registry was said as the RPC's failure in viem's words)
  let anchor: AnchorRecord;
  try {
    anchor = await readAnchor(net, client, registry as Address, digest);
  } catch (e) {
    if (e instanceof ContractAnswerError) return fact("failed", e.message);
    throw e;
  }
  const { anchorer, blockNumber: block, kind } = anchor;
  if (block === 0n)
    return fact(
      "unverified",
      `${digest} is not anchored on ${registry} (chain ${chainId}): a fund-then-execute hire has no anchor`,
    );
  if (kind.toLowerCase() !== ANCHOR_KINDS["compute-receipt"])
    return fact(
      "failed",
      `${digest} is anchored with kind ${anchorKindName(kind) ?? kind}, expected compute-receipt`,
    );
  return fact(
    "verified",
    `${digest} anchored with kind compute-receipt in block ${block} by ${anchorer} (chain ${chainId})`,
  );
}
