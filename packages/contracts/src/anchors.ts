import { keccak256, stringToHex, type Hex } from "viem";

/** Names of the anchor kinds of SPEC 1.2. */
export type AnchorKindName = "commitment" | "receipt" | "pack" | "compute-receipt";

const kind = (name: AnchorKindName): Hex => keccak256(stringToHex(`bench-bounty.anchor.${name}`));

/**
 * The `kind` values of `AnchorRegistry.anchor` (SPEC 1.2):
 * `keccak256("bench-bounty.anchor.<name>")` as lowercase bytes32 hex.
 */
export const ANCHOR_KINDS: Readonly<Record<AnchorKindName, Hex>> = Object.freeze({
  commitment: kind("commitment"),
  receipt: kind("receipt"),
  pack: kind("pack"),
  "compute-receipt": kind("compute-receipt"),
});

/**
 * The name of an anchor kind (case-insensitive bytes32 hex), or `null` when the
 * kind is not one of SPEC 1.2 (anchoring is permissionless: any kind may appear on-chain).
 */
export function anchorKindName(kindHex: string): AnchorKindName | null {
  const k = kindHex.toLowerCase();
  for (const [name, value] of Object.entries(ANCHOR_KINDS) as [AnchorKindName, Hex][]) {
    if (value === k) return name;
  }
  return null;
}
