import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Address } from "viem";

/** Where the contracts live on one chain; `null` until deployment fills it in. */
export interface AddressBookEntry {
  /** Hardhat network name the entry was deployed with. */
  readonly network: string;
  readonly benchmarkBounty: Address | null;
  readonly anchorRegistry: Address | null;
  /** The USDC token of the chain (SPEC 1.3). */
  readonly usdc: Address;
  /** Block of the deployment (first block an indexer must read), or null. */
  readonly startBlock: number | null;
}

/**
 * Keys of `deployments.json`: the chain ids of Base and Base Sepolia. A local node's deployment is
 * never written here (it lives in an untracked file of `deploy/`, see `deploy/README.md`).
 */
export type AddressBookKey = "8453" | "84532";

/** Absolute path of `deployments.json` (the tracked address book; `bounty:deploy` writes it for Base and Base Sepolia). */
export const ADDRESS_BOOK_FILE: string = fileURLToPath(new URL("../deployments.json", import.meta.url));

/**
 * The address book (`packages/contracts/deployments.json`), filled in by
 * `npx hardhat bounty:deploy --network base|baseSepolia`. Both contracts are deployed with CREATE2
 * through CreateX and one fixed salt, so their addresses are the same on every chain.
 */
export const addressBook: Readonly<Record<AddressBookKey, AddressBookEntry>> = JSON.parse(
  readFileSync(ADDRESS_BOOK_FILE, "utf8"),
) as Record<AddressBookKey, AddressBookEntry>;

/**
 * The address book entry for a chain id (8453 -> Base, 84532 -> Base Sepolia).
 * @throws Error on any other chain id
 */
export function addressBookEntry(chainId: number): AddressBookEntry {
  const key = String(chainId);
  if (key !== "8453" && key !== "84532") throw new Error(`no address book entry for chain id ${chainId}`);
  return addressBook[key];
}
