/**
 * Whom a token's refusal of a transfer is about: the one rule of the Hardhat tasks (`deploy/lib/context.ts`,
 * `explainTokenRefusal`) and the platform's relayed claims (`packages/server/src/claims/relay.ts`). A token's
 * revert reason does not say whom it refuses (USDC's "Blacklistable: account is blacklisted" is the same for
 * the sender and the recipient), so the token's own blacklist is read for each party of the transfer, never
 * guessed from the wording (probe30 C-F3: a blacklisted bounty contract was told to claim to another address;
 * probe31 C-F4: the relay answered it 502 `chain_error`).
 */

/** A party of a claim's transfer: the recipient `to`, or the bounty contract that sends every claim. */
export type ClaimTransferRole = "recipient" | "bounty_contract";

/** An address a token transfer touches, with its role in the transfer. */
export interface TransferParty<Role extends string = string> {
  readonly address: string;
  readonly role: Role;
}

/**
 * The parties of a claim's transfer (`claim` and `claimWithSig`, SPEC 1.1): the recipient `to` (another `to`
 * helps when the token refuses it) and the BenchmarkBounty contract `bounty`, the sender (nothing the winner
 * does helps: the credit stays until the token transfers from it again).
 */
export function claimTransferParties(to: string, bounty: string): TransferParty<ClaimTransferRole>[] {
  return [
    { address: to, role: "recipient" },
    { address: bounty, role: "bounty_contract" },
  ];
}

/**
 * The parties of a refused transfer that the token's own blacklist refuses (FiatToken's, USDC's,
 * `isBlacklisted(address)`), in the order given. `isBlacklisted` reads that view for one address; a read that
 * fails (a token without the view, the RPC down) says nothing: that party is not named.
 * @returns the blacklisted parties (empty when none is, or nothing could be read)
 */
export async function blacklistedParties<P extends { readonly address: string }>(
  parties: readonly P[],
  isBlacklisted: (address: string) => Promise<boolean>,
): Promise<P[]> {
  const out: P[] = [];
  for (const party of parties) {
    const listed = await isBlacklisted(party.address).catch(() => false);
    if (listed === true) out.push(party);
  }
  return out;
}
