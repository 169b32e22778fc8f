/**
 * Block-explorer links for the chains of SPEC 1.3 (Base 8453, Base Sepolia 84532), from the chain
 * table of `@bench-bounty/contracts` (the one source of chain constants).
 *
 * The local devchain uses chain id 8453 too, so the chain id alone cannot tell Base from a local
 * node: whether the chain is local comes from the API or the deployment's config, and a local
 * chain gets no links at all (a basescan link to a devchain transaction would point at nothing, or
 * at someone else's transaction).
 *
 * @packageDocumentation
 */
import { CHAINS } from "@bench-bounty/contracts";

/** What the app knows about the chain a benchmark lives on. */
export interface ChainView {
  /** EIP-155 chain id. */
  chainId: number;
  /** True when the API or config says this is a local node (no explorer). */
  local: boolean;
}

/** The explorer root for a chain, or null (local chain, or a chain without a known explorer). */
export function explorerRoot(chain: ChainView | null): string | null {
  if (chain === null || chain.local) return null;
  for (const c of Object.values(CHAINS)) if (c.id === chain.chainId) return c.explorer;
  return null;
}

/** Display name of a chain: `Base`, `Base Sepolia`, `local chain (id 8453)`, `chain 10`. */
export function chainName(chain: ChainView | null): string {
  if (chain === null) return "unknown chain";
  if (chain.local) return `local chain (id ${chain.chainId})`;
  for (const c of Object.values(CHAINS)) if (c.id === chain.chainId) return c.name;
  return `chain ${chain.chainId}`;
}

const TX = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** Explorer URL of a transaction, or null (no explorer, or not a transaction hash). */
export function txUrl(chain: ChainView | null, hash: string | null | undefined): string | null {
  const root = explorerRoot(chain);
  return root !== null && typeof hash === "string" && TX.test(hash) ? `${root}/tx/${hash}` : null;
}

/** Explorer URL of an address, or null. */
export function addressUrl(chain: ChainView | null, address: string | null | undefined): string | null {
  const root = explorerRoot(chain);
  return root !== null && typeof address === "string" && ADDRESS.test(address)
    ? `${root}/address/${address}`
    : null;
}

/** Explorer URL of a block, or null. */
export function blockUrl(chain: ChainView | null, block: number | string | null | undefined): string | null {
  const root = explorerRoot(chain);
  return root !== null && block !== null && block !== undefined && /^[0-9]+$/.test(String(block))
    ? `${root}/block/${block}`
    : null;
}

/**
 * The chain of a benchmark: its id from the API's `chain` (or the attached bounty's `chain_id`),
 * local when the API or the deployment config says so (either is enough: a wrong explorer link
 * is worse than none).
 * @returns null when the API names no chain (no bounty, no anchor)
 */
export function chainViewOf(
  api: {
    chain?: { chain_id: number; local?: boolean } | null;
    bounty?: { chain_id: number } | null;
    prize?: unknown;
  },
  configLocal: boolean | null,
): ChainView | null {
  const prizeChain =
    typeof api.prize === "object" &&
    api.prize !== null &&
    typeof (api.prize as { chain_id?: unknown }).chain_id === "number"
      ? (api.prize as { chain_id: number }).chain_id
      : undefined;
  const chainId = api.chain?.chain_id ?? api.bounty?.chain_id ?? prizeChain;
  if (chainId === undefined) return null;
  return { chainId, local: api.chain?.local === true || configLocal === true };
}
