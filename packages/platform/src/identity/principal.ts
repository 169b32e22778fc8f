/**
 * Who is calling: a {@link Principal} is what {@link authenticate} returns for an API key, or the local
 * operator of a store. Every operation that changes an agent, a run, a dataset, a benchmark or a bounty
 * takes the caller's principal; the owner rules live in `access.ts`.
 *
 * Roles (issue 15 item 2):
 * - `author`: owns the datasets, benchmarks and bounties it created;
 * - `competitor`: owns agents and the runs they start;
 * - `operator`: the platform itself (a key from the environment, or the local CLI without `--api-key`).
 *   It may close, anchor and award. It owns no agents, so a keyless CLI user can never act for an agent.
 */

/** A role of an account. */
export type Role = "author" | "competitor" | "operator";

/** The roles an account may be created with (operator is never an account role granted by a call). */
export const ACCOUNT_ROLES = ["author", "competitor"] as const;

/** The authenticated caller of a platform operation. */
export interface Principal {
  /** Account id (`acct_...`); the local operator is the store's built-in account {@link OPERATOR_ACCOUNT_ID}. */
  account_id: string;
  roles: readonly Role[];
  /** How it was authenticated: an account key (`key`), the operator key (`operator_key`) or the local CLI (`local`). */
  via: "key" | "operator_key" | "local";
  /** Prefix of the key used (null for `local`). */
  key_prefix: string | null;
}

/** The built-in account of the store's operator (created with the store; owns what the keyless CLI publishes). */
export const OPERATOR_ACCOUNT_ID = "acct_operator";

/** The principal of the local operator (the CLI without `--api-key`, tests, the demo's publishing phase). */
export function localOperator(): Principal {
  return { account_id: OPERATOR_ACCOUNT_ID, roles: ["operator", "author"], via: "local", key_prefix: null };
}

/**
 * True for the operator's account: the store's built-in {@link OPERATOR_ACCOUNT_ID} is the only account
 * that holds the `operator` role (an account is created with {@link ACCOUNT_ROLES} only; the operator
 * key and the local CLI act as it). The one rule of "who is the operator" for stored rows (the publish
 * budget counts benchmarks by their author account) and for principals ({@link isOperator}).
 */
export function isOperatorAccount(accountId: string): boolean {
  return accountId === OPERATOR_ACCOUNT_ID;
}

/** True when the principal acts as the platform's operator: the operator's account with its role. */
export function isOperator(p: Principal): boolean {
  return isOperatorAccount(p.account_id) && p.roles.includes("operator");
}
