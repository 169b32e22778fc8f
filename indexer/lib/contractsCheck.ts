/**
 * The contracts the indexer reads, checked at start (probe17 B-F9): an address that holds no
 * BenchmarkBounty / AnchorRegistry (an EOA, USDC, the two swapped) or a `START_BLOCK` past the head
 * started an indexer that served empty histories with no word. The rule of which code is the
 * protocol's is `@bench-bounty/contracts` `codeProblem` (the verifier's too).
 */
import { codeProblem, type ProtocolContract } from "@bench-bounty/contracts";
import type { Address, Hex } from "viem";
import type { IndexerSettings } from "./settings";

/** One JSON-RPC call (`method`, `params`) answering its `result`; throws on a transport or RPC error. */
export type RpcCall = (method: string, params: unknown[]) => Promise<unknown>;

/** What of the chain an indexer setting claims. */
type ContractSettings = Pick<IndexerSettings, "chainId" | "bountyAddress" | "anchorRegistryAddress" | "startBlock">;

/**
 * Checks the settings against the chain: `BOUNTY_ADDRESS` and `ANCHOR_REGISTRY_ADDRESS` run the
 * protocol's code (`eth_getCode`, {@link codeProblem}), `START_BLOCK` is at most the head (`eth_blockNumber`).
 * @returns null, or the line to print after `indexer settings: `, naming the variable.
 * @throws what `call` throws (the RPC cannot be read: the caller decides).
 */
export async function contractsProblemAtStart(s: ContractSettings, call: RpcCall): Promise<string | null> {
  const checks: [string, ProtocolContract, Address][] = [
    ["BOUNTY_ADDRESS", "BenchmarkBounty", s.bountyAddress],
    ["ANCHOR_REGISTRY_ADDRESS", "AnchorRegistry", s.anchorRegistryAddress],
  ];
  for (const [variable, contract, address] of checks) {
    const code = (await call("eth_getCode", [address, "latest"])) as Hex;
    const problem = codeProblem(
      typeof code === "string" ? code : "0x",
      contract,
      address,
      variable,
      s.chainId,
      "the indexer would read nothing of the protocol there",
    );
    if (problem !== null) return `${variable}: ${problem}`;
  }
  const head = Number(BigInt(String(await call("eth_blockNumber", []))));
  if (s.startBlock > head)
    return `START_BLOCK: ${s.startBlock} is past the chain's head (block ${head} on chain ${s.chainId})`;
  return null;
}
