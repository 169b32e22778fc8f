/**
 * The EIP-2612 `Permit` typed data of USDC (FiatToken, SPEC 1.3), which `createAndFundWithPermit`
 * takes in place of an `approve`: the author signs it off-chain, the bounty spends it in the same
 * transaction. The domain is the token's own (`name()`, `version()`, chain id, token address).
 */

/** `Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)` (EIP-2612). */
export const PERMIT_TYPES = {
  Permit: [
    { name: "owner", type: "address" },
    { name: "spender", type: "address" },
    { name: "value", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
} as const;
