/**
 * Which code runs at an address the pack names (probe14 D2-F26). A pack names its own
 * `benchmark.bounty_contract` and registry addresses, so a forged pack can name a contract that
 * answers the verifier's reads as it likes (one that forwards reads to the real BenchmarkBounty and
 * emits an `Awarded` log on demand met the onchain policy). The chain facts therefore hold only for an
 * address whose runtime code is exactly the BenchmarkBounty / AnchorRegistry this verifier was built
 * with (`@bench-bounty/contracts` `*DeployedBytecode`), except in the byte ranges of its immutables
 * (`*ImmutableRanges`: BenchmarkBounty's EIP-712 domain caches its chain id and address), which are
 * zero in the compiled code and set at deployment.
 * @packageDocumentation
 */
import {
  anchorRegistryDeployedBytecode,
  anchorRegistryImmutableRanges,
  benchmarkBountyDeployedBytecode,
  benchmarkBountyImmutableRanges,
} from "@bench-bounty/contracts";
import { keccak256, type Address, type Hex } from "viem";

/** The two protocol contracts a pack names (SPEC 1). */
export type ProtocolContract = "BenchmarkBounty" | "AnchorRegistry";

const EXPECTED_CODE: Readonly<
  Record<ProtocolContract, { code: Hex; immutables: readonly (readonly [number, number])[] }>
> = {
  BenchmarkBounty: { code: benchmarkBountyDeployedBytecode, immutables: benchmarkBountyImmutableRanges },
  AnchorRegistry: { code: anchorRegistryDeployedBytecode, immutables: anchorRegistryImmutableRanges },
};

/** `code` (hex) with the byte ranges `[start, length]` zeroed, lowercase. */
function masked(code: Hex, ranges: readonly (readonly [number, number])[]): string {
  let hex = code.toLowerCase();
  for (const [start, length] of ranges) {
    const from = 2 + start * 2;
    if (from + length * 2 > hex.length) break;
    hex = hex.slice(0, from) + "0".repeat(length * 2) + hex.slice(from + length * 2);
  }
  return hex;
}

/**
 * Why the code at `address` is not the expected protocol contract, or null when it is.
 * @param code what `eth_getCode(address)` returned (`0x` when there is no code)
 * @param where how the pack names the address (a JSON path), for the reason
 * @returns a reason naming the address, the contract expected and both code hashes, or null
 */
export function codeProblem(
  code: Hex,
  contract: ProtocolContract,
  address: Address,
  where: string,
  chainId: number,
): string | null {
  if (code === "0x") return `no contract at ${where} ${address} on chain ${chainId}`;
  const expected = EXPECTED_CODE[contract];
  const actual = masked(code, expected.immutables) as Hex;
  if (code.length === expected.code.length && actual === expected.code.toLowerCase()) return null;
  return (
    `${where} ${address} on chain ${chainId} does not run the ${contract} code this verifier knows ` +
    `(runtime code hash ${keccak256(actual)} with immutables zeroed, expected ${keccak256(expected.code)}): ` +
    `a pack can name any contract, so its reads prove nothing`
  );
}
