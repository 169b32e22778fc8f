/**
 * The addresses that can never receive a claim, the one rule (probe11 O11, probe15 B-F16, probe16 B-F8):
 * the platform refuses them as withdrawal addresses and relayed claims' `to`; the Hardhat tasks as
 * `--to` and `--withdrawals`. None of them signs a `Claim` or calls `claim`, and USDC paid to one
 * cannot be moved again: a credit there is lost for good (the contract refuses only itself).
 */
import { addressBook } from "./addressBook.js";
import { CHAINS } from "./chains.js";
import { CREATEX_ADDRESS, expectedAddresses } from "./create2.js";

/**
 * The highest address refused as a precompile: 0x1-0x1ff covers Ethereum's precompiles (0x01-0x11 and
 * those to come) and the chains' own precompile ranges there (e.g. RIP-7212 P256VERIFY at 0x100).
 */
export const MAX_PRECOMPILE = 0x1ffn;
/** The OP-stack predeploy range (Base, Optimism): 0x4200...0000-0x4200...07ff (WETH is ...0006). */
export const OP_PREDEPLOY_FIRST = 0x4200000000000000000000000000000000000000n;
export const OP_PREDEPLOY_LAST = 0x42000000000000000000000000000000000007ffn;

/**
 * The protocol's contract addresses (lowercase) on every chain: the CREATE2 addresses of
 * BenchmarkBounty and AnchorRegistry (the same on every chain), CreateX, and every address of the
 * address book (USDC of Base and Base Sepolia, deployed contracts).
 */
export const PROTOCOL_CONTRACTS: readonly string[] = (() => {
  const { benchmarkBounty, anchorRegistry } = expectedAddresses();
  const book = Object.values(addressBook).flatMap((e) => [e.benchmarkBounty, e.anchorRegistry, e.usdc]);
  const chains = Object.values(CHAINS).map((c) => c.usdc);
  const all: (string | null)[] = [benchmarkBounty, anchorRegistry, CREATEX_ADDRESS, ...book, ...chains];
  return [...new Set(all.filter((a): a is string => a !== null).map((a) => a.toLowerCase()))];
})();

/** Why an address can never claim: the refusal's `reason` and its words (without the field's name). */
export interface RecipientProblem {
  reason: "zero_address" | "precompile" | "predeploy" | "platform_contract";
  message: string;
}

/**
 * Why USDC paid to `address` would be lost, or null when it may receive a claim.
 * @param address a 0x address of 40 hex digits (its form checked by the caller)
 * @param contracts the contract addresses of the chain at hand (any case), refused with
 *   {@link PROTOCOL_CONTRACTS}
 * @returns `zero_address`, `precompile` (0x1-0x1ff), `predeploy` (0x4200...0000-...07ff) or
 *   `platform_contract`, with a message naming the address; never throws for a well-formed address
 */
export function recipientProblem(
  address: string,
  contracts: readonly string[] = [],
): RecipientProblem | null {
  const n = BigInt(address);
  if (n === 0n) return { reason: "zero_address", message: "the zero address can never claim" };
  if (n <= MAX_PRECOMPILE)
    return {
      reason: "precompile",
      message: `${address} is a precompile address (0x1-0x${MAX_PRECOMPILE.toString(16)}): it can never claim`,
    };
  if (n >= OP_PREDEPLOY_FIRST && n <= OP_PREDEPLOY_LAST)
    return {
      reason: "predeploy",
      message: `${address} is an OP-stack predeploy (0x4200000000000000000000000000000000000000-...07ff, e.g. WETH at ...0006 on Base): it can never claim`,
    };
  const lower = address.toLowerCase();
  if (PROTOCOL_CONTRACTS.includes(lower) || contracts.some((c) => c.toLowerCase() === lower))
    return {
      reason: "platform_contract",
      message: `${address} is one of the protocol's contracts (BenchmarkBounty, AnchorRegistry, USDC, CreateX): it can never claim, credit there is lost`,
    };
  return null;
}
