/**
 * The answer of a relayed claim (SPEC 1.1 `claimWithSig`): what `POST /benchmarks/:slug/claims/relay`
 * returns once the operator's signer has mined the winner's signed claim. The relay itself is the
 * server's (`packages/server/src/claims/relay.ts`); the shape lives here, with the platform's other
 * answers, so that the server and the typed client (which imports the platform type-only, and which the
 * server's tests use) share one definition without a package cycle.
 */

/** What a relayed claim returns. Ids and block number as decimal strings. */
export interface RelayedClaim {
  slug: string;
  /** The bounty's id (decimal). */
  bounty_id: string;
  /** The winner whose credit was claimed. */
  account: string;
  /** Where the credit went (the signed `to`). */
  to: string;
  /** The credit paid to `to` (base units). */
  amount_base_units: string;
  tx_hash: string;
  block_number: string;
  /** The operator's address, which paid the gas. */
  relayer: string;
}
