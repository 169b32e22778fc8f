/**
 * Which code runs at an address a pack (the verifier) or a setting (the indexer's `BOUNTY_ADDRESS`,
 * `ANCHOR_REGISTRY_ADDRESS`: probe17 B-F9) names (probe14 D2-F26). A pack names its own
 * `benchmark.bounty_contract` and registry addresses, so a forged pack can name a contract that
 * answers the verifier's reads as it likes (one that forwards reads to the real BenchmarkBounty and
 * emits an `Awarded` log on demand met the onchain policy). The chain facts therefore hold only for an
 * address whose runtime code is exactly the BenchmarkBounty / AnchorRegistry this verifier was built
 * with (`@bench-bounty/contracts` `*DeployedBytecode`), except in the byte ranges of its immutables
 * (`*ImmutableRanges`: BenchmarkBounty's EIP-712 domain caches its chain id and address), which are
 * zero in the compiled code and set at deployment.
 * @packageDocumentation
 */
import { keccak256, type Address, type Hex } from "viem";
import { addressBook, type AddressBookKey } from "./addressBook.js";
import { expectedAddresses } from "./create2.js";
import {
  anchorRegistryDeployedBytecode,
  anchorRegistryImmutableRanges,
  benchmarkBountyDeployedBytecode,
  benchmarkBountyImmutableRanges,
} from "./generated/bytecode.js";

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
 * @param consequence what follows for the caller, ending the reason (default: the verifier's)
 * @returns a reason naming the address, the contract expected and both code hashes, or null
 */
export function codeProblem(
  code: Hex,
  contract: ProtocolContract,
  address: Address,
  where: string,
  chainId: number,
  consequence = "a pack can name any contract, so its reads prove nothing",
): string | null {
  if (code === "0x") return `no contract at ${where} ${address} on chain ${chainId}`;
  const expected = EXPECTED_CODE[contract];
  const actual = masked(code, expected.immutables) as Hex;
  if (code.length === expected.code.length && actual === expected.code.toLowerCase()) return null;
  return (
    `${where} ${address} on chain ${chainId} does not run the ${contract} code of @bench-bounty/contracts ` +
    `(runtime code hash ${keccak256(actual)} with immutables zeroed, expected ${keccak256(expected.code)}): ` +
    consequence
  );
}

/**
 * Which protocol contract `code` (what `eth_getCode` returned) is, by the same comparison as
 * {@link codeProblem} (the compiled runtime code, immutables zeroed): a BenchmarkBounty or an
 * AnchorRegistry deployed at any address, or null for any other code (a wallet, a Safe, no code).
 */
export function protocolContractOfCode(code: Hex): ProtocolContract | null {
  for (const contract of Object.keys(EXPECTED_CODE) as ProtocolContract[]) {
    const expected = EXPECTED_CODE[contract];
    if (
      code.length === expected.code.length &&
      masked(code, expected.immutables) === expected.code.toLowerCase()
    )
      return contract;
  }
  return null;
}

/** The address book entry of a chain id (Base, Base Sepolia: SPEC 1.3), or null for any other chain. */
function bookOf(chainId: number) {
  const key = String(chainId);
  return key in addressBook ? addressBook[key as AddressBookKey] : null;
}

/**
 * Why `address` is not where the protocol contract lives on a chain of SPEC 1.3, or null when it is (or
 * the chain is not one of SPEC 1.3's: a local node on another chain id has no address book). The
 * runtime code check ({@link codeProblem}) cannot tell a genuine copy deployed elsewhere (probe14 D2-F26):
 * its bounties can hold any token and be awarded by anyone who created them. The address is the book's
 * (`@bench-bounty/contracts` `deployments.json`) once filled in, else the CREATE2 address every chain
 * gets (`expectedAddresses`: CreateX and one fixed salt).
 * @param where how the pack names the address (a JSON path), for the reason
 */
export function deploymentProblem(
  contract: ProtocolContract,
  address: Address,
  where: string,
  chainId: number,
): string | null {
  const book = bookOf(chainId);
  if (book === null) return null;
  const expected =
    (contract === "BenchmarkBounty" ? book.benchmarkBounty : book.anchorRegistry) ??
    expectedAddresses()[contract === "BenchmarkBounty" ? "benchmarkBounty" : "anchorRegistry"];
  if (address.toLowerCase() === expected.toLowerCase()) return null;
  return (
    `${where} ${address} on chain ${chainId} is not the ${contract} of the address book (${expected.toLowerCase()}): ` +
    `a copy of its code deployed elsewhere proves nothing about this protocol's bounties`
  );
}

/**
 * Why `token` is not the chain's USDC (SPEC 1.3: prizes are USDC), or null when it is or the chain is not
 * one of SPEC 1.3's (probe14 D2-F26: a bounty of a genuine copy funded with a token of its creator's).
 * @param what how the token was read (e.g. `getBounty(7).token`), for the reason
 */
export function tokenProblem(token: string, what: string, chainId: number): string | null {
  const book = bookOf(chainId);
  if (book === null || token.toLowerCase() === book.usdc.toLowerCase()) return null;
  return `${what} is ${token.toLowerCase()}, not the USDC of chain ${chainId} (${book.usdc.toLowerCase()}, SPEC 1.3)`;
}
