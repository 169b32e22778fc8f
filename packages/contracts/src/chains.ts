import type { Address } from "viem";

/** USDC (FiatToken v2.2, 6 decimals, EIP-2612) on Base mainnet (SPEC 1.3). The local Base profile places its test USDC here too. */
export const BASE_USDC_ADDRESS: Address = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
/** USDC on Base Sepolia (SPEC 1.3). */
export const BASE_SEPOLIA_USDC_ADDRESS: Address = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";

/** A chain the contracts are deployed on (SPEC 1.3). */
export interface ChainInfo {
  /** EIP-155 chain id. */
  readonly id: number;
  /** Hardhat network name in hardhat.config.ts. */
  readonly network: "base" | "baseSepolia";
  readonly name: string;
  /** The USDC token bounties are paid in. */
  readonly usdc: Address;
  /** Block explorer root, without trailing slash. */
  readonly explorer: string;
}

/** The chains of SPEC 1.3. The local Base profile uses chain id 8453 as well (`base`). */
export const CHAINS = {
  base: {
    id: 8453,
    network: "base",
    name: "Base",
    usdc: BASE_USDC_ADDRESS,
    explorer: "https://basescan.org",
  },
  baseSepolia: {
    id: 84532,
    network: "baseSepolia",
    name: "Base Sepolia",
    usdc: BASE_SEPOLIA_USDC_ADDRESS,
    explorer: "https://sepolia.basescan.org",
  },
} as const satisfies Record<string, ChainInfo>;

/** USDC has 6 decimals: 1 USDC = 1_000_000 base units. */
export const USDC_DECIMALS = 6;
