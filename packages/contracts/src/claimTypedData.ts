/**
 * The EIP-712 typed data of `BenchmarkBounty.claimWithSig` (SPEC 1.1, v1.1): what a winner signs so
 * that anyone (the platform, a friend) can submit their claim and pay its gas. Definition only: the
 * signing and submitting helper lives with its callers (`deploy/lib/relay.ts`).
 */
import type { Address } from "viem";

/** The EIP-712 domain name and version of BenchmarkBounty (SPEC 1.1). */
export const CLAIM_DOMAIN_NAME = "BenchmarkBounty";
export const CLAIM_DOMAIN_VERSION = "1";

/** `Claim(uint256 bountyId,address account,address to,uint256 nonce,uint256 deadline)` (SPEC 1.1). */
export const CLAIM_TYPES = {
  Claim: [
    { name: "bountyId", type: "uint256" },
    { name: "account", type: "address" },
    { name: "to", type: "address" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

/**
 * One claim to sign: `account`'s whole credit in `bountyId` goes to `to`; `nonce` is
 * `nonces(account)` at signing time; `deadline` in unix seconds (the contract refuses it after).
 */
export interface ClaimMessage {
  bountyId: bigint;
  account: Address;
  to: Address;
  nonce: bigint;
  deadline: bigint;
}

/**
 * The whole typed data of one claim, as viem's `signTypedData` / `hashTypedData` take it.
 * @param chainId the chain the bounty lives on (8453 for Base and the local Base profile)
 * @param verifyingContract the BenchmarkBounty address
 */
export function claimTypedData(chainId: number, verifyingContract: Address, message: ClaimMessage) {
  return {
    domain: { name: CLAIM_DOMAIN_NAME, version: CLAIM_DOMAIN_VERSION, chainId, verifyingContract },
    types: CLAIM_TYPES,
    primaryType: "Claim",
    message,
  } as const;
}
