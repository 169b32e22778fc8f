/**
 * The EIP-712 typed data of `BenchmarkBounty.claimWithSig` (SPEC 1.1, v1.1): a winner signs a `Claim`
 * and anyone (the platform, a friend) submits it, so a winner holding no ETH is still paid.
 *
 * With viem:
 * ```ts
 * const signature = await walletClient.signTypedData({
 *   account, domain: claimDomain(chainId, bountyAddress), types: CLAIM_TYPES, primaryType: CLAIM_PRIMARY_TYPE,
 *   message: { bountyId, account: account.address, to, nonce, deadline },
 * });
 * await relayerClient.writeContract({ address: bountyAddress, abi: benchmarkBountyAbi,
 *   functionName: "claimWithSig", args: [bountyId, account.address, to, deadline, signature] });
 * ```
 * `nonce` is `nonces(account)` read from the contract; `deadline` is unix seconds (last second valid).
 */
import type { Address } from "viem";

/** EIP-712 domain name of BenchmarkBounty. */
export const CLAIM_DOMAIN_NAME = "BenchmarkBounty";
/** EIP-712 domain version of BenchmarkBounty. */
export const CLAIM_DOMAIN_VERSION = "1";
/** The primary type signed for a relayed claim. */
export const CLAIM_PRIMARY_TYPE = "Claim";

/**
 * `Claim(uint256 bountyId,address account,address to,uint256 nonce,uint256 deadline)`, as viem's
 * `signTypedData` / `verifyTypedData` take it.
 */
export const CLAIM_TYPES = {
  Claim: [
    { name: "bountyId", type: "uint256" },
    { name: "account", type: "address" },
    { name: "to", type: "address" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

/** The fields of a `Claim`: ids, nonce and deadline (unix seconds) as bigint. */
export interface ClaimMessage {
  readonly bountyId: bigint;
  readonly account: Address;
  readonly to: Address;
  readonly nonce: bigint;
  readonly deadline: bigint;
}

/** The EIP-712 domain of the BenchmarkBounty deployed at `verifyingContract` on `chainId`. */
export function claimDomain(
  chainId: number,
  verifyingContract: Address,
): { name: string; version: string; chainId: number; verifyingContract: Address } {
  return { name: CLAIM_DOMAIN_NAME, version: CLAIM_DOMAIN_VERSION, chainId, verifyingContract };
}
