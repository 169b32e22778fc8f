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

/**
 * Whether a digest found anchored first with `foundKind` (bytes32, any case) is anchored as `kind` wants:
 * the one rule of it for the platform, the verifier and the indexer check (probe35 C-F2). A commitment
 * and a pack need their own kind (SPEC 8: a squatted root can never carry `commitment_anchor`; a squatted
 * pack hash is minted with `pack_anchor` null). A receipt takes any kind: SPEC 9's receipt anchors ask
 * only that the hash be anchored at or before the award block, the registry is permissionless and no
 * check ever asked who anchored a receipt, so someone else's first anchoring (a front-run of the
 * platform's) proves the receipt existed then exactly as the platform's would; refusing it let one
 * transaction cancel a whole prize.
 */
export function anchorKindServes(kind: AnchorKindName, foundKind: string): boolean {
  return kind === "receipt" || foundKind.toLowerCase() === ANCHOR_KINDS[kind];
}
