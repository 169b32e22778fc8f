/**
 * The share of each all-accounts budget the accounts created from one client network may use together
 * (probe30 A-F7: 34 free accounts of one /24 stored the whole all-accounts dataset budget, and every
 * other author's upload was refused). The network is the one the account was created from
 * (`accounts.network`, given to `createAccount` by the caller: the server groups the request's address
 * as its account-creation buckets do, an IPv4 /24, an IPv6 /48); an account without one (the CLI, the
 * operator, a store from before migration 0015) is in no network's share. The budgets shared:
 * dataset bytes stored (`datasetBytesAllAccounts`), answer bytes stored (`answerBytesAllAccounts`) and
 * the receipts the anchor budgets carry (`immediateAnchorQuota` / `batchAnchorQuota`
 * `allAccountsCount`). As with account creation, an attacker holding addresses in more networks than
 * {@link NETWORK_SHARE_DIVISOR} can still use a whole budget.
 * @packageDocumentation
 */

/** One network's share of an all-accounts budget is its 1/{@link NETWORK_SHARE_DIVISOR}. */
export const NETWORK_SHARE_DIVISOR = 4;

/**
 * What the accounts of one client network may use of an all-accounts budget of `allLimit` (bytes or a
 * count): a quarter, rounded down, at least 1.
 */
export function networkShareOf(allLimit: number): number {
  return Math.max(1, Math.floor(allLimit / NETWORK_SHARE_DIVISOR));
}
