/**
 * probe17 B-F9: the indexer started on addresses that hold no BenchmarkBounty / AnchorRegistry (an
 * EOA, USDC, the two swapped) and on a START_BLOCK past the head, and served empty histories with no
 * word. The start-up check reads `eth_getCode` of both and the head, through a fake RPC here.
 */
import {
  anchorRegistryDeployedBytecode,
  benchmarkBountyDeployedBytecode,
  testUsdcDeployedBytecode,
} from "@bench-bounty/contracts";
import { describe, expect, it } from "vitest";
import { contractsProblemAtStart, type RpcCall } from "../../lib/contractsCheck";

const BOUNTY = "0x7D29D45ceC1704e2811b50fd785E403737e005dd" as const;
const REGISTRY = "0xF646ce19E9F80a7927058CE47Bc7c8B7c00aB0B8" as const;
const settings = { chainId: 8453, bountyAddress: BOUNTY, anchorRegistryAddress: REGISTRY, startBlock: 5 };

/** A chain at head 100 holding `codes` (address, lowercase → runtime code). */
function chain(codes: Record<string, `0x${string}`>): RpcCall {
  return async (method, params) => {
    if (method === "eth_blockNumber") return "0x64";
    if (method === "eth_getCode") return codes[String(params[0]).toLowerCase()] ?? "0x";
    throw new Error(`unexpected ${method}`);
  };
}
const genuine = {
  [BOUNTY.toLowerCase()]: benchmarkBountyDeployedBytecode,
  [REGISTRY.toLowerCase()]: anchorRegistryDeployedBytecode,
};

describe("the contracts checked at start (probe17 B-F9)", () => {
  it("passes the genuine contracts and a START_BLOCK at or below the head", async () => {
    expect(await contractsProblemAtStart(settings, chain(genuine))).toBeNull();
    expect(await contractsProblemAtStart({ ...settings, startBlock: 100 }, chain(genuine))).toBeNull();
  });

  it.each<[string, Record<string, `0x${string}`>, RegExp]>([
    ["an EOA as BOUNTY_ADDRESS", { [REGISTRY.toLowerCase()]: anchorRegistryDeployedBytecode }, /^BOUNTY_ADDRESS: no contract at BOUNTY_ADDRESS 0x7D29/],
    ["USDC as BOUNTY_ADDRESS", { ...genuine, [BOUNTY.toLowerCase()]: testUsdcDeployedBytecode }, /^BOUNTY_ADDRESS: BOUNTY_ADDRESS 0x7D29\S+ on chain 8453 does not run the BenchmarkBounty code/],
    [
      "the two swapped",
      { [BOUNTY.toLowerCase()]: anchorRegistryDeployedBytecode, [REGISTRY.toLowerCase()]: benchmarkBountyDeployedBytecode },
      /^BOUNTY_ADDRESS: .*does not run the BenchmarkBounty code/,
    ],
    ["an EOA as ANCHOR_REGISTRY_ADDRESS", { [BOUNTY.toLowerCase()]: benchmarkBountyDeployedBytecode }, /^ANCHOR_REGISTRY_ADDRESS: no contract at/],
  ])("refuses %s, one line naming the variable", async (_label, codes, line) => {
    expect(await contractsProblemAtStart(settings, chain(codes))).toMatch(line);
  });

  it("refuses a START_BLOCK past the head", async () => {
    expect(await contractsProblemAtStart({ ...settings, startBlock: 999_999_999 }, chain(genuine))).toBe(
      "START_BLOCK: 999999999 is past the chain's head (block 100 on chain 8453)",
    );
  });
});
